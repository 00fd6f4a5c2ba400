/*
 * records.c - records to C values and back, for every command: a
 * request's fields read into a struct ar_request (its times on the
 * batch's clock, its hosts as the store's indexes), an answer's set on
 * the request's record, a reservation made a record.  A field's syntax
 * is format/'s; what it means to the library, and so to every command,
 * is said once, here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "cmd.h"

const char *
slurm_name_problem(const char *s)
{
	if (*s == '\0')
		return "empty";
	if (*s == '-')
		return "begins with '-', which Slurm reads as 'all but'";
	for (; *s; s++) {
		if (*s == ',')
			return "holds a comma, which Slurm reads as a list";
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return "holds a blank or a control character";
		if (strchr("=\"'", *s) != NULL)
			return "holds '=' or a quote";
	}
	return NULL;
}

int
cmd_time_field(struct ctx *x, struct item *it, const char *key, int64_t *t,
    char *err)
{
	const char *v = cmd_get(x, &it->rec, key);
	char msg[AR_ERRMAX];

	if (v == NULL)
		return 0;
	if (ar_time_parse(v, x->now, t, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	return 1;
}

/* Read a count field, 1 to max, into *n (1 if absent); -1 with err if
 * bad.  (take_line made it a number for JSON.) */
static int
count_field(struct ctx *x, struct item *it, const char *key, uint64_t max,
    uint32_t *n, char *err)
{
	const char *v = cmd_get(x, &it->rec, key);
	char msg[AR_ERRMAX];
	uint64_t u;

	*n = 1;
	if (v == NULL)
		return 0;
	if (ar_uint_parse(v, 1, max, &u, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	*n = (uint32_t)u;
	return 0;
}

/*
 * nodes=N:B,N:B,... or jobs=J:B,J:B,... : a moldable request's levels,
 * each a node count (or, for a parametric request, a copy count) and
 * its benefit, put in the order they are tried (ar_levels_order).  Only
 * ar-add, ar-search and ar-suggest answer them.  -1 with err if bad.
 */
static int
levels_field(struct ctx *x, struct item *it, const char *key, const char *v,
    int timed, char *err)
{
	struct ar_request *rq = &it->rq;
	const struct ar_hostlist *all;
	char part[64], msg[AR_ERRMAX], *colon;
	int jobs = strcmp(key, "jobs") == 0;
	uint64_t size, benefit, most;
	size_t len;

	if (!timed || !(x->cmd->bit & (CMD_ADD | CMD_SEARCH | CMD_SUGGEST))) {
		snprintf(err, AR_ERRMAX, "field '%s': levels (%s:benefit) "
		    "are for ar-add, ar-search and ar-suggest", key, key);
		return -1;
	}
	if ((all = cmd_hosts(x)) == NULL) {
		snprintf(err, AR_ERRMAX, "field 'nodes': the store's host list "
		    "is unreadable");
		return -1;
	}
	most = jobs ? AR_JOBS_MAX : all->count;
	if (it->levels == NULL && (it->levels = calloc(AR_LEVELS_MAX,
	    sizeof(*it->levels))) == NULL) {
		snprintf(err, AR_ERRMAX, "out of memory");
		return -1;
	}
	for (rq->nlevels = 0; ; v += len + 1) {
		len = strcspn(v, ",");
		if (rq->nlevels == AR_LEVELS_MAX) {
			snprintf(err, AR_ERRMAX, "field '%s': more than %d "
			    "levels", key, AR_LEVELS_MAX);
			return -1;
		}
		if (len >= sizeof(part) ||
		    (memcpy(part, v, len), part[len] = '\0',
		    (colon = strchr(part, ':')) == NULL)) {
			snprintf(err, AR_ERRMAX, "field '%s': level %u is not "
			    "%s:benefit", key, rq->nlevels + 1, key);
			return -1;
		}
		*colon = '\0';
		if (ar_uint_parse(part, 1, 1000000, &size, msg) != 0 ||
		    ar_uint_parse(colon + 1, 0, UINT32_MAX, &benefit,
		    msg) != 0) {
			snprintf(err, AR_ERRMAX, "field '%s': level %u: %.200s",
			    key, rq->nlevels + 1, msg);
			return -1;
		}
		if (size > most) {
			snprintf(err, AR_ERRMAX, "field '%s': level %u: %lu "
			    "%s, but %s %lu", key, rq->nlevels + 1,
			    (unsigned long)size, key, jobs ?
			    "a request has at most" : "the store has",
			    (unsigned long)most);
			return -1;
		}
		for (uint32_t i = 0; i < rq->nlevels; i++)
			if ((jobs ? it->levels[i].jobs : it->levels[i].nodes) ==
			    size) {
				snprintf(err, AR_ERRMAX, "field '%s': %lu %s "
				    "given twice", key, (unsigned long)size,
				    key);
				return -1;
			}
		it->levels[rq->nlevels] = (struct ar_level){ jobs ? rq->nodes :
		    (uint32_t)size, (uint32_t)benefit, jobs ? (uint32_t)size :
		    0 };
		rq->nlevels++;
		if (v[len] == '\0')
			break;
	}
	ar_levels_order(it->levels, rq->nlevels);
	rq->levels = it->levels;
	rq->nodes = it->levels[0].nodes;
	if (jobs)
		rq->jobs = it->levels[0].jobs;
	if (cmd_get(x, &it->rec, "hosts") != NULL) {
		snprintf(err, AR_ERRMAX, "field 'hosts': a moldable request "
		    "names no hosts");
		return -1;
	}
	return 0;
}

/* nodes= and jobs=, each one count or a moldable request's levels (on
 * one of them only): -1 with err if bad. */
static int
size_fields(struct ctx *x, struct item *it, int timed, char *err)
{
	const char *n = cmd_get(x, &it->rec, "nodes"),
	    *j = cmd_get(x, &it->rec, "jobs");

	if (n != NULL && strchr(n, ':') != NULL) {
		if (j != NULL && strchr(j, ':') != NULL) {
			snprintf(err, AR_ERRMAX, "field 'jobs': levels on "
			    "nodes or on jobs, not both");
			return -1;
		}
		return levels_field(x, it, "nodes", n, timed, err) != 0 ||
		    count_field(x, it, "jobs", AR_JOBS_MAX, &it->rq.jobs,
		    err) != 0 ? -1 : 0;
	}
	if (count_field(x, it, "nodes", 1000000, &it->rq.nodes, err) != 0)
		return -1;
	if (j != NULL && strchr(j, ':') != NULL)
		return levels_field(x, it, "jobs", j, timed, err);
	return count_field(x, it, "jobs", AR_JOBS_MAX, &it->rq.jobs, err);
}

/* A label or key of at most max bytes: the record's text (which stays
 * put until the next line). */
static int
label_field(struct ctx *x, struct item *it, const char *key, int max,
    const char **dst, char *err)
{
	const char *v = cmd_get(x, &it->rec, key);

	if (v != NULL && strlen(v) > (size_t)max) {
		snprintf(err, AR_ERRMAX, "field '%s': longer than %d bytes",
		    key, max);
		return -1;
	}
	*dst = v == NULL ? "" : v;
	return 0;
}

/* flags= (maint) and account=, which the scheduler is told: -1 with
 * err if bad.  An account Slurm would misread is refused here, where
 * the user can mend it, not found at export. */
static int
sched_fields(struct ctx *x, struct item *it, char *err)
{
	const char *f = cmd_get(x, &it->rec, "flags"), *why;
	struct ar_request *rq = &it->rq;

	if (f != NULL) {
		if (strcmp(f, "maint") != 0) {
			snprintf(err, AR_ERRMAX, "field 'flags': unknown flag "
			    "'%.40s' (maint is the one there is)", f);
			return -1;
		}
		rq->resv_flags = AR_RESV_MAINT;
	}
	if (label_field(x, it, "account", AR_LABEL_MAX, &rq->account, err) != 0)
		return -1;
	if (*rq->account && (why = slurm_name_problem(rq->account)) != NULL) {
		snprintf(err, AR_ERRMAX, "field 'account': %s", why);
		return -1;
	}
	return 0;
}

/* Is name, of n bytes, one of list's (comma-separated)? */
static int
in_list(const char *list, const char *name, size_t n)
{
	while (*list != '\0') {
		size_t k = strcspn(list, ",");

		if (k == n && memcmp(list, name, n) == 0)
			return 1;
		list += k + (list[k] == ',');
	}
	return 0;
}

/* The layout cmd_resv names partitions from: the one read last. */
static const struct cmd_layout *shown_layout;

int
cmd_layout_read(struct ctx *x, ar_txn *t)
{
	const struct ar_partition *parts;
	const struct ar_pool *pools;
	struct cmd_layout *l;
	size_t np, nk, len = 1, flen = 1, hosts = 0;
	int rc;

	if (x->layout != NULL)
		return 0;
	if ((rc = ar_layout(t, &parts, &np, &pools, &nk)) != 0)
		return rc;
	if ((l = x->layout = calloc(1, sizeof(*l))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < np; i++)
		len += strlen(parts[i].name) + 1;
	for (size_t k = 0; k < nk; k++)
		flen += strlen(pools[k].features) + 1;
	if ((l->partitions = calloc(1, len)) == NULL ||
	    (l->features = calloc(1, flen)) == NULL)
		return ENOMEM;
	l->nparts = np;
	l->npools = nk;
	for (size_t i = 0; i < np; i++)
		sprintf(l->partitions + strlen(l->partitions), "%s%s",
		    i ? "," : "", parts[i].name);
	for (size_t k = 0; k < nk; k++) {
		const char *f = pools[k].features;

		if ((l->pool_partition[k] = strdup(
		    parts[pools[k].partition].name)) == NULL)
			return ENOMEM;
		if (nk > 1 && (l->pool_features[k] = strdup(
		    pools[k].features)) == NULL)
			return ENOMEM;
		hosts += pools[k].count;
		while (*f != '\0') {
			size_t n = strcspn(f, ",");

			if (!in_list(l->features, f, n))
				sprintf(l->features + strlen(l->features),
				    "%s%.*s", *l->features ? "," : "", (int)n,
				    f);
			f += n + (f[n] == ',');
		}
	}
	if (nk > 1) {
		if ((l->pool_of = calloc(hosts, sizeof(*l->pool_of))) == NULL)
			return ENOMEM;
		if ((rc = ar_host_pools(t, l->pool_of)) != 0)
			return rc;
	}
	shown_layout = l;
	return 0;
}

void
cmd_layout_free(struct ctx *x)
{
	struct cmd_layout *l = x->layout;

	if (l == NULL)
		return;
	if (shown_layout == l)
		shown_layout = NULL;
	for (size_t k = 0; k < AR_POOLS_MAX; k++) {
		free(l->pool_partition[k]);
		free(l->pool_features[k]);
	}
	free(l->pool_of);
	free(l->partitions);
	free(l->features);
	free(l);
	x->layout = NULL;
}

/* Named hosts in a store of several pools: all of one pool, whose
 * partition and features are those asked, if any.  -1 with err if not. */
static int
named_pool(struct ctx *x, struct item *it, char *err)
{
	struct cmd_layout *l = x->layout;
	const struct ar_request *rq = &it->rq;
	char a[AR_HOSTNAME_MAX + 1], b[AR_HOSTNAME_MAX + 1];
	const char *f = rq->features;
	uint32_t k = l->pool_of[rq->hosts[0]], o;

	for (uint32_t i = 1; i < rq->nhosts; i++)
		if ((o = l->pool_of[rq->hosts[i]]) != k) {
			snprintf(err, AR_ERRMAX, "field 'hosts': named hosts "
			    "are of one pool: %.32s is of partition %.24s "
			    "(features %.24s), %.32s of %.24s (features "
			    "%.24s)",
			    ar_hostlist_name(cmd_hosts(x), rq->hosts[0], a),
			    l->pool_partition[k], *l->pool_features[k] ?
			    l->pool_features[k] : "none",
			    ar_hostlist_name(cmd_hosts(x), rq->hosts[i], b),
			    l->pool_partition[o], *l->pool_features[o] ?
			    l->pool_features[o] : "none");
			return -1;
		}
	if (rq->partition != NULL && strcmp(rq->partition,
	    l->pool_partition[k]) != 0) {
		snprintf(err, AR_ERRMAX, "field 'partition': the hosts named "
		    "are of partition %.64s", l->pool_partition[k]);
		return -1;
	}
	for (; f != NULL && *f != '\0'; f += strcspn(f, ",") +
	    (f[strcspn(f, ",")] == ','))
		if (!in_list(l->pool_features[k], f, strcspn(f, ","))) {
			snprintf(err, AR_ERRMAX, "field 'features': the hosts "
			    "named have features %.64s", *l->pool_features[k] ?
			    l->pool_features[k] : "none");
			return -1;
		}
	return 0;
}

/* Partition p and features f (either NULL): ones layout l has?  -1
 * with err if not. */
static int
pool_names(const struct cmd_layout *l, const char *p, const char *f,
    char *err)
{
	if (p != NULL && !in_list(l->partitions, p, strlen(p))) {
		snprintf(err, AR_ERRMAX, "field 'partition': unknown partition "
		    "'%.64s' (the store's: %.120s)", p, l->partitions);
		return -1;
	}
	for (; f != NULL && *f != '\0'; f += strcspn(f, ",") +
	    (f[strcspn(f, ",")] == ','))
		if (!in_list(l->features, f, strcspn(f, ","))) {
			snprintf(err, AR_ERRMAX, "field 'features': no host "
			    "has feature '%.*s'", (int)(strcspn(f, ",") < 64 ?
			    strcspn(f, ",") : 64), f);
			return -1;
		}
	return 0;
}

/* partition= and features=: a partition and features the store has;
 * named hosts of one pool that agrees with them.  Ones the layout read
 * last does not have are left to the transaction (it->unresolved):
 * hosts added since, of a new partition or features, may bring them. */
static int
pool_fields(struct ctx *x, struct item *it, char *err)
{
	const struct cmd_layout *l = x->layout;

	it->rq.partition = cmd_get(x, &it->rec, "partition");
	it->rq.features = cmd_get(x, &it->rec, "features");
	it->unresolved = 0;
	if (l == NULL)
		return 0;
	if (pool_names(l, it->rq.partition, it->rq.features, err) != 0) {
		it->unresolved = 1;
		return 0;
	}
	if (it->rq.nhosts > 0 && l->npools > 1)
		return named_pool(x, it, err);
	return 0;
}

int
cmd_pool_resolve(struct ctx *x, struct item *it, char *err)
{
	const struct cmd_layout *l = x->layout;

	if (l == NULL || pool_names(l, it->rq.partition, it->rq.features,
	    err) != 0)
		return -1;
	it->unresolved = 0;
	if (it->rq.nhosts > 0 && l->npools > 1)
		return named_pool(x, it, err);
	return 0;
}

/*
 * The hosts a request names, as indexes in the store's list; they are
 * its nodes, for one job.  -1 with err if bad.
 */
static int
hosts_field(struct ctx *x, struct item *it, char *err)
{
	const char *v = cmd_get(x, &it->rec, "hosts");
	const struct ar_hostlist *all;
	struct ar_hostlist h;
	struct ar_request *rq = &it->rq;
	char msg[AR_ERRMAX];
	int rc;

	if (v == NULL)
		return 0;
	if ((all = cmd_hosts(x)) == NULL) {
		snprintf(err, AR_ERRMAX, "field 'hosts': the store's host list "
		    "is unreadable");
		return -1;
	}
	ar_hostlist_init(&h);
	/* No more than the store has: a short list may name millions. */
	if ((rc = ar_hostlist_parse_max(v, all->count, &h, msg)) != 0) {
		snprintf(err, AR_ERRMAX, "field 'hosts': %.200s",
		    rc == -2 ? "out of memory" : msg);
		return -1;
	}
	rc = -1;
	if (array_room(&it->hosts, &it->hostcap, h.count,
	    sizeof(*it->hosts)) != 0)
		snprintf(err, AR_ERRMAX, "out of memory");
	else if (ar_hostlist_find_all(all, &h, it->hosts, msg) != 0)
		snprintf(err, AR_ERRMAX, "field 'hosts': %.200s", msg);
	else if (cmd_get(x, &it->rec, "nodes") != NULL &&
	    rq->nodes != h.count)
		snprintf(err, AR_ERRMAX, "field 'nodes': %lu, but 'hosts' names "
		    "%lu", (unsigned long)rq->nodes, (unsigned long)h.count);
	else if (rq->jobs != 1)
		snprintf(err, AR_ERRMAX, "field 'jobs': named hosts are for "
		    "one job");
	else if (ar_record_set_uint(&it->rec, "nodes", h.count) != 0)
		snprintf(err, AR_ERRMAX, "out of memory");
	else {
		rq->nodes = (uint32_t)h.count;
		rq->hosts = it->hosts;
		rq->nhosts = (uint32_t)h.count;
		rc = 0;
	}
	ar_hostlist_free(&h);
	return rc;
}

int
cmd_id_field(struct ctx *x, struct item *it, const char *key, uint64_t *id,
    char *err)
{
	const char *v = cmd_get(x, &it->rec, key);
	char msg[AR_ERRMAX];

	*id = 0;
	if (v == NULL)
		return 0;
	if (ar_uint_parse(v, 1, UINT64_MAX, id, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field '%s': %.200s", key, msg);
		return -1;
	}
	return 1;
}

/*
 * A split request's fields (ar-add and ar-search): split=yes|orr|tarr|no,
 * smallest= (ORR's shortest piece) and defer= (the deadline, the
 * latest end: latest = defer - duration; it goes with no latest), and
 * what a split request cannot be.  hl: latest was given.  -1 with err.
 */
int
cmd_split_fields(struct ctx *x, struct item *it, int hl, char *err)
{
	struct ar_request *rq = &it->rq;
	const char *v = cmd_get(x, &it->rec, "split");
	char msg[AR_ERRMAX];
	int64_t defer;
	int hdef;

	if ((hdef = cmd_time_field(x, it, "defer", &defer, err)) < 0)
		return -1;
	if (hdef && hl) {
		snprintf(err, AR_ERRMAX, "field 'defer': goes with no 'latest' "
		    "(it is the latest end, latest + duration)");
		return -1;
	}
	if (hdef && defer - rq->duration < rq->earliest) {
		snprintf(err, AR_ERRMAX, "field 'defer': before the start plus "
		    "the duration");
		return -1;
	}
	if (hdef)
		rq->latest = defer - rq->duration;
	if (v == NULL || strcmp(v, "no") == 0)
		rq->split = 0;
	else if (strcmp(v, "yes") == 0 || strcmp(v, "orr") == 0)
		rq->split = AR_SPLIT_ORR;
	else if (strcmp(v, "tarr") == 0)
		rq->split = AR_SPLIT_TARR;
	else {
		snprintf(err, AR_ERRMAX, "field 'split': '%.40s' is not yes, "
		    "no, orr or tarr", v);
		return -1;
	}
	if ((v = cmd_get(x, &it->rec, "smallest")) != NULL) {
		if (rq->split != AR_SPLIT_ORR) {
			snprintf(err, AR_ERRMAX, "field 'smallest': for "
			    "split=orr (or yes) only");
			return -1;
		}
		if (ar_duration_parse(v, &rq->smallest, msg) != 0) {
			snprintf(err, AR_ERRMAX, "field 'smallest': %.200s", msg);
			return -1;
		}
		if (rq->smallest > rq->duration) {
			snprintf(err, AR_ERRMAX, "field 'smallest': longer than "
			    "the duration");
			return -1;
		}
	}
	if (rq->split == 0)
		return 0;
	if (rq->jobs != 1 && !(x->cmd->bit & CMD_ADD))
		snprintf(err, AR_ERRMAX, "field 'jobs': %s finds one job of a "
		    "split request (ar-add splits each copy)", x->cmd->name);
	else if (rq->nlevels > 0)
		snprintf(err, AR_ERRMAX, "field '%s': a split request has "
		    "one size, not levels", cmd_levels_key(it));
	else if (rq->nhosts > 0)
		snprintf(err, AR_ERRMAX, "field 'hosts': a split request names "
		    "no hosts");
	else
		return 0;
	return -1;
}

/* The request fields; timed: a duration (or end) must be given. */
static int
request_fields(struct ctx *x, struct item *it, int timed, char *err)
{
	struct ar_request *rq = &it->rq;
	int64_t start, earliest, latest, end, dur;
	int hs, he, hl, hend, hd;
	const char *v;
	char msg[AR_ERRMAX];

	memset(rq, 0, sizeof(*rq));
	it->earliest = it->latest = -1;
	if ((hs = cmd_time_field(x, it, "start", &start, err)) < 0 ||
	    (he = cmd_time_field(x, it, "earliest", &earliest, err)) < 0 ||
	    (hl = cmd_time_field(x, it, "latest", &latest, err)) < 0 ||
	    (hend = cmd_time_field(x, it, "end", &end, err)) < 0)
		return -1;
	hd = (v = cmd_get(x, &it->rec, "duration")) != NULL;
	if (hd && ar_duration_parse(v, &dur, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'duration': %.200s", msg);
		return -1;
	}
	if (!hs && !he) {
		snprintf(err, AR_ERRMAX, "missing field 'start' (or 'earliest')");
		return -1;
	}
	if (he)
		it->earliest = earliest;
	if (hl)
		it->latest = latest;
	/* A start inside a window narrows it to [start, latest]. */
	rq->earliest = hs ? start : earliest;
	rq->latest = hl ? latest : rq->earliest;
	if (hs && he && start < earliest) {
		snprintf(err, AR_ERRMAX, "field 'start': before 'earliest'");
		return -1;
	}
	if (rq->latest < rq->earliest) {
		snprintf(err, AR_ERRMAX, "field 'latest': before '%s'",
		    hs ? "start" : "earliest");
		return -1;
	}
	if (!hend && !hd && timed) {
		snprintf(err, AR_ERRMAX, "missing field 'duration' (or 'end')");
		return -1;
	}
	if (hend && end <= rq->earliest) {
		snprintf(err, AR_ERRMAX, "field 'end': not after '%s'",
		    hs ? "start" : "earliest");
		return -1;
	}
	/* Output records carry both, end rounded to slots: duration wins. */
	rq->duration = hd ? dur : hend ? end - rq->earliest : 0;
	if (rq->duration > AR_DURATION_MAX) {
		snprintf(err, AR_ERRMAX, "field '%s': more than 100 years %s",
		    hd ? "duration" : "end", hd ? "long" : hs ?
		    "after 'start'" : "after 'earliest'");
		return -1;
	}
	if (size_fields(x, it, timed, err) != 0 ||
	    label_field(x, it, "user", AR_LABEL_MAX, &rq->user, err) != 0 ||
	    label_field(x, it, "job", AR_LABEL_MAX, &rq->job, err) != 0 ||
	    label_field(x, it, "client_key", AR_CLIENT_KEY_MAX,
	    &rq->client_key, err) != 0 || hosts_field(x, it, err) != 0 ||
	    pool_fields(x, it, err) != 0 || sched_fields(x, it, err) != 0 ||
	    (cmd_reads(x->cmd, "split") &&
	    cmd_split_fields(x, it, hl, err) != 0))
		return -1;
	rq->owner = x->uid;
	return 0;
}

int
cmd_request(struct ctx *x, struct item *it, char *err)
{
	return request_fields(x, it, 1, err);
}

int
cmd_job(struct ctx *x, struct item *it, char *err)
{
	return request_fields(x, it, 0, err);
}

const char *
cmd_levels_key(const struct item *it)
{
	return it->rq.nlevels > 0 && it->levels[0].jobs != 0 ? "jobs" :
	    "nodes";
}

/*
 * A moldable request's answer: the level found (its nodes or jobs, and
 * its benefit), or the levels tried, in order, when none was.
 */
static int
levels_answer(struct item *it, const struct ar_answer *a)
{
	struct ar_record *r = &it->rec;
	char tried[AR_LEVELS_MAX * 12];
	size_t n = 0;
	int jobs = it->levels[0].jobs != 0;

	if (a->nodes != 0) {
		ar_record_del(r, "levels");
		return ar_record_set_uint(r, jobs ? "jobs" : "nodes",
		    jobs ? a->jobs : a->nodes) != 0 ||
		    ar_record_set_uint(r, "benefit", a->benefit) != 0 ? -1 : 0;
	}
	ar_record_del(r, "benefit");
	tried[0] = '\0';
	for (uint32_t i = 0; i < it->rq.nlevels; i++)
		n += (size_t)snprintf(tried + n, sizeof(tried) - n, "%s%lu",
		    i > 0 ? "," : "", (unsigned long)(jobs ?
		    it->levels[i].jobs : it->levels[i].nodes));
	return ar_record_set(r, "levels", tried);
}

int
cmd_answer(struct item *it, const struct ar_answer *a)
{
	struct ar_record *r = &it->rec;

	if (it->rq.nlevels > 0 && levels_answer(it, a) != 0)
		return -1;
	if (a->end < 0)
		ar_record_del(r, "end");        /* no time to print */
	if (ar_record_set_time(r, "start", a->start) != 0 ||
	    (a->end >= 0 && ar_record_set_time(r, "end", a->end) != 0) ||
	    (it->earliest >= 0 &&
	    ar_record_set_time(r, "earliest", it->earliest) != 0) ||
	    (it->latest >= 0 &&
	    ar_record_set_time(r, "latest", it->latest) != 0))
		return -1;
	if (a->reason == AR_R_NONE || a->reason == AR_R_FULL ||
	    a->reason == AR_R_LIMIT || a->reason == AR_R_BOOKING ||
	    a->reason == AR_R_SLICES) {
		if (ar_record_set_int(r, "free", a->free) != 0)
			return -1;
	} else
		ar_record_del(r, "free");
	if (a->cls != 0 && (ar_record_set_uint(r, "class", a->cls) != 0 ||
	    ar_record_set_int(r, "price", a->price) != 0))
		return -1;
	if (ar_record_set(r, "status", ar_status_name(a->status)) != 0)
		return -1;
	/* Where it was placed, in a store of partitions: the partition it
	 * asked for, or the one it borrowed. */
	if (a->reason == AR_R_NONE && !a->replayed && shown_layout != NULL &&
	    shown_layout->nparts > 1 && a->pool < shown_layout->npools &&
	    ar_record_set(r, "partition",
	    shown_layout->pool_partition[a->pool]) != 0)
		return -1;
	if (a->reason == AR_R_NONE)
		ar_record_del(r, "reason");
	else if (ar_record_set(r, "reason", ar_reason_name(a->reason)) != 0)
		return -1;
	if (a->reason != AR_R_HOSTS || a->conflict == 0)
		ar_record_del(r, "conflict");
	else if (ar_record_set_uint(r, "conflict", a->conflict) != 0)
		return -1;
	return 0;
}

int
cmd_pieces(struct ar_record *r, uint64_t series, uint32_t piece,
    uint32_t pieces)
{
	if (pieces == 0) {
		ar_record_del(r, "piece");
		ar_record_del(r, "pieces");
		return 0;
	}
	return (series != 0 && ar_record_set_uint(r, "series", series) != 0) ||
	    ar_record_set_uint(r, "piece", piece) != 0 ||
	    ar_record_set_uint(r, "pieces", pieces) != 0 ? -1 : 0;
}

/* A split request found in pieces: alts[1 ..] each piece, as found. */
int
cmd_search_apply(struct ctx *x, ar_txn *t, struct item *it)
{
	const struct ar_placed *p;
	size_t n;
	int rc;

	(void)x;
	it->nalts = 1;
	if ((rc = ar_search(t, &it->rq, &it->alts[0])) != 0)
		return rc;
	ar_pieces(t, &p, &n);
	if (n == 0)
		return 0;
	if (array_room(&it->alts, &it->altcap, n + 1, sizeof(*it->alts)) != 0)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		it->alts[i + 1] = it->alts[0];
		it->alts[i + 1].start = p[i].start;
		it->alts[i + 1].end = p[i].end;
		it->alts[i + 1].free = p[i].free;
	}
	it->nalts = n + 1;
	return 0;
}

/* One line, or one per piece of a split request found in pieces. */
int
cmd_search_emit(struct ctx *x, struct item *it)
{
	uint32_t pieces = it->alts[0].pieces;

	for (size_t i = pieces ? 1 : 0; i < (pieces ? it->nalts : 1); i++)
		if (cmd_pieces(&it->rec, 0, (uint32_t)i, pieces) != 0 ||
		    cmd_answer(it, &it->alts[i]) != 0 ||
		    cmd_print(x, &it->rec) != 0)
			return -1;
	return it->alts[0].status == AR_AVAILABLE ? 0 : EXIT_REFUSED;
}

int
cmd_set_hosts(struct ctx *x, struct ar_record *r, const char *key,
    const uint32_t *idx, size_t n)
{
	const struct ar_hostlist *h = cmd_hosts(x);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (h == NULL)
		return -1;
	if (n == 0) {
		ar_record_del(r, key);
		return 0;
	}
	rc = ar_hostlist_format_subset(h, idx, n, &buf, &len, &cap) != 0 ||
	    ar_record_set(r, key, buf) != 0 ? -1 : 0;
	free(buf);
	return rc;
}

int
cmd_resv(struct ar_record *r, const struct ar_resv *v)
{
	ar_record_clear(r);
	if (ar_record_set_uint(r, "id", v->id) != 0 ||
	    (v->series != 0 && v->pieces == 0 &&
	    (ar_record_set_uint(r, "series", v->series) != 0 ||
	    ar_record_set_uint(r, "occurrence", v->occurrence) != 0)) ||
	    cmd_pieces(r, v->series, v->occurrence, v->pieces) != 0 ||
	    (v->pieces != 0 && (ar_record_set(r, "split", v->split ==
	    AR_SPLIT_TARR ? "tarr" : "orr") != 0 || (v->smallest != 0 &&
	    ar_record_set_duration(r, "smallest", v->smallest) != 0))) ||
	    (*v->user && ar_record_set(r, "user", v->user) != 0) ||
	    (*v->job && ar_record_set(r, "job", v->job) != 0) ||
	    (*v->client_key &&
	    ar_record_set(r, "client_key", v->client_key) != 0) ||
	    ((v->resv_flags & AR_RESV_MAINT) &&
	    ar_record_set(r, "flags", "maint") != 0) ||
	    (*v->account && ar_record_set(r, "account", v->account) != 0) ||
	    (shown_layout != NULL && shown_layout->nparts > 1 &&
	    v->pool < shown_layout->npools && ar_record_set(r, "partition",
	    shown_layout->pool_partition[v->pool]) != 0) ||
	    ar_record_set_time(r, "start", v->start) != 0 ||
	    ar_record_set_time(r, "end", v->end) != 0 ||
	    ar_record_set_int(r, "nodes", v->nodes) != 0 ||
	    (v->jobs > 1 && ar_record_set_int(r, "jobs", v->jobs) != 0) ||
	    (v->latest != v->earliest &&
	    (ar_record_set_time(r, "earliest", v->earliest) != 0 ||
	    ar_record_set_time(r, "latest", v->latest) != 0)) ||
	    ar_record_set_int(r, "owner", v->owner) != 0 ||
	    (v->cls != 0 && (ar_record_set_uint(r, "class", v->cls) != 0 ||
	    ar_record_set_int(r, "price", v->price) != 0)) ||
	    ar_record_set(r, "status", ar_status_name(ar_resv_status(v))) != 0 ||
	    (v->used != AR_USE_UNKNOWN && ar_record_set(r, "used",
	    v->used == AR_USE_YES ? "yes" : "no") != 0) ||
	    (v->expires != 0 &&
	    ar_record_set_time(r, "expires", v->expires) != 0))
		return -1;
	return 0;
}

int
cmd_repeat(struct ctx *x, struct item *it, struct ar_repeat *rep, char *err)
{
	const char *every = cmd_get(x, &it->rec, "every");
	const char *count = cmd_get(x, &it->rec, "count");
	char msg[AR_ERRMAX], digits[24];
	size_t d;
	uint64_t n;
	int until;

	memset(rep, 0, sizeof(*rep));
	if ((until = cmd_time_field(x, it, "until", &rep->until, err)) < 0)
		return -1;
	if (every == NULL) {
		if (count == NULL && !until)
			return 0;
		snprintf(err, AR_ERRMAX, "field '%s': goes with 'every'",
		    count != NULL ? "count" : "until");
		return -1;
	}
	d = strspn(every, "0123456789");
	if (strcmp(every, "daily") == 0)
		rep->every = 86400;
	else if (strcmp(every, "weekly") == 0)
		rep->every = 7 * 86400;
	else if (d > 0 && d < sizeof(digits) && (strcmp(every + d,
	    "slot") == 0 || strcmp(every + d, "slots") == 0)) {
		memcpy(digits, every, d);
		digits[d] = '\0';
		if (ar_uint_parse(digits, 1, AR_DURATION_MAX, &n, msg) != 0) {
			snprintf(err, AR_ERRMAX, "field 'every': %.200s", msg);
			return -1;
		}
		rep->every = -(int64_t)n;
	} else if (ar_duration_parse(every, &rep->every, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'every': %.200s (or daily, "
		    "weekly, Nslots)", msg);
		return -1;
	}
	if (count != NULL && until) {
		snprintf(err, AR_ERRMAX, "field 'until': give 'count' or "
		    "'until', not both");
		return -1;
	}
	if (count == NULL && !until) {
		snprintf(err, AR_ERRMAX, "missing field 'count' (or 'until')");
		return -1;
	}
	if (count != NULL) {
		if (ar_uint_parse(count, 1, AR_SERIES_MAX, &n, msg) != 0) {
			snprintf(err, AR_ERRMAX, "field 'count': %.200s", msg);
			return -1;
		}
		rep->count = (uint32_t)n;
	} else if (rep->until < it->rq.earliest) {
		snprintf(err, AR_ERRMAX, "field 'until': before '%s'",
		    cmd_get(x, &it->rec, "start") ? "start" : "earliest");
		return -1;
	}
	if (it->rq.jobs != 1) {
		snprintf(err, AR_ERRMAX, "field 'jobs': a series repeats one "
		    "job");
		return -1;
	}
	return 0;
}

int
cmd_hold(struct ctx *x, struct item *it, char *err)
{
	const char *v = cmd_get(x, &it->rec, "hold");
	char msg[AR_ERRMAX];

	if (v == NULL)
		return 0;
	if (ar_duration_parse(v, &it->rq.hold, msg) != 0) {
		snprintf(err, AR_ERRMAX, "field 'hold': %.200s", msg);
		return -1;
	}
	if (it->rq.hold > AR_HOLD_MAX) {
		snprintf(err, AR_ERRMAX, "field 'hold': longer than a year");
		return -1;
	}
	return 0;
}

int
cmd_held(struct ar_record *r, int64_t expires)
{
	if (expires == 0) {
		ar_record_del(r, "expires");
		return 0;
	}
	return ar_record_set(r, "status", "held") != 0 ||
	    ar_record_set_time(r, "expires", expires) != 0 ? -1 : 0;
}

int
cmd_occurrence(struct ar_record *r, uint64_t id, uint64_t series,
    uint32_t occurrence)
{
	if (id == 0)
		ar_record_del(r, "id");
	else if (ar_record_set_uint(r, "id", id) != 0)
		return -1;
	if (series == 0)
		ar_record_del(r, "series");
	else if (ar_record_set_uint(r, "series", series) != 0)
		return -1;
	if (occurrence == 0)
		ar_record_del(r, "occurrence");
	else if (ar_record_set_uint(r, "occurrence", occurrence) != 0)
		return -1;
	return 0;
}

/* --- ar-report --usage's figures ------------------------------------- */

static const char *const by_names[] = { "window", "user", "job", "class",
    "partition" };

const char *
cmd_usage_by_name(enum ar_usage_by by)
{
	return by_names[by];
}

/* The refusal reasons a request may be refused for, as fields. */
static const enum ar_reason reasons[] = { AR_R_FULL, AR_R_PAST,
    AR_R_HORIZON, AR_R_CAPACITY, AR_R_KEY, AR_R_BOOKING, AR_R_HOSTS,
    AR_R_SLICES };

/* Set key to text where a number has none; null in JSON, so that the
 * field is a number or null. */
static int
set_none(int nulls, struct ar_record *r, const char *key,
    const char *text)
{
	return nulls ? ar_record_set_null(r, key) :
	    ar_record_set(r, key, text);
}

/* Set key to v, or to "unknown" if it is not known. */
static int
set_known(int nulls, struct ar_record *r, const char *key,
    int known, uint64_t v)
{
	return known ? ar_record_set_uint(r, key, v) :
	    set_none(nulls, r, key, "unknown");
}

/* A fraction, or "-" when there is nothing to divide. */
static int
set_ratio(int nulls, struct ar_record *r, const char *key,
    int known, uint64_t a, uint64_t b)
{
	if (!known)
		return set_none(nulls, r, key, "unknown");
	return b == 0 ? set_none(nulls, r, key, "-") :
	    ar_record_set_real(r, key, (double)a / (double)b);
}

/* A wait of the copies granted, or "-" when none was: an average or a
 * longest of nothing is not 0. */
static int
set_wait(int nulls, struct ar_record *r, const char *key, int known,
    uint64_t granted, uint64_t wait)
{
	if (known && granted == 0)
		return set_none(nulls, r, key, "-");
	return set_known(nulls, r, key, known, wait);
}

int
cmd_usage_record(struct ar_record *r, const struct ar_usage *u,
    const char *label, enum ar_usage_by by, const struct ar_pricing *pr,
    int nulls)
{
	char key[32];
	int k = u->known, dk = u->demand_known;
	uint64_t awt = u->granted ? (uint64_t)((u->wait_sum +
	    (int64_t)u->granted / 2) / (int64_t)u->granted) : 0;

	ar_record_clear(r);
	if (u->total && ar_record_set(r, "window", "total") != 0)
		return -1;
	if (!u->total && label != NULL) {
		if (by != AR_BY_CLASS) {
			if (ar_record_set(r, by_names[by], label) != 0)
				return -1;
		} else {
			size_t c = (size_t)atoi(label);

			if ((c ? ar_record_set_uint(r, "class", c) :
			    set_none(nulls, r, "class", "none")) != 0 ||
			    (c >= 1 && c <= pr->n && pr->c[c - 1].name[0] &&
			    ar_record_set(r, "name", pr->c[c - 1].name) != 0))
				return -1;
		}
	}
	if (ar_record_set_time(r, "from", u->from) != 0 ||
	    ar_record_set_time(r, "to", u->to) != 0 ||
	    (!k && ar_record_set(r, "known", "no") != 0) ||
	    set_ratio(nulls, r, "utilisation", k, u->reserved, u->capacity) != 0 ||
	    set_known(nulls, r, "reserved", k, u->reserved) != 0 ||
	    /* A partition's are of its own hosts: it has idle ones. */
	    ((label == NULL || u->total || by == AR_BY_PARTITION) &&
	    set_known(nulls, r, "idle", k, u->capacity - u->reserved) != 0) ||
	    set_known(nulls, r, "granted", k, u->granted) != 0 ||
	    set_known(nulls, r, "refused", dk, u->refused) != 0)
		return -1;
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		snprintf(key, sizeof(key), "refused_%s",
		    ar_reason_name(reasons[i]));
		for (char *p = key; *p; p++)
			if (*p == '-')
				*p = '_';
		if (set_known(nulls, r, key, dk, u->refused_by[reasons[i]]) != 0)
			return -1;
	}
	if (set_ratio(nulls, r, "acceptance", k && dk, u->granted, u->granted +
	    u->refused) != 0 ||
	    set_wait(nulls, r, "awt", k, u->granted, awt) != 0 ||
	    set_wait(nulls, r, "awt_max", k, u->granted,
	    (uint64_t)u->wait_max) != 0 ||
	    set_known(nulls, r, "moved", k, u->moved) != 0)
		return -1;
	/* What was reported of use, where a policy asks for reports. */
	if (u->reclaim && (set_known(nulls, r, "reserved_used", k,
	    u->reserved_used) != 0 || set_known(nulls, r, "reserved_idle", k,
	    u->reserved_idle) != 0 || set_known(nulls, r,
	    "reserved_unreported", k, u->reserved_unreported) != 0))
		return -1;
	if (u->classes == 0)
		return 0;
	if (set_known(nulls, r, "revenue", k, (uint64_t)u->revenue) != 0)
		return -1;
	for (size_t i = 0; i < u->classes; i++) {
		snprintf(key, sizeof(key), "granted_c%zu", i + 1);
		if (set_known(nulls, r, key, k, u->class_granted[i]) != 0)
			return -1;
		snprintf(key, sizeof(key), "refused_c%zu", i + 1);
		if (set_known(nulls, r, key, dk, u->class_refused[i]) != 0)
			return -1;
		snprintf(key, sizeof(key), "revenue_c%zu", i + 1);
		if (set_known(nulls, r, key, k,
		    (uint64_t)u->class_revenue[i]) != 0)
			return -1;
	}
	return 0;
}
