/* SPDX-License-Identifier: MIT */
/*
 * The stack table (see stacktab.h): open addressing over entry indices,
 * with the PCs kept in one pool so that an entry costs 40 bytes plus
 * 8 per frame.  The hash mixes one 64-bit word per step.  Its upper 32
 * bits choose the slot and sit in the slot next to the entry index, so
 * that a probe reads an entry (a likely cache miss in a large table) only
 * when they match, and the table can grow without the entries.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stacktab.h"

#define MIX 0x9e3779b97f4a7c15ULL

static inline uint64_t
mix(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= MIX;
	return h ^ (h >> 32);
}

/* Four lanes mixed apart, so that the multiplications of a deep stack
 * overlap instead of waiting for each other. */
static inline uint64_t
pcs_hash(uint64_t h, const uint64_t *pcs, uint32_t n)
{
	uint64_t a = h, b = h + 1, c = h + 2, d = h + 3;
	uint32_t i = 0;

	for (; i + 4 <= n; i += 4) {
		a = mix(a, pcs[i]);
		b = mix(b, pcs[i + 1]);
		c = mix(c, pcs[i + 2]);
		d = mix(d, pcs[i + 3]);
	}
	for (; i < n; i++)
		a = mix(a, pcs[i]);
	return mix(mix(mix(a, b), c), d);
}

static uint64_t
stack_hash(uint32_t ev, uint32_t space, const uint64_t *pcs, uint32_t n)
{
	return pcs_hash(mix((uint64_t)space << 32 | n,
			    0x2545f4914f6cdd1dULL + ev), pcs, n);
}

void
stacktab_init(struct stacktab *t)
{
	memset(t, 0, sizeof(*t));
}

void
stacktab_keep_periods(struct stacktab *t)
{
	t->with_periods = true;
}

void
stacktab_release(struct stacktab *t)
{
	free(t->periods);
	free(t->entries);
	free(t->pool);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

#define TAG(h) ((uint32_t)((h) >> 32))

static int
grow_slots(struct stacktab *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 1024, i, j;
	uint64_t *s;

	if (n > SIZE_MAX / sizeof(*s) || n > UINT32_MAX)
		return -1;
	s = calloc(n, sizeof(*s));
	if (s == NULL)
		return -1;
	for (i = 0; i < t->nslots; i++) {
		if (t->slots[i] == 0)
			continue;
		j = (size_t)(t->slots[i] >> 32) & (n - 1);
		while (s[j] != 0)
			j = (j + 1) & (n - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return 0;
}

/* The slot of the stack, or the free slot where it would go. */
static size_t
probe(const struct stacktab *t, uint64_t h, uint32_t ev, uint32_t space,
      const uint64_t *pcs, uint32_t n)
{
	uint64_t tag = (uint64_t)TAG(h) << 32;
	size_t j = (size_t)TAG(h) & (t->nslots - 1);

	for (; t->slots[j] != 0; j = (j + 1) & (t->nslots - 1)) {
		const struct stack_entry *e;

		if ((t->slots[j] & 0xffffffff00000000ULL) != tag)
			continue;
		e = &t->entries[(uint32_t)t->slots[j] - 1];
		if (e->n == n && e->space == space && e->ev == ev &&
		    memcmp(t->pool + e->off, pcs, (size_t)n * 8) == 0)
			break;
	}
	return j;
}

const struct stack_entry *
stacktab_find(const struct stacktab *t, uint32_t ev, uint32_t space,
	      const uint64_t *pcs, uint32_t n)
{
	size_t j;

	if (t->nslots == 0)
		return NULL;
	j = probe(t, stack_hash(ev, space, pcs, n), ev, space, pcs, n);
	return t->slots[j] ? &t->entries[(uint32_t)t->slots[j] - 1] : NULL;
}

int
stacktab_add(struct stacktab *t, uint32_t ev, uint32_t space,
	     const uint64_t *pcs, uint32_t n, uint64_t count, uint64_t period)
{
	return stacktab_add_hashed(t, stack_hash(ev, space, pcs, n), ev, space,
				   pcs, n, count, period) < 0 ? -1 : 0;
}

int64_t
stacktab_add_if(struct stacktab *t, uint32_t hint, uint32_t ev,
		uint32_t space, const uint64_t *pcs, uint32_t n, uint64_t count,
		uint64_t period)
{
	struct stack_entry *e;

	if (hint >= t->nr)
		return -1;
	e = &t->entries[hint];
	if (e->n != n || e->space != space || e->ev != ev ||
	    memcmp(t->pool + e->off, pcs, (size_t)n * 8) != 0)
		return -1;
	e->count += count;
	if (t->with_periods)
		t->periods[hint] += period;
	return hint;
}

uint64_t
stacktab_hash(uint32_t ev, uint32_t space, const uint64_t *pcs, uint32_t n)
{
	return stack_hash(ev, space, pcs, n);
}

int64_t
stacktab_add_hashed(struct stacktab *t, uint64_t h, uint32_t ev,
		    uint32_t space, const uint64_t *pcs, uint32_t n,
		    uint64_t count, uint64_t period)
{
	struct stack_entry *e;
	size_t j;

	if ((t->nslots == 0 && t->nr > 0) || n > STACKTAB_MAX_PCS)
		return -1;	/* stacktab_drop_index(), or too deep */
	/* Up to 3/4 full: the tags make a long probe cheap, and the slots
	 * cost 11 to 21 bytes per stack. */
	if ((t->nr + 1) * 4 > t->nslots * 3 && grow_slots(t) < 0)
		return -1;
	j = probe(t, h, ev, space, pcs, n);
	if (t->slots[j] != 0) {
		e = &t->entries[(uint32_t)t->slots[j] - 1];
		e->count += count;
		if (t->with_periods)
			t->periods[e - t->entries] += period;
		return (uint32_t)t->slots[j] - 1;
	}
	if (t->nr >= UINT32_MAX - 1 || t->pool_len + n > STACKTAB_MAX_POOL)
		return -1;
	if (t->nr == t->cap_entries) {
		size_t nc = t->cap_entries ? t->cap_entries * 2 : 1024;
		struct stack_entry *ne;

		if (nc > SIZE_MAX / sizeof(*ne))
			return -1;
		if (t->with_periods) {
			uint64_t *np = realloc(t->periods, nc * sizeof(*np));

			if (np == NULL)
				return -1;
			t->periods = np;
		}
		ne = realloc(t->entries, nc * sizeof(*ne));
		if (ne == NULL)
			return -1;
		t->entries = ne;
		t->cap_entries = nc;
	}
	if (t->pool_cap - t->pool_len < n) {
		size_t nc = t->pool_cap ? t->pool_cap : 8192;
		uint64_t *np;

		while (nc - t->pool_len < n) {
			if (nc > SIZE_MAX / 16)
				return -1;
			nc *= 2;
		}
		np = realloc(t->pool, nc * sizeof(*np));
		if (np == NULL)
			return -1;
		t->pool = np;
		t->pool_cap = nc;
	}
	memcpy(t->pool + t->pool_len, pcs, (size_t)n * 8);
	e = &t->entries[t->nr];
	e->count = count;
	if (t->with_periods)
		t->periods[t->nr] = period;
	e->off = t->pool_len;
	e->space = space;
	e->ev = ev;
	e->n = n;
	t->pool_len += n;
	t->slots[j] = (uint64_t)TAG(h) << 32 | (uint32_t)++t->nr;
	return (int64_t)t->nr - 1;
}

void
stacktab_drop_index(struct stacktab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->nslots = 0;
}

/* How many stacks ahead stacktab_merge() hashes, to fetch their slots
 * before it needs them. */
#define MERGE_AHEAD 8

static inline uint64_t
merge_hash(const struct stacktab *t, const struct stack_entry *e)
{
	return pcs_hash(e->n, t->pool + e->off, (uint32_t)e->n);
}

size_t
stacktab_merge(struct stacktab *t, struct stack_entry **e, size_t n)
{
	uint64_t *s, ahead[MERGE_AHEAD];
	size_t ns = 16, i, j, m = 0;

	while (ns - ns / 4 <= n) {
		if (ns > SIZE_MAX / 2 / sizeof(*s))
			return SIZE_MAX;
		ns *= 2;
	}
	if (n >= UINT32_MAX)
		return SIZE_MAX;
	s = calloc(ns, sizeof(*s));
	if (s == NULL)
		return SIZE_MAX;
	/* The slots hold the hash's upper half (it also picks the slot) next
	 * to the index + 1, as in the table itself: an entry is read only
	 * when they match. */
	for (i = 0; i < MERGE_AHEAD && i < n; i++) {
		ahead[i] = merge_hash(t, e[i]);
		__builtin_prefetch(&s[(size_t)TAG(ahead[i]) & (ns - 1)]);
	}
	for (i = 0; i < n; i++) {
		const uint64_t *v = t->pool + e[i]->off;
		uint64_t h = ahead[i % MERGE_AHEAD];
		uint64_t tag = (uint64_t)TAG(h) << 32;

		if (i + MERGE_AHEAD < n) {
			uint64_t g = merge_hash(t, e[i + MERGE_AHEAD]);

			ahead[i % MERGE_AHEAD] = g;
			__builtin_prefetch(&s[(size_t)TAG(g) & (ns - 1)]);
		}
		j = (size_t)TAG(h) & (ns - 1);
		for (; s[j] != 0; j = (j + 1) & (ns - 1)) {
			struct stack_entry *x;

			if ((s[j] & 0xffffffff00000000ULL) != tag)
				continue;
			x = e[(uint32_t)s[j] - 1];
			if (x->n == e[i]->n &&
			    memcmp(t->pool + x->off, v,
				   (size_t)x->n * 8) == 0)
				break;
		}
		if (s[j] != 0) {
			struct stack_entry *x = e[(uint32_t)s[j] - 1];

			x->count += e[i]->count;
			if (t->with_periods)
				t->periods[x - t->entries] +=
					t->periods[e[i] - t->entries];
			continue;
		}
		e[m] = e[i];
		s[j] = tag | (uint32_t)++m;
	}
	free(s);
	return m;
}

uint64_t *
stacktab_take_pool(struct stacktab *t, size_t *len, size_t *cap)
{
	uint64_t *p = t->pool;

	*len = t->pool_len;
	*cap = t->pool_cap;
	t->pool = NULL;
	t->pool_len = t->pool_cap = 0;
	return p;
}
