/* SPDX-License-Identifier: MIT */
/* Files fetched from debuginfod servers by build ID: see dbgfetch.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBDEBUGINFOD
#include <elfutils/debuginfod.h>
#endif

#include "dbgfetch.h"

static const char why_not_found[] = "not found";
static const char why_skipped[] = "not asked after a failure";
#ifdef HAVE_LIBDEBUGINFOD
static const char why_differs[] = "build ID differs";
static const char why_not_elf[] = "not an ELF file";
#endif

/* One (build ID, kind) asked for. */
struct asked {
	char hex[2 * DSOFIND_MAX_BUILD_ID + 1];
	enum dbgfetch_kind kind;
	enum dsofind_why why;	/* DSOFIND_FOUND: PATH is the file */
	int err;		/* the client's error (negative), or 0 */
	char *path;		/* the file in the client's cache */
	char *text;		/* why not, if not why_*: malloc'd */
	const char *reason;	/* why not, or NULL */
};

struct dbgfetch {
#ifdef HAVE_LIBDEBUGINFOD
	debuginfod_client *client;
#endif
	dbgfetch_progress_fn progress;
	void *ctx;
	struct asked *v;
	size_t n, cap;
	const struct asked *current;	/* being asked for, or NULL */
	struct dbgfetch_counts counts;
};

#ifdef HAVE_LIBDEBUGINFOD
/* The client's progress callback, called while it waits for the servers:
 * the caller's again, so that a long fetch shows. */
static int
client_progress(debuginfod_client *c, long a, long b)
{
	struct dbgfetch *f = debuginfod_get_user_data(c);

	(void)a;
	(void)b;
	if (f != NULL && f->current != NULL)
		f->progress(f->ctx, f->current->hex, f->current->kind,
			    &f->counts);
	return 0;
}

#endif

bool
dbgfetch_available(void)
{
#ifdef HAVE_LIBDEBUGINFOD
	return true;
#else
	return false;
#endif
}

const char *
dbgfetch_kind_name(enum dbgfetch_kind kind)
{
	return kind == DBGFETCH_EXECUTABLE ? "executable" : "debuginfo";
}

struct dbgfetch *
dbgfetch_new(dbgfetch_progress_fn progress, void *ctx)
{
#ifdef HAVE_LIBDEBUGINFOD
	struct dbgfetch *f = calloc(1, sizeof(*f));

	if (f == NULL)
		return NULL;
	f->client = debuginfod_begin();
	if (f->client == NULL) {
		free(f);
		return NULL;
	}
	f->progress = progress;
	f->ctx = ctx;
	if (progress != NULL) {
		debuginfod_set_user_data(f->client, f);
		debuginfod_set_progressfn(f->client, client_progress);
	}
	return f;
#else
	(void)progress;
	(void)ctx;
	return NULL;
#endif
}

void
dbgfetch_free(struct dbgfetch *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->v[i].path);
		free(f->v[i].text);
	}
	free(f->v);
#ifdef HAVE_LIBDEBUGINFOD
	debuginfod_end(f->client);
#endif
	free(f);
}

const struct dbgfetch_counts *
dbgfetch_counts(const struct dbgfetch *f)
{
	return &f->counts;
}

const char *
dbgfetch_asked(const struct dbgfetch *f, size_t i, enum dbgfetch_kind *kind,
	       const char **path, const char **why)
{
	if (i >= f->n)
		return NULL;
	*kind = f->v[i].kind;
	*path = f->v[i].path;
	*why = f->v[i].reason;
	return f->v[i].hex;
}

/* The entry of (HEX, KIND), or NULL. */
static struct asked *
lookup(struct dbgfetch *f, const char *hex, enum dbgfetch_kind kind)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].kind == kind && strcmp(f->v[i].hex, hex) == 0)
			return &f->v[i];
	return NULL;
}

#ifdef HAVE_LIBDEBUGINFOD
/* Ask the servers for A's file (BID, NBID bytes as recorded, QN of them
 * asked for) and check what came. */
static int
ask(struct dbgfetch *f, struct asked *a, const uint8_t *bid, size_t nbid,
    size_t qn)
{
	struct dsofind_file file;
	enum dsofind_why w;
	char *path = NULL;
	int fd;

	if (f->progress != NULL)
		f->progress(f->ctx, a->hex, a->kind, &f->counts);
	f->current = a;
	fd = a->kind == DBGFETCH_EXECUTABLE
		     ? debuginfod_find_executable(f->client, bid, (int)qn,
						  &path)
		     : debuginfod_find_debuginfo(f->client, bid, (int)qn,
						 &path);
	f->current = NULL;
	if (fd < 0) {
		a->why = DSOFIND_NOT_FOUND;
		a->err = fd;
		if (fd == -ENOENT) {
			a->reason = why_not_found;
			f->counts.not_found[a->kind]++;
		} else {
			a->text = strdup(strerror(-fd));
			if (a->text == NULL)
				return -1;
			a->reason = a->text;
			f->counts.failed[a->kind]++;
		}
		return 0;
	}
	close(fd);
	/* opened again as any file is, with its build ID checked */
	w = dsofind_open(path, bid, nbid, &file);
	dsofind_close(&file);
	if (w == DSOFIND_NOMEM) {
		free(path);
		return -1;
	}
	a->why = w;
	if (w == DSOFIND_FOUND) {
		a->path = path;
		f->counts.fetched[a->kind]++;
		return 0;
	}
	free(path);
	a->reason = w == DSOFIND_BUILD_ID_DIFFERS ? why_differs : why_not_elf;
	f->counts.refused[a->kind]++;
	return 0;
}
#endif

/* The number of bytes of BID (NBID bytes) to ask for: perf pads a
 * 20-byte (SHA-1) build ID with zero bytes. */
static size_t
asked_size(const uint8_t *bid, size_t nbid)
{
	size_t i;

	if (nbid <= 20)
		return nbid;
	for (i = 20; i < nbid; i++)
		if (bid[i] != 0)
			return nbid;
	return 20;
}

enum dsofind_why
dbgfetch_open(struct dbgfetch *f, enum dbgfetch_kind kind, const uint8_t *bid,
	      size_t nbid, struct dsofind_file *out)
{
	char hex[2 * DSOFIND_MAX_BUILD_ID + 1];
	size_t qn = asked_size(bid, nbid);
	struct asked *a, *other;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (qn < 2 || qn > DSOFIND_MAX_BUILD_ID)
		return DSOFIND_NOT_FOUND;
	dsofind_hex(bid, qn, hex);
	a = lookup(f, hex, kind);
	if (a == NULL) {
		if (f->n == f->cap) {
			size_t cap = f->cap ? 2 * f->cap : 16;
			struct asked *v = realloc(f->v, cap * sizeof(*v));

			if (v == NULL)
				return DSOFIND_NOMEM;
			f->v = v;
			f->cap = cap;
		}
		other = lookup(f, hex, (enum dbgfetch_kind)(1 - kind));
		a = &f->v[f->n++];
		memset(a, 0, sizeof(*a));
		memcpy(a->hex, hex, sizeof(hex));
		a->kind = kind;
		a->why = DSOFIND_NOT_FOUND;
		if (other != NULL && other->err != 0 &&
		    other->err != -ENOENT) {
			/* the servers failed this build ID already */
			a->err = other->err;
			a->reason = why_skipped;
			f->counts.failed[kind]++;
			return DSOFIND_NOT_FOUND;
		}
#ifdef HAVE_LIBDEBUGINFOD
		if (ask(f, a, bid, nbid, qn) < 0) {
			f->n--;
			return DSOFIND_NOMEM;
		}
#else
		a->reason = why_not_found;
		f->counts.not_found[kind]++;
#endif
	}
	if (a->why != DSOFIND_FOUND)
		return a->why;
	return dsofind_open(a->path, bid, nbid, out);
}
