/* SPDX-License-Identifier: MIT */
/*
 * Records handed from a reading thread to the converting thread, in the
 * order they are to be used, through a small ring of batches.  The reader
 * fills a batch and publishes it; the converter takes the batches in turn
 * and gives each back once it is done with its records, so the reader may
 * fill it again.  Only pointers cross: the records must stay where they
 * are until given back (perf_record.lasting).
 *
 * The reader also says how far the converter may have got: relay_oldest()
 * is the smallest file offset of a record handed over and not given back,
 * so that the pages of the input are released only behind both threads.
 * Progress and warnings of the reader travel in the stream too (a note
 * closes its batch), so that every callback runs on the converting thread,
 * in the order it would have run with one thread.
 *
 * Stopping: either side may stop.  The reader ends with relay_finish()
 * (the end of the data, the point where it hands the reading over, or an
 * error, kept here until the converter has used every record before it).
 * The converter, when it fails, calls relay_stop(): the reader's next
 * relay_put() or relay_note() fails at once, even while waiting for room.
 */
#ifndef P2G_RELAY_H
#define P2G_RELAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "perfdata.h"
#include "sample.h"

/* What an item of a batch is. */
enum relay_kind {
	RELAY_RECORD,		/* rec: a record */
	RELAY_SAMPLE,		/* rec: a sample, decoded into s */
	RELAY_WARNING,		/* note: the perf.data reader's warning */
	RELAY_PROGRESS,		/* note.offset bytes of the input read */
};

struct relay_note {
	const char *part;	/* perfdata_warn_fn's */
	const char *msg;
	uint64_t offset;
};

struct relay_item {
	struct perf_record rec;	/* RELAY_RECORD, RELAY_SAMPLE */
	union {
		struct sample_brief s;	/* RELAY_SAMPLE: rec's sample,
					   decoded */
		struct relay_note note;	/* RELAY_WARNING, RELAY_PROGRESS */
	};
	uint8_t kind;		/* enum relay_kind */
};

/* What the converter sees of a batch: its items, a note (a warning or
 * progress) closing it. */
struct relay_batch {
	struct relay_item *items;
	size_t n;
	char note_msg[512];	/* the text of a RELAY_WARNING item */
	uint64_t min_off;	/* smallest offset of the records */
	size_t bytes;		/* record bytes of the items */
};

/* How the reader ended (relay_finish()). */
enum relay_end {
	RELAY_END_DATA,		/* all records handed over */
	RELAY_END_HANDOVER,	/* stopped early: the converter reads on */
	RELAY_END_ERROR,	/* failed, with an error */
};

struct relay;

/* A relay of NBATCHES batches of LEN records each, a batch closing early
 * once its records reach MAX_BYTES (they keep the input's pages in the
 * resident set until given back); NULL when out of memory.  The caller
 * frees it with relay_free() after both threads are done with it. */
struct relay *relay_new(size_t nbatches, size_t len, size_t max_bytes);
void relay_free(struct relay *r);

/* --- the reader ------------------------------------------------------ */

/* Hand REC over; returns the item (REC copied in, a RELAY_RECORD) for
 * the caller to complete before the next call, or NULL once the
 * converter has stopped.  Waits while every batch is in use. */
struct relay_item *relay_put(struct relay *r, const struct perf_record *rec);

/* Put a note (RELAY_WARNING with PART and MSG, or RELAY_PROGRESS) after
 * the records handed over so far, closing their batch.  PART must stay
 * as it is until the note is used; MSG is copied.  0, or -1 once the
 * converter has stopped. */
int relay_note(struct relay *r, enum relay_kind kind, const char *part,
	       uint64_t off, const char *msg);

/* The smallest file offset of the records handed over and not given back
 * yet, or DFLT when there is none. */
uint64_t relay_oldest(struct relay *r, uint64_t dflt);

/* The reader is done: END, and for RELAY_END_ERROR its error ERR. */
void relay_finish(struct relay *r, enum relay_end end,
		  const struct p2g_error *err);

/* --- the converter --------------------------------------------------- */

/* The next batch, waiting for it; NULL when the reader has finished and
 * every batch has been taken.  Give it back with relay_done() before
 * taking the next. */
const struct relay_batch *relay_take(struct relay *r);
void relay_done(struct relay *r);

/* How the reader ended, once relay_take() has returned NULL; ERR gets the
 * reader's error for RELAY_END_ERROR. */
enum relay_end relay_end(struct relay *r, struct p2g_error *err);

/* The converter gives up: the reader is told to stop. */
void relay_stop(struct relay *r);

#endif
