/* symprog.c - functions whose names perf chooses by its rules, for
 * tests/run-symbols.sh (built there with gcc -O2 -g
 * -fno-omit-frame-pointer):
 * - leaf_static: a static function (a local symbol);
 * - mix: a static inline function, inlined into real_name;
 * - real_name and alias_name: two symbols at one address, global and
 *   weak (perf names it real_name);
 * - cold_path: a function gcc splits, with a .cold part;
 * - scaled: a static function gcc clones (.constprop.0 or .isra.0);
 * - main calls getppid() so that some stacks reach the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

/* N rounds of work, in whatever function it is expanded in, so that
 * samples land in each function itself (a leaf's caller can be missing
 * from a frame-pointer chain: gcc gives leaves no frame) */
#define SPIN(x, n)							\
	do {								\
		unsigned long i_;					\
		for (i_ = 0; i_ < (n); i_++) {				\
			(x) = (x) * 6364136223846793005UL +		\
			      1442695040888963407UL;			\
			__asm__ volatile("" : "+r"(x));			\
		}							\
	} while (0)

static __attribute__((noinline)) unsigned long
leaf_static(unsigned long n)
{
	unsigned long x = 1;

	SPIN(x, n);
	return x;
}

static inline unsigned long
mix(unsigned long n)
{
	unsigned long x = leaf_static(n);

	SPIN(x, n / 2);
	return x ^ leaf_static(n / 2);
}

unsigned long real_name(unsigned long n) __attribute__((noinline));
unsigned long
real_name(unsigned long n)
{
	return mix(n) + 1;
}

unsigned long alias_name(unsigned long n)
	__attribute__((weak, alias("real_name")));

__attribute__((cold, noinline)) void
report(unsigned long n)
{
	fprintf(stderr, "rare %lu\n", n);
}

__attribute__((noinline)) unsigned long
cold_path(unsigned long n)
{
	unsigned long r = leaf_static(n / 4);

	SPIN(r, n / 4);
	if (n == 12345) {
		report(n);
		r = n + 7;
		fprintf(stderr, "again %lu\n", r);
	}
	return r;
}

/* always called with the same STEP and an unused FLAGS: gcc makes a
 * constprop or isra clone */
static __attribute__((noinline)) unsigned long
scaled(unsigned long n, unsigned long step, int flags)
{
	unsigned long x = leaf_static(n / step);

	(void)flags;
	SPIN(x, n / step);
	return x;
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 20000000;
	int i;

	for (i = 0; i < 4; i++) {
		sink += alias_name(n);
		sink += cold_path(n);
		sink += scaled(n, 8, 0);
		getppid();
	}
	printf("%lu\n", sink & 1);
	return 0;
}
