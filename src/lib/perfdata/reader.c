/* SPDX-License-Identifier: MIT */
/* The records of one input, in time order, as events: see reader.h. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "order.h"
#include "reader.h"
#include "sample.h"

/* Records held back to be put in time order: at most this many bytes. */
#define ORDER_MAX_BYTES (16u << 20)
/* How often the pages of a mapped input behind the records still held
 * are given back (input_release()). */
#define RELEASE_STEP (1u << 20)
/* How often progress is noted: at the first record, then every so many
 * bytes of records. */
#define PROGRESS_STEP (4u << 20)
/*
 * The relay between the reading thread and the converting one: batches
 * of records, and how many may be out at once (64K records of 88 bytes).
 * The time order gives records back in bursts, at each round and at its
 * bound: a relay that holds a whole burst lets the converting thread work
 * through it while the reading thread reads the next round
 * (doc/performance.md has the measurements).
 */
#define RELAY_BATCHES 64
#define RELAY_LEN 1024
/* A batch also closes at this many bytes of records: the relay then keeps
 * at most 8 MiB of the input resident, whatever the size of the records
 * (DWARF samples hold 8 KiB each). */
#define RELAY_BYTES ((size_t)128 << 10)
#define CACHE_LINE 64

/* Where the reading stands: the reading thread's while it runs, then the
 * caller's (the reading goes on from there after a handover). */
struct reading {
	struct order *q;	/* records held back for the time order */
	uint64_t next_progress, next_release;
	uint64_t seen;		/* bytes of records read */
};

/* The events of one step of the reading on the caller's thread. */
struct local {
	struct relay_item *v;
	size_t n, cap;
	unsigned char *copies;	/* records that do not stay put, and the
				   warnings' text */
	size_t used, room;
	uint64_t min_off;	/* smallest offset of the records */
};

enum mode {
	MODE_LOCAL,		/* read on the caller's thread */
	MODE_THREAD,		/* read on the reading thread */
	MODE_END,		/* all records handed out */
};

struct reader {
	/* The caller's side. */
	struct perfdata *pd;
	const struct perfdata_format *fmt;	/* PD's */
	struct reader_opts o;
	perfdata_warn_fn warn;	/* PD's own, given back at the end */
	void *warn_ctx;
	enum mode mode;
	struct relay *rl;
	pthread_t th;
	bool batch_out;		/* a relay batch to give back */
	struct local loc;
	/* The reading thread's side, on cache lines of its own: the
	 * caller's thread writes nothing next to what the reader uses for
	 * every record. */
	struct reading rs __attribute__((aligned(CACHE_LINE)));
	struct p2g_error err;	/* the reading thread's error */
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
static struct relay_item *
local_item(struct local *l)
{
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 1024;
		struct relay_item *nv = realloc(l->v, nc * sizeof(*nv));

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
		struct relay_item *it = &l->v[i];

		if (it->kind == RELAY_WARNING)
			it->note.msg = (const char *)l->copies +
				       ((uintptr_t)it->note.msg - 1);
		else if (it->kind == RELAY_RECORD && !it->rec.lasting)
			it->rec.data = l->copies +
				       ((uintptr_t)it->rec.data - 1);
	}
}

/* order_fn of the caller's thread: the record joins the step's events,
 * copied unless it stays where it is. */
static int
collect(void *ctx, const struct perf_record *rec, struct p2g_error *err)
{
	struct reader *r = ctx;
	struct local *l = &r->loc;
	struct relay_item *it = local_item(l);

	if (it == NULL)
		return p2g_fail(err, P2G_NOMEM, rec->offset, "out of memory");
	it->rec = *rec;
	it->kind = RELAY_RECORD;
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

/* A note of the caller's thread (MSG: a warning's text, or NULL). */
static int
local_note(struct reader *r, enum relay_kind kind, const char *part,
	   uint64_t off, const char *msg)
{
	struct local *l = &r->loc;
	struct relay_item *it = local_item(l);
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

/* order_fn of the reading thread: the record goes to the converting
 * thread.  The samples of frame-pointer recordings are decoded here,
 * which balances the two threads' work, into the few fields a
 * conversion uses; the attrs do not change meanwhile (perfdata_freeze()).
 * Other samples, and any that cannot be decoded, are decoded on the
 * converting thread, which then reports the error in its place. */
static int
hand_over(void *ctx, const struct perf_record *rec, struct p2g_error *err)
{
	struct reader *r = ctx;
	struct relay_item *it = relay_put(r->rl, rec);

	if (it == NULL)		/* the converter failed */
		return p2g_fail(err, P2G_IO, rec->offset, "stopped");
	if (rec->type == PERF_RECORD_SAMPLE &&
	    sample_decode_brief(rec->attr, rec->data + 8, rec->size - 8u,
				r->fmt->big_endian, &it->s))
		it->kind = RELAY_SAMPLE;
	return 0;
}

/* PD's warnings while the reader is open: events like the records, in
 * their place among them. */
static void
on_warn(void *ctx, const char *part, uint64_t off, const char *msg)
{
	struct reader *r = ctx;

	if (r->mode == MODE_THREAD)
		(void)relay_note(r->rl, RELAY_WARNING, part, off, msg);
	else
		(void)local_note(r, RELAY_WARNING, part, off, msg);
}

/*
 * Read one record of the data section and hand on (to FN) what the time
 * order gives back for it; records without a real time (0 in the
 * records perf makes up for what ran before it started) go at once, as
 * perf delivers them.  Returns 1 for a record read, 0 at the end of the
 * data (every record given) or when a frozen PD stops before a record
 * (perfdata_held()), -1 on error.  Pages of a mapped input are released
 * behind the records still held, those of the relay RL, or without RL
 * those of the step's events, which the caller has yet to use.
 */
static int
read_step(struct reader *r, struct relay *rl, order_fn fn,
	  struct p2g_error *err)
{
	struct perfdata *pd = r->pd;
	struct reading *rs = &r->rs;
	struct perf_record rec;
	uint64_t t, upto;
	int k;

	k = perfdata_next(pd, &rec, err);
	if (k == 0 && !perfdata_held(pd))
		return order_flush(rs->q, fn, r, err) < 0 ? -1 : 0;
	if (k != 1)
		return k;
	if (rec.type == PERF_RECORD_FINISHED_ROUND) {
		/* The rounds of a perf.data directory's files (if perf ever
		 * writes them there) tell only of their own file. */
		if (!r->fmt->directory && order_round(rs->q, err) < 0)
			return -1;
	} else if (perfdata_record_time(&rec, &t) && t != 0 &&
		   t != UINT64_MAX) {
		if (order_push(rs->q, &rec, t, fn, r, err) < 0)
			return -1;
	} else if (order_pass(rs->q, &rec, fn, r, err) < 0) {
		return -1;
	}
	if (rec.lasting && rec.offset >= rs->next_release) {
		upto = order_oldest(rs->q, rec.offset);
		if (rl != NULL)
			upto = relay_oldest(rl, upto);
		else if (r->loc.min_off < upto)
			upto = r->loc.min_off;
		perfdata_release(pd, upto);
		rs->next_release = rec.offset + RELEASE_STEP;
	}
	if (r->o.progress && (rs->seen += rec.size) >= rs->next_progress) {
		uint64_t done = perfdata_done(pd);

		rs->next_progress = rs->seen + PROGRESS_STEP;
		if (rl != NULL
			    ? relay_note(rl, RELAY_PROGRESS, "", done, NULL) < 0
			    : local_note(r, RELAY_PROGRESS, "", done, NULL) < 0)
			return p2g_fail(err, P2G_NOMEM, rec.offset,
					"out of memory");
	}
	return 1;
}

static void *
reader_main(void *arg)
{
	struct reader *r = arg;
	int k;

	while ((k = read_step(r, r->rl, hand_over, &r->err)) ==
	       1)
		;
	relay_finish(r->rl, k < 0 ? RELAY_END_ERROR
			   : perfdata_held(r->pd) ? RELAY_END_HANDOVER
						  : RELAY_END_DATA,
		     &r->err);
	return NULL;
}

/*
 * Whether the records can be read on a thread of their own: only from a
 * mapped regular file, whose records stay where they are, and whose
 * handle is frozen meanwhile (perfdata_freeze() stops the reader before
 * any record that would change it).  Pipe-mode data, gzip spools and
 * perf.data directories are read on the caller's thread.
 */
static bool
can_thread(const struct reader *r)
{
	return r->o.threads && perfdata_can_freeze(r->pd) &&
	       sysconf(_SC_NPROCESSORS_ONLN) > 1;
}

/* Start the reading thread; false (the reading stays here) if it cannot
 * be made. */
static bool
start_thread(struct reader *r)
{
	r->rl = relay_new(RELAY_BATCHES, RELAY_LEN, RELAY_BYTES);
	if (r->rl == NULL)
		return false;
	r->mode = MODE_THREAD;
	perfdata_freeze(r->pd, true);
	if (pthread_create(&r->th, NULL, reader_main, r) != 0) {
		perfdata_freeze(r->pd, false);
		r->mode = MODE_LOCAL;
		relay_free(r->rl);
		r->rl = NULL;
		return false;
	}
	return true;
}

/* Wait for the reading thread and take the reading back; how it
 * ended. */
static enum relay_end
join_thread(struct reader *r, struct p2g_error *err)
{
	enum relay_end end;

	pthread_join(r->th, NULL);
	end = relay_end(r->rl, err);
	relay_free(r->rl);
	r->rl = NULL;
	perfdata_freeze(r->pd, false);
	r->mode = MODE_LOCAL;
	return end;
}

struct reader *
reader_open(struct perfdata *pd, const struct reader_opts *o)
{
	struct reader *r = NULL;
	size_t size = (sizeof(*r) + CACHE_LINE - 1) & ~(size_t)(CACHE_LINE - 1);

	if (posix_memalign((void **)&r, CACHE_LINE, size) != 0)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->pd = pd;
	r->fmt = perfdata_format(pd);
	r->o = *o;
	r->rs.q = order_new(o->order_bytes ? o->order_bytes : ORDER_MAX_BYTES,
			    r->fmt->big_endian);
	if (r->rs.q == NULL) {
		free(r);
		return NULL;
	}
	r->rs.next_progress = 0;
	r->mode = MODE_LOCAL;
	perfdata_get_warn(pd, &r->warn, &r->warn_ctx);
	if (r->warn != NULL)
		perfdata_set_warn(pd, on_warn, r);
	if (can_thread(r))
		(void)start_thread(r);
	return r;
}

/* One step of the reading on the caller's thread, as events in r->loc;
 * the return of read_step(). */
static int
local_step(struct reader *r, struct p2g_error *err)
{
	struct local *l = &r->loc;
	int k;

	l->n = 0;
	l->used = 0;
	l->min_off = UINT64_MAX;
	do
		k = read_step(r, NULL, collect, err);
	while (k == 1 && l->n == 0);
	local_fix(l);
	return k;
}

int
reader_next(struct reader *r, const struct relay_item **v, size_t *n,
	    struct p2g_error *err)
{
	const struct relay_batch *b;
	int k;

	if (r->mode == MODE_THREAD) {
		if (r->batch_out)
			relay_done(r->rl);
		r->batch_out = false;
		if ((b = relay_take(r->rl)) != NULL) {
			r->batch_out = true;
			*v = b->items;
			*n = b->n;
			return 1;
		}
		switch (join_thread(r, err)) {
		case RELAY_END_DATA:
			r->mode = MODE_END;
			return 0;
		case RELAY_END_ERROR:
			r->mode = MODE_END;
			return -1;
		case RELAY_END_HANDOVER:
			/* The reader stopped before a record that changes
			 * the handle: the rest is read here. */
			break;
		}
	}
	if (r->mode == MODE_END)
		return 0;
	k = local_step(r, err);
	if (k < 0) {
		r->mode = MODE_END;
		return -1;
	}
	if (k == 0)
		r->mode = MODE_END;
	if (r->loc.n == 0)
		return 0;
	*v = r->loc.v;
	*n = r->loc.n;
	return 1;
}

uint64_t
reader_late(const struct reader *r)
{
	return order_late(r->rs.q);
}

void
reader_close(struct reader *r)
{
	struct p2g_error ignored;

	if (r == NULL)
		return;
	if (r->mode == MODE_THREAD) {
		/* The converter gave up: the reader's error is dropped. */
		relay_stop(r->rl);
		(void)join_thread(r, &ignored);
	}
	if (r->warn != NULL)
		perfdata_set_warn(r->pd, r->warn, r->warn_ctx);
	order_free(r->rs.q);
	free(r->loc.v);
	free(r->loc.copies);
	free(r);
}
