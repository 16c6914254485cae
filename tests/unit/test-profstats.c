/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the shares of a profile (profstats.c), on profiles made
 * here whose counts are known by construction; the maps text names
 * files that do not exist, so that only mappings have names:
 *  - flat and cumulative samples of each mapping, a mapping that recurs
 *    in a stack counted once, the order of the entries;
 *  - a basename that two mappings share counts a sample once;
 *  - the names known: every mapping of the maps text, by path or file
 *    name, samples or not; the nearest of those for a name unknown;
 *  - the normal quantiles the comparison uses, against Python's
 *    statistics.NormalDist().inv_cdf;
 *  - the comparison: a profile moved elsewhere in memory has the same
 *    shares (exactly: every difference 0, the bounds within a
 *    tolerance of 50); 50% of 100 samples against itself is too few
 *    samples to tell at the default 8 points, with the bounds, the
 *    smallest detectable difference and the samples needed computed by
 *    hand (Agresti-Caffo; Bonferroni over 4 tests: 17.49 points; 1016
 *    samples for 8 points); 80% against 50% of 100 is different, its
 *    bounds and p-value by hand too; 35% against 50% of 100 (p 0.0317
 *    for each of 4 tests) is unsure after Holm's correction at 95%,
 *    different at 80%; 5000 samples a side at 50% are the same;
 *    a total that saturates gives no verdict.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "profile.h"
#include "profstats.h"
#include "unit.h"

/* A profile of the records RECS (count, n, then n PCs, ...; ends at a
 * count of 0) with every PC and every mapping moved by SHIFT. */
static void
make(struct profile *p, const uint64_t *recs, uint64_t shift)
{
	static const char *const paths[] = {
		"/a/prog", "/b/libx.so", "/c/libx.so", "/d/other",
	};
	char text[512];
	size_t used = 0, k;
	uint64_t pcs[8], j;

	profile_init(p);
	p->slot_bytes = 8;
	p->period_us = 1000;
	for (; recs[0] != 0; recs += 2 + recs[1]) {
		for (j = 0; j < recs[1]; j++)
			pcs[j] = recs[2 + j] + shift;
		CHECK(profile_add(p, recs[0], pcs, recs[1]) == 0);
	}
	for (k = 0; k < 4; k++) {
		uint64_t lo = 0x400000 + 0x100000 * k + shift;

		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%llx-%llx r-xp 00000000 00:00 %zu "
					 "%s\n", (unsigned long long)lo,
					 (unsigned long long)lo + 0x1000,
					 k + 1, paths[k]);
	}
	CHECK(profile_set_maps(p, text, used) == 0);
}

/* 4 x prog <- libx (b) <- libx (c); 2 x libx (c) <- prog <- prog;
 * 1 x an address in no mapping. */
static const uint64_t three[] = {
	4, 3, 0x400010, 0x500010, 0x600010,
	2, 3, 0x600020, 0x400020, 0x400030,
	1, 1, 0x900000,
	0,
};

/* Names known and not, in S of make(three): the mappings of the maps
 * text, with samples or not; no functions (no file exists). */
static void
test_known(const struct profstats *s)
{
	const char *close[4];
	size_t n;

	CHECK(profstats_known(s, true, "libx.so", close, 4, &n) == 1);
	CHECK_EQ_U64(n, 0);
	CHECK(profstats_known(s, true, "/a/prog", close, 4, &n) == 1);
	/* in the maps text, in no sample */
	CHECK(profstats_known(s, true, "other", close, 4, &n) == 1);
	CHECK(profstats_known(s, true, "/d/other", close, 4, &n) == 1);
	CHECK(profstats_known(s, true, "/x/other", close, 4, &n) == 0);
	CHECK_EQ_U64(n, 1);
	CHECK(strcmp(close[0], "/d/other") == 0);
	/* a part of a file name, then an edit away */
	CHECK(profstats_known(s, true, "libx", close, 4, &n) == 0);
	CHECK_EQ_U64(n, 1);
	CHECK(strcmp(close[0], "libx.so") == 0);
	CHECK(profstats_known(s, true, "porg", close, 4, &n) == 0);
	CHECK_EQ_U64(n, 1);
	CHECK(strcmp(close[0], "prog") == 0);
	CHECK(profstats_known(s, true, "nothing.so", close, 4, &n) == 0);
	CHECK_EQ_U64(n, 0);
	CHECK(profstats_known(s, false, "main", close, 4, &n) == 0);
	CHECK_EQ_U64(n, 0);
}

static void
test_entries(void)
{
	struct profstats s;
	struct profile p;
	uint64_t flat, cum;

	make(&p, three, 0);
	CHECK(profstats_compute(&p, NULL, 0, NULL, &s) == 0);
	CHECK_EQ_U64(s.samples, 7);
	CHECK_EQ_U64(s.symbolized, 0);
	CHECK_EQ_U64(s.nfns, 0);
	CHECK_EQ_U64(s.nmaps, 3);
	/* by cum, then flat: prog (6, 4), /c/libx.so (6, 2), /b (4, 0) */
	CHECK(strcmp(s.maps[0].name, "/a/prog") == 0);
	CHECK_EQ_U64(s.maps[0].flat, 4);
	CHECK_EQ_U64(s.maps[0].cum, 6);
	CHECK(strcmp(s.maps[1].name, "/c/libx.so") == 0);
	CHECK_EQ_U64(s.maps[1].flat, 2);
	CHECK_EQ_U64(s.maps[1].cum, 6);
	CHECK(strcmp(s.maps[2].name, "/b/libx.so") == 0);
	CHECK_EQ_U64(s.maps[2].flat, 0);
	CHECK_EQ_U64(s.maps[2].cum, 4);
	/* both libx.so: each sample once (not 4 + 6) */
	profstats_mapping(&s, "libx.so", &flat, &cum);
	CHECK_EQ_U64(flat, 2);
	CHECK_EQ_U64(cum, 6);
	profstats_mapping(&s, "/b/libx.so", &flat, &cum);
	CHECK_EQ_U64(cum, 4);
	profstats_mapping(&s, "/libx.so", &flat, &cum);
	CHECK_EQ_U64(cum, 0);
	profstats_mapping(&s, "prog", &flat, &cum);
	CHECK_EQ_U64(flat, 4);
	CHECK_EQ_U64(cum, 6);
	profstats_function(&s, "main", &flat, &cum);
	CHECK_EQ_U64(cum, 0);
	test_known(&s);
	profstats_release(&s);
	profile_release(&p);
}

static void
test_compare(void)
{
	/* 50 samples with a leaf in prog, 50 in other */
	static const uint64_t half[] = {
		50, 1, 0x400010,
		50, 1, 0x700010,
		0,
	};
	static const uint64_t skewed[] = {
		80, 1, 0x400010,
		20, 1, 0x700010,
		0,
	};
	static const uint64_t fewer[] = {
		35, 1, 0x400010,
		65, 1, 0x700010,
		0,
	};
	static const uint64_t many[] = {
		5000, 1, 0x400010,
		5000, 1, 0x700010,
		0,
	};
	static const uint64_t huge[] = {
		0x8000000000000000ULL, 1, 0x400010,
		0x8000000000000000ULL, 1, 0x700010,
		0,
	};
	struct profile a, b, h;
	struct profstats sa, sb, sh;
	struct profstats_cmp c;
	size_t i;

	make(&a, three, 0);
	make(&b, three, 0x10000000);
	CHECK(profstats_compute(&a, NULL, 0, NULL, &sa) == 0);
	CHECK(profstats_compute(&b, NULL, 0, NULL, &sb) == 0);
	CHECK(profstats_compare(&sa, &sb, 50, 0, &c) == 0);
	CHECK(c.verdict == PROFSTATS_SAME);
	CHECK(!c.inexact);
	CHECK(c.tolerance == 50 && c.confidence == PROFSTATS_CONFIDENCE);
	CHECK_EQ_U64(c.nrows, 2);	/* prog, libx.so */
	CHECK_EQ_U64(c.ntests, 4);
	for (i = 0; i < c.nrows; i++)
		CHECK(c.rows[i].mapping && c.rows[i].diff == 0 &&
		      c.rows[i].verdict == PROFSTATS_SAME);
	profstats_cmp_release(&c);
	/* 7 samples: not enough for the default 8 points */
	CHECK(profstats_compare(&sa, &sb, -1, 0, &c) == 0);
	CHECK(c.verdict == PROFSTATS_UNSURE);
	CHECK(c.tolerance == PROFSTATS_TOLERANCE);
	profstats_cmp_release(&c);
	profstats_release(&sa);
	profstats_release(&sb);
	profile_release(&a);
	profile_release(&b);

	make(&a, half, 0);
	CHECK(profstats_compute(&a, NULL, 0, NULL, &sa) == 0);
	CHECK(profstats_compare(&sa, &sa, -1, -1, &c) == 0);
	CHECK(c.verdict == PROFSTATS_UNSURE);
	CHECK_EQ_U64(c.nrows, 2);
	CHECK_EQ_U64(c.nunsure, 2);
	for (i = 0; i < c.nrows; i++)
		CHECK(fabs(c.rows[i].hi - 1.6448536269514715 * 7.0014004201)
		      < 1e-6 && c.rows[i].lo == -c.rows[i].hi);
	CHECK(fabs(c.detectable - 17.48743615793689) < 1e-6);
	CHECK_EQ_U64(c.needed, 1016);
	profstats_cmp_release(&c);

	make(&b, skewed, 0);
	CHECK(profstats_compute(&b, NULL, 0, NULL, &sb) == 0);
	CHECK(profstats_compare(&sb, &sa, -1, -1, &c) == 0);
	CHECK(c.verdict == PROFSTATS_DIFFERENT);
	CHECK_EQ_U64(c.ndifferent, 2);
	CHECK(c.rows[0].verdict == PROFSTATS_DIFFERENT);
	CHECK(fabs(fabs(c.rows[0].diff) - 30) < 1e-9);
	/* prog first (functions and then mappings tie; by name) */
	CHECK(strcmp(c.rows[0].name, "other") == 0 ||
	      strcmp(c.rows[0].name, "prog") == 0);
	for (i = 0; i < c.nrows; i++)
		if (strcmp(c.rows[i].name, "prog") == 0)
			CHECK(fabs(c.rows[i].lo - 18.938979359691533) < 1e-6 &&
			      fabs(c.rows[i].hi - 39.884550052073166) < 1e-6 &&
			      fabs(c.rows[i].p / 3.848401079427086e-06 - 1) <
				      1e-6);
	profstats_cmp_release(&c);
	profstats_release(&sb);
	profile_release(&b);

	/* 50% against 35% of 100: p = 0.0317 for each of the 4 tests, which
	 * Holm's first step at 0.05 / 4 does not reject: unsure, not
	 * different; at 80% confidence (0.2 / 4 = 0.05) different */
	make(&b, fewer, 0);
	CHECK(profstats_compute(&b, NULL, 0, NULL, &sb) == 0);
	CHECK(profstats_compare(&sa, &sb, -1, -1, &c) == 0);
	CHECK(c.verdict == PROFSTATS_UNSURE);
	for (i = 0; i < c.nrows; i++)
		CHECK(fabs(c.rows[i].p / 0.031763584086823525 - 1) < 1e-9 &&
		      c.rows[i].verdict == PROFSTATS_UNSURE);
	profstats_cmp_release(&c);
	CHECK(profstats_compare(&sa, &sb, -1, 80, &c) == 0);
	CHECK(c.verdict == PROFSTATS_DIFFERENT);
	CHECK_EQ_U64(c.ndifferent, 2);
	profstats_cmp_release(&c);
	profstats_release(&sb);
	profile_release(&b);

	make(&b, many, 0);
	CHECK(profstats_compute(&b, NULL, 0, NULL, &sb) == 0);
	CHECK(profstats_compare(&sb, &sb, -1, -1, &c) == 0);
	CHECK(c.verdict == PROFSTATS_SAME);
	profstats_cmp_release(&c);
	profstats_release(&sb);
	profile_release(&b);

	make(&h, huge, 0);
	CHECK(profstats_compute(&h, NULL, 0, NULL, &sh) == 0);
	CHECK_EQ_U64(sh.samples, UINT64_MAX);
	CHECK(profstats_compare(&sa, &sh, -1, -1, &c) == 0);
	CHECK(c.inexact);
	CHECK(c.verdict == PROFSTATS_UNSURE);
	profstats_cmp_release(&c);
	profstats_release(&sa);
	profstats_release(&sh);
	profile_release(&a);
	profile_release(&h);
}

static void
test_quantile(void)
{
	CHECK(fabs(profstats_normal_quantile(0.975) - 1.9599639845400536) <
	      1e-9);
	CHECK(fabs(profstats_normal_quantile(0.95) - 1.6448536269514715) <
	      1e-9);
	CHECK(fabs(profstats_normal_quantile(1 - 0.05 / 8) -
		   2.4977054744123737) < 1e-9);
	CHECK(fabs(profstats_normal_quantile(0.5)) < 1e-12);
}

int
main(void)
{
	test_quantile();
	test_entries();
	test_compare();
	return unit_exit();
}
