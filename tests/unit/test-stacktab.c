/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the stack table: identical (space, stack) pairs are summed,
 * anything that differs in space, depth or one frame is kept apart, and the
 * table survives many rehashes with every count intact; periods are
 * summed when kept; stacks rewritten in place are merged.
 */
#include "config.h"

#include "stacktab.h"
#include "unit.h"

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
	return unit_exit();
}
