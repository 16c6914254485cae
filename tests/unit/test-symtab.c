/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of perf's rules in symtab.c, one rule at a time: of two
 * symbols at one address perf keeps the one with a size, else the
 * non-weak one, else the global one, else the one with fewer leading
 * underscores, else the longer name, else the first unless it is a SyS
 * alias (decided after the ends are fixed); a symbol of size 0 reaches
 * the next one, the last one the end of the page after its start's; a PC past a sized symbol's end has no name;
 * kallsyms' boundary between the kernel and its modules; a perf map's
 * entries are not fixed up; any order of addition sorts as a sorted one
 * (ties in order of addition); symtext_hex() reads hex numbers.
 */
#include "config.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "symtab.h"
#include "symtext.h"
#include "unit.h"

/* The name at ADDR in T, or "" */
static const char *
at(const struct symtab *t, uint64_t addr)
{
	const struct symtab_sym *s = symtab_find(t, addr);

	return s != NULL ? symtab_name(t, s) : "";
}

static void
add(struct symtab *t, uint64_t a, uint64_t size, int bind, const char *n)
{
	CHECK(symtab_add(t, a, size, bind, STT_FUNC, n, strlen(n)) == 0);
}

struct ent {
	uint64_t addr, size;
	int bind;
	const char *name;
};

/* T made of the N entries E, finished as KIND. */
static void
build(struct symtab *t, enum symtab_kind kind, const struct ent *e,
      size_t n)
{
	size_t i;

	symtab_init(t);
	for (i = 0; i < n; i++)
		add(t, e[i].addr, e[i].size, e[i].bind, e[i].name);
	symtab_finish(t, kind);
}

#define BUILD(t, kind, ...)						\
	do {								\
		static const struct ent e_[] = { __VA_ARGS__ };		\
		build(t, kind, e_, sizeof(e_) / sizeof(e_[0]));		\
	} while (0)

/* Two symbols A then B at 0x1000 (a third, sized, at 0x2000): the name
 * perf keeps. */
static const char *
pair(uint64_t sa, int ba, const char *a, uint64_t sb, int bb, const char *b)
{
	static char kept[64];
	struct symtab t;
	struct ent e[3] = {
		{ 0x1000, sa, ba, a }, { 0x1000, sb, bb, b },
		{ 0x2000, 0x10, STB_GLOBAL, "next" },
	};

	build(&t, SYMTAB_ELF, e, 3);
	CHECK(t.n == 2);
	strncpy(kept, at(&t, 0x1000), sizeof(kept) - 1);
	symtab_free(&t);
	return kept;
}

static void
test_choice(void)
{
	const int G = STB_GLOBAL, W = STB_WEAK, L = STB_LOCAL;

	/* a size first: beats binding, where the sizeless one comes
	 * first (the ends are fixed first: it reaches only its own
	 * address); after a sized one it reaches the next symbol, and
	 * the binding decides */
	CHECK(strcmp(pair(0, G, "nosize", 8, L, "sized"), "sized") == 0);
	CHECK(strcmp(pair(8, L, "sized", 0, G, "nosize"), "nosize") == 0);
	/* non-weak over weak, even local */
	CHECK(strcmp(pair(8, W, "weak", 8, L, "local"), "local") == 0);
	CHECK(strcmp(pair(8, L, "local", 8, W, "weak"), "local") == 0);
	/* global over local */
	CHECK(strcmp(pair(8, L, "local", 8, G, "global"), "global") == 0);
	/* fewer leading underscores */
	CHECK(strcmp(pair(8, G, "__x", 8, G, "_y"), "_y") == 0);
	CHECK(strcmp(pair(8, G, "y_long", 8, G, "__x"), "y_long") == 0);
	/* the longer name */
	CHECK(strcmp(pair(8, G, "abc", 8, G, "abcd"), "abcd") == 0);
	/* a tie: the first, unless a SyS alias */
	CHECK(strcmp(pair(8, G, "abc", 8, G, "xyz"), "abc") == 0);
	CHECK(strcmp(pair(8, G, "SyS_ab", 8, G, "sys_ab"), "sys_ab") == 0);
	CHECK(strcmp(pair(8, G, "compat_SyS_a", 8, G, "compat_sys_a"),
		     "compat_sys_a") == 0);
}

static void
test_ends(void)
{
	struct symtab t;

	BUILD(&t, SYMTAB_ELF, { 0x3000, 0, STB_GLOBAL, "last" },
	      { 0x1000, 0x10, STB_GLOBAL, "sized" },
	      { 0x2000, 0, STB_GLOBAL, "sizeless" });
	CHECK(strcmp(at(&t, 0x100f), "sized") == 0);
	CHECK(strcmp(at(&t, 0x1010), "") == 0);	/* past its end */
	CHECK(strcmp(at(&t, 0xfff), "") == 0);
	CHECK(strcmp(at(&t, 0x2fff), "sizeless") == 0);
	CHECK(strcmp(at(&t, 0x3fff), "last") == 0);	/* to the page's end */
	CHECK(strcmp(at(&t, 0x4000), "") == 0);
	symtab_free(&t);
	BUILD(&t, SYMTAB_ELF, { 0x3010, 0, STB_GLOBAL, "last" });
	CHECK(strcmp(at(&t, 0x4fff), "last") == 0);	/* the next page's */
	CHECK(strcmp(at(&t, 0x5000), "") == 0);
	symtab_free(&t);
}

static void
test_kallsyms(void)
{
	struct symtab t;
	const struct symtab_sym *s;

	BUILD(&t, SYMTAB_KALLSYMS, { 0x1000, 0, STB_GLOBAL, "k1" },
	      { 0x1000, 0, STB_GLOBAL, "k1_alias" },
	      { 0x1800, 0, STB_GLOBAL, "klast" },
	      { 0x100000, 0, STB_LOCAL, "m1\t[mod_a]" },
	      { 0x100100, 0, STB_LOCAL, "m2\t[mod_b]" });
	/* the last listed at one address */
	CHECK(strcmp(at(&t, 0x1000), "k1_alias") == 0);
	/* across the boundary: a page on, not to the module */
	CHECK(strcmp(at(&t, 0x2fff), "klast") == 0);
	CHECK(strcmp(at(&t, 0x3000), "") == 0);
	/* between two modules: to the next one (perf 6.1) */
	s = symtab_find(&t, 0x1000ff);
	CHECK(s != NULL && strcmp(symtab_name(&t, s), "m1") == 0 &&
	      strcmp(symtab_module(&t, s), "[mod_a]") == 0);
	s = symtab_find(&t, 0x1000);
	CHECK(s != NULL && symtab_module(&t, s) == NULL);
	symtab_free(&t);
}

static void
test_perfmap(void)
{
	struct symtab t;

	BUILD(&t, SYMTAB_PERFMAP, { 0x1000, 0x10, STB_GLOBAL, "old" },
	      { 0x1000, 0x10, STB_GLOBAL, "new" },
	      { 0x2000, 0, STB_GLOBAL, "zero" });
	CHECK(strcmp(at(&t, 0x1000), "new") == 0);
	CHECK(strcmp(at(&t, 0x2000), "zero") == 0);
	CHECK(strcmp(at(&t, 0x2001), "") == 0);	/* not fixed up */
	symtab_free(&t);
}

/* A small generator, the same on every run. */
static uint64_t
rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Symbols added with a sorted head and a tail in any order (as a
 * kallsyms file with modules) give the table their sorted order gives:
 * ties kept in the order of addition. */
static void
test_order(void)
{
	enum { N = 3000 };
	static struct ent e[N], sorted[N];
	static char names[N][16];
	size_t heads[] = { 0, 1, N / 2, N - 1, N }, h, i, j, k;
	uint64_t x = 88172645463325252ULL;
	struct symtab a, b;

	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
		for (i = 0; i < N; i++) {
			/* few distinct starts: many ties */
			e[i].addr = i < heads[h] ? 0x1000 + i / 3 * 16
						 : 0x1000 + rnd(&x) % 2000 * 8;
			e[i].size = rnd(&x) % 4 == 0 ? 4 : 0;
			e[i].bind = rnd(&x) % 2 ? STB_GLOBAL : STB_WEAK;
			snprintf(names[i], sizeof(names[i]), "%s%zu",
				 rnd(&x) % 3 ? "f" : "_g", i);
			e[i].name = names[i];
		}
		/* a stable insertion sort by start */
		for (i = 0; i < N; i++) {
			for (j = i; j > 0 && sorted[j - 1].addr > e[i].addr;
			     j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = e[i];
		}
		build(&a, SYMTAB_ELF, e, N);
		build(&b, SYMTAB_ELF, sorted, N);
		CHECK(a.n == b.n);
		for (k = 0; k < a.n && k < b.n; k++)
			CHECK(a.syms[k].start == b.syms[k].start &&
			      a.syms[k].end == b.syms[k].end &&
			      a.syms[k].binding == b.syms[k].binding &&
			      strcmp(symtab_name(&a, &a.syms[k]),
				     symtab_name(&b, &b.syms[k])) == 0);
		symtab_free(&a);
		symtab_free(&b);
	}
}

/* symtext_hex(TEXT, PREFIX): the bytes read, and the number into *V */
static size_t
hex(const char *text, int prefix, uint64_t *v)
{
	return symtext_hex(text, strlen(text), prefix, v);
}

static void
test_hex(void)
{
	uint64_t v;

	CHECK(hex("ffffffff81000000 T _text", 0, &v) == 16 &&
	      v == 0xffffffff81000000ULL);
	CHECK(hex("09aFAf", 0, &v) == 6 && v == 0x09afafULL);
	CHECK(hex("0x1A2b size", 1, &v) == 6 && v == 0x1a2bULL);
	CHECK(hex("0x1A2b", 0, &v) == 1 && v == 0);
	/* none of the characters around the digits is one */
	CHECK(hex("/", 0, &v) == 0 && hex(":", 0, &v) == 0);
	CHECK(hex("@", 0, &v) == 0 && hex("G", 0, &v) == 0);
	CHECK(hex("`", 0, &v) == 0 && hex("g", 0, &v) == 0);
	CHECK(hex("", 0, &v) == 0 && hex("0x", 1, &v) == 0);
	CHECK(hex("12g", 0, &v) == 2 && v == 0x12);
	/* 16 digits at most */
	CHECK(hex("0123456789abcdef", 0, &v) == 16 &&
	      v == 0x0123456789abcdefULL);
	CHECK(hex("0123456789abcdef0", 0, &v) == 0);
	CHECK(hex("0x0123456789abcdef0", 1, &v) == 0);
	/* bounded by the length given */
	CHECK(symtext_hex("12345", 3, 0, &v) == 3 && v == 0x123);
}

int
main(void)
{
	test_choice();
	test_ends();
	test_kallsyms();
	test_perfmap();
	test_order();
	test_hex();
	return unit_exit();
}
