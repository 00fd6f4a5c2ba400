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

/* In the order --help lists them: a request's, then the others. */
const struct cmd_field cmd_fields[] = {
	/* name         read by                 printed by */
	{ "id",         ADD | DEL | MAP | REPORT | SUGGEST, RESV | SUGGEST },
	{ "series",     ADD | DEL | REPORT,     RESV },
	{ "occurrence", 0,                      RESV },
	{ "start",      ASK,                    ASK | RESV },
	{ "earliest",   ASK,                    ASK | RESV },
	{ "latest",     ASK,                    ASK | RESV },
	{ "end",        ASK,                    ASK | RESV },
	{ "duration",   ASK,                    REPORT },
	{ "nodes",      ASK,                    ASK | RESV },
	{ "jobs",       ASK,                    RESV },
	{ "hosts",      ASK,                    MAP | REPORT },
	{ "user",       ASK | DEL | REPORT,     RESV },
	{ "job",        ASK | DEL | REPORT,     RESV },
	{ "client_key", ASK,                    RESV },
	{ "flags",      ASK,                    RESV },
	{ "account",    ASK,                    RESV },
	{ "hold",       ADD,                    0 },
	{ "every",      ADD,                    0 },
	{ "count",      ADD,                    0 },
	{ "until",      ADD,                    0 },
	{ "owner",      REPORT,                 RESV },
	{ "status",     MAP | REPORT,           ASK | RESV },
	{ "running",    REPORT,                 REPORT },
	{ "class",      PRICE,                  ASK | RESV },
	{ "name",       PRICE,                  PRICE | REPORT | MAP },
	{ "price",      PRICE,                  ASK | RESV },
	{ "ahead_min",  PRICE,                  PRICE },
	{ "ahead_max",  PRICE,                  PRICE },
	{ "limit",      PRICE,                  PRICE },
	{ "min",        PRICE,                  PRICE },
	{ "mean",       PRICE,                  PRICE },
	{ "sd",         PRICE,                  PRICE },
	/* --load reads a dump, which --dump prints. */
	{ "table",      REPORT,                 REPORT },
	{ "key",        REPORT,                 REPORT },
	{ "value",      REPORT,                 REPORT },
	{ "entries",    REPORT,                 REPORT },
	{ "free",       0,                      ASK | REPORT },
	{ "reason",     0,                      ASK | ADD | DEL | MAP },
	{ "conflict",   0,                      ASK },
	{ "copy",       0,                      ADD },
	{ "expires",    0,                      RESV },
	{ "replayed",   0,                      ADD },
	{ "old_start",  0,                      ADD },
	{ "old_end",    0,                      ADD },
	{ "old_nodes",  0,                      ADD },
	{ "old_hosts",  0,                      MAP },
	/* ar-map --slurm --apply and --diff */
	{ "op",         0,                      MAP },
	{ "differs",    0,                      MAP },
	{ "slurm_start", 0,                     MAP },
	{ "slurm_end",  0,                      MAP },
	{ "slurm_hosts", 0,                     MAP },
	{ "created",    0,                      REPORT },
	{ "changed",    0,                      REPORT },
	{ "protection", 0,                      PRICE },
	{ "old_limit",  0,                      PRICE },
	{ "retention",  0,                      PRICE },
	{ "forgot_before", 0,                   DEL },
	{ "records",    0,                      DEL | REPORT },
	{ "demand",     0,                      DEL },
	/* --info */
	{ "slot",       0,                      REPORT },
	{ "horizon",    0,                      REPORT },
	{ "clock",      0,                      REPORT },
	{ "clock_mode", 0,                      REPORT },
	{ "owners",     0,                      REPORT },
	{ "live",       0,                      REPORT },
	{ "next_id",    0,                      REPORT },
	{ "map_size",   0,                      REPORT },
	{ "map_max",    0,                      REPORT },
	{ "format",     0,                      REPORT },
	/* --usage and --free; N is a class's number */
	{ "from",       0,                      REPORT },
	{ "to",         0,                      REPORT },
	{ "window",     0,                      REPORT },
	{ "utilisation", 0,                     REPORT },
	{ "idle",       0,                      REPORT },
	{ "reserved",   0,                      REPORT },
	{ "granted",    0,                      REPORT },
	{ "refused",    0,                      REPORT },
	{ "refused_full", 0,                    REPORT },
	{ "refused_past", 0,                    REPORT },
	{ "refused_horizon", 0,                 REPORT },
	{ "refused_capacity", 0,                REPORT },
	{ "refused_key_reused", 0,              REPORT },
	{ "refused_booking_limit", 0,           REPORT },
	{ "refused_hosts", 0,                   REPORT },
	{ "acceptance", 0,                      REPORT },
	{ "awt",        0,                      REPORT },
	{ "awt_max",    0,                      REPORT },
	{ "moved",      0,                      REPORT },
	{ "revenue",    0,                      REPORT },
	{ "granted_cN", 0,                      REPORT },
	{ "refused_cN", 0,                      REPORT },
	{ "revenue_cN", 0,                      REPORT },
	{ "known",      0,                      REPORT },
	/* --check */
	{ "violation",  0,                      REPORT },
	{ NULL, 0, 0 }
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
