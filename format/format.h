/*
 * format.h - the line record format shared by every ar command.
 *
 * A record is one line of `key=value` fields separated by blanks, or with
 * AR_REC_JSON one JSON object per line.  Fields keep their input order;
 * setting a field replaces its value in place or appends it, so unknown
 * fields pass through a pipeline of commands untouched.
 *
 * Times are seconds since the epoch (int64_t); durations are seconds.
 * Nothing here knows about the store; what the library writes as the
 * records do, times and host lists, and the size of a message
 * (AR_ERRMAX), this takes from lib/ar.h.  Functions never print and never
 * exit; on failure they return -1 and leave a one-line message (no
 * trailing newline, no "command:" prefix) in the caller's buffer, such
 * as  invalid month 13 in '2026-13-01T00:00Z'  so that the caller can
 * prefix the command name, the line number or the field name.  Messages
 * are printable ASCII, under 200 bytes; quoted input is cut to 40 bytes.
 * format/RECORDS.md lists them all.
 */
#ifndef AR_FORMAT_H
#define AR_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "ar.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AR_LINE_MAX 65536       /* longest accepted input line, in bytes */
#define AR_KEY_MAX 64           /* longest accepted field name */

/*
 * Parse a time.  Accepted forms (see format/RECORDS.md):
 *   2026-11-21T10:00:00Z, 2026-11-21T10:00Z, 2026-11-21T10:00:00+02:00,
 *   2026-11-21T10:00:00-0130, a space instead of the T, fractions of a
 *   second are refused; a time without a zone is refused as ambiguous;
 *   @EPOCH (decimal seconds, no sign: times before 1970 are refused);
 *   now; now+DUR; now-DUR; +DUR (same as now+DUR); and, as Slurm
 *   writes them, a count and a unit spelled out in place of DUR:
 *   now+1hour, now-2days, +30minutes (second, minute, hour, day, week,
 *   each with or without an 's').
 * Years 1970..9999 only; the result, after any offset or duration, must
 * lie in [0, 253402300799].  `now` is the caller's clock.
 * Returns 0 and stores the time in *t, or -1 with a message in err
 * (err has AR_ERRMAX bytes), e.g.
 * "invalid month 13 in '2026-13-01T00:00Z'".
 */
int ar_time_parse(const char *s, int64_t now, int64_t *t, char *err);

/*
 * Parse a duration: one or more <number><unit> groups with units
 * w d h m s in decreasing order, each at most once (90m, 2h, 1d12h,
 * 1h30m15s); or HH:MM:SS, MM:SS is refused (ambiguous), D-HH:MM:SS,
 * D-HH:MM, D-HH.  A bare number is refused as ambiguous (no unit).
 * The result must be > 0 and at most 100 years (3,155,760,000 s);
 * overflow is detected, never wrapped.
 * Returns 0 and stores seconds in *d, or -1 with a message in err.
 */
int ar_duration_parse(const char *s, int64_t *d, char *err);

/*
 * Parse an unsigned decimal integer in [min, max] (no sign, no blanks, no
 * leading zeros except "0" itself).  Returns 0 or -1 with a message in err
 * such as "must be between 1 and 64".
 */
int ar_uint_parse(const char *s, uint64_t min, uint64_t max, uint64_t *v,
    char *err);

/*
 * Parse a decimal number in [min, max] written as JSON writes one: an
 * optional '-', digits without a leading zero, then optionally a
 * fraction and an exponent (3, 0.25, -1.5, 2e-3, 1E+6).  The value is
 * the nearest double for up to 15 significant digits and exponents up
 * to 22 either way, and within a few units of its last place beyond;
 * no locale changes it.  Returns 0 and stores it in *v, or -1 with a
 * message in err such as "must be between 0 and 1e+12" (%g).
 */
int ar_real_parse(const char *s, double min, double max, double *v,
    char *err);

/* A field: a name and its value.  `raw` means the value is a JSON literal
 * (number, true, false, null, array or object) rather than a string; in
 * key=value output a raw value is printed as it is if it needs no quoting. */
struct ar_field {
	char *key;
	char *value;
	int raw;
};

struct ar_text;

/* A record: its fields in order.  Owns all its strings, which live in
 * its text until the record is cleared. */
struct ar_record {
	struct ar_field *fields;
	size_t nfields;
	size_t cap;
	struct ar_text *text;
};

#define AR_REC_JSON 1           /* parse or print JSON Lines */

/* Initialise an empty record. */
void ar_record_init(struct ar_record *r);

/* Free everything a record owns; it is then empty and may be reused. */
void ar_record_free(struct ar_record *r);

/* Remove every field but keep the allocations for reuse. */
void ar_record_clear(struct ar_record *r);

/*
 * Parse one line (len bytes, no newline; may contain any bytes) into r,
 * which is cleared first.  key=value syntax: fields are separated by one
 * or more blanks (space or tab); a key is [A-Za-z_][A-Za-z0-9_.-]* of at
 * most AR_KEY_MAX bytes; a value is either bare (no blank, no '"', no
 * control character) or double-quoted with the escapes \" \\ \n \t.  An
 * empty bare value (key=) is allowed.  A '#' where a key would begin
 * starts a comment, to the end of the line.  A line of only blanks, or
 * only a comment, is an empty record.  With AR_REC_JSON the line is one
 * JSON object whose values are strings (stored unescaped, raw = 0) or
 * other JSON values (stored as their source text, raw = 1); nesting
 * depth is limited to 32.
 * Refused: NUL bytes, invalid UTF-8, a duplicated key ("duplicate field
 * 'start'"), a missing '=', an unterminated quote, a line longer than
 * AR_LINE_MAX.  One '\r' at the end of the line (CRLF) is dropped.
 * Returns 0, or -1 with a message in err (AR_ERRMAX bytes); -2 if memory
 * ran out.  After a failure r is empty, and may be reused.
 */
int ar_record_parse(struct ar_record *r, const char *line, size_t len,
    int flags, char *err);

/*
 * Does the line (len bytes, no newline) hold no record at all: is it
 * empty, only blanks (and a '\r' at the end), or a comment, blanks and
 * then '#' followed by anything?  Readers of records skip such lines in
 * either syntax, without parsing them.  Returns 1 if so, else 0.
 */
int ar_record_skip(const char *line, size_t len);

/* The value of the field named key, or NULL if absent. */
const char *ar_record_get(const struct ar_record *r, const char *key);

/*
 * Set field key to value (a string, raw = 0): replaces the value in place
 * if the key exists, appends the field otherwise.  key must be a valid
 * field name (it is not checked); value may hold any bytes, see
 * ar_record_print.  Returns 0, or -1 if memory ran out.
 */
int ar_record_set(struct ar_record *r, const char *key, const char *value);

/* Set field key to a number (raw = 1).  Returns 0 or -1 (no memory). */
int ar_record_set_int(struct ar_record *r, const char *key, int64_t value);

/* Set field key to an unsigned number (raw = 1), such as an id.
 * Returns 0 or -1 (no memory). */
int ar_record_set_uint(struct ar_record *r, const char *key, uint64_t value);

/* Set field key to a finite decimal number, 6 significant digits
 * (raw = 1).  Returns 0 or -1 (no memory). */
int ar_record_set_real(struct ar_record *r, const char *key, double value);

/* Set field key to a time, ISO 8601 UTC.  Returns 0 or -1 (no memory). */
int ar_record_set_time(struct ar_record *r, const char *key, int64_t t);

/* Set field key to a canonical duration.  Returns 0 or -1 (no memory). */
int ar_record_set_duration(struct ar_record *r, const char *key, int64_t d);

/* Set field key to JSON's null (raw = 1), for a value that is not
 * known; key=value prints it as null.  Returns 0 or -1 (no memory). */
int ar_record_set_null(struct ar_record *r, const char *key);

/*
 * Make every field named in keys (a NULL-terminated list) whose value is
 * a string holding a number as JSON writes one (see ar_real_parse) a
 * number (raw = 1), its text unchanged: so that a numeric field prints
 * as a JSON number whether it was read from key=value, from the command
 * line or from a JSON string.  Other values are left as they are.
 */
void ar_record_numbers(struct ar_record *r, const char *const *keys);

/*
 * May a field called name pass a command untouched, when fields[0 ..
 * nfields), in strcmp order, are the fields the commands know?  It may
 * if it is one of them, begins with "x-", or is far from all of them; a
 * near miss is taken for a typo of one (format/RECORDS.md says how near:
 * the same name but for case, another scheduler's name for it such as
 * NodeCnt, or a slip of a letter or two, the first kept).  Returns 0, or
 * -1 with "unknown field 'node' (did you mean 'nodes'?)" in err.
 */
int ar_field_check(const char *name, const char *const *fields,
    size_t nfields, char *err);

/* Remove field key if present. */
void ar_record_del(struct ar_record *r, const char *key);

/*
 * Print r as one line (with its newline) to a growing buffer: *buf of
 * *cap bytes (may start NULL/0), appending at *len.  key=value output
 * quotes a value when it is empty, or holds a blank, '"', '\\', '=' or a
 * control character; control characters other than newline and tab, which
 * key=value cannot write, print as '?'.  JSON output escapes strings as
 * JSON requires and prints raw values as they are.  In both, bytes that
 * are not UTF-8 (only in values set by a caller) print as '?', so that
 * the line always parses.  Returns 0, or -1 if memory ran out.
 */
int ar_record_print(const struct ar_record *r, int flags, char **buf,
    size_t *len, size_t *cap);

#ifdef __cplusplus
}
#endif

#endif
