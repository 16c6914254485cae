/* SPDX-License-Identifier: MIT */
/* Records in time order: see order.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "order.h"
#include "perf_abi.h"

void
order_init(struct order *q, size_t max_bytes)
{
	memset(q, 0, sizeof(*q));
	q->max_bytes = max_bytes;
}

void
order_release(struct order *q)
{
	free(q->v);
	free(q->arena);
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

static int
cmp_entry(const void *x, const void *y)
{
	const struct order_entry *a = x, *b = y;

	if (a->time != b->time)
		return a->time < b->time ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Give back the first K entries of the sorted queue, then keep the rest
 * (moved to a fresh arena). */
static int
give_back(struct order *q, struct perfdata *pd, size_t k, order_fn fn,
	  void *ctx, struct p2g_error *err)
{
	struct perf_record rec;
	unsigned char *na = NULL;
	size_t i, used = 0, rest = 0;

	for (i = 0; i < k; i++) {
		const struct order_entry *e = &q->v[i];

		rec.type = e->type;
		rec.misc = e->misc;
		rec.size = e->size;
		rec.offset = e->offset;
		rec.data = q->arena + e->at;
		rec.attr = e->attr >= 0 && (size_t)e->attr < pd->nr_attrs
				   ? &pd->attrs[e->attr]
				   : NULL;
		if (fn(ctx, &rec, err) < 0)
			return -1;
	}
	for (i = k; i < q->n; i++)
		rest += q->v[i].size;
	if (rest > 0) {
		na = malloc(rest);
		if (na == NULL)
			return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					"out of memory");
		for (i = k; i < q->n; i++) {
			memcpy(na + used, q->arena + q->v[i].at, q->v[i].size);
			q->v[i].at = used;
			used += q->v[i].size;
		}
	}
	memmove(q->v, q->v + k, (q->n - k) * sizeof(*q->v));
	q->n -= k;
	free(q->arena);
	q->arena = na;
	q->used = used;
	q->arena_cap = rest;
	return 0;
}

/* Give back the entries with a time up to LIMIT. */
static int
flush_upto(struct order *q, struct perfdata *pd, uint64_t limit, order_fn fn,
	   void *ctx, struct p2g_error *err)
{
	size_t k = 0;

	qsort(q->v, q->n, sizeof(*q->v), cmp_entry);
	while (k < q->n && q->v[k].time <= limit)
		k++;
	return give_back(q, pd, k, fn, ctx, err);
}

int
order_push(struct order *q, struct perfdata *pd, const struct perf_record *rec,
	   uint64_t time, order_fn fn, void *ctx, struct p2g_error *err)
{
	struct order_entry *e;

	if (q->used + rec->size > q->max_bytes && q->n > 0) {
		/* Too much held back: give back the earlier half. */
		qsort(q->v, q->n, sizeof(*q->v), cmp_entry);
		if (give_back(q, pd, (q->n + 1) / 2, fn, ctx, err) < 0)
			return -1;
	}
	if (q->n == q->cap) {
		size_t nc = q->cap ? q->cap * 2 : 4096;
		struct order_entry *nv = realloc(q->v, nc * sizeof(*nv));

		if (nv == NULL)
			goto nomem;
		q->v = nv;
		q->cap = nc;
	}
	if (q->used + rec->size > q->arena_cap) {
		size_t nc = q->arena_cap ? q->arena_cap * 2 : 1u << 20;
		unsigned char *na;

		while (nc < q->used + rec->size)
			nc *= 2;
		na = realloc(q->arena, nc);
		if (na == NULL)
			goto nomem;
		q->arena = na;
		q->arena_cap = nc;
	}
	e = &q->v[q->n++];
	e->time = time;
	e->seq = q->seq++;
	e->offset = rec->offset;
	e->at = q->used;
	e->type = rec->type;
	e->misc = rec->misc;
	e->size = rec->size;
	e->attr = rec->attr ? (int32_t)(rec->attr - pd->attrs) : -1;
	memcpy(q->arena + q->used, rec->data, rec->size);
	q->used += rec->size;
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
