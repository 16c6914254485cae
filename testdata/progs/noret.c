/* noret.c - a call that is the last instruction of its function: caller()
 * calls the noreturn spin(), so the return address in spin's frames is
 * the first byte of the next function, nextfn().  perf names callchain
 * return addresses as they are (nextfn); a tool that subtracted 1 would
 * name caller.  spin() burns ~0.5 s and exits. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noreturn, noinline)) void spin(void)
{
	unsigned long i;

	for (i = 0; i < 300000000UL; i++)
		sink += i;
	exit(0);
}

__attribute__((noinline)) void caller(void)
{
	spin();
}

__attribute__((noinline)) void nextfn(void)
{
	sink++;
}

int main(void)
{
	if (sink == 12345)
		nextfn();
	caller();
}
