/* SPDX-License-Identifier: MIT */
/*
 * Error records for the core library.  The library never prints and never
 * exits: a failing function fills a struct p2g_error (what went wrong, at
 * which byte offset of which input) and returns a status; the front ends
 * choose the words around it and the exit status.
 */
#ifndef P2G_ERROR_H
#define P2G_ERROR_H

#include <stdarg.h>
#include <stdint.h>

enum p2g_status {
	P2G_OK = 0,
	P2G_INVALID,		/* malformed input */
	P2G_UNSUPPORTED,	/* well-formed input we cannot handle */
	P2G_IO,			/* read or write failure */
	P2G_NOMEM,		/* out of memory or over a limit */
	P2G_USAGE,		/* a request that cannot be met (bad option) */
};

#define P2G_NO_OFFSET UINT64_MAX

struct p2g_error {
	enum p2g_status status;
	uint64_t offset;	/* byte offset in the input, or P2G_NO_OFFSET */
	char part[24];		/* the file of a perf.data directory the
				   offset is in ("data.1"), or "" */
	char msg[512];
};

/* Record an error (with no part); the message is a printf format, lower
 * case, no period.  Returns -1 so that callers can write
 * "return p2g_fail(...)". */
int p2g_fail(struct p2g_error *e, enum p2g_status st, uint64_t off,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Clear an error record. */
void p2g_error_clear(struct p2g_error *e);

/* Exit status for a status: 1 for invalid or unsupported input, 2 for
 * trouble (I/O, memory, usage), 0 for P2G_OK. */
int p2g_exit_status(enum p2g_status st);

#endif
