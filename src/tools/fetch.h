/* SPDX-License-Identifier: MIT */
/*
 * --debuginfod in the front ends: the handle that asks the servers of
 * DEBUGINFOD_URLS for the files not found on disk (dbgfetch.h), the one
 * warning about the build IDs no server gave, and --stats' account of
 * what came from the servers.
 */
#ifndef P2G_FETCH_H
#define P2G_FETCH_H

#include "dbgfetch.h"

/* The handle for --debuginfod, telling PROGRESS (may be NULL) with CTX
 * before each ask; NULL, with a warning about NAME, when built without
 * libdebuginfod or when DEBUGINFOD_URLS names no server.  Unless set,
 * DEBUGINFOD_RETRY_LIMIT is set to 0 (no second ask).  Out of memory,
 * exits with status 2. */
struct dbgfetch *fetch_open(const char *name, dbgfetch_progress_fn progress,
			    void *ctx);

/* One warning about NAME, naming the servers and the build IDs asked
 * for and not had, if any were. */
void fetch_warn(const char *name, const struct dbgfetch *f);

/* --stats: what was asked of the servers and what came, on stderr. */
void fetch_stats(const struct dbgfetch *f);

#endif
