/* SPDX-License-Identifier: MIT */
/*
 * The stack table (see stacktab.h): a hash index (hashtab.h) over entry
 * indices, with the PCs kept in one pool (or packed) so that a stack
 * costs 24 bytes of entry, 11 to 21 bytes of slots (up to 3/4 full), and
 * 8 bytes per frame (about 4 packed).  The hash mixes one 64-bit word per
 * step.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "grow.h"
#include "hashtab.h"
#include "stacktab.h"

struct stacktab {
	struct stack_entry *entries;
	size_t nr, cap_entries;
	uint64_t *pool;		/* PCs of all entries, back to back */
	size_t pool_len, pool_cap;
	struct hashtab index;	/* of the entries, by stacktab_hash() */
	uint64_t *periods;	/* sum of each entry's sample periods, */
	bool with_periods;	/* kept only when asked for */
	/* Packed (stacktab_pack()): the PCs are kept in PACKED instead of
	 * POOL, most as one 32-bit word, the difference from the PC before
	 * (stacktab.c).  Frames of one binary lie close together, so that
	 * a PC takes about 4 bytes instead of 8. */
	bool packed_mode;
	uint32_t *packed;
	size_t packed_len, packed_cap;	/* in words */
	uint64_t npcs;		/* PCs held in PACKED */
};

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
stack_hash(uint32_t ev, uint32_t ctx, const uint64_t *pcs, uint32_t n)
{
	return pcs_hash(mix((uint64_t)ctx << 32 | n,
			    0x2545f4914f6cdd1dULL + ev), pcs, n);
}

struct stacktab *
stacktab_new(void)
{
	return calloc(1, sizeof(struct stacktab));
}

void
stacktab_free(struct stacktab *t)
{
	if (t == NULL)
		return;
	stacktab_clear(t);
	free(t);
}

void
stacktab_keep_periods(struct stacktab *t)
{
	t->with_periods = true;
}

void
stacktab_pack(struct stacktab *t)
{
	if (t->nr == 0)
		t->packed_mode = true;
}

/*
 * Packed, a PC is the difference D from the PC before it (from 0 for the
 * first of a stack), in 32-bit words:
 *
 *   0 and 31 bits      D in [-2^30, 2^30): between the frames of one
 *                      binary, mostly
 *   10 and 30 bits,    D in [-2^61, 2^61): the low 30 bits, then the
 *   then 32 bits       next 32; any jump between user and kernel text
 *   11 and 30 zeros,   any other PC, low half first
 *   then 2 words
 *
 * so that no PC of a real program takes more than its 8 bytes (the
 * unpacking can then be done in place), and most take 4.
 */
#define PACKED_ESC 0xc0000000u
#define PACKED_MAX 3		/* the most words a PC takes */

/* The words of PC packed after PREV into W; returns how many. */
static inline unsigned
pack_pc(uint32_t w[PACKED_MAX], uint64_t prev, uint64_t pc)
{
	uint64_t d = pc - prev;

	if (d + ((uint64_t)1 << 30) < (uint64_t)1 << 31) {
		w[0] = (uint32_t)d & 0x7fffffffu;
		return 1;
	}
	if (d + ((uint64_t)1 << 61) < (uint64_t)1 << 62) {
		w[0] = 0x80000000u | ((uint32_t)d & 0x3fffffffu);
		w[1] = (uint32_t)(d >> 30);
		return 2;
	}
	w[0] = PACKED_ESC;
	w[1] = (uint32_t)pc;
	w[2] = (uint32_t)(pc >> 32);
	return 3;
}

static uint32_t *
pack_pcs(uint32_t *w, const uint64_t *pcs, uint32_t n)
{
	uint64_t prev = 0;
	uint32_t k;

	for (k = 0; k < n; k++) {
		w += pack_pc(w, prev, pcs[k]);
		prev = pcs[k];
	}
	return w;
}

static void
unpack_pcs(const uint32_t *w, uint64_t *pcs, uint32_t n)
{
	uint64_t pc = 0, d;
	uint32_t k;

	for (k = 0; k < n; k++) {
		if (!(w[0] & 0x80000000u)) {
			/* 31 bits, sign-extended */
			pc += (uint64_t)(w[0] ^ 0x40000000u) - 0x40000000u;
			w++;
		} else if (!(w[0] & 0x40000000u)) {
			d = (uint64_t)w[1] << 30 | (w[0] & 0x3fffffffu);
			pc += (d ^ (uint64_t)1 << 61) - ((uint64_t)1 << 61);
			w += 2;
		} else {
			pc = w[1] | (uint64_t)w[2] << 32;
			w += 3;
		}
		pcs[k] = pc;
	}
}

/* Whether entry E holds stack PCS[0..N) of EV in CTX.  Packed, the PCs
 * are compared packed. */
static inline bool
same_stack(const struct stacktab *t, const struct stack_entry *e,
	   uint32_t ev, uint32_t ctx, const uint64_t *pcs, uint32_t n)
{
	const uint32_t *w;
	uint32_t k, m, x[PACKED_MAX];
	uint64_t prev = 0;

	if (e->n != n || e->ctx != ctx || e->ev != ev)
		return false;
	if (n == 0)
		return true;
	if (!t->packed_mode)
		return memcmp(t->pool + e->off, pcs, (size_t)n * 8) == 0;
	w = t->packed + e->off;
	for (k = 0; k < n; k++) {
		m = pack_pc(x, prev, pcs[k]);
		if (w[0] != x[0] ||
		    (m > 1 && (w[1] != x[1] || (m > 2 && w[2] != x[2]))))
			return false;
		w += m;
		prev = pcs[k];
	}
	return true;
}

/* The PCs appended to the pool, or packed; the offset of the first in
 * *OFF.  0, or -1 when out of memory or past the limits. */
static int
append_pcs(struct stacktab *t, const uint64_t *pcs, uint32_t n, size_t *off)
{
	if (n == 0) {
		*off = t->packed_mode ? t->packed_len : t->pool_len;
		return 0;
	}
	if (t->packed_mode) {
		size_t most = (size_t)n * PACKED_MAX;

		if (t->npcs + n > STACKTAB_MAX_POOL ||
		    t->packed_len + most > STACKTAB_MAX_POOL)
			return -1;
		if (t->packed_cap - t->packed_len < most) {
			uint32_t *np = grow(t->packed, &t->packed_cap,
					    t->packed_len + most, 4, 16384);

			if (np == NULL)
				return -1;
			t->packed = np;
		}
		*off = t->packed_len;
		t->packed_len = (size_t)(pack_pcs(t->packed + t->packed_len,
						  pcs, n) - t->packed);
		t->npcs += n;
		return 0;
	}
	if (t->pool_len + n > STACKTAB_MAX_POOL)
		return -1;
	if (t->pool_cap - t->pool_len < n) {
		uint64_t *np = grow(t->pool, &t->pool_cap, t->pool_len + n, 8,
				    8192);

		if (np == NULL)
			return -1;
		t->pool = np;
	}
	memcpy(t->pool + t->pool_len, pcs, (size_t)n * 8);
	*off = t->pool_len;
	t->pool_len += n;
	return 0;
}

int
stacktab_unpack(struct stacktab *t)
{
	size_t i, need, pc, end, tmp_n = 0;
	uint32_t *buf;		/* a PC of the pool is two of its words */
	uint64_t *tmp = NULL;
	bool in_place = true;

	if (!t->packed_mode)
		return 0;
	if (t->npcs > SIZE_MAX / 8)
		return -1;
	/* The stacks are unpacked from the last to the first, each to its
	 * place in the same memory: that place must not hold the packed
	 * words of an earlier stack (true unless PCs of three words
	 * outweigh those of one), and a stack whose place overlaps its own
	 * packed words goes through a copy. */
	for (i = 0, pc = 0; i < t->nr; i++) {
		end = i + 1 < t->nr ? t->entries[i + 1].off : t->packed_len;
		if (pc * 2 < t->entries[i].off)
			in_place = false;
		if (pc * 2 < end && t->entries[i].n > tmp_n)
			tmp_n = t->entries[i].n;
		pc += t->entries[i].n;
	}
	need = (size_t)t->npcs * 2;
	if (!in_place) {
		buf = malloc(need ? need * 4 : 1);
		if (buf == NULL)
			return -1;
		for (i = 0, pc = 0; i < t->nr; i++) {
			unpack_pcs(t->packed + t->entries[i].off,
				   (uint64_t *)(void *)buf + pc,
				   (uint32_t)t->entries[i].n);
			t->entries[i].off = pc;
			pc += t->entries[i].n;
		}
		free(t->packed);
	} else {
		if (need < t->packed_len)
			need = t->packed_len;
		if (tmp_n > 0) {
			tmp = malloc(tmp_n * sizeof(*tmp));
			if (tmp == NULL)
				return -1;
		}
		buf = realloc(t->packed, need ? need * 4 : 1);
		if (buf == NULL) {
			free(tmp);
			return -1;
		}
		end = t->packed_len;
		for (i = t->nr, pc = t->npcs; i-- > 0;) {
			struct stack_entry *e = &t->entries[i];
			uint64_t *to = (uint64_t *)(void *)buf;
			uint32_t n = (uint32_t)e->n;
			size_t start = e->off;

			pc -= n;
			if (pc * 2 >= end) {
				unpack_pcs(buf + start, to + pc, n);
			} else {
				unpack_pcs(buf + start, tmp, n);
				memmove(to + pc, tmp, (size_t)n * 8);
			}
			e->off = pc;
			end = start;
		}
		free(tmp);
	}
	t->pool = (uint64_t *)(void *)buf;
	t->pool_len = t->npcs;
	t->pool_cap = need / 2;
	t->packed = NULL;
	t->packed_len = t->packed_cap = 0;
	t->npcs = 0;
	t->packed_mode = false;
	return 0;
}

void
stacktab_clear(struct stacktab *t)
{
	free(t->packed);
	free(t->periods);
	free(t->entries);
	free(t->pool);
	hashtab_free(&t->index);
	memset(t, 0, sizeof(*t));
}

/* The index of the stack's entry, or HASHTAB_NONE with IT where it would
 * go.  T must have slots. */
static inline uint32_t
probe(const struct stacktab *t, uint64_t h, uint32_t ev, uint32_t ctx,
      const uint64_t *pcs, uint32_t n, struct hashtab_iter *it)
{
	uint32_t i;

	for (i = hashtab_probe(&t->index, h, it); i != HASHTAB_NONE;
	     i = hashtab_next(&t->index, it))
		if (same_stack(t, &t->entries[i], ev, ctx, pcs, n))
			break;
	return i;
}

const struct stack_entry *
stacktab_find(const struct stacktab *t, uint32_t ev, uint32_t ctx,
	      const uint64_t *pcs, uint32_t n)
{
	struct hashtab_iter it;
	uint32_t i;

	if (t->index.nslots == 0)
		return NULL;
	i = probe(t, stack_hash(ev, ctx, pcs, n), ev, ctx, pcs, n, &it);
	return i != HASHTAB_NONE ? &t->entries[i] : NULL;
}

int
stacktab_add(struct stacktab *t, uint32_t ev, uint32_t ctx,
	     const uint64_t *pcs, uint32_t n, uint64_t count, uint64_t period)
{
	return stacktab_add_hashed(t, stack_hash(ev, ctx, pcs, n), ev, ctx,
				   pcs, n, count, period) < 0 ? -1 : 0;
}

int64_t
stacktab_add_if(struct stacktab *t, uint32_t hint, uint32_t ev,
		uint32_t ctx, const uint64_t *pcs, uint32_t n, uint64_t count,
		uint64_t period)
{
	struct stack_entry *e;

	if (hint >= t->nr)
		return -1;
	e = &t->entries[hint];
	if (!same_stack(t, e, ev, ctx, pcs, n))
		return -1;
	e->count = count_add(e->count, count);
	if (t->with_periods)
		t->periods[hint] = count_add(t->periods[hint], period);
	return hint;
}

uint64_t
stacktab_hash(uint32_t ev, uint32_t ctx, const uint64_t *pcs, uint32_t n)
{
	return stack_hash(ev, ctx, pcs, n);
}

int64_t
stacktab_add_hashed(struct stacktab *t, uint64_t h, uint32_t ev,
		    uint32_t ctx, const uint64_t *pcs, uint32_t n,
		    uint64_t count, uint64_t period)
{
	struct stack_entry *e, fresh;
	struct hashtab_iter it;
	uint32_t i;
	size_t off;

	if ((t->index.nslots == 0 && t->nr > 0) || n > STACKTAB_MAX_PCS)
		return -1;	/* stacktab_drop_index(), or too deep */
	if (hashtab_reserve(&t->index, t->nr + 1) < 0)
		return -1;
	i = probe(t, h, ev, ctx, pcs, n, &it);
	if (i != HASHTAB_NONE) {
		e = &t->entries[i];
		e->count = count_add(e->count, count);
		if (t->with_periods)
			t->periods[i] = count_add(t->periods[i], period);
		return i;
	}
	if (t->nr >= UINT32_MAX - 1)
		return -1;
	if (t->nr == t->cap_entries) {
		struct stack_entry *ne;
		size_t nc = grow_cap(t->cap_entries, t->nr + 1, sizeof(*ne),
				     1024);

		if (nc == 0)
			return -1;
		if (t->with_periods) {
			uint64_t *np = grow_realloc(t->periods, nc,
						    sizeof(*np));

			if (np == NULL)
				return -1;
			t->periods = np;
		}
		ne = grow_realloc(t->entries, nc, sizeof(*ne));
		if (ne == NULL)
			return -1;
		t->entries = ne;
		t->cap_entries = nc;
	}
	if (append_pcs(t, pcs, n, &off) < 0)
		return -1;
	/* Made aside and copied: setting a bit-field in place reads its
	 * word, and a fresh page read before it is written costs a second
	 * fault (calloc_written() in hashtab.c). */
	memset(&fresh, 0, sizeof(fresh));
	fresh.count = count;
	fresh.off = off;
	fresh.n = n;
	fresh.ctx = ctx;
	fresh.ev = ev;
	memcpy(&t->entries[t->nr], &fresh, sizeof(fresh));
	if (t->with_periods)
		t->periods[t->nr] = period;
	hashtab_insert(&t->index, &it, (uint32_t)t->nr);
	return (int64_t)t->nr++;
}

void
stacktab_drop_index(struct stacktab *t)
{
	hashtab_free(&t->index);
}

/* How many stacks ahead stacktab_merge() hashes, to fetch their slots
 * before it needs them. */
#define MERGE_AHEAD 8

static inline uint64_t
merge_hash(const struct stacktab *t, const struct stack_entry *e)
{
	return pcs_hash(e->n, t->pool + e->off, (uint32_t)e->n);
}

int
stacktab_merge(struct stacktab *t, struct stack_entry **e, size_t *np)
{
	uint32_t *s, tag_mask, idx_mask;
	uint64_t ahead[MERGE_AHEAD];
	size_t n = *np, ns = 16, i, j, m = 0;
	unsigned bits = 1;

	while (ns - ns / 4 <= n) {
		if (ns > SIZE_MAX / 2 / sizeof(*s))
			return -1;
		ns *= 2;
	}
	if (n >= UINT32_MAX || stacktab_unpack(t) < 0)
		return -1;
	s = calloc(ns, sizeof(*s));
	if (s == NULL)
		return -1;
	/* A slot holds the index + 1 of an entry kept, in the fewest bits
	 * that hold N, and above it as many of the hash's top bits as fit
	 * (none from 2^31 stacks on): an entry is read only when they
	 * match.  The hash's low bits pick the slot. */
	while (bits < 32 && ((uint64_t)1 << bits) <= n)
		bits++;
	idx_mask = bits == 32 ? UINT32_MAX : ((uint32_t)1 << bits) - 1;
	tag_mask = ~idx_mask;
	for (i = 0; i < MERGE_AHEAD && i < n; i++) {
		ahead[i] = merge_hash(t, e[i]);
		__builtin_prefetch(&s[(size_t)ahead[i] & (ns - 1)]);
	}
	for (i = 0; i < n; i++) {
		const uint64_t *v = t->pool + e[i]->off;
		uint64_t h = ahead[i % MERGE_AHEAD];
		uint32_t tag = (uint32_t)(h >> 32) & tag_mask;

		if (i + MERGE_AHEAD < n) {
			uint64_t g = merge_hash(t, e[i + MERGE_AHEAD]);

			ahead[i % MERGE_AHEAD] = g;
			__builtin_prefetch(&s[(size_t)g & (ns - 1)]);
		}
		j = (size_t)h & (ns - 1);
		for (; s[j] != 0; j = (j + 1) & (ns - 1)) {
			struct stack_entry *x;

			if ((s[j] & tag_mask) != tag)
				continue;
			x = e[(s[j] & idx_mask) - 1];
			if (x->n == e[i]->n &&
			    memcmp(t->pool + x->off, v,
				   (size_t)x->n * 8) == 0)
				break;
		}
		if (s[j] != 0) {
			struct stack_entry *x = e[(s[j] & idx_mask) - 1];

			x->count = count_add(x->count, e[i]->count);
			if (t->with_periods)
				t->periods[x - t->entries] = count_add(
					t->periods[x - t->entries],
					t->periods[e[i] - t->entries]);
			continue;
		}
		e[m] = e[i];
		s[j] = tag | (uint32_t)++m;
	}
	free(s);
	*np = m;
	return 0;
}

uint64_t *
stacktab_take_pool(struct stacktab *t, size_t *len, size_t *cap)
{
	uint64_t *p;

	if (stacktab_unpack(t) < 0) {
		*len = *cap = 0;
		return NULL;
	}
	p = t->pool;

	*len = t->pool_len;
	*cap = t->pool_cap;
	t->pool = NULL;
	t->pool_len = t->pool_cap = 0;
	return p;
}

void
stacktab_prefetch(const struct stacktab *t, uint64_t h)
{
	hashtab_prefetch(&t->index, h);
}

size_t
stacktab_nr(const struct stacktab *t)
{
	return t->nr;
}

struct stack_entry *
stacktab_entries(const struct stacktab *t)
{
	return t->entries;
}

uint64_t
stacktab_period(const struct stacktab *t, const struct stack_entry *e)
{
	return t->with_periods ? t->periods[e - t->entries] : 0;
}

uint64_t *
stacktab_pcs(const struct stacktab *t, const struct stack_entry *e)
{
	/* A table of stacks of no PCs has no pool. */
	static uint64_t none[1];

	return t->pool != NULL ? t->pool + e->off : none;
}

void
stacktab_inspect(const struct stacktab *t, struct stacktab_state *s)
{
	s->pool_len = t->pool_len;
	s->packed_len = t->packed_len;
	s->packed = t->packed != NULL;
}
