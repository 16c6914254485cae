/* SPDX-License-Identifier: MIT */
/* The records of one input, in time order, as events: see reader.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "reader.h"

/* Records held back to be put in time order: at most this many bytes. */
#define ORDER_MAX_BYTES (16u << 20)
/* How often the pages of a mapped input behind the records still held
 * are given back (input_release()). */
#define RELEASE_STEP (1u << 20)
/* How often progress is noted: at the first record, then every so many
 * bytes of records. */
#define PROGRESS_STEP (4u << 20)

/* The events of one step of the reading. */
struct local {
	struct reader_event *v;
	size_t n, cap;
	unsigned char *copies;	/* records that do not stay put, and the
				   warnings' text */
	size_t used, room;
	uint64_t min_off;	/* smallest offset of the records */
};

struct reader {
	struct perfdata *pd;
	const struct perfdata_format *fmt;	/* PD's */
	struct reader_opts o;
	perfdata_warn_fn warn;	/* PD's own, given back at the end */
	void *warn_ctx;
	bool end;		/* all records handed out */
	struct local loc;
	struct order *q;	/* records held back for the time order */
	uint64_t next_progress, next_release;
	uint64_t seen;		/* bytes of records read */
};

/* Room for N more bytes of copies; false when out of memory.  Copies are
 * kept as offsets until the step ends (local_fix()): the buffer moves. */
static bool
local_room(struct local *l, size_t n)
{
	unsigned char *nc;
	size_t nr;

	if (l->room - l->used >= n)
		return true;
	nr = l->room ? l->room * 2 : 65536;
	while (nr - l->used < n)
		nr *= 2;
	nc = realloc(l->copies, nr);
	if (nc == NULL)
		return false;
	l->copies = nc;
	l->room = nr;
	return true;
}

/* A new item at the end of the step's events; NULL when out of
 * memory. */
static struct reader_event *
local_item(struct local *l)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 1024;
		struct reader_event *nv = realloc(l->v, nc * sizeof(*nv));

		if (nv == NULL)
			return NULL;
		l->v = nv;
		l->cap = nc;
	}
	return &l->v[l->n++];
}

/* The copies of the step's records and the text of its warnings are at
 * offsets into l->copies, marked by a pointer of NULL plus one plus the
 * offset: point them at their bytes now that the buffer no longer
 * moves. */
static void
local_fix(struct local *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct reader_event *it = &l->v[i];

		if (it->kind == READER_WARNING)
			it->note.msg = (const char *)l->copies +
				       ((uintptr_t)it->note.msg - 1);
		else if (it->kind == READER_RECORD && !it->rec.lasting)
			it->rec.data = l->copies +
				       ((uintptr_t)it->rec.data - 1);
	}
}

/* order_fn: the record joins the step's events, copied unless it stays
 * where it is. */
static int
collect(void *ctx, const struct perf_record *rec, struct p2g_error *err)
{
	struct reader *r = ctx;
	struct local *l = &r->loc;
	struct reader_event *it = local_item(l);

	if (it == NULL)
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	it->rec = *rec;
	it->kind = READER_RECORD;
	if (rec->offset < l->min_off)
		l->min_off = rec->offset;
	if (rec->lasting)
		return 0;
	if (!local_room(l, rec->size)) {
		l->n--;
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	}
	memcpy(l->copies + l->used, rec->data, rec->size);
	it->rec.data = (const unsigned char *)(uintptr_t)(l->used + 1);
	l->used += rec->size;
	return 0;
}

/* A note (MSG: a warning's text, or NULL). */
static int
local_note(struct reader *r, enum reader_kind kind, const char *part,
	   uint64_t off, const char *msg)
{
	struct local *l = &r->loc;
	struct reader_event *it = local_item(l);
	size_t len = msg != NULL ? strlen(msg) + 1 : 0;

	if (it == NULL)
		return -1;
	it->kind = (uint8_t)kind;
	it->note.part = part;
	it->note.offset = off;
	it->note.msg = NULL;
	if (msg == NULL)
		return 0;
	if (!local_room(l, len)) {
		l->n--;
		return -1;
	}
	memcpy(l->copies + l->used, msg, len);
	it->note.msg = (const char *)(uintptr_t)(l->used + 1);
	l->used += len;
	return 0;
}

/* PD's warnings while the reader is open: events like the records, in
 * their place among them. */
static void
on_warn(void *ctx, const char *part, uint64_t off, const char *msg)
{
	(void)local_note(ctx, READER_WARNING, part, off, msg);
}

/*
 * Read one record of the data section and hand on (to FN) what the time
 * order gives back for it; records without a real time (0 in the
 * records perf makes up for what ran before it started) go at once, as
 * perf delivers them.  Returns 1 for a record read, 0 at the end of the
 * data (every record given), -1 on error.  Pages of a mapped input are
 * released behind the records still held, those of the step's events
 * included, which the caller has yet to use.
 */
static int
read_step(struct reader *r, struct p2g_error *err)
{
	struct perfdata *pd = r->pd;
	struct perf_record rec;
	uint64_t t, upto;
	int k;

	k = perfdata_next(pd, &rec, err);
	if (k == 0)
		return order_flush(r->q, collect, r, err) < 0 ? -1 : 0;
	if (k != 1)
		return k;
	if (rec.type == PERF_RECORD_FINISHED_ROUND) {
		/* The rounds of a perf.data directory's files (if perf ever
		 * writes them there) tell only of their own file. */
		if (!r->fmt->directory && order_round(r->q, err) < 0)
			return -1;
	} else if (perfdata_record_time(&rec, &t) && t != 0 &&
		   t != UINT64_MAX) {
		if (order_push(r->q, &rec, t, collect, r, err) < 0)
			return -1;
	} else if (order_pass(r->q, &rec, collect, r, err) < 0) {
		return -1;
	}
	if (rec.lasting && rec.offset >= r->next_release) {
		upto = order_oldest(r->q, rec.offset);
		if (r->loc.min_off < upto)
			upto = r->loc.min_off;
		perfdata_release(pd, upto);
		r->next_release = rec.offset + RELEASE_STEP;
	}
	if (r->o.progress && (r->seen += rec.size) >= r->next_progress) {
		r->next_progress = r->seen + PROGRESS_STEP;
		if (local_note(r, READER_PROGRESS, "", perfdata_done(pd),
			       NULL) < 0)
			return p2g_fail(err, P2G_NOMEM, rec.offset,
					"out of memory");
	}
	return 1;
}

struct reader *
reader_open(struct perfdata *pd, const struct reader_opts *o)
{
	struct reader *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->pd = pd;
	r->fmt = perfdata_format(pd);
	r->o = *o;
	r->q = order_new(o->order_bytes ? o->order_bytes : ORDER_MAX_BYTES,
			 r->fmt->big_endian);
	if (r->q == NULL) {
		free(r);
		return NULL;
	}
	perfdata_get_warn(pd, &r->warn, &r->warn_ctx);
	if (r->warn != NULL)
		perfdata_set_warn(pd, on_warn, r);
	return r;
}

/* One step of the reading, as events in r->loc; the return of
 * read_step(). */
static int
local_step(struct reader *r, struct p2g_error *err)
{
	struct local *l = &r->loc;
	int k;

	l->n = 0;
	l->used = 0;
	l->min_off = UINT64_MAX;
	do
		k = read_step(r, err);
	while (k == 1 && l->n == 0);
	local_fix(l);
	return k;
}

int
reader_next(struct reader *r, const struct reader_event **v, size_t *n,
	    struct p2g_error *err)
{
	int k;

	if (r->end)
		return 0;
	k = local_step(r, err);
	if (k < 0) {
		r->end = true;
		return -1;
	}
	if (k == 0)
		r->end = true;
	if (r->loc.n == 0)
		return 0;
	*v = r->loc.v;
	*n = r->loc.n;
	return 1;
}

uint64_t
reader_late(const struct reader *r)
{
	return order_late(r->q);
}

void
reader_close(struct reader *r)
{
	if (r == NULL)
		return;
	if (r->warn != NULL)
		perfdata_set_warn(r->pd, r->warn, r->warn_ctx);
	order_free(r->q);
	free(r->loc.v);
	free(r->loc.copies);
	free(r);
}
