/* threads.c - two pthreads running different functions, plus main burning
 * CPU itself.  thread_a -> spin_a, thread_b -> spin_b, main -> spin_main. */
#include <pthread.h>
#include <stdio.h>

#define N 150000000UL

__attribute__((noinline)) unsigned long spin_a(unsigned long n)
{
	unsigned long x = 1, i;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long spin_b(unsigned long n)
{
	unsigned long x = 3, i;
	for (i = 0; i < n; i++) {
		x = (x ^ (x >> 7)) * 2862933555777941757UL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

__attribute__((noinline)) unsigned long spin_main(unsigned long n)
{
	unsigned long x = 5, i;
	for (i = 0; i < n; i++) {
		x = x + (x << 3) + i;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static unsigned long res_a, res_b;

__attribute__((noinline)) void *thread_a(void *arg)
{
	(void)arg;
	res_a = spin_a(N);
	return NULL;
}

__attribute__((noinline)) void *thread_b(void *arg)
{
	(void)arg;
	res_b = spin_b(N);
	return NULL;
}

int main(void)
{
	pthread_t ta, tb;
	unsigned long r;

	pthread_create(&ta, NULL, thread_a, NULL);
	pthread_create(&tb, NULL, thread_b, NULL);
	r = spin_main(N);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	fprintf(stderr, "threads %lx\n", (r ^ res_a ^ res_b) & 0xff);
	return 0;
}
