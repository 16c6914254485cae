/* SPDX-License-Identifier: MIT */
/*
 * The events a sample counts for.  A sample counts for its own event,
 * except with PERF_SAMPLE_READ, where perf hands it to each counter read
 * with it (all members of a group with FORMAT_GROUP, else the event
 * itself) whose value grew since that counter's last read, with the
 * growth as its period; a counter that did not grow, or whose id is
 * unknown, gets nothing.
 *
 * Events are named by their index in the first input's attrs: the
 * events of a later input count for the first input's event of the same
 * name (samples of an event the first input lacks are counted apart).
 * The samples of each event, which event's samples read a counter that
 * samples nothing itself, and the counters' last values are kept here,
 * not in the perf.data handle, which the converter only reads.
 */
#ifndef P2G_DELIVERY_H
#define P2G_DELIVERY_H

#include <stddef.h>
#include <stdint.h>

#include "perfdata.h"
#include "sample.h"

struct delivery {
	uint32_t ev;		/* the event, in the first input's attrs */
	uint64_t period;
};

struct deliveries {
	struct delivery *v;	/* of the last sample */
	size_t n, cap;
	uint64_t *samples;	/* samples of each event */
	int32_t *sampled_by;	/* of each event, the event whose samples
				   read it, or -1 */
	size_t nev;		/* events in SAMPLES and SAMPLED_BY */
	int32_t *map;		/* the current input's attr -> event, or
				   -1 (none), or -2 (not looked up yet) */
	size_t nmap;
	uint64_t *last;		/* the current input's last value read of
				   each counter, by perfdata_id_attr()'s
				   number of its id */
	size_t nlast;
	const struct perfdata *first;
	struct perfdata *pd;	/* the current input */
	uint64_t other_events;	/* deliveries to events the first input
				   lacks */
	uint64_t read_unchanged;	/* counters that did not grow */
	uint64_t read_unknown_id;	/* ... whose id matches no event */
};

/* Start with the events of FIRST, the first input. */
void deliveries_init(struct deliveries *d, const struct perfdata *first);
void deliveries_release(struct deliveries *d);

/* The samples of input PD come next. */
void deliveries_input(struct deliveries *d, struct perfdata *pd);

/*
 * The events the sample REC of the current input counts for into d->v,
 * d->n, each counted in d->samples: FULL is the sample decoded (needed
 * with PERF_SAMPLE_READ), PERIOD its period.  0, or -1 when out of
 * memory.
 */
int deliveries_of(struct deliveries *d, const struct perf_record *rec,
		  const struct perf_sample *full, uint64_t period);

/* Count a sample of REC's event that cannot be decoded.  0, or -1 when
 * out of memory. */
int deliveries_undecodable(struct deliveries *d,
			   const struct perf_record *rec);

/* The samples of event EV, and the event whose samples read it (-1:
 * its own). */
uint64_t deliveries_samples(const struct deliveries *d, size_t ev);
int32_t deliveries_sampled_by(const struct deliveries *d, size_t ev);

#endif
