/* SPDX-License-Identifier: MIT */
/*
 * Reading the text files of symbols (kallsyms, perf maps, /sys/kernel/
 * notes): a whole small file, its lines, hex numbers.  Bounded by the
 * lengths given, never by a NUL.
 */
#ifndef P2G_SYMTEXT_H
#define P2G_SYMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* Read a whole file (a regular one: a /proc or /sys file, whose size
 * stat() does not tell, is one), at most MAX bytes, into *BUF (malloc'd;
 * the caller frees it) with its length in *LEN.  0, or -1. */
int symtext_slurp(const char *path, size_t max, char **buf, size_t *len);

/* Call FN(CTX, LINE, N) for each line of BUF (LEN bytes), without its
 * newline (nor a CR before it).  Stops at FN's first negative return,
 * which it returns; else the sum of FN's returns. */
long symtext_lines(const char *buf, size_t len,
		   int (*fn)(void *ctx, const char *line, size_t n),
		   void *ctx);

/* A hex number of at most 16 digits at P (N bytes), after an optional
 * "0x" if PREFIX is not 0, into *V: the bytes read, 0 if none (or more
 * than 16 digits). */
size_t symtext_hex(const char *p, size_t n, int prefix, uint64_t *v);

#endif
