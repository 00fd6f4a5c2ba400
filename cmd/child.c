/*
 * child.c - other programs run as children, and the name service through
 * one of them, getent(1); see child.h.
 */
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "child.h"

extern char **environ;

/* Our environment with env[] ("NAME=value") in place of the variables
 * of those names, as a child gets it; NULL if memory ran out. */
static char **
child_environ(char *const env[])
{
	size_t n = 0, m = 0, k = 0;
	char **all;

	while (environ[n] != NULL)
		n++;
	while (env != NULL && env[m] != NULL)
		m++;
	if ((all = calloc(n + m + 1, sizeof(*all))) == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t len = strcspn(environ[i], "=");
		size_t j;

		for (j = 0; j < m; j++)
			if (strncmp(env[j], environ[i], len) == 0 &&
			    env[j][len] == '=')
				break;
		if (j == m)
			all[k++] = environ[i];
	}
	for (size_t j = 0; j < m; j++)
		all[k++] = env[j];
	return all;
}

/*
 * Start argv[0] with stdin /dev/null and stdout, stderr the pipes' write
 * ends: 0 and *pid, or the error.  posix_spawn, not fork: a process
 * with a large address space (a sanitized one, say) is not copied to
 * be replaced at once.
 */
static int
child_start(char *const argv[], char *const env[], int out, int err,
    const int close_fds[4], pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t def;
	char **envp;
	int rc;

	if ((envp = child_environ(env)) == NULL)
		return ENOMEM;
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		goto done;
	if ((rc = posix_spawnattr_init(&at)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		goto done;
	}
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	if ((rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
	    O_RDONLY, 0)) == 0 &&
	    (rc = posix_spawn_file_actions_adddup2(&fa, out, 1)) == 0 &&
	    (rc = posix_spawn_file_actions_adddup2(&fa, err, 2)) == 0 &&
	    (rc = posix_spawnattr_setsigdefault(&at, &def)) == 0 &&
	    (rc = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF)) == 0)
		for (int i = 0; i < 4 && rc == 0; i++)
			rc = posix_spawn_file_actions_addclose(&fa,
			    close_fds[i]);
	if (rc == 0)
		rc = posix_spawnp(pid, argv[0], &fa, &at, argv, envp);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
done:
	free(envp);
	return rc;
}

/* c as a child that could not run argv0 leaves it: its word on why
 * (the error rc) on stderr, exit status 127.  -1 if memory ran out. */
static int
child_unstarted(struct child *c, size_t *ecap, const char *argv0, int rc)
{
	int len = snprintf(NULL, 0, "%s: %s\n", argv0, strerror(rc));

	if (len < 0 || array_room(&c->err, ecap, (size_t)len + 1, 1) != 0)
		return -1;
	snprintf(c->err, (size_t)len + 1, "%s: %s\n", argv0, strerror(rc));
	c->errlen = (size_t)len;
	c->status = 127;
	return 0;
}

/* What the child writes on out and err, until it has closed both, into
 * c->out and c->err, each NUL-terminated; out and err are closed.  -1
 * if memory ran out. */
static int
child_read(struct child *c, int out, int err, size_t *ocap, size_t *ecap)
{
	struct pollfd p[2] = { { out, POLLIN, 0 }, { err, POLLIN, 0 } };
	int rc = 0;
	ssize_t n;

	while (rc == 0 && (p[0].fd >= 0 || p[1].fd >= 0)) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2 && rc == 0; i++) {
			char **b = i ? &c->err : &c->out;
			size_t *l = i ? &c->errlen : &c->outlen;

			if (p[i].fd < 0 || p[i].revents == 0)
				continue;
			if (array_room(b, i ? ecap : ocap, *l + 4096 + 1,
			    1) != 0) {
				rc = -1;
				break;
			}
			n = read(p[i].fd, *b + *l, 4096);
			if (n > 0)
				*l += (size_t)n;
			else if (n == 0 || errno != EINTR) {
				close(p[i].fd);
				p[i].fd = -1;
			}
			(*b)[*l] = '\0';
		}
	}
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	return rc;
}

int
child_run(char *const argv[], char *const env[], struct child *c)
{
	int out[2] = { -1, -1 }, err[2] = { -1, -1 }, st, rc;
	size_t ocap = 0, ecap = 0;
	pid_t pid, w;

	memset(c, 0, sizeof(*c));
	/* Each a string, empty until the child writes. */
	if (array_room(&c->out, &ocap, 1, 1) != 0 ||
	    array_room(&c->err, &ecap, 1, 1) != 0 || pipe(out) != 0 ||
	    pipe(err) != 0)
		goto fail;
	c->out[0] = c->err[0] = '\0';
	rc = child_start(argv, env, out[1], err[1],
	    (const int[4]){ out[0], out[1], err[0], err[1] }, &pid);
	close(out[1]);
	close(err[1]);
	out[1] = err[1] = -1;
	if (rc != 0) {
		if (rc == ENOMEM ||
		    child_unstarted(c, &ecap, argv[0], rc) != 0) {
			errno = ENOMEM;
			goto fail;
		}
		close(out[0]);
		close(err[0]);
		return 0;
	}
	if ((rc = child_read(c, out[0], err[0], &ocap, &ecap)) != 0)
		kill(pid, SIGKILL);
	out[0] = err[0] = -1;
	while ((w = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	if (rc != 0 || w < 0)
		goto fail;
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (out[i] >= 0)
			close(out[i]);
		if (err[i] >= 0)
			close(err[i]);
	}
	child_free(c);
	return -1;
}

void
child_free(struct child *c)
{
	free(c->out);
	free(c->err);
	c->out = c->err = NULL;
	c->outlen = c->errlen = 0;
}

/* getent DB KEY: the entry's first field (name) and third (id). */
static int
getent(const char *db, const char *key, char *name, size_t size, long *id)
{
	char *argv[] = { "getent", (char *)db, (char *)key, NULL };
	struct child c;
	char *colon, *p, *end;
	size_t len;
	int rc = -1;

	if (child_run(argv, NULL, &c) != 0)
		return -1;
	if (c.status == 2 && c.outlen == 0)
		rc = 1;         /* getent: not found */
	else if (c.status == 0 && (colon = strchr(c.out, ':')) != NULL &&
	    (p = strchr(colon + 1, ':')) != NULL) {
		*id = strtol(p + 1, &end, 10);
		len = (size_t)(colon - c.out);
		if (end != p + 1 && *end == ':' && *id >= 0 && len > 0 &&
		    (name == NULL || len < size)) {
			if (name != NULL) {
				memcpy(name, c.out, len);
				name[len] = '\0';
			}
			rc = 0;
		}
	}
	child_free(&c);
	return rc;
}

int
nss_name(const char *db, long id, char *buf, size_t size)
{
	char key[32];
	long got;

	snprintf(key, sizeof(key), "%ld", id);
	return getent(db, key, buf, size, &got);
}

int
nss_id(const char *db, const char *name, long *id)
{
	/* getent takes a number as an id: a name must not be one. */
	if (*name == '\0' || strspn(name, "0123456789") == strlen(name))
		return 1;
	return getent(db, name, NULL, 0, id);
}

