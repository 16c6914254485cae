/* SPDX-License-Identifier: MIT */
/* A function cloned for a constant argument (work.constprop.0, or
 * work.isra.0) with a function inlined into it: perf names the clone
 * by its DWARF name where it unwinds with DWARF. */
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long
step(unsigned long x, unsigned long k)
{
	return x * 2654435761UL + k;
}

static __attribute__((noinline)) unsigned long
work(unsigned long n, unsigned long k)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = step(x, k) ^ (x >> 7);
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200000000;

	sink = work(n, 17);
	sink += work(n / 2, 17);
	return 0;
}
