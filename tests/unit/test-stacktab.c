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
	struct stacktab p, q;
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
	stacktab_init(&p);
	stacktab_init(&q);
	stacktab_pack(&p);
	stacktab_keep_periods(&p);
	stacktab_keep_periods(&q);
	for (i = 0; i < 20000; i++) {
		size_t w = next_rand() % 500;
		uint32_t sp = (uint32_t)(next_rand() % 2);
		uint64_t h = stacktab_hash(0, sp, stacks[w], depth[w]);
		int64_t x, y;

		if (i % 3 == 0) {
			x = stacktab_add_if(&p, (uint32_t)(w % 50), 0, sp,
					    stacks[w], depth[w], 1, i);
			y = stacktab_add_if(&q, (uint32_t)(w % 50), 0, sp,
					    stacks[w], depth[w], 1, i);
			CHECK(x == y);
			if (x >= 0)
				continue;
		}
		x = stacktab_add_hashed(&p, h, 0, sp, stacks[w], depth[w], 1,
					i);
		y = stacktab_add_hashed(&q, h, 0, sp, stacks[w], depth[w], 1,
					i);
		CHECK(x == y && x >= 0);
	}
	CHECK_EQ_U64(p.nr, q.nr);
	/* more than 8 bytes a PC: the unpacking is not done in place */
	CHECK(wild ? p.packed_len > 2 * q.pool_len
		   : p.packed_len < 2 * q.pool_len);
	CHECK(stacktab_find(&p, 0, 1, stacks[7], depth[7]) ==
	      (stacktab_find(&q, 0, 1, stacks[7], depth[7]) == NULL
		       ? NULL
		       : &p.entries[stacktab_find(&q, 0, 1, stacks[7],
						  depth[7]) - q.entries]));
	CHECK(stacktab_unpack(&p) == 0);
	CHECK(p.packed == NULL && p.pool_len == q.pool_len);
	for (i = 0; i < p.nr; i++) {
		CHECK_EQ_U64(p.entries[i].count, q.entries[i].count);
		CHECK_EQ_U64(p.entries[i].n, q.entries[i].n);
		CHECK_EQ_U64(p.entries[i].space, q.entries[i].space);
		CHECK_EQ_U64(stacktab_period(&p, &p.entries[i]),
			     stacktab_period(&q, &q.entries[i]));
		CHECK(memcmp(stacktab_pcs(&p, &p.entries[i]),
			     stacktab_pcs(&q, &q.entries[i]),
			     p.entries[i].n * 8) == 0);
	}
	/* Unpacked, it is added to as a plain table. */
	CHECK_EQ_U64(stacktab_add_hashed(&p, stacktab_hash(0, 0, stacks[3],
							   depth[3]),
					 0, 0, stacks[3], depth[3], 5, 0),
		     stacktab_add_hashed(&q, stacktab_hash(0, 0, stacks[3],
							   depth[3]),
					 0, 0, stacks[3], depth[3], 5, 0));
	CHECK(stacktab_add(&p, 0, 9, stacks[4], depth[4], 1, 0) == 0);
	CHECK_EQ_U64(p.entries[p.nr - 1].n, depth[4]);
	CHECK(memcmp(stacktab_pcs(&p, &p.entries[p.nr - 1]), stacks[4],
		     depth[4] * 8) == 0);
	stacktab_release(&p);
	stacktab_release(&q);
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
	struct stacktab p, q;
	uint64_t st[4], one = 0x555555555123ULL;
	size_t i, j, nd = sizeof(deltas) / sizeof(deltas[0]);

	stacktab_init(&p);
	stacktab_pack(&p);
	CHECK(stacktab_add(&p, 0, 0, &one, 1, 1, 0) == 0);
	CHECK_EQ_U64(p.packed_len, 2);
	stacktab_release(&p);

	stacktab_init(&p);
	stacktab_init(&q);
	stacktab_pack(&p);
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		for (j = 0; j < nd; j++) {
			st[0] = starts[i];
			st[1] = starts[i] + (uint64_t)deltas[j];
			st[2] = st[1] - (uint64_t)deltas[(j + 1) % nd];
			st[3] = st[2] + (uint64_t)deltas[j];
			/* twice each: the second add finds the first */
			CHECK(stacktab_add(&p, 0, 0, st, 4, 1, 0) == 0);
			CHECK(stacktab_add(&q, 0, 0, st, 4, 1, 0) == 0);
			CHECK(stacktab_add(&p, 0, 0, st, 4, 1, 0) == 0);
			CHECK(stacktab_add(&q, 0, 0, st, 4, 1, 0) == 0);
			st[3] ^= 1;	/* one bit off: another stack */
			CHECK(stacktab_find(&p, 0, 0, st, 4) ==
			      (stacktab_find(&q, 0, 0, st, 4) ? p.entries +
				(stacktab_find(&q, 0, 0, st, 4) - q.entries)
							      : NULL));
		}
	CHECK_EQ_U64(p.nr, q.nr);
	CHECK(stacktab_unpack(&p) == 0);
	for (i = 0; i < q.nr; i++) {
		CHECK_EQ_U64(p.entries[i].count, q.entries[i].count);
		CHECK(memcmp(stacktab_pcs(&p, &p.entries[i]),
			     stacktab_pcs(&q, &q.entries[i]), 4 * 8) == 0);
	}
	stacktab_release(&p);
	stacktab_release(&q);
}

int
main(void)
{
	struct stacktab t;
	uint64_t a[3] = { 0x401136, 0x40117a, 0x7f0000001000 };
	uint64_t b[3] = { 0x401136, 0x40117a, 0x7f0000001001 };
	uint64_t s[4];
	struct stack_entry *ep[5];
	size_t i;
	uint64_t total = 0;

	stacktab_init(&t);
	stacktab_keep_periods(&t);
	CHECK(stacktab_add(&t, 0, 1, a, 3, 1, 10) == 0);
	CHECK(stacktab_add(&t, 0, 1, a, 3, 2, 20) == 0);
	CHECK(stacktab_add(&t, 0, 2, a, 3, 1, 10) == 0);	/* other space */
	CHECK(stacktab_add(&t, 1, 1, a, 3, 1, 10) == 0);	/* other event */
	CHECK(stacktab_add(&t, 0, 1, a, 2, 1, 10) == 0);	/* prefix */
	CHECK(stacktab_add(&t, 0, 1, b, 3, 1, 10) == 0);	/* one frame */
	CHECK_EQ_U64(t.nr, 5);
	CHECK_EQ_U64(t.entries[0].count, 3);
	CHECK_EQ_U64(stacktab_period(&t, &t.entries[0]), 30);
	CHECK_EQ_U64(t.entries[0].n, 3);
	CHECK_EQ_U64(stacktab_pcs(&t, &t.entries[4])[2], 0x7f0000001001);

	/* Rewritten so that the last entry (b) equals entries 0, 1 and 2 (a in
	 * spaces 1 and 2, a of event 1): merged into entry 0, in order. */
	stacktab_drop_index(&t);
	CHECK(stacktab_add(&t, 0, 1, a, 3, 1, 10) < 0);
	for (i = 0; i < t.nr; i++)
		ep[i] = &t.entries[i];
	t.pool[t.entries[4].off + 2] = a[2];
	CHECK_EQ_U64(stacktab_merge(&t, ep, t.nr), 2);
	CHECK(ep[0] == &t.entries[0] && ep[1] == &t.entries[3]);
	CHECK_EQ_U64(t.entries[0].count, 6);
	CHECK_EQ_U64(stacktab_period(&t, &t.entries[0]), 60);
	CHECK_EQ_U64(t.entries[3].count, 1);
	stacktab_release(&t);

	/* A hint that holds another stack adds nothing; the add with the
	 * stack's hash finds it. */
	stacktab_init(&t);
	CHECK_EQ_U64(stacktab_add_hashed(&t, stacktab_hash(0, 1, a, 3), 0, 1,
					 a, 3, 1, 0), 0);
	CHECK_EQ_U64(stacktab_add_hashed(&t, stacktab_hash(0, 1, b, 3), 0, 1,
					 b, 3, 1, 0), 1);
	CHECK(stacktab_add_if(&t, 0, 0, 1, b, 3, 1, 0) < 0);
	CHECK(stacktab_add_if(&t, 7, 0, 1, b, 3, 1, 0) < 0);
	CHECK_EQ_U64(stacktab_add_if(&t, 1, 0, 1, b, 3, 2, 0), 1);
	CHECK_EQ_U64(stacktab_add_hashed(&t, stacktab_hash(0, 1, a, 3), 0, 1,
					 a, 3, 1, 0), 0);
	CHECK_EQ_U64(t.nr, 2);
	CHECK_EQ_U64(t.entries[0].count, 2);
	CHECK_EQ_U64(t.entries[1].count, 3);
	CHECK(stacktab_find(&t, 0, 1, b, 3) == &t.entries[1]);
	stacktab_release(&t);

	/* Periods not kept: 0. */
	stacktab_init(&t);
	CHECK(stacktab_add(&t, 0, 1, a, 3, 1, 10) == 0);
	CHECK_EQ_U64(stacktab_period(&t, &t.entries[0]), 0);
	stacktab_release(&t);

	/* 100000 distinct stacks, each added i % 3 + 1 times. */
	stacktab_init(&t);
	for (i = 0; i < 300000; i++) {
		size_t k = i % 100000;

		s[0] = 0x400000 + k;
		s[1] = k * 7;
		s[2] = 0x1000;
		s[3] = k >> 3;
		if (k % 3 + 1 > i / 100000 &&
		    stacktab_add(&t, 0, (uint32_t)(k & 7), s, 1 + (uint32_t)(k % 4),
				 1, 1) < 0)
			CHECK(!"out of memory");
	}
	CHECK_EQ_U64(t.nr, 100000);
	for (i = 0; i < t.nr; i++) {
		const struct stack_entry *e = &t.entries[i];
		size_t k = (size_t)(stacktab_pcs(&t, e)[0] - 0x400000);

		CHECK(e->count == k % 3 + 1);
		total += e->count;
	}
	/* 33334 stacks of count 1, 33333 of 2 and 33333 of 3 */
	CHECK_EQ_U64(total, 199999);
	stacktab_release(&t);

	packed_like_plain(0);
	packed_like_plain(1);
	packed_edges();

	/* Nothing packed: unpacked to nothing. */
	stacktab_init(&t);
	stacktab_pack(&t);
	CHECK(stacktab_unpack(&t) == 0);
	CHECK_EQ_U64(t.pool_len, 0);
	CHECK(stacktab_add(&t, 0, 1, a, 3, 1, 0) == 0);
	CHECK_EQ_U64(stacktab_pcs(&t, &t.entries[0])[2], a[2]);
	stacktab_release(&t);
	return unit_exit();
}
