/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the leaf-copy fixup.  A straightforward port of Go
 * pprof's second-frame rules (doc/pprof-readers.md) that copies and edits
 * real arrays is used as the reference for the library's compact simulation,
 * on hand-made shapes and on random profiles; then every fixup_plan()
 * result must read back as the true stacks through that reference.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fixup.h"
#include "unit.h"

#define MAXD 16

struct stk {
	uint64_t pc[MAXD + 8];
	size_t n;
};

/* The reference: Go's algorithm on explicit arrays. */
static void
go_reference(struct stk *s, size_t n)
{
	size_t margin = n / 32, i, j;
	int iter;

	for (iter = 0; iter < 2; iter++) {
		for (i = 0; i < n; i++) {
			size_t count = 0;
			uint64_t a;

			if (s[i].n < 2)
				continue;
			a = s[i].pc[1];
			for (j = 0; j < n; j++)
				count += s[j].n > 1 && s[j].pc[1] == a;
			if (count >= n - margin) {
				for (j = 0; j < n; j++)
					if (s[j].n > 1 && s[j].pc[1] == a) {
						memmove(&s[j].pc[1],
							&s[j].pc[2],
							(s[j].n - 2) * 8);
						s[j].n--;
					}
				break;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (s[i].n > 1 && s[i].pc[1] == s[i].pc[0]) {
			memmove(&s[i].pc[1], &s[i].pc[2], (s[i].n - 2) * 8);
			s[i].n--;
		}
}

static void
to_profile(const struct stk *s, size_t n, const unsigned char *extra,
	   struct profile *p)
{
	size_t i;

	profile_init(p);
	for (i = 0; i < n; i++)
		if (profile_add_extra(p, 1, s[i].pc, s[i].n,
				      extra ? extra[i] : 0) < 0)
			abort();
}

/* Does the reference read P (as written) back as TRUTH? */
static size_t
reference_differs(const struct profile *p, const struct stk *truth, size_t n)
{
	struct stk *w = calloc(n, sizeof(*w));
	size_t i, bad = 0;

	for (i = 0; i < n; i++) {
		w[i].n = p->recs[i].n;
		memcpy(w[i].pc, p->pcs + p->recs[i].off, w[i].n * 8);
	}
	go_reference(w, n);
	for (i = 0; i < n; i++)
		bad += w[i].n != truth[i].n ||
		       memcmp(w[i].pc, truth[i].pc, w[i].n * 8) != 0;
	free(w);
	return bad;
}

/* Plan, check the plan through the reference, and cross-check the
 * library's simulation against the reference.  Returns the number of
 * records the plan changed. */
static size_t
check_shape(const struct stk *s, size_t n, size_t *raw_bad)
{
	struct profile truth, plain, fixed;
	struct fixup_result res;
	unsigned char *extra = malloc(n);
	bool *same = malloc(n * sizeof(*same));
	long lib_bad;

	to_profile(s, n, NULL, &truth);
	to_profile(s, n, NULL, &plain);
	*raw_bad = reference_differs(&plain, s, n);
	lib_bad = fixup_simulate_go(&plain, &truth, same);
	CHECK_EQ_U64((size_t)lib_bad, *raw_bad);

	CHECK(fixup_plan(&truth, extra, &res) == 0);
	CHECK(res.converged);
	to_profile(s, n, extra, &fixed);
	CHECK_EQ_U64(reference_differs(&fixed, s, n), 0);
	CHECK_EQ_U64(fixup_simulate_go(&fixed, &truth, same), 0);
	profile_release(&truth);
	profile_release(&plain);
	profile_release(&fixed);
	free(extra);
	free(same);
	return res.records_changed;
}

static void
test_shapes(void)
{
	struct stk s[64];
	size_t i, bad;

	/* One hot function with varied leaves, called from one place: Go
	 * would strip the caller and its caller. */
	for (i = 0; i < 40; i++) {
		s[i].n = 3;
		s[i].pc[0] = 0x401100 + i;
		s[i].pc[1] = 0x401192;
		s[i].pc[2] = 0x7f000000124a;
	}
	CHECK_EQ_U64(check_shape(s, 40, &bad), 40);
	CHECK_EQ_U64(bad, 40);

	/* One leaf address, many callers below a shared caller. */
	for (i = 0; i < 40; i++) {
		s[i].n = 3;
		s[i].pc[0] = 0x401152;
		s[i].pc[1] = 0x401192;
		s[i].pc[2] = 0x402000 + i;
	}
	CHECK(check_shape(s, 40, &bad) == 40);
	CHECK_EQ_U64(bad, 40);

	/* Recursion: leaf equals the first return address in a few
	 * records of a varied profile; only those need a copy. */
	for (i = 0; i < 40; i++) {
		s[i].n = 4;
		s[i].pc[0] = 0x401100 + i % 7;
		s[i].pc[1] = i % 5 == 0 ? s[i].pc[0] : 0x401200 + i;
		s[i].pc[2] = 0x401300 + i;
		s[i].pc[3] = 0x401400;
	}
	CHECK_EQ_U64(check_shape(s, 40, &bad), 8);
	CHECK_EQ_U64(bad, 8);

	/* Nothing to do: varied second frames, one-frame stacks. */
	for (i = 0; i < 40; i++) {
		s[i].n = 1 + i % 3;
		s[i].pc[0] = 0x401100 + i;
		s[i].pc[1] = 0x401200 + i;
		s[i].pc[2] = 0x401300;
	}
	CHECK_EQ_U64(check_shape(s, 40, &bad), 0);
	CHECK_EQ_U64(bad, 0);

	/* A single record, and "almost all" (31 of 32 share). */
	s[0].n = 2;
	s[0].pc[0] = 1;
	s[0].pc[1] = 2;
	CHECK_EQ_U64(check_shape(s, 1, &bad), 1);
	for (i = 0; i < 32; i++) {
		s[i].n = 2;
		s[i].pc[0] = 0x10 + i;
		s[i].pc[1] = i == 0 ? 0x99 : 0x77;
	}
	CHECK_EQ_U64(check_shape(s, 32, &bad), 31);
	CHECK_EQ_U64(bad, 31);
}

static void
test_random(void)
{
	struct stk s[200];
	unsigned seed = 12345;
	int round;
	size_t i, j, bad;

	for (round = 0; round < 300; round++) {
		size_t n = 1 + (size_t)(rand_r(&seed) % 200);
		unsigned alphabet = 2 + (unsigned)(rand_r(&seed) % 6);

		for (i = 0; i < n; i++) {
			s[i].n = 1 + (size_t)(rand_r(&seed) % MAXD);
			for (j = 0; j < s[i].n; j++)
				s[i].pc[j] = 1 + (uint64_t)(rand_r(&seed) %
							    alphabet);
		}
		(void)check_shape(s, n, &bad);
	}
}

int
main(void)
{
	test_shapes();
	test_random();
	return unit_exit();
}
