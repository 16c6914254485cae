/* SPDX-License-Identifier: MIT */
/*
 * The build ids of a perf.data header (HEADER_BUILD_ID) by file name, in
 * a hash table: the layout and the unwinder ask for one for each mapping
 * they meet, and a scan of the header's list for each was quadratic.
 */
#ifndef P2G_BUILDIDS_H
#define P2G_BUILDIDS_H

#include <stdbool.h>
#include <stdint.h>

#include "hashtab.h"
#include "perfdata.h"

struct buildids {
	const struct perf_header_info *hi;	/* not owned */
	struct hashtab index;	/* of hi's build ids with a size, by
				   file name: the first of each file */
};

/* B made for the build ids of HI (which may be NULL, and must outlive
 * B).  0, or -1 when out of memory (B can be freed). */
int buildids_init(struct buildids *b, const struct perf_header_info *hi);

/* The build id the header gives for PATH: the first entry of that name
 * with a size.  False, *SIZE 0 and *ID NULL, when there is none. */
bool buildids_find(const struct buildids *b, const char *path,
		   uint8_t *size, const uint8_t **id);

void buildids_free(struct buildids *b);

#endif
