/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the stack table: identical (space, stack) pairs are summed,
 * anything that differs in space, depth or one frame is kept apart, and the
 * table survives many rehashes with every count intact; periods are
 * summed when kept; stacks rewritten in place are merged.  A packed table
 * holds the very entries a plain one does, and unpacks to the same PCs,
 * in place or not.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "stacktab.h"
#include "unit.h"

static uint64_t rng = 88172645463325252ULL;

static uint64_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A PC as perf records them in REGION (the kernel, a library, the
 * program), or one of the extremes. */
static uint64_t
some_pc(unsigned region)
{
	uint64_t r = next_rand();

	if (r % 16 == 0)
		return (r >> 8) % 4 == 0 ? 0 : (r >> 8) % 4 == 1 ? UINT64_MAX
		       : (r >> 8) % 4 == 2 ? (uint64_t)1 << 63 : r;
	switch (region) {
	case 0:
		return 0xffffffff81000000ULL + (r >> 40);
	case 1:
		return 0x7f0000000000ULL + (r >> 24);
	default:
		return 0x555555554000ULL + (r >> 44);
	}
}

/* The same adds to a packed table and a plain one; then the packed one
 * unpacked, and used on as a plain one. */
static void
packed_like_plain(int wild)
{
	struct stacktab *p, *q;
	struct stacktab_state ps, qs;
	uint64_t stacks[500][40];
	uint32_t depth[500];
	size_t i, k;

	for (i = 0; i < 500; i++) {
		unsigned region = 0;

		depth[i] = (uint32_t)(next_rand() % 41);
		for (k = 0; k < depth[i]; k++) {
			if (next_rand() % 8 == 0)
				region = (region + 1) % 3;
			/* WILD: every PC but the first 12 bytes packed,
			 * so that the unpacking cannot be done in place. */
			stacks[i][k] = wild ? (k % 2 ? (uint64_t)1 << 63 : 0)
					    : some_pc(region);
		}
	}
	p = stacktab_new();
	CHECK(p != NULL);
	q = stacktab_new();
	CHECK(q != NULL);
	stacktab_pack(p);
	stacktab_keep_periods(p);
	stacktab_keep_periods(q);
	for (i = 0; i < 20000; i++) {
		size_t w = next_rand() % 500;
		uint32_t sp = (uint32_t)(next_rand() % 2);
		uint64_t h = stacktab_hash(0, sp, stacks[w], depth[w]);
		int64_t x, y;

		if (i % 3 == 0) {
			x = stacktab_add_if(p, (uint32_t)(w % 50), 0, sp,
					    stacks[w], depth[w], 1, i);
			y = stacktab_add_if(q, (uint32_t)(w % 50), 0, sp,
					    stacks[w], depth[w], 1, i);
			CHECK(x == y);
			if (x >= 0)
				continue;
		}
		x = stacktab_add_hashed(p, h, 0, sp, stacks[w], depth[w], 1,
					i);
		y = stacktab_add_hashed(q, h, 0, sp, stacks[w], depth[w], 1,
					i);
		CHECK(x == y && x >= 0);
	}
	CHECK_EQ_U64(stacktab_nr(p), stacktab_nr(q));
	/* more than 8 bytes a PC: the unpacking is not done in place */
	stacktab_inspect(p, &ps);
	stacktab_inspect(q, &qs);
	CHECK(wild ? ps.packed_len > 2 * qs.pool_len
		   : ps.packed_len < 2 * qs.pool_len);
	CHECK(stacktab_find(p, 0, 1, stacks[7], depth[7]) ==
	      (stacktab_find(q, 0, 1, stacks[7], depth[7]) == NULL
		       ? NULL
		       : &stacktab_entries(p)[stacktab_find(q, 0, 1, stacks[7],
						  depth[7]) - stacktab_entries(q)]));
	CHECK(stacktab_unpack(p) == 0);
	stacktab_inspect(p, &ps);
	CHECK(!ps.packed && ps.pool_len == qs.pool_len);
	for (i = 0; i < stacktab_nr(p); i++) {
		CHECK_EQ_U64(stacktab_entries(p)[i].count, stacktab_entries(q)[i].count);
		CHECK_EQ_U64(stacktab_entries(p)[i].n, stacktab_entries(q)[i].n);
		CHECK_EQ_U64(stacktab_entries(p)[i].ctx, stacktab_entries(q)[i].ctx);
		CHECK_EQ_U64(stacktab_period(p, &stacktab_entries(p)[i]),
			     stacktab_period(q, &stacktab_entries(q)[i]));
		CHECK(memcmp(stacktab_pcs(p, &stacktab_entries(p)[i]),
			     stacktab_pcs(q, &stacktab_entries(q)[i]),
			     stacktab_entries(p)[i].n * 8) == 0);
	}
	/* Unpacked, it is added to as a plain table. */
	CHECK_EQ_U64(stacktab_add_hashed(p, stacktab_hash(0, 0, stacks[3],
							   depth[3]),
					 0, 0, stacks[3], depth[3], 5, 0),
		     stacktab_add_hashed(q, stacktab_hash(0, 0, stacks[3],
							   depth[3]),
					 0, 0, stacks[3], depth[3], 5, 0));
	CHECK(stacktab_add(p, 0, 9, stacks[4], depth[4], 1, 0) == 0);
	CHECK_EQ_U64(stacktab_entries(p)[stacktab_nr(p) - 1].n, depth[4]);
	CHECK(memcmp(stacktab_pcs(p, &stacktab_entries(p)[stacktab_nr(p) - 1]),
		     stacks[4], depth[4] * 8) == 0);
	stacktab_free(p);
	stacktab_free(q);
}

/* Differences at the edges of each packed form, from PCs at the edges of
 * the address space: packed and plain tables agree, before and after
 * unpacking.  A user PC alone takes two words, its 8 bytes. */
static void
packed_edges(void)
{
	static const uint64_t starts[] = {
		0, 1, 0x555555554000ULL, 0x7fffffffffffULL,
		0xffffffff81000000ULL, (uint64_t)1 << 63, UINT64_MAX,
	};
	static const int64_t deltas[] = {
		0, 1, -1, (1LL << 30) - 1, 1LL << 30, -(1LL << 30),
		-(1LL << 30) - 1, 1LL << 31, -(1LL << 31), (1LL << 61) - 1,
		1LL << 61, -(1LL << 61), -(1LL << 61) - 1, INT64_MAX,
		INT64_MIN,
	};
	struct stacktab *p, *q;
	struct stacktab_state ps;
	uint64_t st[4], one = 0x555555555123ULL;
	size_t i, j, nd = sizeof(deltas) / sizeof(deltas[0]);

	p = stacktab_new();
	CHECK(p != NULL);
	stacktab_pack(p);
	CHECK(stacktab_add(p, 0, 0, &one, 1, 1, 0) == 0);
	stacktab_inspect(p, &ps);
	CHECK_EQ_U64(ps.packed_len, 2);
	stacktab_free(p);

	p = stacktab_new();
	CHECK(p != NULL);
	q = stacktab_new();
	CHECK(q != NULL);
	stacktab_pack(p);
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		for (j = 0; j < nd; j++) {
			st[0] = starts[i];
			st[1] = starts[i] + (uint64_t)deltas[j];
			st[2] = st[1] - (uint64_t)deltas[(j + 1) % nd];
			st[3] = st[2] + (uint64_t)deltas[j];
			/* twice each: the second add finds the first */
			CHECK(stacktab_add(p, 0, 0, st, 4, 1, 0) == 0);
			CHECK(stacktab_add(q, 0, 0, st, 4, 1, 0) == 0);
			CHECK(stacktab_add(p, 0, 0, st, 4, 1, 0) == 0);
			CHECK(stacktab_add(q, 0, 0, st, 4, 1, 0) == 0);
			st[3] ^= 1;	/* one bit off: another stack */
			CHECK(stacktab_find(p, 0, 0, st, 4) ==
			      (stacktab_find(q, 0, 0, st, 4) ? stacktab_entries(p) +
				(stacktab_find(q, 0, 0, st, 4) - stacktab_entries(q))
							      : NULL));
		}
	CHECK_EQ_U64(stacktab_nr(p), stacktab_nr(q));
	CHECK(stacktab_unpack(p) == 0);
	for (i = 0; i < stacktab_nr(q); i++) {
		CHECK_EQ_U64(stacktab_entries(p)[i].count, stacktab_entries(q)[i].count);
		CHECK(memcmp(stacktab_pcs(p, &stacktab_entries(p)[i]),
			     stacktab_pcs(q, &stacktab_entries(q)[i]), 4 * 8) == 0);
	}
	stacktab_free(p);
	stacktab_free(q);
}

int
main(void)
{
	struct stacktab *t;
	struct stacktab_state ts;
	size_t nleft;
	uint64_t a[3] = { 0x401136, 0x40117a, 0x7f0000001000 };
	uint64_t b[3] = { 0x401136, 0x40117a, 0x7f0000001001 };
	uint64_t s[4];
	struct stack_entry *ep[5];
	size_t i;
	uint64_t total = 0;

	t = stacktab_new();
	CHECK(t != NULL);
	stacktab_keep_periods(t);
	CHECK(stacktab_add(t, 0, 1, a, 3, 1, 10) == 0);
	CHECK(stacktab_add(t, 0, 1, a, 3, 2, 20) == 0);
	CHECK(stacktab_add(t, 0, 2, a, 3, 1, 10) == 0);	/* other space */
	CHECK(stacktab_add(t, 1, 1, a, 3, 1, 10) == 0);	/* other event */
	CHECK(stacktab_add(t, 0, 1, a, 2, 1, 10) == 0);	/* prefix */
	CHECK(stacktab_add(t, 0, 1, b, 3, 1, 10) == 0);	/* one frame */
	CHECK_EQ_U64(stacktab_nr(t), 5);
	CHECK_EQ_U64(stacktab_entries(t)[0].count, 3);
	CHECK_EQ_U64(stacktab_period(t, &stacktab_entries(t)[0]), 30);
	CHECK_EQ_U64(stacktab_entries(t)[0].n, 3);
	CHECK_EQ_U64(stacktab_pcs(t, &stacktab_entries(t)[4])[2], 0x7f0000001001);

	/* Rewritten so that the last entry (b) equals entries 0, 1 and 2 (a in
	 * spaces 1 and 2, a of event 1): merged into entry 0, in order. */
	stacktab_drop_index(t);
	CHECK(stacktab_add(t, 0, 1, a, 3, 1, 10) < 0);
	for (i = 0; i < stacktab_nr(t); i++)
		ep[i] = &stacktab_entries(t)[i];
	stacktab_pcs(t, &stacktab_entries(t)[4])[2] = a[2];
	nleft = stacktab_nr(t);
	CHECK(stacktab_merge(t, ep, &nleft) == 0);
	CHECK_EQ_U64(nleft, 2);
	CHECK(ep[0] == &stacktab_entries(t)[0] &&
	      ep[1] == &stacktab_entries(t)[3]);
	CHECK_EQ_U64(stacktab_entries(t)[0].count, 6);
	CHECK_EQ_U64(stacktab_period(t, &stacktab_entries(t)[0]), 60);
	CHECK_EQ_U64(stacktab_entries(t)[3].count, 1);
	stacktab_free(t);

	/* A hint that holds another stack adds nothing; the add with the
	 * stack's hash finds it. */
	t = stacktab_new();
	CHECK(t != NULL);
	CHECK_EQ_U64(stacktab_add_hashed(t, stacktab_hash(0, 1, a, 3), 0, 1,
					 a, 3, 1, 0), 0);
	CHECK_EQ_U64(stacktab_add_hashed(t, stacktab_hash(0, 1, b, 3), 0, 1,
					 b, 3, 1, 0), 1);
	CHECK(stacktab_add_if(t, 0, 0, 1, b, 3, 1, 0) < 0);
	CHECK(stacktab_add_if(t, 7, 0, 1, b, 3, 1, 0) < 0);
	CHECK_EQ_U64(stacktab_add_if(t, 1, 0, 1, b, 3, 2, 0), 1);
	CHECK_EQ_U64(stacktab_add_hashed(t, stacktab_hash(0, 1, a, 3), 0, 1,
					 a, 3, 1, 0), 0);
	CHECK_EQ_U64(stacktab_nr(t), 2);
	CHECK_EQ_U64(stacktab_entries(t)[0].count, 2);
	CHECK_EQ_U64(stacktab_entries(t)[1].count, 3);
	CHECK(stacktab_find(t, 0, 1, b, 3) == &stacktab_entries(t)[1]);
	stacktab_free(t);

	/* Periods not kept: 0. */
	t = stacktab_new();
	CHECK(t != NULL);
	CHECK(stacktab_add(t, 0, 1, a, 3, 1, 10) == 0);
	CHECK_EQ_U64(stacktab_period(t, &stacktab_entries(t)[0]), 0);
	stacktab_free(t);

	/* 100000 distinct stacks, each added i % 3 + 1 times. */
	t = stacktab_new();
	CHECK(t != NULL);
	for (i = 0; i < 300000; i++) {
		size_t k = i % 100000;

		s[0] = 0x400000 + k;
		s[1] = k * 7;
		s[2] = 0x1000;
		s[3] = k >> 3;
		if (k % 3 + 1 > i / 100000 &&
		    stacktab_add(t, 0, (uint32_t)(k & 7), s, 1 + (uint32_t)(k % 4),
				 1, 1) < 0)
			CHECK(!"out of memory");
	}
	CHECK_EQ_U64(stacktab_nr(t), 100000);
	for (i = 0; i < stacktab_nr(t); i++) {
		const struct stack_entry *e = &stacktab_entries(t)[i];
		size_t k = (size_t)(stacktab_pcs(t, e)[0] - 0x400000);

		CHECK(e->count == k % 3 + 1);
		total += e->count;
	}
	/* 33334 stacks of count 1, 33333 of 2 and 33333 of 3 */
	CHECK_EQ_U64(total, 199999);
	stacktab_free(t);

	packed_like_plain(0);
	packed_like_plain(1);
	packed_edges();

	/* Nothing packed: unpacked to nothing. */
	t = stacktab_new();
	CHECK(t != NULL);
	stacktab_pack(t);
	CHECK(stacktab_unpack(t) == 0);
	stacktab_inspect(t, &ts);
	CHECK_EQ_U64(ts.pool_len, 0);
	CHECK(stacktab_add(t, 0, 1, a, 3, 1, 0) == 0);
	CHECK_EQ_U64(stacktab_pcs(t, &stacktab_entries(t)[0])[2], a[2]);
	stacktab_free(t);
	return unit_exit();
}
