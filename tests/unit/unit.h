/* SPDX-License-Identifier: MIT */
/*
 * A minimal harness for the C unit tests of the core library: CHECK()
 * records a failure with its line and goes on; unit_exit() returns the
 * Automake exit code (0 pass, 1 fail) and prints the closing count.
 */
#ifndef P2G_UNIT_H
#define P2G_UNIT_H

#include <stdio.h>
#include <stdlib.h>

static int unit_checks, unit_failures;

#define CHECK(cond)							\
	do {								\
		unit_checks++;						\
		if (!(cond)) {						\
			unit_failures++;				\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
		}							\
	} while (0)

#define CHECK_EQ_U64(a, b)						\
	do {								\
		unsigned long long a_ = (a), b_ = (b);			\
		unit_checks++;						\
		if (a_ != b_) {						\
			unit_failures++;				\
			fprintf(stderr, "%s:%d: %s == %s: 0x%llx != "	\
				"0x%llx\n", __FILE__, __LINE__, #a, #b,	\
				a_, b_);				\
		}							\
	} while (0)

static inline int
unit_exit(void)
{
	printf("%d passed, %d failed\n", unit_checks - unit_failures,
	       unit_failures);
	return unit_failures ? 1 : 0;
}

#endif
