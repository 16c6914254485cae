/* hot.c - main calls ONE hot function from ONE call site.
 * Every sample stack is [hot_loop ip, return address in main, ...libc...],
 * i.e. all stacks share the same second frame. */
#include <stdio.h>

#define N 400000000UL

__attribute__((noinline)) unsigned long hot_loop(unsigned long n)
{
	unsigned long x = 1, i;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	unsigned long r = hot_loop(N);
	fprintf(stderr, "hot %lx\n", r & 0xff);
	return 0;
}
