/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the contexts of the aggregate's stacks: by default a
 * stack's context is its address space and the threads of a process
 * share its entries; made by thread, the same stack of two threads of
 * one space is two entries whose contexts give back the space and the
 * thread, through the cache of recent stacks, the pending stack and the
 * direct path alike.
 */
#include "config.h"

#include <string.h>

#include "aggregate.h"
#include "unit.h"

/* Count one sample of stack S (3 frames) in SID on TID, through the
 * cache (DIRECT false) or past it. */
static int
add(struct aggregate *ag, const uint64_t *s, uint32_t sid, int32_t tid,
    bool direct)
{
	uint64_t *f = aggregate_frames(ag, 3);

	if (f == NULL)
		return -1;
	memcpy(f, s, 3 * sizeof(*f));
	return direct ? aggregate_add_direct(ag, 0, sid, tid, 3, 1)
		      : aggregate_add(ag, 0, sid, tid, 3, 1);
}

/* The entries of AG's table: *N of them, their total count. */
static uint64_t
total(struct aggregate *ag, size_t *n)
{
	struct stacktab *t = aggregate_table(ag);
	uint64_t sum = 0;
	size_t i;

	*n = stacktab_nr(t);
	for (i = 0; i < *n; i++)
		sum += stacktab_entries(t)[i].count;
	return sum;
}

/* The samples of thread TID of space SID in AG's table. */
static uint64_t
of_thread(struct aggregate *ag, uint32_t sid, int32_t tid)
{
	struct stacktab *t = aggregate_table(ag);
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < stacktab_nr(t); i++) {
		const struct stack_entry *e = &stacktab_entries(t)[i];

		if (aggregate_space(ag, e->ctx) == sid &&
		    aggregate_tid(ag, e->ctx) == tid)
			sum += e->count;
	}
	return sum;
}

static void
feed(struct aggregate *ag)
{
	static const uint64_t a[3] = { 0x401000, 0x401100, 0x401200 };
	static const uint64_t b[3] = { 0x402000, 0x401100, 0x401200 };
	int k;

	/* Runs of one thread, threads taking turns, a second space whose
	 * thread number is also another space's, and the direct path. */
	for (k = 0; k < 100; k++) {
		CHECK(add(ag, a, 1, 10, false) == 0);
		CHECK(add(ag, a, 1, k % 3 ? 10 : 11, false) == 0);
		CHECK(add(ag, k % 2 ? a : b, 1, 11, false) == 0);
		CHECK(add(ag, a, 2, 10, false) == 0);
	}
	CHECK(add(ag, a, 1, 12, true) == 0);
	CHECK(add(ag, a, 1, 10, true) == 0);
	CHECK(aggregate_flush(ag) == 0);
}

int
main(void)
{
	struct aggregate *ag;
	size_t n;

	ag = aggregate_new(false, false);
	CHECK(ag != NULL);
	CHECK(!aggregate_by_thread(ag));
	feed(ag);
	CHECK_EQ_U64(total(ag, &n), 402);
	CHECK_EQ_U64(n, 3);	/* a and b in 1, a in 2 */
	CHECK_EQ_U64(of_thread(ag, 1, 0), 302);
	CHECK_EQ_U64(of_thread(ag, 2, 0), 100);
	aggregate_free(ag);

	ag = aggregate_new(true, true);
	CHECK(ag != NULL);
	CHECK(aggregate_by_thread(ag));
	feed(ag);
	CHECK_EQ_U64(total(ag, &n), 402);
	CHECK_EQ_U64(n, 5);	/* a of 10, 11, 12 and b of 11 in 1; a in 2 */
	CHECK_EQ_U64(of_thread(ag, 1, 10), 100 + 66 + 1);
	CHECK_EQ_U64(of_thread(ag, 1, 11), 34 + 100);
	CHECK_EQ_U64(of_thread(ag, 1, 12), 1);
	CHECK_EQ_U64(of_thread(ag, 2, 10), 100);
	CHECK_EQ_U64(of_thread(ag, 2, 11), 0);
	aggregate_free(ag);
	aggregate_free(NULL);
	return unit_exit();
}
