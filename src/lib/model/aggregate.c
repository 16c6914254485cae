/* SPDX-License-Identifier: MIT */
/* Samples to counted stacks: see aggregate.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "count.h"
#include "cursor.h"
#include "grow.h"
#include "hashtab.h"
#include "perf_abi.h"

/* Slots of the cache of recent stacks (a power of 2): 128 KiB. */
#define RECENT_BITS 14

/* One loop for both kinds of callchain: FILTER false when every frame is
 * kept, so that the loop of nearly every sample has its counts in
 * registers and no test of the options. */
static inline __attribute__((always_inline)) size_t
chain(const struct kernel_text *kt, const struct chain_opts *o,
      const unsigned char *ch, uint64_t nr, bool big, uint64_t *f,
      uint64_t *nraw, struct chain_counts *c, bool filter)
{
	uint64_t markers = 0, zeros = 0, kframes = 0, dropped = 0, raw = 0;
	uint64_t i, v;
	size_t n = 0, max = o->max_stack;
	bool kernel;

	for (i = 0; i < nr; i++) {
		v = load64(ch + i * 8, big);
		if (v >= PERF_CONTEXT_MAX) {
			markers++;
			/* A deferred user callchain marker is followed by
			 * a cookie, not an address. */
			if (v == PERF_CONTEXT_USER_DEFERRED)
				i++;
			continue;
		}
		if (v == 0 && (!filter || !o->keep_zero)) {
			zeros++;
			continue;
		}
		raw++;
		if (n == max) {
			c->frames_capped++;
			break;
		}
		kernel = addrspace_text_has(kt, v);
		kframes += kernel;
		if (filter && (kernel ? o->user_only : o->kernel_only)) {
			dropped++;
			continue;
		}
		f[n++] = v;
	}
	*nraw = raw;
	c->markers += markers;
	c->zero_frames += zeros;
	c->kernel_frames += kframes;
	c->frames_dropped += dropped;
	return n;
}

size_t
aggregate_chain(const struct kernel_text *kt, const struct chain_opts *o,
		const unsigned char *ch, uint64_t nr, bool big, uint64_t *f,
		uint64_t *nraw, struct chain_counts *c)
{
	if (o->user_only || o->kernel_only || o->keep_zero)
		return chain(kt, o, ch, nr, big, f, nraw, c, true);
	return chain(kt, o, ch, nr, big, f, nraw, c, false);
}

uint64_t
aggregate_user_marker(const struct chain_opts *o, const unsigned char *ch,
		      uint64_t nr, bool big)
{
	uint64_t i, end = nr < o->max_stack ? nr : o->max_stack;

	for (i = 0; i < end; i++)
		if (load64(ch + i * 8, big) == PERF_CONTEXT_USER)
			return i;
	return nr;
}

size_t
aggregate_lbr(const struct kernel_text *kt, const struct chain_opts *o,
	      const unsigned char *ch, uint64_t umark,
	      const unsigned char *br, uint64_t nbr, bool big, uint64_t *f,
	      uint64_t *nraw, struct chain_counts *c)
{
	uint64_t i, v, raw, capped = c->frames_capped;
	size_t n;
	bool kernel;

	n = aggregate_chain(kt, o, ch, umark, big, f, &raw, c);
	c->markers++;		/* the PERF_CONTEXT_USER at umark */
	if (c->frames_capped != capped)
		nbr = 0;	/* the kernel part filled the stack */
	/* Entry 0's target, then each entry's source (the call site). */
	for (i = 0; i < nbr + (nbr > 0); i++) {
		if (i == 0)
			v = load64(br + 8, big);
		else
			v = load64(br + (i - 1) * 24, big) + 1;
		/* (a source of all ones, plus 1, is 0 as well) */
		if (v == 0) {
			c->zero_frames++;
			continue;
		}
		raw++;
		if (n == o->max_stack) {
			c->frames_capped++;
			break;
		}
		kernel = addrspace_text_has(kt, v);
		c->kernel_frames += kernel;
		if (kernel ? o->user_only : o->kernel_only) {
			c->frames_dropped++;
			continue;
		}
		f[n++] = v;
	}
	*nraw = raw;
	return n;
}

/* A context of BY_THREAD (aggregate.h). */
struct context {
	uint32_t space;
	int32_t tid;
	uint32_t era;		/* of the thread's name (aggregate_name()) */
	char comm[32];
};

struct aggregate {
	struct stacktab *tab;
	/* With BY_THREAD: the contexts, indexed by (space, tid), and the
	 * last one found (a thread's samples come in runs). */
	bool by_thread;
	struct context *ctxs;
	size_t nctxs, cap_ctxs;
	struct hashtab ctx_index;
	struct context last;
	uint32_t last_ctx;
	/* The namer of the threads, and the name of the one added last */
	aggregate_namer namer;
	void *namer_ctx;
	uint32_t era;
	const char *comm;
	uint64_t *frames;	/* the next stack's */
	size_t frames_cap;
	/* The entries of recent stacks, each in the slot of its leaf, its
	 * caller, a middle frame, its depth, context and event (recent_key()):
	 * a stack seen before is tried against its slot before it is hashed
	 * whole.  A slot holds the key's tag above the entry's index + 1
	 * (0: none), so that most other stacks are told apart without
	 * fetching the entry. */
	uint64_t *recent;
	/* The stack added next (aggregate_add()): its slot in the stack
	 * table is being fetched meanwhile. */
	struct pending {
		uint64_t *frames;
		size_t frames_cap;
		uint64_t count, period, hash;
		uint32_t n, ev, ctx;
		uint64_t recent;	/* its key (recent_key()) */
		int32_t tid;
		bool valid;
	} pend;
};

struct aggregate *
aggregate_new(bool with_periods, bool by_thread)
{
	struct aggregate *ag = calloc(1, sizeof(*ag));

	if (ag == NULL)
		return NULL;
	ag->tab = stacktab_new();
	ag->recent = calloc((size_t)1 << RECENT_BITS, sizeof(*ag->recent));
	if (ag->tab == NULL || ag->recent == NULL) {
		aggregate_free(ag);
		return NULL;
	}
	/* Packed while the samples are read: the stacks' PCs take about
	 * half their size until the profile is made. */
	stacktab_pack(ag->tab);
	if (with_periods)
		stacktab_keep_periods(ag->tab);
	ag->by_thread = by_thread;
	ag->last_ctx = UINT32_MAX;
	return ag;
}

void
aggregate_free(struct aggregate *ag)
{
	if (ag == NULL)
		return;
	stacktab_free(ag->tab);
	free(ag->recent);
	free(ag->frames);
	free(ag->pend.frames);
	free(ag->ctxs);
	hashtab_free(&ag->ctx_index);
	free(ag);
}

/* The context of thread TID in space SID, made if new (BY_THREAD).  0,
 * or -1 when out of memory. */
static int
context_of(struct aggregate *ag, uint32_t sid, int32_t tid, uint32_t *ctx)
{
	struct hashtab_iter it;
	uint64_t h;
	uint32_t i;

	ag->era = 0;
	ag->comm = NULL;
	if (ag->namer != NULL)
		ag->comm = ag->namer(ag->namer_ctx, sid, tid, &ag->era);
	if (ag->last_ctx != UINT32_MAX && ag->last.space == sid &&
	    ag->last.tid == tid && ag->last.era == ag->era) {
		*ctx = ag->last_ctx;
		return 0;
	}
	if (hashtab_reserve(&ag->ctx_index, ag->nctxs + 1) < 0)
		return -1;
	h = hashtab_hash64(((uint64_t)sid << 32 | (uint32_t)tid) ^
			   (uint64_t)ag->era * 0x9e3779b97f4a7c15ULL);
	for (i = hashtab_probe(&ag->ctx_index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&ag->ctx_index, &it))
		if (ag->ctxs[i].space == sid && ag->ctxs[i].tid == tid &&
		    ag->ctxs[i].era == ag->era)
			break;
	if (i == HASHTAB_NONE) {
		if (ag->nctxs == ag->cap_ctxs) {
			struct context *n;

			if (ag->nctxs >= UINT32_MAX - 1)
				return -1;
			n = grow(ag->ctxs, &ag->cap_ctxs, ag->nctxs + 1,
				 sizeof(*n), 64);
			if (n == NULL)
				return -1;
			ag->ctxs = n;
		}
		i = (uint32_t)ag->nctxs++;
		ag->ctxs[i].space = sid;
		ag->ctxs[i].tid = tid;
		ag->ctxs[i].era = ag->era;
		snprintf(ag->ctxs[i].comm, sizeof(ag->ctxs[i].comm), "%s",
			 ag->comm ? ag->comm : "");
		hashtab_insert(&ag->ctx_index, &it, i);
	}
	ag->last.space = sid;
	ag->last.tid = tid;
	ag->last.era = ag->era;
	ag->last_ctx = i;
	*ctx = i;
	return 0;
}

uint64_t *
aggregate_frames(struct aggregate *ag, size_t n)
{
	uint64_t *nf;

	if (n <= ag->frames_cap)
		return ag->frames;
	nf = realloc(ag->frames, n * sizeof(*nf));
	if (nf == NULL)
		return NULL;
	ag->frames = nf;
	ag->frames_cap = n;
	return nf;
}

int
aggregate_flush(struct aggregate *ag)
{
	struct pending *p = &ag->pend;
	int64_t x;

	if (!p->valid)
		return 0;
	p->valid = false;
	x = stacktab_add_hashed(ag->tab, p->hash, p->ev, p->ctx, p->frames,
				p->n, p->count, p->period);
	if (x < 0)
		return -1;
	ag->recent[p->recent >> (64 - RECENT_BITS)] =
		(p->recent & 0xffffffff00000000ULL) | ((uint32_t)x + 1);
	return 0;
}

/* The key of stack F[0..N) (N > 0) of EV in context CTX in ag->recent, from the
 * little that tells most stacks of a program apart: its top RECENT_BITS
 * bits are the slot, its upper half the tag (the two overlap). */
static inline uint64_t
recent_key(const uint64_t *f, uint32_t n, uint32_t ev, uint32_t ctx)
{
	uint64_t h = f[0] ^ (n > 1 ? f[1] * 0x2545f4914f6cdd1dULL : 0) ^
		     f[n / 2] * 0xbf58476d1ce4e5b9ULL ^ (uint64_t)n << 40 ^
		     (uint64_t)ctx << 48 ^ (uint64_t)ev << 58;

	return h * 0x9e3779b97f4a7c15ULL;
}

/*
 * A thread's stack often repeats its previous one, the pending stack;
 * else a stack seen before is most often the one in its slot of
 * ag->recent, which is compared whole if the tags agree.  Any other
 * stack becomes the pending one, its hash computed and its slot fetched
 * now, and is added to the table when the next one comes
 * (aggregate_flush()): the cache miss of the slot overlaps the next
 * sample's work.  doc/performance.md has how often each case is met.
 */
int
aggregate_add(struct aggregate *ag, uint32_t ev, uint32_t sid, int32_t tid,
	      uint32_t n, uint64_t period)
{
	struct pending *p = &ag->pend;
	uint64_t key, slot, hash, *f;
	uint32_t ctx = sid;
	size_t cap;

	if (ag->by_thread && context_of(ag, sid, tid, &ctx) < 0)
		return -1;
	if (p->valid && p->tid == tid && p->ev == ev && p->ctx == ctx &&
	    p->n == n && memcmp(p->frames, ag->frames, (size_t)n * 8) == 0) {
		p->count++;
		p->period = count_add(p->period, period);
		return 0;
	}
	key = recent_key(ag->frames, n, ev, ctx);
	slot = ag->recent[key >> (64 - RECENT_BITS)];
	if ((uint32_t)slot != 0 &&
	    (slot & 0xffffffff00000000ULL) == (key & 0xffffffff00000000ULL) &&
	    stacktab_add_if(ag->tab, (uint32_t)slot - 1, ev, ctx, ag->frames,
			    n, 1, period) >= 0)
		return 0;
	hash = stacktab_hash(ev, ctx, ag->frames, n);
	stacktab_prefetch(ag->tab, hash);
	if (aggregate_flush(ag) < 0)
		return -1;
	/* The frames become the pending stack's; its buffer, this one's. */
	f = p->frames;
	cap = p->frames_cap;
	p->frames = ag->frames;
	p->frames_cap = ag->frames_cap;
	ag->frames = f;
	ag->frames_cap = cap;
	p->hash = hash;
	p->ev = ev;
	p->ctx = ctx;
	p->tid = tid;
	p->n = n;
	p->recent = key;
	p->count = 1;
	p->period = period;
	p->valid = true;
	return 0;
}

int
aggregate_add_direct(struct aggregate *ag, uint32_t ev, uint32_t sid,
		     int32_t tid, uint32_t n, uint64_t period)
{
	uint32_t ctx = sid;

	if (aggregate_flush(ag) < 0)
		return -1;
	if (ag->by_thread && context_of(ag, sid, tid, &ctx) < 0)
		return -1;
	return stacktab_add(ag->tab, ev, ctx, ag->frames, n, 1, period);
}

struct stacktab *
aggregate_table(struct aggregate *ag)
{
	return ag->tab;
}

bool
aggregate_by_thread(const struct aggregate *ag)
{
	return ag->by_thread;
}

uint32_t
aggregate_space(const struct aggregate *ag, uint32_t ctx)
{
	return ag->by_thread ? ag->ctxs[ctx].space : ctx;
}

int32_t
aggregate_tid(const struct aggregate *ag, uint32_t ctx)
{
	return ag->by_thread ? ag->ctxs[ctx].tid : 0;
}

void
aggregate_set_namer(struct aggregate *ag, aggregate_namer fn, void *ctx)
{
	ag->namer = fn;
	ag->namer_ctx = ctx;
}

const char *
aggregate_comm(const struct aggregate *ag, uint32_t ctx)
{
	return ag->by_thread ? ag->ctxs[ctx].comm : "";
}
