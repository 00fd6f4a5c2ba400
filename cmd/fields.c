/*
 * fields.c - every field the commands read from records or print in
 * them, and which command does which.  It is the one list: --help shows
 * each command's part of it, and a command reads a field only through
 * cmd_get, which holds it to its part (a read not listed here is a bug
 * that stops the command), so the help cannot drift from the code.
 * Fields a command does not read pass through it untouched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define ADD CMD_ADD
#define DEL CMD_DEL
#define MAP CMD_MAP
#define PRICE CMD_PRICE
#define REPORT CMD_REPORT
#define SEARCH CMD_SEARCH
#define SUGGEST CMD_SUGGEST
/* A request's fields, read by every command that answers requests. */
#define ASK (ADD | SEARCH | SUGGEST | PRICE)
/* A reservation's, printed by every command that prints reservations. */
#define RESV (ADD | DEL | MAP | REPORT)
/* A number wherever it appears (format/RECORDS.md): read as text, from
 * key=value, the command line or a JSON string, it is written as a JSON
 * number all the same, whether the command reads it or passes it on. */
#define NUM 1

/* In the order --help lists them: a request's, then the others. */
const struct cmd_field cmd_fields[] = {
	/* name         read by                 printed by, a number */
	{ "id",         ADD | DEL | MAP | REPORT | SUGGEST, RESV | SUGGEST, NUM },
	{ "series",     ADD | DEL | REPORT,     RESV, NUM },
	{ "occurrence", 0,                      RESV, NUM },
	{ "start",      ASK,                    ASK | RESV, 0 },
	{ "earliest",   ASK,                    ASK | RESV, 0 },
	{ "latest",     ASK,                    ASK | RESV, 0 },
	{ "end",        ASK,                    ASK | RESV, 0 },
	{ "duration",   ASK,                    REPORT, 0 },
	{ "nodes",      ASK,                    ASK | RESV, NUM },
	{ "jobs",       ASK,                    RESV, NUM },
	/* a moldable request's level found, or the levels tried */
	{ "benefit",    0,                      ADD | SEARCH | SUGGEST, NUM },
	{ "levels",     0,                      ADD | SEARCH | SUGGEST, 0 },
	{ "hosts",      ASK,                    MAP | REPORT, 0 },
	{ "user",       ASK | DEL | REPORT,     RESV, 0 },
	{ "job",        ASK | DEL | REPORT,     RESV, 0 },
	{ "client_key", ASK,                    RESV, 0 },
	{ "flags",      ASK,                    RESV, 0 },
	{ "account",    ASK,                    RESV, 0 },
	{ "partition",  ASK,                    ASK | RESV, 0 },
	{ "features",   ASK,                    REPORT, 0 },
	{ "hold",       ADD,                    0, 0 },
	/* a use report (ar-add), and what was reported */
	{ "used",       ADD,                    RESV, 0 },
	/* a request that may be split in time, and its pieces */
	{ "split",      ADD | SEARCH,           RESV, 0 },
	{ "smallest",   ADD | SEARCH,           RESV, 0 },
	{ "defer",      ADD | SEARCH,           0, 0 },
	{ "piece",      0,                      ADD | SEARCH | RESV, NUM },
	{ "pieces",     0,                      ADD | SEARCH | RESV, NUM },
	{ "every",      ADD,                    0, 0 },
	{ "count",      ADD,                    0, NUM },
	{ "until",      ADD,                    0, 0 },
	{ "owner",      REPORT,                 RESV, NUM },
	{ "status",     MAP | REPORT,           ASK | RESV, 0 },
	{ "running",    REPORT,                 REPORT, 0 },
	{ "class",      PRICE,                  ASK | RESV, NUM },
	{ "name",       PRICE,                  PRICE | REPORT | MAP, 0 },
	{ "price",      PRICE,                  ASK | RESV, NUM },
	{ "ahead_min",  PRICE,                  PRICE, 0 },
	{ "ahead_max",  PRICE,                  PRICE, 0 },
	{ "limit",      PRICE,                  PRICE, NUM },
	{ "min",        PRICE,                  PRICE, 0 },
	{ "reclaim",    PRICE,                  PRICE | REPORT, 0 },
	{ "mean",       PRICE,                  PRICE, NUM },
	{ "sd",         PRICE,                  PRICE, NUM },
	/* --load reads a dump, which --dump prints. */
	{ "table",      REPORT,                 REPORT, 0 },
	{ "key",        REPORT,                 REPORT, 0 },
	{ "value",      REPORT,                 REPORT, 0 },
	{ "entries",    REPORT,                 REPORT, 0 },
	{ "free",       0,                      ASK | REPORT, NUM },
	{ "reason",     0,                      ASK | ADD | DEL | MAP, 0 },
	{ "conflict",   0,                      ASK, NUM },
	{ "copy",       0,                      ADD, NUM },
	{ "expires",    0,                      RESV, 0 },
	{ "replayed",   0,                      ADD, 0 },
	{ "old_start",  0,                      ADD, 0 },
	{ "old_end",    0,                      ADD, 0 },
	{ "old_nodes",  0,                      ADD, 0 },
	{ "old_hosts",  0,                      MAP, 0 },
	/* ar-map --slurm --apply and --diff */
	{ "op",         0,                      MAP, 0 },
	{ "differs",    0,                      MAP, 0 },
	{ "slurm_start", 0,                     MAP, 0 },
	{ "slurm_end",  0,                      MAP, 0 },
	{ "slurm_hosts", 0,                     MAP, 0 },
	{ "created",    0,                      REPORT, 0 },
	{ "changed",    0,                      REPORT, 0 },
	{ "protection", 0,                      PRICE, NUM },
	{ "old_limit",  0,                      PRICE, NUM },
	{ "retention",  0,                      PRICE, 0 },
	{ "forgot_before", 0,                   DEL, 0 },
	{ "records",    0,                      DEL | REPORT, 0 },
	{ "demand",     0,                      DEL, 0 },
	/* --info */
	{ "slot",       0,                      REPORT, 0 },
	{ "horizon",    0,                      REPORT, 0 },
	{ "clock",      0,                      REPORT, 0 },
	{ "clock_mode", 0,                      REPORT, 0 },
	{ "owners",     0,                      REPORT, 0 },
	{ "live",       0,                      REPORT, 0 },
	{ "next_id",    0,                      REPORT, 0 },
	{ "map_size",   0,                      REPORT, 0 },
	{ "map_max",    0,                      REPORT, 0 },
	{ "format",     0,                      REPORT, 0 },
	/* --info's pools */
	{ "default",    0,                      REPORT, 0 },
	{ "borrow",     0,                      REPORT, 0 },
	/* ... and its partition's own limits (format 10) */
	{ "limits",     0,                      REPORT, 0 },
	/* --usage and --free; N is a class's number */
	{ "from",       0,                      REPORT, 0 },
	{ "to",         0,                      REPORT, 0 },
	{ "window",     0,                      REPORT, 0 },
	{ "utilisation", 0,                     REPORT, 0 },
	{ "idle",       0,                      REPORT, 0 },
	{ "reserved",   0,                      REPORT, 0 },
	{ "reserved_used", 0,                   REPORT, 0 },
	{ "reserved_idle", 0,                   REPORT, 0 },
	{ "reserved_unreported", 0,             REPORT, 0 },
	{ "granted",    0,                      REPORT, 0 },
	{ "refused",    0,                      REPORT, 0 },
	{ "refused_full", 0,                    REPORT, 0 },
	{ "refused_past", 0,                    REPORT, 0 },
	{ "refused_horizon", 0,                 REPORT, 0 },
	{ "refused_capacity", 0,                REPORT, 0 },
	{ "refused_key_reused", 0,              REPORT, 0 },
	{ "refused_booking_limit", 0,           REPORT, 0 },
	{ "refused_hosts", 0,                   REPORT, 0 },
	{ "refused_no_slices", 0,               REPORT, 0 },
	{ "acceptance", 0,                      REPORT, 0 },
	{ "awt",        0,                      REPORT, 0 },
	{ "awt_max",    0,                      REPORT, 0 },
	{ "moved",      0,                      REPORT, 0 },
	{ "revenue",    0,                      REPORT, 0 },
	{ "granted_cN", 0,                      REPORT, 0 },
	{ "refused_cN", 0,                      REPORT, 0 },
	{ "revenue_cN", 0,                      REPORT, 0 },
	{ "known",      0,                      REPORT, 0 },
	/* --check */
	{ "violation",  0,                      REPORT, 0 },
	{ NULL, 0, 0, 0 }
};

#define NFIELDS (sizeof(cmd_fields) / sizeof(cmd_fields[0]) - 1)

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char *const *
cmd_field_names(size_t *n)
{
	/* A class's field (granted_cN) is there for every class a store
	 * may have, granted_c1 to granted_c8. */
	static const char *names[NFIELDS * AR_CLASSES_MAX];
	static char classed[NFIELDS][AR_CLASSES_MAX][AR_KEY_MAX + 1];
	static size_t count;
	size_t len;

	if (count == 0) {
		for (size_t i = 0; i < NFIELDS; i++) {
			const char *f = cmd_fields[i].name;

			len = strlen(f);
			if (len < 3 || strcmp(f + len - 3, "_cN") != 0) {
				names[count++] = f;
				continue;
			}
			for (int c = 0; c < AR_CLASSES_MAX; c++) {
				snprintf(classed[i][c], sizeof(classed[i][c]),
				    "%.*s%d", (int)len - 1, f, c + 1);
				names[count++] = classed[i][c];
			}
		}
		qsort(names, count, sizeof(names[0]), by_name);
	}
	*n = count;
	return names;
}

const char *const *
cmd_numeric_fields(void)
{
	static const char *names[NFIELDS + 1];
	static size_t count;

	if (count == 0)
		for (size_t i = 0; i < NFIELDS; i++)
			if (cmd_fields[i].numeric)
				names[count++] = cmd_fields[i].name;
	return names;
}

int
cmd_reads(const struct cmd *c, const char *key)
{
	for (const struct cmd_field *f = cmd_fields; f->name != NULL; f++)
		if (strcmp(f->name, key) == 0)
			return (f->read_by & c->bit) != 0;
	return 0;
}

const char *
cmd_get(const struct ctx *x, const struct ar_record *r, const char *key)
{
	if (!cmd_reads(x->cmd, key)) {
		fprintf(stderr, "%s: internal error: field '%s' is read but "
		    "not in cmd/fields.c\n", x->cmd->name, key);
		abort();
	}
	return ar_record_get(r, key);
}

/* "reads:  a b c", wrapped at 76 columns under the first name: the
 * fields whose mask (read_by, or printed_by) has c's bit. */
static void
field_list(FILE *f, const struct cmd *c, const char *head, int printed)
{
	size_t col = (size_t)fprintf(f, "%-8s", head), n = 0;

	for (const struct cmd_field *p = cmd_fields; p->name != NULL; p++) {
		if (!((printed ? p->printed_by : p->read_by) & c->bit))
			continue;
		if (col + 1 + strlen(p->name) > 76)
			col = (size_t)fprintf(f, "\n%7s", "") - 1;
		col += (size_t)fprintf(f, "%s%s", n++ ? " " : "", p->name);
	}
	fprintf(f, "%s\n", n ? "" : "(none)");
}

void
cmd_fields_help(FILE *f, const struct cmd *c)
{
	field_list(f, c, "reads:", 0);
	field_list(f, c, "prints:", 1);
	fprintf(f, "See %s(1) for what each field means, ar-records(5) for "
	    "their syntax,\nar-intro(7) for all the commands.\n", c->name);
}
