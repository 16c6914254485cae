/* SPDX-License-Identifier: MIT */
/* The extent of a perf.data file: see extent.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "count.h"
#include "cursor.h"
#include "extent.h"
#include "perf_abi.h"

#define MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" read as LE */
#define HEADER_BYTES	104	/* magic, size, attr_size, 3 sections, flags */

/* Read LEN bytes at OFF of FD into a new buffer; NULL if it cannot. */
static unsigned char *
read_at(int fd, uint64_t off, uint64_t len)
{
	unsigned char *b;
	size_t done = 0;
	ssize_t n;

	if (len > SIZE_MAX || (b = malloc(len ? (size_t)len : 1)) == NULL)
		return NULL;
	while (done < len) {
		n = pread(fd, b + done, (size_t)len - done,
			  (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(b);
			return NULL;
		}
		done += (size_t)n;
	}
	return b;
}

static uint64_t
max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

uint64_t
perfdata_extent(int fd, uint64_t have)
{
	unsigned char hdr[HEADER_BYTES], *b;
	uint64_t attr_size, attrs_off, attrs_size, data_end, tab_end, need;
	uint64_t flags[4], i, nfeat = 0;
	struct cursor c;
	bool big;

	if (have < 16)
		return 16;
	b = read_at(fd, 0, have < HEADER_BYTES ? 16 : HEADER_BYTES);
	if (b == NULL)
		return have;
	if (load64(b, false) == MAGIC2)
		big = false;
	else if (load64(b, false) == __builtin_bswap64(MAGIC2))
		big = true;
	else
		goto stop;	/* not a perf.data file */
	if (load64(b + 8, big) == 16) {
		free(b);
		return UINT64_MAX;	/* pipe mode: read to the end */
	}
	if (have < HEADER_BYTES) {
		free(b);
		return HEADER_BYTES;
	}
	memcpy(hdr, b, sizeof(hdr));
	free(b);
	cursor_init(&c, hdr, sizeof(hdr), 0, big);
	(void)cursor_u64(&c);
	(void)cursor_u64(&c);
	attr_size = cursor_u64(&c);
	attrs_off = cursor_u64(&c);
	attrs_size = cursor_u64(&c);
	data_end = cursor_u64(&c);
	i = cursor_u64(&c);
	if (i == 0)
		return UINT64_MAX;	/* perf died: salvage reads it all */
	data_end = count_add(data_end, i);
	(void)cursor_u64(&c);
	(void)cursor_u64(&c);
	for (i = 0; i < 4; i++)
		flags[i] = cursor_u64(&c);
	for (i = 1; i < HEADER_FEAT_BITS; i++)
		if (flags[i / 64] & (1ULL << (i % 64)))
			nfeat++;
	tab_end = count_add(data_end, 16 * nfeat);
	need = max64(count_add(attrs_off, attrs_size), tab_end);

	/* each attr ends with its ids section: u64 offset, u64 size */
	if (have >= count_add(attrs_off, attrs_size) && attr_size >= 16 &&
	    (b = read_at(fd, attrs_off, attrs_size)) != NULL) {
		for (i = 0; i + attr_size <= attrs_size; i += attr_size) {
			uint64_t off = load64(b + i + attr_size - 16, big);
			uint64_t size = load64(b + i + attr_size - 8, big);

			need = max64(need, count_add(off, size));
		}
		free(b);
	}
	/* the feature table, after the data section */
	if (have >= tab_end &&
	    (b = read_at(fd, data_end, 16 * nfeat)) != NULL) {
		uint64_t k = 0;

		for (i = 1; i < HEADER_FEAT_BITS; i++) {
			if (!(flags[i / 64] & (1ULL << (i % 64))))
				continue;
			if (i != HEADER_TRACING_DATA)
				need = max64(need,
					     count_add(load64(b + k, big),
						       load64(b + k + 8, big)));
			k += 16;
		}
		free(b);
	}
	return max64(need, HEADER_BYTES);
stop:
	free(b);
	return have;
}
