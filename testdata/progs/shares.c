/* shares.c - three loops whose shares of the CPU time the command line
 * sets: "shares HOT WARM COLD ROUNDS" runs ROUNDS rounds, each calling
 * hot_loop, warm_loop and cold_loop for HOT, WARM and COLD units of
 * work (a unit is about 0.1 ms), so that a profile's shares of the
 * three are about HOT, WARM and COLD percent of their sum, mixed in time.
 * The three loops do the same work, so that the shares do not depend on
 * how the machine's load slows one kind of instruction or another.
 * For the profiles of tests/run-gperfcheck-verdicts.sh (testdata/README).
 */
#include <stdio.h>
#include <stdlib.h>

#define UNIT 40000UL	/* iterations per unit */

static volatile unsigned long sink;

/* A loop NAME of n units: the same work under three names. */
#define LOOP(name)							\
	__attribute__((noinline)) unsigned long name(unsigned long n)	\
	{								\
		unsigned long x = 1, i;					\
									\
		for (i = 0; i < n * UNIT; i++) {			\
			x = x * 6364136223846793005UL + 1;		\
			__asm__ volatile("" : "+r"(x));			\
		}							\
		return x;						\
	}

LOOP(hot_loop)
LOOP(warm_loop)
LOOP(cold_loop)

int main(int argc, char **argv)
{
	unsigned long hot, warm, cold, rounds, r = 0, k;

	if (argc != 5) {
		fprintf(stderr, "usage: shares HOT WARM COLD ROUNDS\n");
		return 2;
	}
	hot = strtoul(argv[1], NULL, 10);
	warm = strtoul(argv[2], NULL, 10);
	cold = strtoul(argv[3], NULL, 10);
	rounds = strtoul(argv[4], NULL, 10);
	for (k = 0; k < rounds; k++) {
		r += hot_loop(hot);
		r += warm_loop(warm);
		r += cold_loop(cold);
	}
	sink = r;
	fprintf(stderr, "shares %lx\n", r & 0xff);
	return 0;
}
