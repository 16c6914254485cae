/* SPDX-License-Identifier: MIT */
/* A set of strings: see strset.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "strset.h"

int
strset_add(struct strset *t, const char *s)
{
	struct hashtab_iter it;
	uint64_t h = hashtab_hash_str(s);
	uint32_t i;
	char *copy;

	if (t->n >= HASHTAB_NONE - 1 ||
	    hashtab_reserve(&t->index, t->n + 1) < 0)
		return -1;
	for (i = hashtab_probe(&t->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&t->index, &it))
		if (strcmp(t->v[i], s) == 0)
			return 0;
	if (t->n == t->cap) {
		char **nv = grow(t->v, &t->cap, t->n + 1, sizeof(*nv), 64);

		if (nv == NULL)
			return -1;
		t->v = nv;
	}
	copy = strdup(s);
	if (copy == NULL)
		return -1;
	t->v[t->n] = copy;
	hashtab_insert(&t->index, &it, (uint32_t)t->n++);
	return 1;
}

void
strset_free(struct strset *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	hashtab_free(&t->index);
	memset(t, 0, sizeof(*t));
}
