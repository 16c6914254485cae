/* SPDX-License-Identifier: MIT */
/*
 * Records in time order, as perf delivers them.  perf record writes each
 * CPU's ring buffer in turn, so a record can land in the file before
 * another that happened earlier (a sample of a new program before its
 * exec and mmap records, written from another CPU).  Records with a time
 * are queued here and given back sorted by time (file order on a tie)
 * once no earlier record can follow: at each FINISHED_ROUND, those up to
 * the latest time of the round before, as perf does; at the end, all;
 * and when the queue grows past its bound, the earlier half.  Each record
 * is copied once.  The queue is a list in (time, file order) order into
 * which a record goes by a walk from the one inserted before it, as in
 * perf: each CPU's records come in order, so the walks are short.
 */
#ifndef P2G_ORDER_H
#define P2G_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "perfdata.h"

struct order_chunk;

struct order_entry {
	uint64_t time;
	uint64_t seq;		/* file order */
	uint64_t offset;	/* of the record in the file */
	struct order_chunk *chunk;	/* where its bytes are */
	const unsigned char *data;
	uint32_t prev, next;	/* the list in (time, seq) order */
	uint32_t type;
	uint16_t misc, size;
	int32_t attr;		/* index in the file's attrs, or -1 */
};

struct order {
	struct order_entry *v;	/* entries, used ones linked in order */
	size_t cap;
	uint32_t free;		/* list of unused entries */
	uint32_t head, tail, last;	/* last: the latest inserted */
	size_t n;
	struct order_chunk *cur;	/* the chunk being filled */
	struct order_chunk *spare;	/* an empty one kept for reuse */
	size_t bytes;		/* record bytes held */
	uint64_t seq;
	uint64_t round_max;	/* latest time queued this round */
	uint64_t flush_upto;	/* set by the previous round */
	size_t max_bytes;	/* the bound on bytes held */
};

/* Called for each record given back; returns 0 or -1 to stop. */
typedef int (*order_fn)(void *ctx, const struct perf_record *rec,
			struct p2g_error *err);

void order_init(struct order *q, size_t max_bytes);
void order_release(struct order *q);

/* The time of REC if it has one (a sample with PERF_SAMPLE_TIME, or
 * another kernel record with a sample_id_all trailer holding TIME). */
int order_record_time(const struct perfdata *pd,
		      const struct perf_record *rec, uint64_t *time);

/* Queue REC (copied) at TIME.  Records flushed because of the bound go
 * to FN.  0, or -1 with ERR set. */
int order_push(struct order *q, struct perfdata *pd,
	       const struct perf_record *rec, uint64_t time, order_fn fn,
	       void *ctx, struct p2g_error *err);

/* A FINISHED_ROUND: give back what can no longer be overtaken. */
int order_round(struct order *q, struct perfdata *pd, order_fn fn, void *ctx,
		struct p2g_error *err);

/* The end of the data: give back everything. */
int order_flush(struct order *q, struct perfdata *pd, order_fn fn, void *ctx,
		struct p2g_error *err);

#endif
