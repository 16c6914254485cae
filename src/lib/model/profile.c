/* SPDX-License-Identifier: MIT */
/* The in-memory profile: see profile.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "grow.h"
#include "profile.h"

void
profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
	p->slot_bytes = 8;
}

void
profile_release(struct profile *p)
{
	free(p->recs);
	free(p->pcs);
	free(p->maps);
	profile_init(p);
}

static int
reserve_pcs(struct profile *p, uint64_t n)
{
	uint64_t *np;

	/* A pool, even for a record of no PCs: its PCs are then at a
	 * valid address (and NULL means out of memory to callers). */
	if (n <= p->cap_pcs - p->npcs && p->pcs != NULL)
		return 0;
	if (n >= SIZE_MAX - p->npcs)
		return -1;
	np = grow(p->pcs, &p->cap_pcs, p->npcs + (size_t)n + 1, sizeof(*np),
		  4096);
	if (np == NULL)
		return -1;
	p->pcs = np;
	return 0;
}

static struct profile_record *
new_record(struct profile *p)
{
	if (p->nrecs == p->cap_recs) {
		struct profile_record *nr = grow(p->recs, &p->cap_recs,
						 p->nrecs + 1, sizeof(*nr),
						 256);

		if (nr == NULL)
			return NULL;
		p->recs = nr;
	}
	return &p->recs[p->nrecs];
}

int
profile_add_at(struct profile *p, uint64_t count, uint64_t off, uint64_t n)
{
	struct profile_record *r = new_record(p);

	if (r == NULL)
		return -1;
	r->count = count;
	r->off = off;
	r->n = n;
	p->nrecs++;
	return 0;
}

int
profile_add_extra(struct profile *p, uint64_t count, const uint64_t *pcs,
		  uint64_t n, unsigned extra)
{
	struct profile_record *r;
	unsigned i;

	if (n == 0)
		extra = 0;
	if (n > SIZE_MAX / 8 - extra || reserve_pcs(p, n + extra) < 0)
		return -1;
	r = new_record(p);
	if (r == NULL)
		return -1;
	r->count = count;
	r->off = p->npcs;
	r->n = n + extra;
	if (n > 0) {
		p->pcs[p->npcs++] = pcs[0];
		for (i = 0; i < extra; i++)
			p->pcs[p->npcs++] = pcs[0];
		memcpy(p->pcs + p->npcs, pcs + 1, (size_t)(n - 1) * 8);
		p->npcs += (size_t)(n - 1);
	}
	p->nrecs++;
	return 0;
}

int
profile_add(struct profile *p, uint64_t count, const uint64_t *pcs,
	    uint64_t n)
{
	return profile_add_extra(p, count, pcs, n, 0);
}

int
profile_repeat_leaf(struct profile *p, size_t i, unsigned extra)
{
	uint64_t n = p->recs[i].n, *src, *dst;
	unsigned k;

	if (n == 0 || extra == 0)
		return 0;
	if (n > SIZE_MAX / 8 - extra || reserve_pcs(p, n + extra) < 0)
		return -1;
	src = p->pcs + p->recs[i].off;	/* after a move of the pool */
	dst = p->pcs + p->npcs;
	dst[0] = src[0];
	for (k = 1; k <= extra; k++)
		dst[k] = src[0];
	memcpy(dst + 1 + extra, src + 1, (size_t)(n - 1) * 8);
	p->recs[i].off = p->npcs;
	p->recs[i].n = n + extra;
	p->npcs += (size_t)(n + extra);
	return 0;
}

uint64_t *
profile_new_record(struct profile *p, uint64_t count, uint64_t n)
{
	struct profile_record *r;
	uint64_t *pcs;

	if (n > SIZE_MAX / 8 || reserve_pcs(p, n) < 0)
		return NULL;
	r = new_record(p);
	if (r == NULL)
		return NULL;
	r->count = count;
	r->off = p->npcs;
	r->n = n;
	pcs = p->pcs + p->npcs;
	p->npcs += (size_t)n;
	p->nrecs++;
	return pcs;
}

int
profile_set_maps(struct profile *p, const char *text, size_t len)
{
	char *m = malloc(len + 1);

	if (m == NULL)
		return -1;
	memcpy(m, text, len);
	m[len] = '\0';
	free(p->maps);
	p->maps = m;
	p->maps_len = len;
	return 0;
}

uint64_t
profile_samples(const struct profile *p)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < p->nrecs; i++)
		sum = count_add(sum, p->recs[i].count);
	return sum;
}
