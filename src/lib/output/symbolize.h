/* SPDX-License-Identifier: MIT */
/*
 * Symbols for the PCs of a CPU profile, named as perf names them: each
 * line of the profile's maps text (its range, file offset and, in the
 * brief form, build ID) is a mapping for the library's symbolizer
 * (symbols.h), which finds the file and chooses among its symbols.
 */
#ifndef P2G_SYMBOLIZE_H
#define P2G_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dbgfetch;
struct symbolizer;

/* A symbolizer for the maps text MAPS (LEN bytes) that also looks for
 * the files in the NBINARIES directories BINARIES (sym_opts.binaries)
 * and, through FETCH if not NULL, on the debuginfod servers
 * (sym_opts.fetch; FETCH must outlive it); NULL when out of memory.
 * Files are opened when first needed. */
struct symbolizer *symbolizer_new(const char *maps, size_t len,
				  const char *const *binaries,
				  size_t nbinaries, struct dbgfetch *fetch);

void symbolizer_free(struct symbolizer *s);

/* True once a mapped file could not be opened for want of descriptors
 * (EMFILE, ENFILE): its PCs were left unnamed though it may be there. */
bool symbolizer_no_fds(const struct symbolizer *s);

/*
 * The function holding ADDR (already a return address less 1 where that
 * applies), or NULL.  *PATH, if not NULL, gets the path of the mapping
 * holding ADDR, or NULL.  The strings live as long as S.
 */
const char *symbolizer_lookup(struct symbolizer *s, uint64_t addr,
			      const char **path);

/*
 * Call FN(CTX, NAME) for each symbol of each file the maps text names
 * (each path once), then, with PATHS, for each of those paths instead,
 * until FN returns nonzero.  Returns what FN last returned, or -1 when
 * out of memory.  A symbol's NAME is valid during its call only (each is
 * demangled then, not kept: symbolizer_keep() keeps one); a path lives
 * as long as S.
 */
int symbolizer_each_name(struct symbolizer *s, bool paths,
			 int (*fn)(void *ctx, const char *name), void *ctx);

/* Make NAME (malloc'd) S's, to live as long as S.  0, or -1 when out of
 * memory (NAME is then freed). */
int symbolizer_keep(struct symbolizer *s, char *name);

#endif
