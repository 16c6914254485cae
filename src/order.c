/* SPDX-License-Identifier: MIT */
/* Records in time order: see order.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "order.h"
#include "perf_abi.h"

/* Record bytes are copied once into chunks; a chunk is freed (or kept as
 * the spare) when the last of its records has been given back. */
#define CHUNK_SIZE (1u << 20)

struct order_chunk {
	size_t used;
	size_t live;		/* records not given back yet */
	unsigned char data[];
};

#define NIL UINT32_MAX

void
order_init(struct order *q, size_t max_bytes)
{
	memset(q, 0, sizeof(*q));
	q->max_bytes = max_bytes;
	q->free = q->head = q->tail = q->last = NIL;
}

void
order_release(struct order *q)
{
	uint32_t i;

	/* Chunks still holding records: each is freed once, by its last
	 * entry. */
	for (i = q->head; i != NIL; i = q->v[i].next)
		if (--q->v[i].chunk->live == 0 && q->v[i].chunk != q->cur)
			free(q->v[i].chunk);
	free(q->cur);
	free(q->spare);
	free(q->v);
	memset(q, 0, sizeof(*q));
}

int
order_record_time(const struct perfdata *pd, const struct perf_record *rec,
		  uint64_t *time)
{
	const struct perf_attr *a = rec->attr;
	uint64_t st;
	size_t pos;

	if (a == NULL || !(a->sample_type & PERF_SAMPLE_TIME))
		return 0;
	st = a->sample_type;
	if (rec->type == PERF_RECORD_SAMPLE) {
		/* IDENTIFIER, IP, TID, then TIME: all 8 bytes */
		pos = 8 + 8 * (size_t)(((st & PERF_SAMPLE_IDENTIFIER) != 0) +
				       ((st & PERF_SAMPLE_IP) != 0) +
				       ((st & PERF_SAMPLE_TID) != 0));
	} else {
		if (!a->sample_id_all || rec->type >= PERF_RECORD_USER_TYPE_START ||
		    a->trailer_size + 8u > rec->size)
			return 0;
		/* the trailer starts with TID, then TIME */
		pos = rec->size - a->trailer_size +
		      ((st & PERF_SAMPLE_TID) ? 8 : 0);
	}
	if (pos + 8 > rec->size)
		return 0;
	*time = load64(rec->data + pos, pd->big_endian);
	return 1;
}

static bool
before(const struct order_entry *a, const struct order_entry *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Link entry I into the list at its place. */
static void
insert(struct order *q, uint32_t i)
{
	struct order_entry *v = q->v, *e = &v[i];
	/* The entry E goes after, or NIL.  The walk starts from the entry
	 * inserted last or, once that one was given back, from the tail,
	 * as perf's queue_event() does: putting E at the tail instead would
	 * give a late record back after later ones. */
	uint32_t after = q->last != NIL ? q->last : q->tail;

	if (after == NIL || !before(e, &v[q->tail])) {
		after = q->tail;	/* the usual case: in order */
	} else if (before(e, &v[q->head])) {
		after = NIL;	/* before all: no walk (a record of time 0) */
	} else if (before(e, &v[after])) {
		while (after != NIL && before(e, &v[after]))
			after = v[after].prev;
	} else {
		while (v[after].next != NIL && !before(e, &v[v[after].next]))
			after = v[after].next;
	}
	e->prev = after;
	e->next = after == NIL ? q->head : v[after].next;
	if (e->prev == NIL)
		q->head = i;
	else
		v[e->prev].next = i;
	if (e->next == NIL)
		q->tail = i;
	else
		v[e->next].prev = i;
	q->last = i;
	q->n++;
}

/* Give back the earliest record. */
static int
pop(struct order *q, struct perfdata *pd, order_fn fn, void *ctx,
    struct p2g_error *err)
{
	uint32_t i = q->head;
	struct order_entry *e = &q->v[i];
	struct order_chunk *c = e->chunk;
	struct perf_record rec;
	int ret;

	q->head = e->next;
	if (q->head == NIL)
		q->tail = NIL;
	else
		q->v[q->head].prev = NIL;
	if (q->last == i)
		q->last = NIL;
	q->n--;
	rec.type = e->type;
	rec.misc = e->misc;
	rec.size = e->size;
	rec.offset = e->offset;
	rec.data = e->data;
	rec.attr = e->attr >= 0 && (size_t)e->attr < pd->nr_attrs
			   ? &pd->attrs[e->attr]
			   : NULL;
	ret = fn(ctx, &rec, err);
	q->bytes -= rec.size;
	e = &q->v[i];
	e->next = q->free;
	q->free = i;
	if (--c->live == 0 && c != q->cur) {
		if (q->spare == NULL) {
			q->spare = c;
			q->spare->used = 0;
		} else {
			free(c);
		}
	}
	return ret;
}

/* Give back the records with a time up to LIMIT. */
static int
flush_upto(struct order *q, struct perfdata *pd, uint64_t limit, order_fn fn,
	   void *ctx, struct p2g_error *err)
{
	while (q->head != NIL && q->v[q->head].time <= limit)
		if (pop(q, pd, fn, ctx, err) < 0)
			return -1;
	return 0;
}

int
order_push(struct order *q, struct perfdata *pd, const struct perf_record *rec,
	   uint64_t time, order_fn fn, void *ctx, struct p2g_error *err)
{
	struct order_entry *e;
	struct order_chunk *c = q->cur;
	uint32_t i;

	/* Too much held back: give back the earlier half. */
	if (q->bytes + rec->size > q->max_bytes && q->n > 0) {
		size_t half = (q->n + 1) / 2;

		while (half-- > 0)
			if (pop(q, pd, fn, ctx, err) < 0)
				return -1;
	}
	if (q->free == NIL) {
		size_t nc = q->cap ? q->cap * 2 : 4096, k;
		struct order_entry *nv;

		if (nc >= NIL)
			goto nomem;
		nv = realloc(q->v, nc * sizeof(*nv));
		if (nv == NULL)
			goto nomem;
		q->v = nv;
		for (k = nc; k > q->cap; k--) {
			nv[k - 1].next = q->free;
			q->free = (uint32_t)(k - 1);
		}
		q->cap = nc;
	}
	if (c == NULL || c->used + rec->size > CHUNK_SIZE) {
		if (c != NULL && c->live == 0) {
			c->used = 0;	/* all given back: reuse it */
		} else {
			if (q->spare != NULL) {
				c = q->spare;
				q->spare = NULL;
			} else {
				c = malloc(sizeof(*c) + CHUNK_SIZE);
				if (c == NULL)
					goto nomem;
			}
			c->used = 0;
			c->live = 0;
			/* the old chunk is freed by its last record */
			q->cur = c;
		}
	}
	i = q->free;
	e = &q->v[i];
	q->free = e->next;
	e->time = time;
	e->seq = q->seq++;
	e->offset = rec->offset;
	e->chunk = c;
	e->data = c->data + c->used;
	e->type = rec->type;
	e->misc = rec->misc;
	e->size = rec->size;
	e->attr = rec->attr ? (int32_t)(rec->attr - pd->attrs) : -1;
	memcpy(c->data + c->used, rec->data, rec->size);
	c->used += rec->size;
	c->live++;
	q->bytes += rec->size;
	insert(q, i);
	if (time > q->round_max)
		q->round_max = time;
	return 0;
nomem:
	return p2g_fail(err, P2G_NOMEM, rec->offset,
			"out of memory for records held back to sort");
}

int
order_round(struct order *q, struct perfdata *pd, order_fn fn, void *ctx,
	    struct p2g_error *err)
{
	uint64_t limit = q->flush_upto;

	q->flush_upto = q->round_max;
	if (limit == 0 || q->n == 0)
		return 0;
	return flush_upto(q, pd, limit, fn, ctx, err);
}

int
order_flush(struct order *q, struct perfdata *pd, order_fn fn, void *ctx,
	    struct p2g_error *err)
{
	return flush_upto(q, pd, UINT64_MAX, fn, ctx, err);
}
