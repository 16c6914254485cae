/* recurse.c - recursion, two shapes:
 *   walk(n): linear recursion to depth n, repeated REPS times from main
 *            (~75% of the run);
 *   fib(n):  naive recursive fibonacci (~25%).
 * Most stacks are many copies of the same return address.  A useful
 * fraction of samples is taken exactly at the return address of the
 * recursive call inside walk() while that frame was itself called from the
 * same call site, so the leaf ip equals the first return address
 * (stack[0] == stack[1]). */
#include <stdio.h>

#define DEPTH 40
#define REPS 3500000UL

static volatile unsigned long calls;

__attribute__((noinline)) void walk(unsigned long n)
{
	if (n == 0)
		return;
	walk(n - 1);
}

__attribute__((noinline)) unsigned long fib(unsigned long n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int main(void)
{
	unsigned long i, f;

	for (i = 0; i < REPS; i++) {
		walk(DEPTH);
		calls++;
	}
	f = fib(36);
	fprintf(stderr, "recurse %lu %lu\n", calls, f);
	return 0;
}
