/* SPDX-License-Identifier: MIT */
/*
 * A set of strings, each copied once, in a hash index: the names a
 * front end has already used or told of (the files --split writes, the
 * binaries reported missing), where a scan of a list for each was
 * quadratic in their number.
 */
#ifndef P2G_STRSET_H
#define P2G_STRSET_H

#include <stddef.h>

#include "hashtab.h"

struct strset {
	char **v;		/* the strings, owned */
	size_t n, cap;
	struct hashtab index;
};

/* Add a copy of S to T unless it is there: 1 if it was added, 0 if it
 * was there, -1 when out of memory (T is then as it was).  A zeroed T
 * is an empty set. */
int strset_add(struct strset *t, const char *s);

/* Free what T holds; T is then empty. */
void strset_free(struct strset *t);

#endif
