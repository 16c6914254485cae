/* SPDX-License-Identifier: MIT */
/* Records from the reading thread to the converting thread: see relay.h. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relay.h"

/*
 * Batch number k (counting from 0 since the start) lives in slot
 * k % nbatches.  The batches published and not yet given back are
 * [done, published); the reader fills batch `published` (cur) when it has
 * one, which it may only while published - done < nbatches.  The counts
 * and the flags are under the mutex; a batch's contents belong to the
 * reader until published and to the converter until given back (the
 * mutex orders the two).
 */
struct relay {
	pthread_mutex_t mu;
	pthread_cond_t room;	/* the reader waits for a free batch */
	pthread_cond_t ready;	/* the converter waits for a batch */
	struct relay_batch *b;
	size_t nbatches, len, max_bytes;
	uint64_t published, done;
	struct relay_batch *cur;	/* being filled, or NULL */
	bool reader_waits, converter_waits;
	bool stopped;		/* the converter gave up */
	bool finished;		/* the reader is done */
	enum relay_end end;
	struct p2g_error err;
};

struct relay *
relay_new(size_t nbatches, size_t len, size_t max_bytes)
{
	struct relay *r;
	size_t i;

	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return NULL;
	r->b = calloc(nbatches, sizeof(*r->b));
	if (r->b == NULL)
		goto fail;
	for (i = 0; i < nbatches; i++) {
		r->b[i].items = malloc(len * sizeof(*r->b[i].items));
		if (r->b[i].items == NULL)
			goto fail;
	}
	r->nbatches = nbatches;
	r->len = len;
	r->max_bytes = max_bytes;
	if (pthread_mutex_init(&r->mu, NULL) != 0)
		goto fail;
	if (pthread_cond_init(&r->room, NULL) != 0) {
		pthread_mutex_destroy(&r->mu);
		goto fail;
	}
	if (pthread_cond_init(&r->ready, NULL) != 0) {
		pthread_cond_destroy(&r->room);
		pthread_mutex_destroy(&r->mu);
		goto fail;
	}
	return r;
fail:
	if (r->b != NULL)
		for (i = 0; i < nbatches; i++)
			free(r->b[i].items);
	free(r->b);
	free(r);
	return NULL;
}

void
relay_free(struct relay *r)
{
	size_t i;

	if (r == NULL)
		return;
	pthread_cond_destroy(&r->ready);
	pthread_cond_destroy(&r->room);
	pthread_mutex_destroy(&r->mu);
	for (i = 0; i < r->nbatches; i++)
		free(r->b[i].items);
	free(r->b);
	free(r);
}

static bool publish(struct relay *r);

/* The batch to fill, waiting for one if need be; NULL once stopped.  A
 * full batch goes now, not when filled: its last item is completed by
 * the caller after relay_put(). */
static struct relay_batch *
current(struct relay *r)
{
	struct relay_batch *b;

	if (r->cur != NULL && r->cur->n < r->len &&
	    r->cur->bytes < r->max_bytes)
		return r->cur;
	if (r->cur != NULL && !publish(r))
		return NULL;
	pthread_mutex_lock(&r->mu);
	if (!r->stopped && r->published - r->done == r->nbatches) {
		/* Wait until half the batches are free, not one: each side
		 * then sleeps and wakes once per half ring, not per batch. */
		r->reader_waits = true;
		while (!r->stopped &&
		       r->published - r->done > r->nbatches / 2)
			pthread_cond_wait(&r->room, &r->mu);
		r->reader_waits = false;
	}
	b = r->stopped ? NULL : &r->b[r->published % r->nbatches];
	pthread_mutex_unlock(&r->mu);
	if (b != NULL) {
		b->n = 0;
		b->min_off = UINT64_MAX;
		b->bytes = 0;
		r->cur = b;
	}
	return b;
}

/* Hand the batch being filled to the converter; false once stopped. */
static bool
publish(struct relay *r)
{
	bool ok;

	pthread_mutex_lock(&r->mu);
	r->cur = NULL;
	r->published++;
	ok = !r->stopped;
	if (r->converter_waits &&
	    r->published - r->done >= (r->nbatches + 1) / 2)
		pthread_cond_signal(&r->ready);
	pthread_mutex_unlock(&r->mu);
	return ok;
}

struct relay_item *
relay_put(struct relay *r, const struct perf_record *rec)
{
	struct relay_batch *b = current(r);
	struct relay_item *it;

	if (b == NULL)
		return NULL;
	it = &b->items[b->n++];
	it->rec = *rec;
	it->kind = RELAY_RECORD;
	b->bytes += rec->size;
	if (rec->offset < b->min_off)
		b->min_off = rec->offset;
	return it;
}

int
relay_note(struct relay *r, enum relay_kind kind, const char *part,
	   uint64_t off, const char *msg)
{
	struct relay_batch *b = current(r);
	struct relay_item *it;

	if (b == NULL)
		return -1;
	it = &b->items[b->n++];
	it->kind = (uint8_t)kind;
	it->note.part = part;
	it->note.offset = off;
	b->note_msg[0] = '\0';
	if (msg != NULL)
		snprintf(b->note_msg, sizeof(b->note_msg), "%s", msg);
	it->note.msg = b->note_msg;
	return publish(r) ? 0 : -1;
}

uint64_t
relay_oldest(struct relay *r, uint64_t dflt)
{
	uint64_t k, min = dflt;

	/* min_off of a batch is the reader's own writing: only which
	 * batches are still out needs the mutex. */
	if (r->cur != NULL && r->cur->min_off < min)
		min = r->cur->min_off;
	pthread_mutex_lock(&r->mu);
	for (k = r->done; k < r->published; k++)
		if (r->b[k % r->nbatches].min_off < min)
			min = r->b[k % r->nbatches].min_off;
	pthread_mutex_unlock(&r->mu);
	return min;
}

void
relay_finish(struct relay *r, enum relay_end end,
	     const struct p2g_error *err)
{
	if (r->cur != NULL)
		(void)publish(r);
	pthread_mutex_lock(&r->mu);
	r->finished = true;
	r->end = end;
	if (end == RELAY_END_ERROR)
		r->err = *err;
	pthread_cond_signal(&r->ready);
	pthread_mutex_unlock(&r->mu);
}

const struct relay_batch *
relay_take(struct relay *r)
{
	const struct relay_batch *b = NULL;

	pthread_mutex_lock(&r->mu);
	if (r->done == r->published && !r->finished) {
		r->converter_waits = true;
		while (r->published - r->done < (r->nbatches + 1) / 2 &&
		       !r->finished)
			pthread_cond_wait(&r->ready, &r->mu);
		r->converter_waits = false;
	}
	if (r->done < r->published)
		b = &r->b[r->done % r->nbatches];
	pthread_mutex_unlock(&r->mu);
	return b;
}

void
relay_done(struct relay *r)
{
	pthread_mutex_lock(&r->mu);
	r->done++;
	if (r->reader_waits && r->published - r->done <= r->nbatches / 2)
		pthread_cond_signal(&r->room);
	pthread_mutex_unlock(&r->mu);
}

enum relay_end
relay_end(struct relay *r, struct p2g_error *err)
{
	enum relay_end end;

	pthread_mutex_lock(&r->mu);
	end = r->end;
	if (end == RELAY_END_ERROR)
		*err = r->err;
	pthread_mutex_unlock(&r->mu);
	return end;
}

void
relay_stop(struct relay *r)
{
	pthread_mutex_lock(&r->mu);
	r->stopped = true;
	pthread_cond_signal(&r->room);
	pthread_mutex_unlock(&r->mu);
}
