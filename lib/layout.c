/*
 * layout.c - the cluster as it is: partitions, their features and the
 * borrowing between them (seed 001, §III's partitioned profile).
 *
 * A store's host description is a record per line: `hosts=LIST
 * partition=NAME features=A,B` gives hosts to a partition, `partition=NAME
 * default=yes borrow=OTHER,...` sets a partition's policy.  A pool is the
 * set of hosts sharing one partition and one feature set; a reservation
 * takes all its hosts from one pool.  The default partition's pools come
 * first, so pool 0 is its first; then the other partitions', each
 * partition's pools in the order their lines came.
 *
 * The description is kept in `meta` under "layout", as the canonical text
 * layout_text() writes, only when the store was created from one (meta's
 * mode says so): a store without it has one partition, "default", of one
 * pool holding every host, and reads nothing more at begin.  With more
 * than one pool each pool p has a ring, id POOL_RING + p, counting its
 * reservations' nodes, whose capacity is its hosts: admission reads it
 * beside the node ring (classes.c); and an idle ring, id IDLE_RING + p,
 * for its tracked hosts (track.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const struct kv_val layout_key = { 6, "layout" };

#define NAME_MAX_LEN 64         /* bytes in a partition or feature name */

void
layout_free(struct layout *l)
{
	for (size_t i = 0; i < l->nparts; i++) {
		free(l->part[i].name);
		free(l->part[i].borrow);
		free(l->part[i].lenders);
	}
	for (size_t i = 0; i < l->npools; i++) {
		free(l->pool[i].features);
		free(l->pool[i].hosts);
		hostset_free(&l->pool[i].set);
		hostset_free(&l->pool[i].others);
	}
	free(l->part);
	free(l->pool);
	free(l->pub_part);
	free(l->pub_pool);
	free(l->all);
	free(l->text);
	memset(l, 0, sizeof(*l));
}

/* Is s, of n bytes, a name: letters, digits, '-', '.', '_'? */
static int
name_ok(const char *s, size_t n)
{
	if (n == 0 || n > NAME_MAX_LEN)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '-' || s[i] == '.' || s[i] == '_'))
			return 0;
	return 1;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A comma-separated list of names, checked, sorted and without repeats
 * (sort) or as given (a name twice is then an error), into *out as text;
 * "" for an empty list.  EINVAL with a message, ENOMEM.
 */
static int
names_list(const char *s, int sort, char **out, char *err)
{
	char *copy, **v = NULL, *p, *next;
	size_t n = 0, len = 0;
	int rc = 0;

	*out = NULL;
	if ((copy = strdup(s)) == NULL)
		return ENOMEM;
	if ((v = calloc(strlen(s) / 2 + 2, sizeof(*v))) == NULL) {
		free(copy);
		return ENOMEM;
	}
	for (p = copy; *s != '\0' && p != NULL; p = next) {
		if ((next = strchr(p, ',')) != NULL)
			*next++ = '\0';
		if (!name_ok(p, strlen(p))) {
			snprintf(err, AR_ERRMAX, "'%.64s' is not a name "
			    "(letters, digits, '-', '.', '_', at most %d)", p,
			    NAME_MAX_LEN);
			rc = EINVAL;
			goto out;
		}
		v[n++] = p;
		len += strlen(p) + 1;
	}
	if (sort)
		qsort(v, n, sizeof(*v), cmp_str);
	if ((*out = malloc(len + 1)) == NULL) {
		rc = ENOMEM;
		goto out;
	}
	len = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i], v[i - 1]) == 0 && sort)
			continue;
		for (size_t j = 0; !sort && j < i; j++)
			if (strcmp(v[i], v[j]) == 0) {
				snprintf(err, AR_ERRMAX, "'%.64s' twice", v[i]);
				rc = EINVAL;
				goto out;
			}
		len += (size_t)sprintf(*out + len, "%s%s", len ? "," : "",
		    v[i]);
	}
	(*out)[len] = '\0';
out:
	if (rc != 0) {
		free(*out);
		*out = NULL;
	}
	free(v);
	free(copy);
	return rc;
}

/* Does the list have (sorted, comma-separated) hold every name of want? */
static int
features_have(const char *have, const char *want)
{
	size_t hl = strlen(have);

	while (*want != '\0') {
		size_t n = strcspn(want, ",");
		int found = 0;

		for (const char *p = have; p < have + hl && !found;
		    p += strcspn(p, ",") + (p[strcspn(p, ",")] != '\0'))
			found = strcspn(p, ",") == n &&
			    memcmp(p, want, n) == 0;
		if (!found)
			return 0;
		want += n + (want[n] == ',');
	}
	return 1;
}

/* Put "line N: field 'F': " before the message in err. */
static void
field_err(char *err, int line, const char *field)
{
	char msg[200];

	snprintf(msg, sizeof(msg), "%s", err);
	snprintf(err, AR_ERRMAX, "line %d: field '%.10s': %s", line, field,
	    msg);
}

/* The partition named name (n bytes), or -1. */
static int
part_find(const struct layout *l, const char *name, size_t n)
{
	for (size_t i = 0; i < l->nparts; i++)
		if (strlen(l->part[i].name) == n &&
		    memcmp(l->part[i].name, name, n) == 0)
			return (int)i;
	return -1;
}

/* A line as parsed: its fields, each NULL if absent. */
struct line {
	int no;
	char *hosts, *partition, *features, *deflt, *borrow;
};

/* Split one line (NUL-terminated, writable) into its fields. */
static int
line_fields(char *s, struct line *ln, char *err)
{
	static const char *const names[] = { "hosts", "partition",
	    "features", "default", "borrow" };
	char **slot[] = { &ln->hosts, &ln->partition, &ln->features,
	    &ln->deflt, &ln->borrow };
	char *tok, *eq, *rest;

	for (tok = strtok_r(s, " \t\r", &rest); tok != NULL;
	    tok = strtok_r(NULL, " \t\r", &rest)) {
		size_t i;

		if ((eq = strchr(tok, '=')) == NULL) {
			snprintf(err, AR_ERRMAX, "line %d: '%.40s' is not "
			    "name=value", ln->no, tok);
			return EINVAL;
		}
		*eq = '\0';
		for (i = 0; i < 5 && strcmp(tok, names[i]) != 0; i++)
			;
		if (i == 5) {
			snprintf(err, AR_ERRMAX, "line %d: field '%.40s': "
			    "unknown (hosts, partition, features, default, "
			    "borrow)", ln->no, tok);
			return EINVAL;
		}
		if (*slot[i] != NULL) {
			snprintf(err, AR_ERRMAX, "line %d: field '%s': given "
			    "twice", ln->no, names[i]);
			return EINVAL;
		}
		*slot[i] = eq + 1;
	}
	return 0;
}

/* The partition named name, added if new; *idx its index. */
static int
part_get(struct layout *l, const char *name, int line, size_t *idx)
{
	int i = part_find(l, name, strlen(name));
	struct layout_part *p;

	if (i >= 0) {
		*idx = (size_t)i;
		return 0;
	}
	if (l->nparts == AR_POOLS_MAX)
		return E2BIG;
	if ((p = realloc(l->part, (l->nparts + 1) * sizeof(*p))) == NULL)
		return ENOMEM;
	l->part = p;
	p = &l->part[l->nparts];
	memset(p, 0, sizeof(*p));
	p->line = line;
	if ((p->name = strdup(name)) == NULL)
		return ENOMEM;
	*idx = l->nparts++;
	return 0;
}

/* The hosts of a line, joined to the hosts of the lines before (*all,
 * which must not hold them already). */
static int
line_hosts(struct line *ln, char **all, size_t *len, char *err)
{
	struct ar_hostlist h;
	char msg[AR_ERRMAX], *p, *joined;
	int rc;

	ar_hostlist_init(&h);
	if ((rc = ar_hostlist_parse_max(ln->hosts, AR_HOSTS_MAX, &h, err)) !=
	    0) {
		field_err(err, ln->no, "hosts");
		return rc == -2 ? ENOMEM : EINVAL;
	}
	ar_hostlist_free(&h);
	if ((joined = malloc(*len + strlen(ln->hosts) + 2)) == NULL)
		return ENOMEM;
	sprintf(joined, "%s%s%s", *len ? *all : "", *len ? "," : "",
	    ln->hosts);
	if ((rc = ar_hostlist_parse_max(joined, AR_HOSTS_MAX, &h, msg)) != 0) {
		/* The position is in the joined text: not the user's. */
		if ((p = strstr(msg, " at byte")) != NULL)
			*p = '\0';
		snprintf(err, AR_ERRMAX, "%.180s (every host on one line "
		    "only)", msg);
		field_err(err, ln->no, "hosts");
		free(joined);
		return rc == -2 ? ENOMEM : EINVAL;
	}
	ar_hostlist_free(&h);
	free(*all);
	*all = joined;
	*len = strlen(joined);
	return 0;
}

/* One line of a description into l: its pool, or its policy. */
static int
layout_line(struct layout *l, struct line *ln, char **all, size_t *len,
    int *has_default, char *err)
{
	size_t pi;
	char *feat = NULL;
	struct layout_pool *pool;
	int rc;

	if (ln->hosts == NULL && ln->partition == NULL) {
		snprintf(err, AR_ERRMAX, "line %d: field 'hosts': missing (a "
		    "line gives hosts, or a partition's policy)", ln->no);
		return EINVAL;
	}
	if (ln->hosts == NULL && ln->features != NULL) {
		snprintf(err, AR_ERRMAX, "line %d: field 'features': features "
		    "go with hosts", ln->no);
		return EINVAL;
	}
	if (ln->partition != NULL && !name_ok(ln->partition,
	    strlen(ln->partition))) {
		snprintf(err, AR_ERRMAX, "line %d: field 'partition': '%.64s' "
		    "is not a name", ln->no, ln->partition);
		return EINVAL;
	}
	if ((rc = part_get(l, ln->partition ? ln->partition : "default",
	    ln->no, &pi)) != 0) {
		if (rc == E2BIG) {
			snprintf(err, AR_ERRMAX, "line %d: field 'partition': "
			    "more than %d partitions", ln->no, AR_POOLS_MAX);
			rc = EINVAL;
		}
		return rc;
	}
	if (ln->deflt != NULL) {
		if (strcmp(ln->deflt, "yes") != 0 &&
		    strcmp(ln->deflt, "no") != 0) {
			snprintf(err, AR_ERRMAX, "line %d: field 'default': "
			    "yes or no", ln->no);
			return EINVAL;
		}
		if (strcmp(ln->deflt, "yes") == 0) {
			if (*has_default && !l->part[pi].deflt) {
				snprintf(err, AR_ERRMAX, "line %d: field "
				    "'default': a second default partition",
				    ln->no);
				return EINVAL;
			}
			*has_default = 1;
			l->part[pi].deflt = 1;
		}
	}
	if (ln->borrow != NULL) {
		if (l->part[pi].borrow != NULL) {
			snprintf(err, AR_ERRMAX, "line %d: field 'borrow': "
			    "partition %s's policy was set before", ln->no,
			    l->part[pi].name);
			return EINVAL;
		}
		if ((rc = names_list(ln->borrow, 0, &l->part[pi].borrow,
		    err)) != 0) {
			if (rc == EINVAL)
				field_err(err, ln->no, "borrow");
			return rc;
		}
		l->part[pi].borrow_line = ln->no;
	}
	if (ln->hosts == NULL)
		return 0;
	if ((rc = line_hosts(ln, all, len, err)) != 0)
		return rc;
	if ((rc = names_list(ln->features ? ln->features : "", 1, &feat,
	    err)) != 0) {
		if (rc == EINVAL)
			field_err(err, ln->no, "features");
		return rc;
	}
	/* A pool already of this partition and features takes the hosts. */
	for (size_t i = 0; i < l->npools; i++)
		if (l->pool[i].partition == pi &&
		    strcmp(l->pool[i].features, feat) == 0) {
			char *h = malloc(strlen(l->pool[i].hosts) +
			    strlen(ln->hosts) + 2);

			free(feat);
			if (h == NULL)
				return ENOMEM;
			sprintf(h, "%s,%s", l->pool[i].hosts, ln->hosts);
			free(l->pool[i].hosts);
			l->pool[i].hosts = h;
			return 0;
		}
	if (l->npools == AR_POOLS_MAX) {
		free(feat);
		snprintf(err, AR_ERRMAX, "line %d: field 'hosts': more than %d "
		    "pools", ln->no, AR_POOLS_MAX);
		return EINVAL;
	}
	if ((pool = realloc(l->pool, (l->npools + 1) * sizeof(*pool))) ==
	    NULL) {
		free(feat);
		return ENOMEM;
	}
	l->pool = pool;
	pool = &l->pool[l->npools++];
	memset(pool, 0, sizeof(*pool));
	pool->partition = (uint32_t)pi;
	pool->features = feat;
	if ((pool->hosts = strdup(ln->hosts)) == NULL)
		return ENOMEM;
	return 0;
}

/* After the lines: every partition has hosts, borrows from partitions
 * there are; the default's pools come first, unless keep (a store's
 * text, whose pools are numbered as its lines are); the hosts are
 * indexes. */
static int
layout_finish(struct layout *l, const char *all, int keep, char *err)
{
	struct ar_hostlist h, sub;
	struct layout_pool *sorted;
	struct hostset every = { NULL, 0, 0 };
	uint32_t *idx = NULL, dflt = 0;
	char msg[AR_ERRMAX];
	size_t n = 0, len, cap;
	int rc = 0;

	for (size_t i = 0; i < l->nparts; i++)
		if (l->part[i].deflt)
			dflt = (uint32_t)i;
	for (size_t i = 0; i < l->nparts; i++) {
		struct layout_part *p = &l->part[i];
		const char *b = p->borrow ? p->borrow : "";
		int has = 0;

		for (size_t k = 0; k < l->npools; k++)
			has |= l->pool[k].partition == i;
		if (!has) {
			snprintf(err, AR_ERRMAX, "line %d: field 'partition': "
			    "partition %s has no hosts", p->line, p->name);
			return EINVAL;
		}
		if ((p->lenders = calloc(AR_POOLS_MAX, sizeof(uint32_t))) ==
		    NULL)
			return ENOMEM;
		while (*b != '\0') {
			size_t bn = strcspn(b, ",");
			int j = part_find(l, b, bn);

			if (j < 0 || (size_t)j == i) {
				snprintf(err, AR_ERRMAX, "line %d: field "
				    "'borrow': %s '%.*s'", p->borrow_line,
				    j < 0 ? "unknown partition" :
				    "a partition borrows from others, not",
				    (int)bn, b);
				return EINVAL;
			}
			p->lenders[p->nlenders++] = (uint32_t)j;
			b += bn + (b[bn] == ',');
		}
	}
	/* The default first, the others as they came. */
	if (dflt != 0) {
		struct layout_part first = l->part[dflt];

		memmove(&l->part[1], &l->part[0], dflt * sizeof(*l->part));
		l->part[0] = first;
		for (size_t k = 0; k < l->npools; k++)
			l->pool[k].partition = l->pool[k].partition == dflt ?
			    0 : l->pool[k].partition + (l->pool[k].partition <
			    dflt);
		for (size_t i = 0; i < l->nparts; i++)
			for (size_t j = 0; j < l->part[i].nlenders; j++) {
				uint32_t *x = &l->part[i].lenders[j];

				*x = *x == dflt ? 0 : *x + (*x < dflt);
			}
	}
	l->part[0].deflt = 1;
	if (!keep) {
		if ((sorted = malloc(l->npools * sizeof(*sorted))) == NULL)
			return ENOMEM;
		for (uint32_t i = 0; i < l->nparts; i++)
			for (size_t k = 0; k < l->npools; k++)
				if (l->pool[k].partition == i)
					sorted[n++] = l->pool[k];
		free(l->pool);
		l->pool = sorted;
	}
	/* Each pool's hosts as indexes in the store's list. */
	ar_hostlist_init(&h);
	ar_hostlist_init(&sub);
	if (ar_hostlist_parse(all, &h, msg) != 0 ||
	    (idx = malloc(h.count * sizeof(*idx))) == NULL) {
		rc = ENOMEM;
		goto out;
	}
	l->nodes = (uint32_t)h.count;
	len = cap = 0;
	if (ar_hostlist_format(&h, &l->all, &len, &cap) != 0) {
		rc = ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < l->npools && rc == 0; k++) {
		struct layout_pool *p = &l->pool[k];
		char *text = NULL;

		if (ar_hostlist_parse(p->hosts, &sub, msg) != 0 ||
		    ar_hostlist_find_all(&h, &sub, idx, msg) != 0) {
			rc = ENOMEM;
			break;
		}
		p->count = (uint32_t)sub.count;
		l->part[p->partition].hosts += p->count;
		for (size_t i = 0; i < sub.count && rc == 0; i++)
			if (p->set.n > 0 && p->set.r[p->set.n - 1].first +
			    p->set.r[p->set.n - 1].count == idx[i])
				p->set.r[p->set.n - 1].count++;
			else
				rc = hostset_append(&p->set, idx[i], 1);
		len = cap = 0;
		if (rc == 0 && ar_hostlist_format(&sub, &text, &len, &cap) != 0)
			rc = ENOMEM;
		free(p->hosts);
		p->hosts = text;
		if (rc == 0 && ((rc = hostset_append(&every, 0,
		    l->nodes)) != 0 || (rc = hostset_minus(&p->others,
		    &every, &p->set)) != 0))
			break;
		every.n = 0;
	}
out:
	hostset_free(&every);
	free(idx);
	ar_hostlist_free(&h);
	ar_hostlist_free(&sub);
	return rc;
}

/* The canonical text of l, into l->text. */
static int
layout_canon(struct layout *l)
{
	size_t len = 1;
	char *p;

	for (size_t k = 0; k < l->npools; k++)
		len += strlen(l->pool[k].hosts) + strlen(l->pool[k].features) +
		    strlen(l->part[l->pool[k].partition].name) + 40;
	for (size_t i = 0; i < l->nparts; i++)
		len += strlen(l->part[i].name) + (l->part[i].borrow ?
		    strlen(l->part[i].borrow) : 0) + 40;
	if ((l->text = p = malloc(len)) == NULL)
		return ENOMEM;
	for (size_t k = 0; k < l->npools; k++)
		p += sprintf(p, "hosts=%s partition=%s%s%s\n",
		    l->pool[k].hosts, l->part[l->pool[k].partition].name,
		    *l->pool[k].features ? " features=" : "",
		    l->pool[k].features);
	for (size_t i = 0; i < l->nparts; i++)
		if (i == 0 || l->part[i].nlenders > 0)
			p += sprintf(p, "partition=%s%s%s%s\n",
			    l->part[i].name, i == 0 ? " default=yes" : "",
			    l->part[i].nlenders ? " borrow=" : "",
			    l->part[i].nlenders ? l->part[i].borrow : "");
	return 0;
}

/* What ar_layout gives, pointing into l. */
static int
layout_public(struct layout *l)
{
	if ((l->pub_part = calloc(l->nparts, sizeof(*l->pub_part))) == NULL ||
	    (l->pub_pool = calloc(l->npools, sizeof(*l->pub_pool))) == NULL)
		return ENOMEM;
	for (size_t i = 0; i < l->nparts; i++) {
		l->pub_part[i].name = l->part[i].name;
		l->pub_part[i].is_default = i == 0;
		l->pub_part[i].borrow = l->part[i].borrow ?
		    l->part[i].borrow : "";
		l->pub_part[i].hosts = l->part[i].hosts;
	}
	for (size_t k = 0; k < l->npools; k++) {
		l->pub_pool[k].partition = l->pool[k].partition;
		l->pub_pool[k].features = l->pool[k].features;
		l->pub_pool[k].hosts = l->pool[k].hosts;
		l->pub_pool[k].count = l->pool[k].count;
	}
	return 0;
}

/* The lines of text into l, numbered from 1; added: lines of hosts
 * added to a store, which set no partition's policy. */
static int
layout_lines(struct layout *l, const char *text, int added, char **all,
    size_t *len, int *has_default, char *err)
{
	char *copy, *s, *next;
	int rc = 0, no = 0;

	if ((copy = strdup(text)) == NULL)
		return ENOMEM;
	for (s = copy; s != NULL && rc == 0; s = next) {
		struct line ln;

		if ((next = strchr(s, '\n')) != NULL)
			*next++ = '\0';
		no++;
		s += strspn(s, " \t\r");
		if (*s == '\0' || *s == '#')
			continue;
		memset(&ln, 0, sizeof(ln));
		ln.no = no;
		if ((rc = line_fields(s, &ln, err)) != 0)
			break;
		if (added && (ln.hosts == NULL || ln.deflt != NULL ||
		    ln.borrow != NULL)) {
			snprintf(err, AR_ERRMAX, "line %d: field '%s': hosts "
			    "added set no partition's policy", no,
			    ln.hosts == NULL ? "hosts" : ln.deflt != NULL ?
			    "default" : "borrow");
			rc = EINVAL;
		} else
			rc = layout_line(l, &ln, all, len, has_default, err);
	}
	free(copy);
	return rc;
}

/* A store's text (stored, or NULL) and the lines of text after it into
 * l, the pools numbered as they come if keep. */
static int
layout_build(const char *stored, const char *text, int keep,
    struct layout *l, char *err)
{
	char *all = NULL;
	size_t len = 0;
	int rc = 0, has_default = 0;

	memset(l, 0, sizeof(*l));
	snprintf(err, AR_ERRMAX, "no hosts");
	if (stored != NULL)
		rc = layout_lines(l, stored, 0, &all, &len, &has_default, err);
	if (rc == 0 && text != NULL)
		rc = layout_lines(l, text, stored != NULL, &all, &len,
		    &has_default, err);
	if (rc == 0 && l->npools == 0)
		rc = EINVAL;
	if (rc == 0)
		rc = layout_finish(l, all, keep, err);
	if (rc == 0 && (rc = layout_canon(l)) == 0)
		rc = layout_public(l);
	free(all);
	if (rc == ENOMEM)
		snprintf(err, AR_ERRMAX, "out of memory");
	if (rc != 0)
		layout_free(l);
	return rc;
}

int
layout_parse(const char *text, struct layout *l, char *err)
{
	return layout_build(NULL, text, 0, l, err);
}

int
layout_extend(const char *stored, const char *text, struct layout *l,
    char *err)
{
	return layout_build(stored, text, 1, l, err);
}

int
layout_put(struct kv_txn *txn, const char *text)
{
	return meta_text_put(txn, &layout_key, text);
}

/* The layout of a store without a description: its hosts in one pool of
 * partition "default", no features; made as it is, not parsed, since a
 * store's host list may be a million names. */
static int
layout_plain(ar_txn *t)
{
	struct layout *l = &t->lay;
	const char *names;
	int rc;

	if ((rc = ar_hosts(t, &names)) != 0)
		return rc;
	memset(l, 0, sizeof(*l));
	if ((l->part = calloc(1, sizeof(*l->part))) == NULL ||
	    (l->pool = calloc(1, sizeof(*l->pool))) == NULL)
		goto nomem;
	l->nparts = l->npools = 1;
	l->nodes = t->m.nodes;
	l->part[0].deflt = 1;
	l->part[0].hosts = l->pool[0].count = l->nodes;
	if ((l->part[0].name = strdup("default")) == NULL ||
	    (l->pool[0].features = strdup("")) == NULL ||
	    (l->pool[0].hosts = strdup(names)) == NULL ||
	    (l->all = strdup(names)) == NULL ||
	    hostset_append(&l->pool[0].set, 0, l->nodes) != 0 ||
	    layout_canon(l) != 0 || layout_public(l) != 0)
		goto nomem;
	return 0;
nomem:
	layout_free(l);
	return ENOMEM;
}

/* Load the store's layout into t->lay (not for a plain store until
 * asked: layout_need). */
static int
layout_load(ar_txn *t)
{
	const char *text;
	char err[AR_ERRMAX];
	int rc;

	if ((rc = meta_text_get(t->txn, &layout_key, &text)) != 0)
		return rc;
	/* The same text as the store's last transaction: what it parsed. */
	if (t->s->lay.text != NULL && strcmp(t->s->lay.text, text) == 0) {
		t->lay = t->s->lay;
		t->lay_shared = 1;
		return 0;
	}
	/* Its pools numbered as its lines are (hosts added later, later). */
	if ((rc = layout_build(text, NULL, 1, &t->lay, err)) != 0)
		return rc == EINVAL ? AR_ECORRUPT : rc;
	if (t->lay.nodes != t->m.nodes)
		return AR_ECORRUPT;
	/* Kept with the store for the transactions to come. */
	layout_free(&t->s->lay);
	t->s->lay = t->lay;
	t->lay_shared = 1;
	return 0;
}

int
layout_need(ar_txn *t)
{
	if (t->lay.npools > 0)
		return 0;
	return (t->m.mode & META_LAYOUT) ? layout_load(t) : layout_plain(t);
}

int
layout_begin(ar_txn *t)
{
	int rc;

	t->npools = 1;
	if (!(t->m.mode & META_LAYOUT))
		return 0;
	if ((rc = layout_load(t)) != 0)
		return rc;
	if (t->lay.npools < 2)
		return 0;
	if ((t->pool = calloc(t->lay.npools, sizeof(*t->pool))) == NULL ||
	    (t->idle_rest = calloc(t->lay.npools - 1,
	    sizeof(*t->idle_rest))) == NULL)
		return ENOMEM;
	t->npools = (uint32_t)t->lay.npools;
	for (uint32_t p = 0; p < t->npools; p++) {
		struct ring *r = &t->pool[p];

		r->dbi = KV_RING;
		r->id = POOL_RING + p;
		if ((rc = ring_begin(r, t->m.chunks, t->lay.pool[p].count,
		    t->base, t->m.horizon)) != 0)
			return rc;
	}
	/* Pool 0's idle ring is the one every store has (txn.c). */
	for (uint32_t p = 1; p < t->npools; p++) {
		struct ring *r = idle_ring(t, p);

		r->dbi = KV_RING;
		r->id = IDLE_RING + p;
		if ((rc = ring_begin(r, t->m.chunks, t->m.nodes, t->base,
		    t->m.horizon)) != 0)
			return rc;
	}
	return 0;
}

void
layout_end(ar_txn *t)
{
	for (uint32_t p = 0; t->pool != NULL && p < t->npools; p++)
		ring_free(&t->pool[p]);
	for (uint32_t p = 1; t->idle_rest != NULL && p < t->npools; p++)
		ring_free(idle_ring(t, p));
	free(t->pool);
	free(t->idle_rest);
	t->pool = NULL;
	t->idle_rest = NULL;
	if (!t->lay_shared)
		layout_free(&t->lay);
	memset(&t->lay, 0, sizeof(t->lay));
	t->lay_shared = 0;
}

int
layout_flush(ar_txn *t)
{
	int rc = 0;

	for (uint32_t p = 0; t->npools > 1 && p < t->npools && rc == 0; p++)
		if ((rc = ring_flush(t, &t->pool[p])) == 0 && p > 0)
			rc = ring_flush(t, idle_ring(t, p));
	for (uint32_t k = 0; k < t->nprings && rc == 0; k++)
		rc = ring_flush(t, &t->prings[k]);
	return rc;
}

int
layout_reload(ar_txn *t)
{
	int rc;

	/* The pools and partitions as the store now has them: what their
	 * rings hold is written first, and read again as the new ones
	 * need it. */
	if ((rc = layout_flush(t)) != 0)
		return rc;
	part_end(t);
	layout_end(t);
	/* The rings that count nodes may count them all. */
	t->ring.capacity = t->ring.max = t->m.nodes;
	t->idle.capacity = t->idle.max = t->m.nodes;
	for (uint32_t i = 2; i <= t->pr.n; i++)
		t->limit[i].max = t->m.nodes;
	if ((rc = layout_begin(t)) != 0)
		return rc;
	return part_begin(t);
}

int
layout_eligible(ar_txn *t, const char *partition, const char *features,
    uint32_t *pools, uint32_t *n)
{
	const struct layout *l;
	const struct layout_part *p;
	int i, rc;

	*n = 0;
	if ((partition == NULL || *partition == '\0') &&
	    (features == NULL || *features == '\0') && t->npools == 1) {
		pools[(*n)++] = 0;
		return 0;
	}
	if ((rc = layout_need(t)) != 0)
		return rc;
	l = &t->lay;
	i = partition == NULL || *partition == '\0' ? 0 :
	    part_find(l, partition, strlen(partition));
	if (i < 0)
		return EINVAL;
	if (features == NULL)
		features = "";
	/* Every feature asked must be one some pool has. */
	for (const char *f = features; *f != '\0'; ) {
		size_t fn = strcspn(f, ",");
		char one[NAME_MAX_LEN + 1];
		int known = 0;

		if (!name_ok(f, fn))
			return EINVAL;
		memcpy(one, f, fn);
		one[fn] = '\0';
		for (size_t k = 0; k < l->npools && !known; k++)
			known = features_have(l->pool[k].features, one);
		if (!known)
			return EINVAL;
		f += fn + (f[fn] == ',');
	}
	p = &l->part[i];
	for (size_t j = 0; j <= p->nlenders; j++) {
		uint32_t from = j == 0 ? (uint32_t)i : p->lenders[j - 1];

		for (size_t k = 0; k < l->npools; k++)
			if (l->pool[k].partition == from &&
			    features_have(l->pool[k].features, features))
				pools[(*n)++] = (uint32_t)k;
	}
	return 0;
}

int
layout_named(ar_txn *t, const struct ar_request *rq, uint32_t *pool)
{
	const struct layout *l;
	struct hostset named = { 0 };
	const char *f = rq->features == NULL ? "" : rq->features;
	int rc = 0, i;

	if ((rc = layout_need(t)) != 0)
		return rc;
	l = &t->lay;
	for (uint32_t h = 0; h < rq->nhosts && rc == 0; h++)
		rc = hostset_append(&named, rq->hosts[h], 1);
	for (*pool = 0; rc == 0 && *pool < l->npools &&
	    !hostset_subset(&named, &l->pool[*pool].set); ++*pool)
		;
	hostset_free(&named);
	if (rc != 0)
		return rc;
	if (*pool == l->npools)
		return EINVAL;
	i = rq->partition == NULL || *rq->partition == '\0' ?
	    (int)l->pool[*pool].partition :
	    part_find(l, rq->partition, strlen(rq->partition));
	if (i != (int)l->pool[*pool].partition ||
	    !features_have(l->pool[*pool].features, f))
		return EINVAL;
	return 0;
}

uint32_t
layout_host_pool(const struct layout *l, uint32_t h)
{
	uint32_t p = 0;

	while (p < l->npools && !hostset_has(&l->pool[p].set, h))
		p++;
	return p;
}

int
ar_host_pools(ar_txn *t, uint32_t *pool_of)
{
	int rc;

	if ((rc = layout_need(t)) != 0)
		return rc;
	for (uint32_t p = 0; p < t->lay.npools; p++)
		for (size_t i = 0; i < t->lay.pool[p].set.n; i++) {
			const struct run *r = &t->lay.pool[p].set.r[i];

			for (uint32_t h = r->first; h < r->first + r->count;
			    h++)
				pool_of[h] = p;
		}
	return 0;
}

int
ar_layout(ar_txn *t, const struct ar_partition **parts, size_t *nparts,
    const struct ar_pool **pools, size_t *npools)
{
	int rc;

	if ((rc = layout_need(t)) != 0)
		return rc;
	*parts = t->lay.pub_part;
	*nparts = t->lay.nparts;
	*pools = t->lay.pub_pool;
	*npools = t->lay.npools;
	return 0;
}

int
ar_layout_check(const char *text, uint32_t *nodes, char *err)
{
	struct layout l;
	int rc;

	if ((rc = layout_parse(text, &l, err)) == 0) {
		*nodes = l.nodes;
		layout_free(&l);
	}
	return rc;
}
