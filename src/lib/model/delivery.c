/* SPDX-License-Identifier: MIT */
/* The events a sample counts for: see delivery.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "delivery.h"
#include "grow.h"

void
deliveries_init(struct deliveries *d, const struct perfdata *first)
{
	memset(d, 0, sizeof(*d));
	d->first = first;
}

void
deliveries_release(struct deliveries *d)
{
	free(d->v);
	free(d->samples);
	free(d->sampled_by);
	free(d->map);
	free(d->last);
	memset(d, 0, sizeof(*d));
}

void
deliveries_input(struct deliveries *d, struct perfdata *pd)
{
	d->pd = pd;
	d->nmap = 0;
	d->nlast = 0;
}

/* How much counter number SEQ (perfdata_id_attr()) grew since its last
 * value read (from 0), which perf counts as the period of a sample of its
 * event, into *DELTA.  False when out of memory. */
static bool
grew(struct deliveries *d, size_t seq, uint64_t value, uint64_t *delta)
{
	if (seq >= d->nlast) {
		uint64_t *nl = NULL;
		size_t nn = grow_cap(d->nlast, grow_add(seq, 1), sizeof(*nl),
				     1);

		if (nn == 0 ||
		    (nl = grow_realloc(d->last, nn, sizeof(*nl))) == NULL)
			return false;
		memset(nl + d->nlast, 0, (nn - d->nlast) * sizeof(*nl));
		d->last = nl;
		d->nlast = nn;
	}
	*delta = value - d->last[seq];
	d->last[seq] = value;
	return true;
}

/* Room for event EV in the counts (the first input's attrs grow while
 * a pipe-mode file is read).  False when out of memory. */
static bool
room_for_event(struct deliveries *d, size_t ev)
{
	size_t nn, i;
	uint64_t *ns;
	int32_t *nb;

	if (ev < d->nev)
		return true;
	nn = grow_cap(d->nev, grow_add(ev, 1), sizeof(*ns), 1);
	if (nn == 0)
		return false;
	ns = grow_realloc(d->samples, nn, sizeof(*ns));
	if (ns == NULL)
		return false;
	d->samples = ns;
	nb = grow_realloc(d->sampled_by, nn, sizeof(*nb));
	if (nb == NULL)
		return false;
	d->sampled_by = nb;
	for (i = d->nev; i < nn; i++) {
		d->samples[i] = 0;
		d->sampled_by[i] = -1;
	}
	d->nev = nn;
	return true;
}

/* The event that attr A of the current input counts for: the first
 * input's attr of the same name; -1 if there is none, -3 when out of
 * memory. */
static int32_t
event_of(struct deliveries *d, const struct perf_attr *a)
{
	size_t x = a->index, i, n;

	if (d->pd == d->first)
		return (int32_t)x;
	if (x >= d->nmap) {
		int32_t *nm;

		n = perfdata_nattrs(d->pd);
		nm = realloc(d->map, n * sizeof(*nm));
		if (nm == NULL)
			return -3;
		d->map = nm;
		for (i = d->nmap; i < n; i++)
			d->map[i] = -2;
		d->nmap = n;
	}
	if (d->map[x] == -2) {
		d->map[x] = -1;
		for (i = 0; i < perfdata_nattrs(d->first); i++)
			if (strcmp(perfdata_attr(d->first, i)->name,
				   a->name) == 0) {
				d->map[x] = (int32_t)i;
				break;
			}
	}
	return d->map[x];
}

static int
deliver(struct deliveries *d, int32_t ev, uint64_t period)
{
	if (ev == -3)
		return -1;
	if (ev < 0) {
		d->other_events++;
		return 0;
	}
	if (!room_for_event(d, (size_t)ev))
		return -1;
	d->v[d->n].ev = (uint32_t)ev;
	d->v[d->n].period = period;
	d->n++;
	d->samples[ev]++;
	return 0;
}

int
deliveries_of(struct deliveries *d, const struct perf_record *rec,
	      const struct perf_sample *s, uint64_t period)
{
	const struct perf_attr *a = rec->attr, *to;
	uint64_t i, value, id, delta;
	size_t seq;
	int32_t ev, by;

	d->n = 0;
	if (d->cap == 0) {
		d->v = malloc(sizeof(*d->v));
		if (d->v == NULL)
			return -1;
		d->cap = 1;
	}
	if (!(a->sample_type & PERF_SAMPLE_READ))
		return deliver(d, event_of(d, a), period);
	if (s->read_nr > d->cap) {
		struct delivery *nd = realloc(d->v, (size_t)s->read_nr *
							    sizeof(*nd));

		if (nd == NULL)
			return -1;
		d->v = nd;
		d->cap = (size_t)s->read_nr;
	}
	for (i = 0; i < s->read_nr; i++) {
		const unsigned char *v = s->read_values +
					 i * s->read_value_size;

		value = load64(v, s->big_endian);
		if (!(a->read_format & PERF_FORMAT_GROUP))
			id = s->read_one_id;
		else if (a->read_format & PERF_FORMAT_ID)
			id = load64(v + 8, s->big_endian);
		else
			id = 0;
		to = perfdata_id_attr(d->pd, id, &seq);
		if (to == NULL) {
			d->read_unknown_id++;
			continue;
		}
		if (!grew(d, seq, value, &delta))
			return -1;
		if (delta == 0) {
			d->read_unchanged++;
			continue;
		}
		ev = event_of(d, to);
		if (to != a && to->sample_period == 0 && ev >= 0 &&
		    (by = event_of(d, a)) >= 0) {
			if (!room_for_event(d, (size_t)ev))
				return -1;
			d->sampled_by[ev] = by;
		}
		if (deliver(d, ev, delta) < 0)
			return -1;
	}
	return 0;
}

int
deliveries_undecodable(struct deliveries *d, const struct perf_record *rec)
{
	size_t ev = rec->attr->index;

	/* Only the first input's events are chosen from. */
	if (d->pd != d->first)
		return 0;
	if (!room_for_event(d, ev))
		return -1;
	d->samples[ev]++;
	return 0;
}

uint64_t
deliveries_samples(const struct deliveries *d, size_t ev)
{
	return ev < d->nev ? d->samples[ev] : 0;
}

int32_t
deliveries_sampled_by(const struct deliveries *d, size_t ev)
{
	return ev < d->nev ? d->sampled_by[ev] : -1;
}
