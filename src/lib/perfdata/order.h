/* SPDX-License-Identifier: MIT */
/*
 * Records in time order, as perf delivers them.  perf record writes each
 * CPU's ring buffer in turn, so a record can land in the file before
 * another that happened earlier (a sample of a new program before its
 * exec and mmap records, written from another CPU).  Records with a time
 * are queued here and given back sorted by time (file order on a tie)
 * once no earlier record can follow: at each FINISHED_ROUND, those up to
 * the latest time of the round before, as perf does; at the end, all;
 * and when the queue grows past its bound, the earlier half.
 *
 * Each CPU's records come in order, so the queue is a few sorted runs of
 * records in file order (a run ends where the time goes back); records
 * are given back by merging the runs, through a small heap of their
 * first records.  Entries sit in one array in file order, so both the
 * queueing and the merge walk memory in order.  A record whose bytes stay
 * where they are (a mapped file, perf_record.lasting) is queued by
 * pointer; any other is copied once.
 *
 * What a round gives back is not handed on at once, but a few records at
 * a time as the next records are queued, over about as many records as a
 * round has.  The reader (reader.h) then hands them on in small batches
 * rather than in one burst per round.  The order is the same: those
 * records still go before any given back after them.
 */
#ifndef P2G_ORDER_H
#define P2G_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "perfdata.h"

struct order;

/* What a queue holds, for the tests. */
struct order_state {
	size_t bytes;		/* record bytes held */
	size_t due;		/* given back at the last round, not
				   handed on yet */
	size_t due_bytes;	/* their record bytes */
	size_t due_head, due_cap;	/* where they start in their array,
					   and its room */
	uint64_t late;		/* records given back out of order */
};

/* Called for each record given back; returns 0 or -1 to stop. */
typedef int (*order_fn)(void *ctx, const struct perf_record *rec,
			struct p2g_error *err);

/* An empty queue holding at most MAX_BYTES of records of the byte order
 * BIG_ENDIAN; NULL when out of memory.  Free it with order_free() (NULL is
 * accepted), which drops the records still held. */
struct order *order_new(size_t max_bytes, bool big_endian);
void order_free(struct order *q);

/* Queue REC (copied unless lasting) at TIME.  Records flushed because of
 * the bound go to FN.  0, or -1 with ERR set. */
int order_push(struct order *q, const struct perf_record *rec,
	       uint64_t time, order_fn fn, void *ctx, struct p2g_error *err);

/* A FINISHED_ROUND: give back what can no longer be overtaken.  Those
 * records are handed on later, to the FN of the calls that follow: a few
 * with each record order_push() queues, and the rest at order_pass(),
 * order_flush() or the bound, always before any record given back after
 * them.  0, or -1 with ERR set (out of memory). */
int order_round(struct order *q, struct p2g_error *err);

/* A record that is not held back (it has no time): it goes to FN after
 * every record given back before it, as perf delivers such a record at
 * once.  0, or -1 with ERR set (FN's, or its own). */
int order_pass(struct order *q, const struct perf_record *rec, order_fn fn,
	       void *ctx, struct p2g_error *err);

/* The end of the data: give back everything. */
int order_flush(struct order *q, order_fn fn, void *ctx, struct p2g_error *err);

/* The file offset of the earliest record (in file order) still held, or
 * DFLT when none is. */
uint64_t order_oldest(const struct order *q, uint64_t dflt);

/* Records queued with a time before that of a record given back already:
 * given back out of order (perf's "out of order events", which has no
 * bound). */
uint64_t order_late(const struct order *q);

/* What Q holds, into *S. */
void order_inspect(const struct order *q, struct order_state *s);

#endif
