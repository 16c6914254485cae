/* SPDX-License-Identifier: MIT */
/* Tables of symbols with perf's fix-ups: see symtab.h. */
#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "grow.h"
#include "symtab.h"

/* struct symtab_sym's shown: what symtab_show() knows of its name. */
enum {
	SHOWN_NOT_YET,		/* not shown yet */
	SHOWN_AS_ADDED,		/* shown as added */
	SHOWN_KEPT,		/* shown otherwise: in the table's shown */
};

void
symtab_init(struct symtab *t)
{
	memset(t, 0, sizeof(*t));
}

void
symtab_free(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->nshown; i++)
		free(t->shown[i].name);
	free(t->shown);
	hashtab_free(&t->shown_index);
	free(t->syms);
	free(t->names);
	symtab_init(t);
}

/* Room for LEN bytes and a NUL more in T's names.  0, or -1. */
static int
names_room(struct symtab *t, size_t len)
{
	if (len > SIZE_MAX - 1 - t->names_len)
		return -1;
	if (t->names_len + len + 1 > t->names_cap) {
		char *nn = grow(t->names, &t->names_cap,
				t->names_len + len + 1, 1, 1024);

		if (nn == NULL)
			return -1;
		t->names = nn;
	}
	return 0;
}

int
symtab_add_ref(struct symtab *t, uint64_t start, uint64_t size,
	       int binding, int type, size_t name)
{
	struct symtab_sym *s;

	if (t->n == t->cap) {
		if (t->n >= UINT32_MAX)
			return -1;
		s = grow(t->syms, &t->cap, t->n + 1, sizeof(*s), 64);
		if (s == NULL)
			return -1;
		t->syms = s;
	}
	s = &t->syms[t->n];
	s->start = start;
	/* an end beyond the address space ends at its top */
	s->end = size > UINT64_MAX - start ? UINT64_MAX : start + size;
	s->name = name;
	s->seq = (uint32_t)t->n;
	s->binding = (uint8_t)binding;
	s->type = (uint8_t)type;
	s->shown = SHOWN_NOT_YET;
	t->n++;
	return 0;
}

int
symtab_add_block(struct symtab *t, const char *p, size_t len, size_t *base)
{
	if (names_room(t, len) < 0)
		return -1;
	memcpy(t->names + t->names_len, p, len);
	t->names[t->names_len + len] = '\0';
	*base = t->names_len;
	t->names_len += len + 1;
	return 0;
}

int
symtab_add(struct symtab *t, uint64_t start, uint64_t size, int binding,
	   int type, const char *name, size_t len)
{
	size_t base;

	if (symtab_add_block(t, name, len, &base) < 0 ||
	    symtab_add_ref(t, start, size, binding, type, base) < 0)
		return -1;
	return 0;
}

static int
cmp_start(const void *x, const void *y)
{
	const struct symtab_sym *a = x, *b = y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/*
 * Sort T's symbols by start (then order of addition).  A kallsyms file
 * comes sorted but for its modules' symbols at the end, and an ELF
 * table mostly so: the sorted head is kept, only the rest sorted, and
 * the two merged (the order is total: any sort gives the same).
 */
static void
sort_starts(struct symtab *t)
{
	struct symtab_sym *v = t->syms, *tail;
	size_t n = t->n, head = 1, i, j, k;

	while (head < n && cmp_start(&v[head - 1], &v[head]) <= 0)
		head++;
	if (head == n)
		return;
	tail = malloc((n - head) * sizeof(*tail));
	if (tail == NULL) {
		qsort(v, n, sizeof(*v), cmp_start);
		return;
	}
	memcpy(tail, v + head, (n - head) * sizeof(*tail));
	qsort(tail, n - head, sizeof(*tail), cmp_start);
	/* merge from the back, into the room the tail left */
	i = head;
	j = n - head;
	k = n;
	while (j > 0) {
		if (i > 0 && cmp_start(&v[i - 1], &tail[j - 1]) > 0)
			v[--k] = v[--i];
		else
			v[--k] = tail[--j];
	}
	free(tail);
}

static size_t
underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* S's name as perf compares it in a tie: demangled (into BUF) if T
 * demangles. */
static const char *
tie_name(const struct symtab *t, const struct symtab_sym *s, char *buf)
{
	const char *name = symtab_name(t, s);

	if ((t->show & SYMTAB_DEMANGLE) && demangle_into(name, buf) > 0)
		return buf;
	return name;
}

/* True if perf keeps A rather than B of two symbols at one address (A
 * the one it met first in its address order). */
static bool
keep_first(const struct symtab *t, const struct symtab_sym *a,
	   const struct symtab_sym *b)
{
	char ba[DEMANGLE_BUF], bb[DEMANGLE_BUF];
	const char *na, *nb;
	bool za = a->end == a->start, zb = b->end == b->start;
	size_t ua, ub, la, lb;

	if (za != zb)
		return zb;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	na = tie_name(t, a, ba);
	nb = tie_name(t, b, bb);
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ua < ub;
	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la > lb;
	/* perf's tie-break keeps the first but for syscall aliases */
	return strncmp(na, "SyS", 3) != 0 && strncmp(na, "compat_SyS", 10) != 0;
}

/* The module a kallsyms name carries ("[ext4]"), or NULL. */
static const char *
module_of(const char *name)
{
	return strchr(name, '[');
}

static uint64_t
page_after(uint64_t a)
{
	uint64_t r = (a + 4095) & ~(uint64_t)4095;

	return r < a ? UINT64_MAX : r;
}

/* A perf map: one symbol per start, the last one written (a JIT that
 * reuses an address writes the new name after the old). */
static void
finish_perfmap(struct symtab *t)
{
	size_t i, k;

	for (i = 0, k = 0; i < t->n; i++) {
		if (k > 0 && t->syms[k - 1].start == t->syms[i].start)
			t->syms[k - 1] = t->syms[i];
		else
			t->syms[k++] = t->syms[i];
	}
	t->n = k;
}

/* A kallsyms table's names lose their module after a NUL, where
 * symtab_module() finds it. */
static void
cut_modules(struct symtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		char *tab = strchr(t->names + t->syms[i].name, '\t');

		if (tab != NULL)
			*tab = '\0';
	}
}

const char *
symtab_module(const struct symtab *t, const struct symtab_sym *s)
{
	const char *name = symtab_name(t, s);
	const char *m = name + strlen(name) + 1;

	if (t->kind != SYMTAB_KALLSYMS || m >= t->names + t->names_len ||
	    *m != '[')
		return NULL;
	return m;
}

void
symtab_finish(struct symtab *t, enum symtab_kind kind)
{
	bool kallsyms = kind == SYMTAB_KALLSYMS;
	const char *pm;
	size_t i, k;

	t->kind = kind;
	if (t->n == 0)
		return;
	sort_starts(t);
	if (kind == SYMTAB_PERFMAP) {
		finish_perfmap(t);
		return;
	}
	/* sizes first: a symbol of size 0 reaches the next one */
	pm = kallsyms ? module_of(symtab_name(t, &t->syms[0])) : NULL;
	for (i = 0; i + 1 < t->n; i++) {
		struct symtab_sym *p = &t->syms[i], *c = &t->syms[i + 1];
		const char *cm;

		if (p->end != p->start) {
			if (kallsyms)
				pm = module_of(symtab_name(t, c));
			continue;
		}
		if (!kallsyms) {
			p->end = c->start;
			continue;
		}
		/* perf 6.1 tells only the kernel from modules here: the
		 * last symbol of one module reaches the next module */
		cm = module_of(symtab_name(t, c));
		if ((pm == NULL) != (cm == NULL))
			p->end = p->end > UINT64_MAX - 4096
					 ? UINT64_MAX
					 : page_after(p->end + 4096);
		else
			p->end = c->start;
		pm = cm;
	}
	if (t->syms[t->n - 1].end == t->syms[t->n - 1].start) {
		struct symtab_sym *l = &t->syms[t->n - 1];
		uint64_t e = page_after(l->start);

		l->end = e > UINT64_MAX - 4096 ? UINT64_MAX : e + 4096;
	}
	/* then one symbol per address */
	for (i = 0, k = 0; i < t->n; i++) {
		if (k > 0 && t->syms[k - 1].start == t->syms[i].start) {
			if (!keep_first(t, &t->syms[k - 1], &t->syms[i]))
				t->syms[k - 1] = t->syms[i];
			continue;
		}
		t->syms[k++] = t->syms[i];
	}
	t->n = k;
	if (kallsyms)
		cut_modules(t);
}

const struct symtab_sym *
symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;
	const struct symtab_sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &t->syms[lo - 1];
	if (addr < s->end || addr == s->start)
		return s;
	return NULL;
}

/*
 * S's name as T shows it: its name as added, or (when that is not how T
 * shows it) one made in *BUF (of *CAP bytes, grown as needed).  NULL
 * when out of memory.
 */
static const char *
compose(const struct symtab *t, const struct symtab_sym *s, char **buf,
	size_t *cap)
{
	const char *name = symtab_name(t, s);
	char dm[DEMANGLE_BUF];
	size_t len = 0;

	if (t->show & SYMTAB_DEMANGLE)
		len = demangle_into(name, dm);
	if (len > 0)
		name = dm;
	else if (!(t->show & SYMTAB_PLT))
		return name;
	else
		len = strlen(name);
	if (len + sizeof("@plt") > *cap) {
		char *nb = grow(*buf, cap, len + sizeof("@plt"), 1, 64);

		if (nb == NULL)
			return NULL;
		*buf = nb;
	}
	memcpy(*buf, name, len);
	if (t->show & SYMTAB_PLT)
		memcpy(*buf + len, "@plt", sizeof("@plt"));
	else
		(*buf)[len] = '\0';
	return *buf;
}

const char *
symtab_show(struct symtab *t, const struct symtab_sym *cs)
{
	struct symtab_sym *s = &t->syms[cs - t->syms];
	uint32_t idx = (uint32_t)(cs - t->syms), i;
	struct hashtab_iter it;
	struct symtab_shown *v;
	const char *name;
	char *buf = NULL;
	size_t cap = 0;
	uint64_t h = hashtab_hash64(idx);

	if (t->show == 0 || s->shown == SHOWN_AS_ADDED)
		return symtab_name(t, s);
	if (s->shown == SHOWN_KEPT) {
		for (i = hashtab_probe(&t->shown_index, h, &it);
		     i != HASHTAB_NONE; i = hashtab_next(&t->shown_index, &it))
			if (t->shown[i].sym == idx)
				return t->shown[i].name;
		return NULL;	/* not reached */
	}
	name = compose(t, s, &buf, &cap);
	if (name == NULL)
		return NULL;
	if (name != buf) {
		s->shown = SHOWN_AS_ADDED;
		return name;
	}
	if (t->nshown == t->cap_shown) {
		v = grow(t->shown, &t->cap_shown, t->nshown + 1, sizeof(*v),
			 16);
		if (v == NULL)
			goto nomem;
		t->shown = v;
	}
	if (hashtab_reserve(&t->shown_index, t->nshown + 1) < 0)
		goto nomem;
	for (i = hashtab_probe(&t->shown_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&t->shown_index, &it))
		;
	hashtab_insert(&t->shown_index, &it, (uint32_t)t->nshown);
	v = &t->shown[t->nshown++];
	v->sym = idx;
	v->name = buf;
	s->shown = SHOWN_KEPT;
	return buf;
nomem:
	free(buf);
	return NULL;
}

int
symtab_each_shown(const struct symtab *t,
		  int (*fn)(void *ctx, const char *name), void *ctx)
{
	char *buf = NULL;
	size_t cap = 0, i;
	int r = 0;

	for (i = 0; i < t->n && r == 0; i++) {
		const char *name = compose(t, &t->syms[i], &buf, &cap);

		r = name != NULL ? fn(ctx, name) : -1;
	}
	free(buf);
	return r;
}
