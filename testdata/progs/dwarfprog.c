/* dwarfprog.c - the program of the DWARF-unwinding fixture
 * (testdata/dwarfprog.gz, testdata/dwarfprog.perf.data.gz).  Built static
 * and without frame pointers, so that only DWARF call-frame information can
 * give its call stacks and every frame lies inside this one file.  Three
 * threads with nested calls and a recursion (stacks up to ~16 frames); no
 * library calls in the loops:
 *   main     -> run_main -> mid_two -> leaf_xor / mid_one -> leaf_*
 *   thread_a -> mid_one -> leaf_mul / leaf_xor
 *   thread_b -> deep(12) -> deep(11) -> ... -> deep(0) -> leaf_mul */
#include <pthread.h>
#include <stdio.h>

#define NOINL __attribute__((noinline, noclone))
#define N 80000000UL

/* An empty asm on the value: the loops stay loops, and a call followed by
 * one is not turned into a tail jump (its frame stays on the stack). */
#define KEEP(x) __asm__ volatile("" : "+r"(x))

NOINL unsigned long leaf_mul(unsigned long n, unsigned long x)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		KEEP(x);
	}
	return x;
}

NOINL unsigned long leaf_xor(unsigned long n, unsigned long x)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		x = (x ^ (x >> 7)) * 2862933555777941757UL;
		KEEP(x);
	}
	return x;
}

NOINL unsigned long mid_one(unsigned long n)
{
	unsigned long r = leaf_mul(n, 1);

	KEEP(r);
	r ^= leaf_xor(n / 2, r);
	KEEP(r);
	return r;
}

NOINL unsigned long mid_two(unsigned long n)
{
	unsigned long r = leaf_xor(n, 3);

	KEEP(r);
	r += mid_one(n / 2);
	KEEP(r);
	return r;
}

NOINL unsigned long deep(int d, unsigned long n)
{
	unsigned long r;

	if (d == 0)
		r = leaf_mul(n, 5);
	else
		r = deep(d - 1, n);
	KEEP(r);
	return r ^ (unsigned long)d;
}

static unsigned long res_a, res_b;

NOINL void *thread_a(void *arg)
{
	(void)arg;
	res_a = mid_one(N);
	return NULL;
}

NOINL void *thread_b(void *arg)
{
	(void)arg;
	res_b = deep(12, N);
	return NULL;
}

NOINL unsigned long run_main(void)
{
	unsigned long r = mid_two(N);

	KEEP(r);
	return r;
}

int main(void)
{
	pthread_t ta, tb;
	unsigned long r;

	pthread_create(&ta, NULL, thread_a, NULL);
	pthread_create(&tb, NULL, thread_b, NULL);
	r = run_main();
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	fprintf(stderr, "dwarfprog %lx\n", (r ^ res_a ^ res_b) & 0xff);
	return 0;
}
