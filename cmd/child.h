/*
 * child.h - what the commands ask of the world outside the store through
 * other programs, each run as a child: the system's name service
 * (getent), and for ar-map --slurm, Slurm (scontrol, slurm.h).
 */
#ifndef AR_CHILD_H
#define AR_CHILD_H

#include <stddef.h>

/* How a child ran: what it wrote, and how it ended. */
struct child {
	char *out, *err;        /* its stdout and stderr, NUL-terminated */
	size_t outlen, errlen;
	int status;             /* its exit status, 128 + a signal's number,
				   or 127 if it could not be started */
};

/*
 * Run argv[0] (found on PATH when it holds no '/') with argv, stdin
 * /dev/null, the environment ours plus env[] ("NAME=value", NULL-ended),
 * and collect what it writes.  0, or -1 (errno set) if no child could be
 * made or memory ran out.  child_free releases c.
 */
int child_run(char *const argv[], char *const env[], struct child *c);
void child_free(struct child *c);

/*
 * The name service, through getent(1): the name of user or group id in
 * db ("passwd" or "group") into buf (size bytes), or the id of name
 * into *id.  0 found; 1 not found; -1 getent could not be run or
 * answered nonsense.
 *
 * Why a child and not getpwuid: the commands are linked statically, and
 * a static getpwuid loads the NSS modules (sss, ldap) of the system's C
 * library only if it is the very one the command was built with;
 * getent is the system's own, so a user of LDAP or SSSD resolves as the
 * rest of the system resolves it.
 */
int nss_name(const char *db, long id, char *buf, size_t size);
int nss_id(const char *db, const char *name, long *id);

#endif
