/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from a kallsyms text ("ADDRESS TYPE NAME" or "ADDRESS
 * TYPE NAME\t[MODULE]" per line), as perf reads one: only text symbols
 * (types T, t, W, w); a W symbol is weak, another upper-case one global,
 * a lower-case one local; names starting with '$' (ARM's mapping
 * symbols) left out; and lines at address 0 left out too: /proc/kallsyms
 * shows every address as 0 to a reader it hides them from, and such a
 * table names nothing.  And the running kernel's build ID, from
 * /sys/kernel/notes.
 */
#ifndef P2G_KALLSYMS_H
#define P2G_KALLSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "symtab.h"

/* Add the symbols of the kallsyms text BUF (LEN bytes) to T (and finish
 * it as a SYMTAB_KALLSYMS table).  Lines that cannot be read are
 * skipped.  The number of symbols added, or -1 when out of memory. */
long kallsyms_parse(const char *buf, size_t len, struct symtab *t);

/* kallsyms_parse() of the file PATH (a regular file or a /proc file).
 * -1 when it cannot be read or memory runs out. */
long kallsyms_read(const char *path, struct symtab *t);

/* The GNU build ID in the ELF notes BUF (LEN bytes, as in
 * /sys/kernel/notes) into OUT (SIZE bytes at most); its length, or 0. */
size_t kallsyms_notes_build_id(const unsigned char *buf, size_t len,
			       uint8_t *out, size_t size);

#endif
