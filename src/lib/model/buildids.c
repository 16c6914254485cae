/* SPDX-License-Identifier: MIT */
/* The header's build ids by file name: see buildids.h. */
#include "config.h"

#include <string.h>

#include "buildids.h"

int
buildids_init(struct buildids *b, const struct perf_header_info *hi)
{
	struct hashtab_iter it;
	size_t i;
	uint32_t k;

	memset(b, 0, sizeof(*b));
	b->hi = hi;
	if (hi == NULL || hi->nr_build_ids == 0)
		return 0;
	if (hi->nr_build_ids >= HASHTAB_NONE ||
	    hashtab_reserve(&b->index, hi->nr_build_ids) < 0)
		return -1;
	for (i = 0; i < hi->nr_build_ids; i++) {
		const char *name = hi->build_ids[i].filename;

		if (hi->build_ids[i].size == 0)
			continue;
		for (k = hashtab_probe(&b->index, hashtab_hash_str(name), &it);
		     k != HASHTAB_NONE; k = hashtab_next(&b->index, &it))
			if (strcmp(hi->build_ids[k].filename, name) == 0)
				break;
		if (k == HASHTAB_NONE)
			hashtab_insert(&b->index, &it, (uint32_t)i);
	}
	return 0;
}

bool
buildids_find(const struct buildids *b, const char *path, uint8_t *size,
	      const uint8_t **id)
{
	struct hashtab_iter it;
	uint32_t i;

	*size = 0;
	*id = NULL;
	if (b->hi == NULL || b->hi->nr_build_ids == 0)
		return false;
	for (i = hashtab_probe(&b->index, hashtab_hash_str(path), &it);
	     i != HASHTAB_NONE; i = hashtab_next(&b->index, &it))
		if (strcmp(b->hi->build_ids[i].filename, path) == 0) {
			*size = b->hi->build_ids[i].size;
			*id = b->hi->build_ids[i].id;
			return true;
		}
	return false;
}

void
buildids_free(struct buildids *b)
{
	hashtab_free(&b->index);
}
