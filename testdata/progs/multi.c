/* multi.c - small call tree, depth 3-5, three burning leaves reached via
 * several paths.  Approximate CPU shares (by iterations):
 *   main -> path_a -> mid_x -> burn_a            30%
 *   main -> path_a -> mid_y -> burn_b            10%
 *   main -> path_b -> mid_x -> burn_a            20%
 *   main -> path_b -> burn_b                     20%
 *   main -> burn_c                               20%
 * => burn_a 50%, burn_b 30%, burn_c 20%. */
#include <stdio.h>

#define UNIT 4000000UL   /* iterations per 1% */

static volatile unsigned long sink;

__attribute__((noinline)) unsigned long burn_a(unsigned long n)
{
	unsigned long x = 1, i;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long burn_b(unsigned long n)
{
	unsigned long x = 3, i;
	for (i = 0; i < n; i++) {
		x = (x ^ (x >> 7)) * 2862933555777941757UL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long burn_c(unsigned long n)
{
	unsigned long x = 5, i;
	for (i = 0; i < n; i++) {
		x = x + (x << 3) + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long mid_x(unsigned long pct)
{
	return burn_a(pct * UNIT) + 1;
}

__attribute__((noinline)) unsigned long mid_y(unsigned long pct)
{
	return burn_b(pct * UNIT) + 2;
}

__attribute__((noinline)) unsigned long path_a(void)
{
	unsigned long r = mid_x(30);
	r += mid_y(10);
	return r;
}

__attribute__((noinline)) unsigned long path_b(void)
{
	unsigned long r = mid_x(20);
	r += burn_b(20 * UNIT);
	return r;
}

int main(void)
{
	unsigned long r = 0;
	r += path_a();
	r += path_b();
	r += burn_c(20 * UNIT);
	sink = r;
	fprintf(stderr, "multi %lx\n", r & 0xff);
	return 0;
}
