/* SPDX-License-Identifier: MIT */
/*
 * Reading the text files of symbols (kallsyms, perf maps, /sys/kernel/
 * notes): a whole small file, its lines, hex numbers, and a table of
 * symbols made of its lines by a reader of one line.  Bounded by the
 * lengths given, never by a NUL.
 */
#ifndef P2G_SYMTEXT_H
#define P2G_SYMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "symtab.h"

/* A line reader: what it makes of LINE (N bytes, no newline) goes into
 * CTX; 0 or more (a count the caller sums), or -1 to stop. */
typedef int (*symtext_line_fn)(void *ctx, const char *line, size_t n);

/* Read a whole file (a regular one: a /proc or /sys file, whose size
 * stat() does not tell, is one), at most MAX bytes, into *BUF (malloc'd;
 * the caller frees it) with its length in *LEN.  0, or -1. */
int symtext_slurp(const char *path, size_t max, char **buf, size_t *len);

/* Call FN(CTX, LINE, N) for each line of BUF (LEN bytes), without its
 * newline (nor a CR before it).  Stops at FN's first negative return,
 * which it returns; else the sum of FN's returns. */
long symtext_lines(const char *buf, size_t len, symtext_line_fn fn,
		   void *ctx);

/* The symbols FN reads from each line of BUF (LEN bytes) added to T,
 * and T finished as a KIND table: symtext_lines()'s return (the number
 * added, or -1 when FN fails). */
long symtext_table(const char *buf, size_t len, symtext_line_fn fn,
		   struct symtab *t, enum symtab_kind kind);

/* symtext_table() of the file PATH, read whole (at most 1 GiB: no
 * table of symbols comes near it); -1 when it cannot be read. */
long symtext_read_table(const char *path, symtext_line_fn fn,
			struct symtab *t, enum symtab_kind kind);

/* A hex number of at most 16 digits at P (N bytes), after an optional
 * "0x" if PREFIX is not 0, into *V: the bytes read, 0 if none (or more
 * than 16 digits). */
size_t symtext_hex(const char *p, size_t n, int prefix, uint64_t *v);

#endif
