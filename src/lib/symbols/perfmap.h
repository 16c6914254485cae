/* SPDX-License-Identifier: MIT */
/*
 * Symbols of JIT-compiled code from a perf map, /tmp/perf-PID.map: one
 * "START SIZE NAME" line per function, START and SIZE in hex (a 0x
 * prefix allowed), NAME the rest of the line, as perf reads it
 * (dso__load_perf_map()).  The addresses are the process's own.
 */
#ifndef P2G_PERFMAP_H
#define P2G_PERFMAP_H

#include <stddef.h>
#include <stdint.h>

#include "symtab.h"

/* Add the entries of the perf map text BUF (LEN bytes) to T, and finish
 * it as a SYMTAB_PERFMAP table.  Lines that cannot be read are
 * skipped.  The number added, or -1 when out of memory. */
long perfmap_parse(const char *buf, size_t len, struct symtab *t);

/* perfmap_parse() of the file PATH, read only if it is a regular file
 * owned by this user or by root (as perf insists).  -1 if it cannot be
 * read. */
long perfmap_read(const char *path, struct symtab *t);

#endif
