/* SPDX-License-Identifier: MIT */
/*
 * Source lines and inlined functions from an ELF file's DWARF, read with
 * libdw: for an address, the chain of functions inlined there, innermost
 * first, each with the file and line it is at (the innermost's from the
 * line table, each caller's from the call site of the function inlined
 * into it), and last the function of the symbol.
 */
#ifndef P2G_DWLINES_H
#define P2G_DWLINES_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

struct dwlines;

/* The DWARF of ELF (which must outlive it), or NULL if it has none (or
 * memory runs out). */
struct dwlines *dwlines_open(Elf *elf);

/* Accepts NULL. */
void dwlines_free(struct dwlines *d);

/* Where frames are put: room for N of them, from CTX, that stays valid
 * as long as the caller needs; NULL when out of memory. */
typedef struct sym_frame *(*dwlines_alloc_fn)(void *ctx, size_t n);

/*
 * The frames at ADDR (an address of the ELF file) into *OUT, allocated
 * with ALLOC(CTX, n): the inlined functions innermost first, then the
 * function named SYMBOL (the ELF symbol holding ADDR), with its own
 * name in DWARF where that differs (sym_frame).  The number of
 * frames, 0 if the DWARF does not cover ADDR, -1 when out of memory.
 * The strings live as long as D.
 */
int dwlines_frames(struct dwlines *d, uint64_t addr, const char *symbol,
		   void *ctx, dwlines_alloc_fn alloc, struct sym_frame **out);

#endif
