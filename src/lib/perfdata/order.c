/* SPDX-License-Identifier: MIT */
/* Records in time order: see order.h. */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "grow.h"
#include "order.h"
#include "perf_abi.h"

/* Record bytes are copied once into chunks; a chunk is freed (or kept as
 * the spare) when the last of its records has been given back.  Chunks
 * are aligned to their size, so a copy's chunk is found from its address
 * and the queue's entries need no pointer to it. */
#define CHUNK_SIZE ((size_t)1 << 20)

struct order_chunk {
	size_t used;		/* bytes of data[] taken */
	size_t live;		/* records not given back yet */
	unsigned char data[];
};

#define CHUNK_ROOM (CHUNK_SIZE - offsetof(struct order_chunk, data))

struct order_entry {		/* 32 bytes: the type and misc are read */
	uint64_t time;		/* again from the record's header */
	uint64_t offset;	/* of the record in the file */
	const unsigned char *data;	/* the record, or its copy in a
					   chunk (order.c) */
	int32_t attr;		/* index in the file's attrs (and in
				   order.attrs), or -1 */
	uint16_t size;		/* the record's */
	uint16_t copied;	/* 1: data is a copy; 0: lasting */
};

struct order_run {		/* entries [cur, end) of the array */
	size_t cur, end;
};

struct order {
	struct order_entry *v;	/* entries in file order */
	bool big_endian;	/* the records' byte order */
	/* The attrs of the records queued, by their index: the entries
	 * keep only the index.  An attr stays where it is (perfdata.h). */
	struct perf_attr **attrs;
	size_t nattrs;
	size_t len, cap;	/* used (given back ones included), room */
	struct order_run *runs;	/* in file order */
	size_t nruns, cap_runs;
	uint32_t *heap;		/* runs not empty, the earliest first
				   entry on top */
	size_t nheap;
	size_t rival;		/* the earliest first entry of the runs
				   under the top one, or SIZE_MAX: not
				   known (take()) */
	size_t n;		/* records held */
	struct order_chunk *cur;	/* the chunk being filled */
	struct order_chunk *spare;	/* an empty one kept for reuse */
	size_t bytes;		/* record bytes held */
	uint64_t round_max;	/* latest time queued this round */
	uint64_t flush_upto;	/* set by the previous round */
	size_t max_bytes;	/* the bound on bytes held */
	uint64_t last_time;	/* of the record given back last */
	uint64_t late;		/* records queued with a time before it:
				   given back out of order (perf's "out of
				   order events", which has no bound) */
	/* Given back at the last round, not handed on yet, in time order:
	 * handed on a few with each record queued, so that the records of
	 * a round go on at the pace the next round is read, not in one
	 * burst. */
	struct order_entry *due;
	size_t due_head, due_len, due_cap;
	size_t due_bytes;	/* their record bytes: at most max_bytes
				   once a record is queued */
	uint64_t due_min_off;	/* the smallest offset among them */
	size_t pace;		/* due records handed on per record queued,
				   in 1/256ths */
	size_t credit;		/* 1/256ths of a due record owed */
	uint64_t pushed;	/* records queued */
	uint64_t rounds;	/* rounds seen */
};

static struct order_chunk *
chunk_of(const unsigned char *copy)
{
	return (struct order_chunk *)((uintptr_t)copy & ~(uintptr_t)(CHUNK_SIZE - 1));
}

struct order *
order_new(size_t max_bytes, bool big_endian)
{
	struct order *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return NULL;
	q->max_bytes = max_bytes;
	q->big_endian = big_endian;
	q->rival = SIZE_MAX;
	return q;
}

/* Drop the records of entries V[0..N) never handed on: each chunk still
 * holding records is freed once, by its last one. */
static void
drop_entries(struct order *q, const struct order_entry *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].copied) {
			struct order_chunk *c = chunk_of(v[i].data);

			if (--c->live == 0 && c != q->cur)
				free(c);
		}
}

void
order_free(struct order *q)
{
	size_t r;

	if (q == NULL)
		return;
	for (r = 0; r < q->nruns; r++)
		drop_entries(q, q->v + q->runs[r].cur,
			     q->runs[r].end - q->runs[r].cur);
	if (q->due != NULL)
		drop_entries(q, q->due + q->due_head,
			     q->due_len - q->due_head);
	free(q->cur);
	free(q->spare);
	free(q->due);
	free(q->v);
	free(q->runs);
	free(q->heap);
	free(q->attrs);
	free(q);
}

/* Whether run A's first entry goes before run B's: by time, then by
 * file order, which is the order of the entries in the array. */
static inline bool
entry_before(const struct order *q, size_t x, size_t y)
{
	return q->v[x].time < q->v[y].time ||
	       (q->v[x].time == q->v[y].time && x < y);
}

static bool
run_before(const struct order *q, uint32_t a, uint32_t b)
{
	return entry_before(q, q->runs[a].cur, q->runs[b].cur);
}

static void
sift_down(struct order *q, size_t i)
{
	uint32_t *h = q->heap, top = h[i];
	size_t n = q->nheap, c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && run_before(q, h[c + 1], h[c]))
			c++;
		if (!run_before(q, h[c], top))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = top;
}

static void
sift_up(struct order *q, size_t i)
{
	uint32_t *h = q->heap, x = h[i];

	/* A run joining may come before the rival; compact() rebuilds the
	 * heap with this, so the entries it moves are covered too. */
	q->rival = SIZE_MAX;
	while (i > 0 && run_before(q, x, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

/* The earliest entry held (q->n > 0). */
static const struct order_entry *
earliest(const struct order *q)
{
	return &q->v[q->runs[q->heap[0]].cur];
}

/* Hand entry E on to FN, and let go of its copy. */
static inline int
hand(struct order *q, const struct order_entry *e,
     order_fn fn, void *ctx, struct p2g_error *err)
{
	struct order_chunk *c = e->copied ? chunk_of(e->data) : NULL;
	struct perf_record rec;
	int ret;

	rec.type = load32(e->data, q->big_endian);
	rec.misc = load16(e->data + 4, q->big_endian);
	rec.size = e->size;
	rec.offset = e->offset;
	rec.data = e->data;
	rec.lasting = !e->copied;
	rec.attr = e->attr >= 0 ? q->attrs[e->attr] : NULL;
	ret = fn(ctx, &rec, err);
	if (c != NULL && --c->live == 0 && c != q->cur) {
		if (q->spare == NULL) {
			q->spare = c;
			q->spare->used = 0;
		} else {
			free(c);
		}
	}
	return ret;
}

/* The first entry of the earliest run under the top one (q->nheap > 1):
 * by the heap's order, the head of one of the top's children. */
static size_t
rival_of(const struct order *q)
{
	const uint32_t *h = q->heap;

	return q->runs[h[q->nheap > 2 && run_before(q, h[2], h[1]) ? 2 : 1]].cur;
}

/*
 * Take the earliest record held (q->n > 0) out of the runs: it is given
 * back.  Its entry stays where it is until the next record is queued.
 * A CPU's records of one round often come one after the other, so the
 * top run usually stays on top: while its next entry comes before the
 * rival (the other runs' earliest, unchanged meanwhile), the heap is
 * left alone.
 */
static inline const struct order_entry *
take(struct order *q)
{
	struct order_run *run = &q->runs[q->heap[0]];
	const struct order_entry *e = &q->v[run->cur++];

	if (run->cur == run->end) {
		q->heap[0] = q->heap[--q->nheap];
		if (q->nheap > 0)
			sift_down(q, 0);
		q->rival = q->nheap > 1 ? rival_of(q) : SIZE_MAX;
	} else if (q->nheap > 1 &&
		   (q->rival == SIZE_MAX || !entry_before(q, run->cur, q->rival))) {
		sift_down(q, 0);
		q->rival = rival_of(q);
	}
	q->n--;
	q->bytes -= e->size;
	q->last_time = e->time;
	return e;
}

/* The next record to be handed on was read long ago and has left the
 * cache: start fetching it while this one is used. */
static void
fetch(const unsigned char *next)
{
	__builtin_prefetch(next);
	__builtin_prefetch(next + 64);
	__builtin_prefetch(next + 128);
}

/* Give back the earliest record held and hand it on at once. */
static int
pop(struct order *q, order_fn fn, void *ctx,
    struct p2g_error *err)
{
	const struct order_entry *e = take(q);

	if (q->n > 0)
		fetch(earliest(q)->data);
	return hand(q, e, fn, ctx, err);
}

/* Hand on the earliest due record (there is one). */
static int
hand_one_due(struct order *q, order_fn fn, void *ctx,
	     struct p2g_error *err)
{
	const struct order_entry *e = &q->due[q->due_head++];

	q->due_bytes -= e->size;
	if (q->due_head < q->due_len)
		fetch(q->due[q->due_head].data);
	else
		q->due_head = q->due_len = 0;
	return hand(q, e, fn, ctx, err);
}

/* Hand on every due record. */
static int
hand_due(struct order *q, order_fn fn, void *ctx,
	 struct p2g_error *err)
{
	while (q->due_len > 0)
		if (hand_one_due(q, fn, ctx, err) < 0)
			return -1;
	return 0;
}

int
order_pass(struct order *q, const struct perf_record *rec,
	   order_fn fn, void *ctx, struct p2g_error *err)
{
	if (hand_due(q, fn, ctx, err) < 0)
		return -1;
	return fn(ctx, rec, err);
}

/* Give back the records with a time up to LIMIT, after those due. */
static int
flush_upto(struct order *q, uint64_t limit, order_fn fn,
	   void *ctx, struct p2g_error *err)
{
	if (hand_due(q, fn, ctx, err) < 0)
		return -1;
	while (q->n > 0 && earliest(q)->time <= limit)
		if (pop(q, fn, ctx, err) < 0)
			return -1;
	return 0;
}

/* Move the entries still held to the front of the array, dropping the
 * empty runs; the heap is rebuilt over the new run indices. */
static void
compact(struct order *q)
{
	size_t r, w = 0, nr = 0, k;

	for (r = 0; r < q->nruns; r++) {
		struct order_run run = q->runs[r];
		size_t len = run.end - run.cur;

		if (len == 0 && r + 1 < q->nruns)
			continue;
		memmove(&q->v[w], &q->v[run.cur], len * sizeof(*q->v));
		q->runs[nr].cur = w;
		q->runs[nr].end = w + len;
		w += len;
		nr++;
	}
	q->nruns = nr;
	q->len = w;
	q->nheap = 0;
	for (k = 0; k < nr; k++)
		if (q->runs[k].cur < q->runs[k].end) {
			q->heap[q->nheap] = (uint32_t)k;
			sift_up(q, q->nheap++);
		}
}

/* Room for one more entry and one more run. */
static int
make_room(struct order *q)
{
	if (q->len == q->cap) {
		/* Grown only when compacting leaves less than a quarter
		 * free: the array (touched to its end before each
		 * compaction) stays under 8/3 of the most entries held, at
		 * the cost of moving the held entries every cap/4 pushes
		 * or more. */
		compact(q);
		if (q->cap == 0 || q->len > q->cap - q->cap / 4) {
			struct order_entry *nv = grow(q->v, &q->cap,
						      grow_add(q->cap, 1),
						      sizeof(*nv), 4096);

			if (nv == NULL)
				return -1;
			q->v = nv;
		}
	}
	if (q->nruns == q->cap_runs) {
		size_t nc = grow_cap(q->cap_runs, q->nruns + 1,
				     sizeof(*q->runs), 16);
		struct order_run *nr;
		uint32_t *nh;

		if (nc == 0 || nc >= UINT32_MAX)
			return -1;
		nr = grow_realloc(q->runs, nc, sizeof(*nr));
		if (nr == NULL)
			return -1;
		q->runs = nr;
		nh = grow_realloc(q->heap, nc, sizeof(*nh));
		if (nh == NULL)
			return -1;
		q->heap = nh;
		q->cap_runs = nc;
	}
	return 0;
}

/* A copy of REC's bytes, in the current chunk; NULL when out of memory. */
static const unsigned char *
copy_record(struct order *q, const struct perf_record *rec)
{
	struct order_chunk *c = q->cur;
	unsigned char *d;

	if (c == NULL || c->used + rec->size > CHUNK_ROOM) {
		if (c != NULL && c->live == 0) {
			c->used = 0;	/* all given back: reuse it */
		} else {
			if (q->spare != NULL) {
				c = q->spare;
				q->spare = NULL;
			} else {
				c = aligned_alloc(CHUNK_SIZE, CHUNK_SIZE);
				if (c == NULL)
					return NULL;
			}
			c->used = 0;
			c->live = 0;
			/* the old chunk is freed by its last record */
			q->cur = c;
		}
	}
	d = c->data + c->used;
	memcpy(d, rec->data, rec->size);
	c->used += rec->size;
	c->live++;
	return d;
}

/* The index of attr A in q->attrs, which it joins if new; -2 when out of
 * memory. */
static inline int32_t
attr_index(struct order *q, struct perf_attr *a)
{
	size_t i = a->index, n;
	struct perf_attr **na;

	if (i < q->nattrs && q->attrs[i] == a)
		return (int32_t)i;
	if (i >= q->nattrs) {
		n = grow_cap(q->nattrs, grow_add(i, 1), sizeof(*na), 1);
		if (n == 0 ||
		    (na = grow_realloc(q->attrs, n, sizeof(*na))) == NULL)
			return -2;
		memset(na + q->nattrs, 0, (n - q->nattrs) * sizeof(*na));
		q->attrs = na;
		q->nattrs = n;
	}
	q->attrs[i] = a;
	return (int32_t)i;
}

int
order_push(struct order *q, const struct perf_record *rec,
	   uint64_t time, order_fn fn, void *ctx, struct p2g_error *err)
{
	struct order_entry *e;
	struct order_run *run;
	bool new_run;

	/* Late against what was given back before it came, as perf counts
	 * (not against what its own coming gives back). */
	if (time < q->last_time)
		q->late++;
	/* Too much held back: give back the earlier half (after those
	 * given back before). */
	if (q->bytes + rec->size > q->max_bytes && q->n > 0) {
		size_t half = (q->n + 1) / 2;

		if (hand_due(q, fn, ctx, err) < 0)
			return -1;
		while (half-- > 0)
			if (pop(q, fn, ctx, err) < 0)
				return -1;
	}
	if (make_room(q) < 0)
		goto nomem;
	/* The record extends the last run if it is not earlier than the
	 * run's last record; an empty last run takes anything. */
	run = q->nruns ? &q->runs[q->nruns - 1] : NULL;
	new_run = run == NULL ||
		  (run->cur < run->end && time < q->v[run->end - 1].time);
	if (new_run) {
		run = &q->runs[q->nruns++];
		run->cur = run->end = q->len;
	}
	e = &q->v[q->len];
	e->time = time;
	e->offset = rec->offset;
	e->attr = rec->attr != NULL ? attr_index(q, rec->attr) : -1;
	if (e->attr == -2)
		goto nomem;
	e->size = rec->size;
	e->copied = !rec->lasting;
	if (rec->lasting) {
		e->data = rec->data;
	} else {
		e->data = copy_record(q, rec);
		if (e->data == NULL)
			goto nomem;
	}
	q->len++;
	if (run->cur == run->end++) {
		/* an empty run (new, or all given back) joins the heap */
		q->heap[q->nheap] = (uint32_t)(run - q->runs);
		sift_up(q, q->nheap++);
	}
	q->n++;
	q->bytes += rec->size;
	if (time > q->round_max)
		q->round_max = time;
	q->pushed++;
	/* The due records' share of this record (pace, in 1/256ths), and
	 * more if they hold more bytes than the bound: rounds closer
	 * together than the pace can pile them up. */
	if (q->due_len > 0) {
		for (q->credit += q->pace; q->credit >= 256 && q->due_len > 0;
		     q->credit -= 256)
			if (hand_one_due(q, fn, ctx, err) < 0)
				return -1;
		while (q->due_bytes > q->max_bytes)
			if (hand_one_due(q, fn, ctx, err) < 0)
				return -1;
	}
	return 0;
nomem:
	return p2g_fail(err, P2G_NOMEM, rec->offset,
			"out of memory for records held back to sort");
}

int
order_round(struct order *q, struct p2g_error *err)
{
	uint64_t limit = q->flush_upto, per_round;

	q->flush_upto = q->round_max;
	q->rounds++;
	if (limit == 0 || q->n == 0)
		return 0;
	if (q->due_len == 0)
		q->due_min_off = UINT64_MAX;
	while (q->n > 0 && earliest(q)->time <= limit) {
		if (q->due_len == q->due_cap && q->due_head > 0 &&
		    q->due_head >= q->due_cap / 2) {
			/* those still due, to the front */
			memmove(q->due, q->due + q->due_head,
				(q->due_len - q->due_head) * sizeof(*q->due));
			q->due_len -= q->due_head;
			q->due_head = 0;
		}
		if (q->due_len == q->due_cap) {
			struct order_entry *nd = grow(q->due, &q->due_cap,
						      q->due_len + 1,
						      sizeof(*nd), 4096);

			if (nd == NULL)
				return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
						"out of memory for records "
						"held back to sort");
			q->due = nd;
		}
		q->due[q->due_len] = *take(q);
		q->due_bytes += q->due[q->due_len].size;
		if (q->due[q->due_len].offset < q->due_min_off)
			q->due_min_off = q->due[q->due_len].offset;
		q->due_len++;
	}
	/* Handed on over as many records as a round has on average (the
	 * rounds of a file vary from a few records to thousands); what is
	 * left at the next round goes first, at that one's pace. */
	per_round = q->pushed / q->rounds;
	q->pace = ((q->due_len - q->due_head) * 256 + 255) /
		  (per_round ? per_round : 1);
	q->credit = 0;
	return 0;
}

int
order_flush(struct order *q, order_fn fn, void *ctx,
	    struct p2g_error *err)
{
	return flush_upto(q, UINT64_MAX, fn, ctx, err);
}

uint64_t
order_oldest(const struct order *q, uint64_t dflt)
{
	uint64_t due = q->due_len > 0 ? q->due_min_off : UINT64_MAX;
	size_t r;

	/* The runs are in file order: the first one not empty. */
	for (r = 0; r < q->nruns; r++)
		if (q->runs[r].cur < q->runs[r].end)
			return q->v[q->runs[r].cur].offset < due
				       ? q->v[q->runs[r].cur].offset
				       : due;
	return q->due_len > 0 ? due : dflt;
}

uint64_t
order_late(const struct order *q)
{
	return q->late;
}

void
order_inspect(const struct order *q, struct order_state *s)
{
	s->bytes = q->bytes;
	s->due = q->due_len - q->due_head;
	s->due_bytes = q->due_bytes;
	s->due_head = q->due_head;
	s->due_cap = q->due_cap;
	s->late = q->late;
}
