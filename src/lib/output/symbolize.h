/* SPDX-License-Identifier: MIT */
/*
 * Symbols for the PCs of a CPU profile, as pprof finds them: through the
 * maps text (each line's range and file offset) and the mapped ELF files
 * (their program headers and symbol tables, read with libelf).  A PC's
 * address in the file is that of the segment holding its file offset,
 * which works for executables, shared libraries and moved places alike.
 */
#ifndef P2G_SYMBOLIZE_H
#define P2G_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

struct symbolizer;

/* A symbolizer for the maps text MAPS (LEN bytes); NULL when out of
 * memory.  Files are opened when first needed. */
struct symbolizer *symbolizer_new(const char *maps, size_t len);

void symbolizer_free(struct symbolizer *s);

/*
 * The function holding ADDR (already a return address less 1 where that
 * applies), or NULL.  *PATH, if not NULL, gets the path of the mapping
 * holding ADDR, or NULL.  The strings live as long as S.
 */
const char *symbolizer_lookup(struct symbolizer *s, uint64_t addr,
			      const char **path);

#endif
