/* SPDX-License-Identifier: MIT */
/*
 * manystacks.c - a benchmark load whose samples almost never share a stack.
 *
 * Every thread walks random call paths through 32 functions f00..f31, each
 * of which calls the next one through a table with a pseudo-random index,
 * to a random depth of 8..47, and burns a short loop at the bottom.  With
 * frame pointers (gcc -O0 -fno-omit-frame-pointer) each path is a distinct
 * callchain: 32^depth possible stacks, so nearly every sample of
 * perf record -g is a new stack.
 *
 *   manystacks [SECONDS [THREADS]]    default 10 s, 2 threads
 *
 * Each thread runs for SECONDS of its own CPU time (not wall time), so the
 * number of samples does not depend on what else the machine is doing.
 *
 * Built by bench/run-bench.sh with
 *   gcc -O0 -g -fno-omit-frame-pointer -fno-inline -no-pie -pthread
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef void (*step_fn)(unsigned depth, uint64_t seed);

static step_fn table[32];
static volatile uint64_t sink;
static double seconds = 10;

static uint64_t
next(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

__attribute__((noinline)) static void
burn(uint64_t seed)
{
	unsigned i;
	uint64_t v = seed;

	for (i = 0; i < 200; i++)
		v = v * 6364136223846793005ULL + 1442695040888963407ULL;
	sink += v;
}

#define STEP(name)                                                        \
	__attribute__((noinline)) static void name(unsigned depth,         \
						   uint64_t seed)          \
	{                                                                  \
		if (depth == 0) {                                          \
			burn(seed);                                        \
			return;                                            \
		}                                                          \
		seed = next(seed);                                         \
		table[seed % 32](depth - 1, seed);                         \
		sink++;                                                    \
	}

STEP(f00) STEP(f01) STEP(f02) STEP(f03) STEP(f04) STEP(f05) STEP(f06)
STEP(f07) STEP(f08) STEP(f09) STEP(f10) STEP(f11) STEP(f12) STEP(f13)
STEP(f14) STEP(f15) STEP(f16) STEP(f17) STEP(f18) STEP(f19) STEP(f20)
STEP(f21) STEP(f22) STEP(f23) STEP(f24) STEP(f25) STEP(f26) STEP(f27)
STEP(f28) STEP(f29) STEP(f30) STEP(f31)

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *
run(void *arg)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL ^ (uintptr_t)arg;
	double end = cpu_now() + seconds;
	unsigned long n = 0;

	while ((n & 1023) != 0 || cpu_now() < end) {
		seed = next(seed);
		table[seed % 32](8 + (unsigned)(seed >> 32) % 40, seed);
		n++;
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	step_fn fns[32] = {
		f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10,
		f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21,
		f22, f23, f24, f25, f26, f27, f28, f29, f30, f31,
	};
	pthread_t th[64];
	int i, nth = 2;

	for (i = 0; i < 32; i++)
		table[i] = fns[i];
	if (argc > 1)
		seconds = atof(argv[1]);
	if (argc > 2)
		nth = atoi(argv[2]);
	if (nth < 1 || nth > 64)
		nth = 2;
	for (i = 1; i < nth; i++)
		pthread_create(&th[i], NULL, run, (void *)(uintptr_t)i);
	run((void *)0);
	for (i = 1; i < nth; i++)
		pthread_join(th[i], NULL);
	fprintf(stderr, "manystacks %lu\n", (unsigned long)sink);
	return 0;
}
