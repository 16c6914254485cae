/* SPDX-License-Identifier: MIT */
/*
 * The records of one input, in time order (order.h), handed out in
 * batches of events for the converter to pull.  An event is a kernel
 * record, a sample whose few fields a frame-pointer conversion uses are
 * decoded already (struct sample_brief), or a note: a warning of the
 * perf.data reader, or how far the reading has got.  Events come in the
 * order in which one thread would have met them, notes included.
 *
 * Where it pays (a mapped regular file on a machine of several CPUs),
 * the records are read, put in time order and their samples decoded on
 * a thread of its own, which hands the events over through a relay
 * (relay.h); the converter's thread then does the rest.  That thread
 * stops before a record that would change the perf.data handle (an
 * attr, a feature section, compressed data: perfdata_freeze()), and the
 * reading goes on here from where it stood.  Either way the events are
 * the same, and so is the profile made of them.
 *
 * While a reader is open it owns the perf.data handle: the converter
 * reads the events and the attrs they point to, and changes neither.
 */
#ifndef P2G_READER_H
#define P2G_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "perfdata.h"
#include "relay.h"

struct reader_opts {
	bool threads;		/* may read on a second thread */
	size_t order_bytes;	/* record bytes held for the time order
				   at most; 0: 16 MiB */
	bool progress;		/* hand out READER_PROGRESS notes */
};

struct reader;

/*
 * A reader of PD's data section from where PD stands.  PD's warnings
 * become READER_WARNING events until reader_close().  NULL when out of
 * memory.
 */
struct reader *reader_open(struct perfdata *pd, const struct reader_opts *o);

/*
 * The next batch of events, in *V[0..*N), valid until the next call or
 * reader_close().  Returns 1 for a batch (never empty), 0 at the end of
 * the data, -1 with ERR set when the reading failed.
 */
int reader_next(struct reader *r, const struct relay_item **v, size_t *n,
		struct p2g_error *err);

/* Records used out of time order so far (order.h). */
uint64_t reader_late(const struct reader *r);

/* Stop reading (joining the reading thread if it runs), give PD its
 * warnings back and free R; NULL is accepted. */
void reader_close(struct reader *r);

#endif
