/* SPDX-License-Identifier: MIT */
/*
 * A table of symbols as perf keeps one for a mapped file (an ELF file's
 * symbols, a kallsyms file, a perf-PID.map): collected in any order,
 * then sorted and fixed up by perf's rules (symtab_finish()), then looked
 * up by address.  The names are copied into the table, one by one or as
 * a whole string table that symbols point into (symtab_add_block()), so
 * that many symbols that name one long string hold it once.
 *
 * perf's rules (tools/perf/util/symbol.c), in the order it applies them:
 * - a symbol of size 0 ends where the next one starts; the last one at
 *   the end of the page after its start's page.  In a kallsyms table a
 *   symbol followed by one on the other side of the kernel's boundary
 *   with the modules (names carry their module in brackets) ends at the
 *   end of the page after its own instead;
 * - of symbols that start at one address, one is kept: the one with a
 *   non-zero size, else a non-weak one, else a global one, else the one
 *   with fewer leading underscores, else the longer name, else (a tie)
 *   the one that came first, unless its name starts with "SyS" or
 *   "compat_SyS";
 * - an address names the symbol whose [start, end) holds it (a symbol
 *   of size 0 holds its own address).
 */
#ifndef P2G_SYMTAB_H
#define P2G_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashtab.h"

struct symtab_sym {
	uint64_t start, end;
	size_t name;		/* offset in the table's names */
	uint32_t seq;		/* order of addition, for perf's ties */
	uint8_t binding;	/* STB_* */
	uint8_t type;		/* STT_* */
	uint8_t shown;		/* SHOWN_*, in symtab.c */
};

/* The kinds of table: their fix-ups differ. */
enum symtab_kind {
	SYMTAB_ELF,		/* all the fix-ups above */
	SYMTAB_KALLSYMS,	/* the same, with kallsyms' ends; names are
				   "NAME" or "NAME\t[MODULE]" when added */
	SYMTAB_PERFMAP,		/* none (perf applies none to a perf map,
				   nor to the PLT entries it makes up): of
				   entries at one start the last added is
				   kept, a size of 0 holds one address */
};

/* How a table shows its names: flags. */
enum {
	SYMTAB_DEMANGLE = 1,	/* C++ and Rust names demangled */
	SYMTAB_PLT = 2,		/* "@plt" after each */
};

/* A name shown otherwise than added: symbol SYM's, NAME. */
struct symtab_shown {
	char *name;
	uint32_t sym;
};

struct symtab {
	struct symtab_sym *syms;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
	enum symtab_kind kind;
	unsigned show;		/* SYMTAB_DEMANGLE | SYMTAB_PLT */
	/* the names shown otherwise than added, by symbol: each kept from
	 * when first shown, at an address that does not change */
	struct symtab_shown *shown;
	size_t nshown, cap_shown;
	struct hashtab shown_index;
};

/* An empty table (a zeroed struct symtab is one too). */
void symtab_init(struct symtab *t);

/* Free what T holds; T is then empty. */
void symtab_free(struct symtab *t);

/* Add a symbol NAME (LEN bytes, no NUL needed) of SIZE bytes (0: not
 * known) at START.  0, or -1 when out of memory. */
int symtab_add(struct symtab *t, uint64_t start, uint64_t size,
	       int binding, int type, const char *name, size_t len);


/* Copy LEN bytes of names at P (a string table: NUL-ended strings) into
 * T, with a NUL after them; *BASE gets the offset of P's first byte in
 * T's names, for symtab_add_ref().  0, or -1 when out of memory. */
int symtab_add_block(struct symtab *t, const char *p, size_t len,
		     size_t *base);

/* Add a symbol as symtab_add() does, whose name is already in T's names
 * at offset NAME (a block's base plus the string's offset in it).  0, or
 * -1 when out of memory. */
int symtab_add_ref(struct symtab *t, uint64_t start, uint64_t size,
		   int binding, int type, size_t name);

/* Sort T and apply the fix-ups of KIND (see above).  Call once, after
 * the last symtab_add(). */
void symtab_finish(struct symtab *t, enum symtab_kind kind);

/* The module of a symbol of a SYMTAB_KALLSYMS table ("[ext4]"), or
 * NULL for the kernel's own. */
const char *symtab_module(const struct symtab *t, const struct symtab_sym *s);

/* The symbol holding ADDR in a finished table, or NULL. */
const struct symtab_sym *symtab_find(const struct symtab *t, uint64_t addr);

/* The name of a symbol of T, as added. */
static inline const char *
symtab_name(const struct symtab *t, const struct symtab_sym *s)
{
	return t->names + s->name;
}

/* The name of a symbol S of a finished table T as T shows it (see
 * above): valid as long as T is; NULL when out of memory. */
const char *symtab_show(struct symtab *t, const struct symtab_sym *s);

/* Call FN(CTX, name) with the name of each symbol of T as T shows it
 * (each shown name is valid during its call only), in address order,
 * until FN returns non-zero.  What FN returned last, or -1 when out of
 * memory. */
int symtab_each_shown(const struct symtab *t,
		      int (*fn)(void *ctx, const char *name), void *ctx);

#endif
