/* SPDX-License-Identifier: MIT */
/*
 * Leaf copies against pprof's stack rewriting: see fixup.h.
 *
 * A record as written is its leaf repeated LEAD times followed by the
 * rest of its true stack from index 1 + K.  Go pprof's removals only ever
 * take the second element, which is a leaf copy while LEAD >= 2 and the
 * next true frame otherwise, so the simulation tracks (LEAD, K) per record
 * instead of copying stacks.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fixup.h"

#define MAX_ROUNDS 8
#define MAX_EXTRA 6

struct simrec {
	const uint64_t *t;	/* true stack */
	uint64_t n;
	uint32_t lead;		/* copies of t[0] at the front */
	uint32_t k;		/* true frames after t[0] removed (at
				   most 3: two rounds and the last rule) */
};

static uint64_t
sim_len(const struct simrec *r)
{
	return r->lead + (r->n - 1 - r->k);
}

/* The second PC; only valid when sim_len() > 1. */
static uint64_t
sim_second(const struct simrec *r)
{
	return r->lead >= 2 ? r->t[0] : r->t[1 + r->k];
}

static void
sim_strip(struct simrec *r)
{
	if (r->lead >= 2)
		r->lead--;
	else
		r->k++;
}

/* How far ahead the passes over the records fetch their PCs: records
 * are in count order, their PCs anywhere in the pool. */
#define AHEAD 16

static inline void
fetch_ahead(const struct simrec *rs, size_t n, size_t i)
{
	if (i + AHEAD < n)
		__builtin_prefetch(rs[i + AHEAD].t + rs[i + AHEAD].k);
}

/*
 * Whether at least NEED of the N records share their second PC, which
 * goes to *ADDR.  NEED is more than half of N (N - N/32), so only a
 * strict majority can be shared that widely: Boyer and Moore's vote
 * finds the one candidate without a table, and a second pass counts it,
 * stopping as soon as too many records lack it.
 */
static bool
shared_second(const struct simrec *rs, size_t n, size_t need, uint64_t *addr)
{
	uint64_t cand = 0;
	size_t votes = 0, misses = 0, i;

	for (i = 0; i < n; i++) {
		uint64_t a;

		fetch_ahead(rs, n, i);
		if (sim_len(&rs[i]) < 2)
			continue;
		a = sim_second(&rs[i]);
		if (votes == 0) {
			cand = a;
			votes = 1;
		} else if (a == cand) {
			votes++;
		} else {
			votes--;
		}
	}
	if (votes == 0 || need == 0)
		return false;
	for (i = 0; i < n; i++) {
		fetch_ahead(rs, n, i);
		if (sim_len(&rs[i]) < 2 || sim_second(&rs[i]) != cand)
			if (++misses > n - need)
				return false;
	}
	*addr = cand;
	return true;
}

static void
simulate(struct simrec *rs, size_t n)
{
	size_t i;
	uint64_t addr = 0;
	int iter;

	for (iter = 0; iter < 2; iter++) {
		/* Nothing stripped: the second round would see the same. */
		if (!shared_second(rs, n, n - n / 32, &addr))
			break;
		for (i = 0; i < n; i++) {
			fetch_ahead(rs, n, i);
			if (sim_len(&rs[i]) > 1 && sim_second(&rs[i]) == addr)
				sim_strip(&rs[i]);
		}
	}
	for (i = 0; i < n; i++) {
		fetch_ahead(rs, n, i);
		if (sim_len(&rs[i]) > 1 && sim_second(&rs[i]) == rs[i].t[0])
			sim_strip(&rs[i]);
	}
}

/* Does the simulated record read as its true stack? */
static bool
sim_is_true(const struct simrec *r)
{
	uint64_t i;

	if (r->k + 1 != r->lead)
		return false;
	for (i = 1; i < r->lead; i++)
		if (r->t[i] != r->t[0])
			return false;
	return true;
}

int
fixup_plan(const struct profile *p, unsigned char *extra,
	   struct fixup_result *res)
{
	struct simrec *rs;
	size_t n = p->nrecs, i;
	int round;
	bool bad;

	memset(res, 0, sizeof(*res));
	memset(extra, 0, n);
	if (n == 0) {
		res->converged = true;
		return 0;
	}
	rs = malloc(n * sizeof(*rs));
	if (rs == NULL)
		return -1;
	for (round = 0; round < MAX_ROUNDS; round++) {
		for (i = 0; i < n; i++) {
			rs[i].t = p->pcs + p->recs[i].off;
			rs[i].n = p->recs[i].n;
			rs[i].lead = 1 + extra[i];
			rs[i].k = 0;
		}
		simulate(rs, n);
		bad = false;
		for (i = 0; i < n; i++) {
			fetch_ahead(rs, n, i);
			if (sim_is_true(&rs[i]))
				continue;
			bad = true;
			if (extra[i] < MAX_EXTRA)
				extra[i]++;
		}
		if (!bad) {
			res->converged = true;
			break;
		}
	}
	free(rs);
	for (i = 0; i < n; i++) {
		if (extra[i] > 0) {
			res->records_changed++;
			res->copies += extra[i];
		}
	}
	return 0;
}

long
fixup_simulate_go(const struct profile *p, const struct profile *truth,
		  bool *same)
{
	size_t n = p->nrecs, i;
	struct simrec *rs;
	long differ = 0;

	/* Model each written record as (its own PCs, lead 1), run the
	 * simulation, then compare the outcome with the truth. */
	rs = malloc((n ? n : 1) * sizeof(*rs));
	if (rs == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		rs[i].t = p->pcs + p->recs[i].off;
		rs[i].n = p->recs[i].n;
		rs[i].lead = 1;
		rs[i].k = 0;
	}
	simulate(rs, n);
	for (i = 0; i < n; i++) {
		const uint64_t *t = truth->pcs + truth->recs[i].off;
		uint64_t tn = truth->recs[i].n, j;
		bool eq = sim_len(&rs[i]) == tn && tn > 0 &&
			  rs[i].t[0] == t[0];

		for (j = 1; eq && j < tn; j++)
			eq = rs[i].t[1 + rs[i].k + (j - 1)] == t[j];
		same[i] = eq;
		differ += !eq;
	}
	free(rs);
	return differ;
}

bool
fixup_perl_strips(const struct profile *p)
{
	uint64_t second = 0;
	size_t i;

	if (p->nrecs == 0)
		return false;
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		if (r->n < 2)
			return false;
		if (i == 0)
			second = p->pcs[r->off + 1];
		else if (p->pcs[r->off + 1] != second)
			return false;
	}
	return true;
}
