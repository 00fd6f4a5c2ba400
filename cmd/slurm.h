/*
 * slurm.h - ar-map --slurm: Slurm through its own program, scontrol, run
 * as a child (child.h).
 */
#ifndef AR_SLURM_H
#define AR_SLURM_H

#include "child.h"
#include "cmd.h"

/* ar-map --slurm: what is done with the changes found. */
enum slurm_mode {
	SLURM_DRY = 0,          /* print the scontrol commands */
	SLURM_APPLY,            /* run them, record what Slurm took */
	SLURM_DIFF              /* print where Slurm and ar disagree */
};

struct slurm_opts {
	enum slurm_mode mode;
	const char *scontrol;   /* the program */
	const char *prefix;     /* names of the reservations ar owns */
	int64_t lead;           /* export what starts within it; 0: all */
};

/* Bring Slurm in line with the plan (see ar-map(1)); an exit code. */
int slurm_sync(struct ctx *x, ar_store *s, const struct slurm_opts *o);

#endif
