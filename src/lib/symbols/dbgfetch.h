/* SPDX-License-Identifier: MIT */
/*
 * Files fetched by build ID from the debuginfod servers that
 * DEBUGINFOD_URLS names, through elfutils' client (libdebuginfod), when
 * dsofind.h finds none on disk: a mapped binary's executable, for its
 * symbols and for unwinding, and its debuginfo, for DWARF names,
 * inlined functions and CFI.  The client keeps what it fetched in its
 * cache (DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client), and
 * gives up on a server that sends nothing for DEBUGINFOD_TIMEOUT
 * seconds (90 unless set).
 *
 * Each (build ID, kind) is asked once per handle, whoever asks (the
 * symbolizer and the unwinder share one handle).  When an ask fails
 * other than by the servers' "not found" (a refused connection, a
 * server that never answers), the build ID's other kind is not asked:
 * a stalled server costs one timeout per build ID.  A fetched file
 * whose build ID is not the one asked for is refused.
 *
 * Built without libdebuginfod (configure --without-debuginfod), there is
 * no handle: dbgfetch_new() gives NULL and dbgfetch_available() false.
 * The handle never prints: the caller hears of each ask through its
 * progress callback and reads the outcome with dbgfetch_counts() and
 * dbgfetch_asked().
 */
#ifndef P2G_DBGFETCH_H
#define P2G_DBGFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dsofind.h"

enum dbgfetch_kind {
	DBGFETCH_EXECUTABLE,	/* the binary, as mapped */
	DBGFETCH_DEBUGINFO,	/* its debug file (symbols, DWARF) */
	DBGFETCH_NKINDS,
};

/* What the asks came to, by kind. */
struct dbgfetch_counts {
	size_t fetched[DBGFETCH_NKINDS];	/* had, from the client's
						   cache or a server */
	size_t not_found[DBGFETCH_NKINDS];	/* no server has it */
	size_t failed[DBGFETCH_NKINDS];		/* no server answered (or
						   not asked, after such
						   a failure for its build
						   ID) */
	size_t refused[DBGFETCH_NKINDS];	/* a file came, not an ELF
						   file of the build ID */
};

/* Called before each ask of the servers and again while the client
 * waits for them: the build ID HEX, the KIND asked for, and the counts
 * so far. */
typedef void (*dbgfetch_progress_fn)(void *ctx, const char *hex,
				     enum dbgfetch_kind kind,
				     const struct dbgfetch_counts *c);

struct dbgfetch;

/* True if built with libdebuginfod. */
bool dbgfetch_available(void);

/* A handle asking the servers of DEBUGINFOD_URLS (read by the client at
 * each ask), telling PROGRESS (may be NULL) with CTX before each ask.
 * NULL when out of memory, or built without libdebuginfod. */
struct dbgfetch *dbgfetch_new(dbgfetch_progress_fn progress, void *ctx);

/* Accepts NULL. */
void dbgfetch_free(struct dbgfetch *f);

/*
 * Open the file of KIND with build ID BID (NBID bytes, as recorded: a
 * 20-byte ID may be padded with zero bytes) into *OUT, asking the
 * servers the first time.  DSOFIND_FOUND; DSOFIND_BUILD_ID_DIFFERS if
 * what came has another build ID; DSOFIND_NOT_FOUND otherwise
 * (DSOFIND_NOMEM when out of memory).
 */
enum dsofind_why dbgfetch_open(struct dbgfetch *f, enum dbgfetch_kind kind,
			       const uint8_t *bid, size_t nbid,
			       struct dsofind_file *out);

/* The counts so far. */
const struct dbgfetch_counts *dbgfetch_counts(const struct dbgfetch *f);

/*
 * The I-th (from 0) build ID asked for, in hex, with its *KIND, and in
 * *PATH the file had (in the client's cache) or NULL; if none, in *WHY
 * the reason: "not found", "build ID differs", "not an ELF file", "not
 * asked after a failure", or the client's error (strerror of it, as
 * "Connection refused"), else NULL.  NULL past the last.  The strings
 * live as long as F.
 */
const char *dbgfetch_asked(const struct dbgfetch *f, size_t i,
			   enum dbgfetch_kind *kind, const char **path,
			   const char **why);

/* "executable" or "debuginfo". */
const char *dbgfetch_kind_name(enum dbgfetch_kind kind);

#endif
