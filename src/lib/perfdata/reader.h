/* SPDX-License-Identifier: MIT */
/*
 * The records of one input, in time order (order.h), handed out in
 * batches of events for the converter to pull.  An event is a kernel
 * record or a note: a warning of the perf.data reader, or how far the
 * reading has got, in its place among the records.
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

struct reader_opts {
	size_t order_bytes;	/* record bytes held for the time order
				   at most; 0: 16 MiB */
	bool progress;		/* hand out READER_PROGRESS notes */
};

/* What an event is. */
enum reader_kind {
	READER_RECORD,		/* rec: a record */
	READER_WARNING,		/* note: the perf.data reader's warning */
	READER_PROGRESS,	/* note.offset bytes of the input read */
};

struct reader_note {
	const char *part;	/* perfdata_warn_fn's */
	const char *msg;
	uint64_t offset;
};

struct reader_event {
	union {
		struct perf_record rec;		/* READER_RECORD */
		struct reader_note note;	/* READER_WARNING,
						   READER_PROGRESS */
	};
	uint8_t kind;		/* enum reader_kind */
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
int reader_next(struct reader *r, const struct reader_event **v, size_t *n,
		struct p2g_error *err);

/* Records used out of time order so far (order.h). */
uint64_t reader_late(const struct reader *r);

/* Stop reading, give PD its warnings back and free R; NULL is
 * accepted. */
void reader_close(struct reader *r);

#endif
