/* SPDX-License-Identifier: MIT */
/*
 * The zstd stream of a `perf record -z` file.  The payloads of the
 * PERF_RECORD_COMPRESSED(2) records form one zstd stream; decompressed,
 * it is a sequence of ordinary records, any of which may straddle two
 * compressed records.  Output is produced on demand into a small buffer,
 * so memory stays bounded whatever the compression ratio.
 */
#ifndef P2G_ZSTREAM_H
#define P2G_ZSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct zstream;

/* True if this build can decompress zstd (configure found libzstd). */
bool zstream_supported(void);

/*
 * Inflation bounds: decompressed data may be at most this many times the
 * compressed bytes it came from, plus INFLATE_SLACK bytes, in total over
 * the stream.  Real recordings stay far below (perf record -z at zstd's
 * level 1: 6x to 15x for frame-pointer stacks, 60x to 190x for
 * --call-graph dwarf with its stack copies); a file made to inflate a
 * few hundred kilobytes into gigabytes does not.
 */
#define INFLATE_RATIO_DEFAULT 1000
#define INFLATE_SLACK ((uint64_t)1 << 20)

/* True if OUT bytes inflated from IN compressed bytes exceed MAX_RATIO
 * (0: no bound). */
bool inflate_too_much(uint64_t in, uint64_t out, uint64_t max_ratio);

/* A new stream whose output may be at most MAX_RATIO times its input
 * (inflate_too_much(); 0: no bound), or NULL when out of memory or
 * unsupported. */
struct zstream *zstream_new(uint64_t max_ratio);

/* Free Z; NULL is accepted. */
void zstream_free(struct zstream *z);

/*
 * Queue the LEN compressed bytes at SRC (copied), the payload of the
 * compressed record at file offset OFF.  At most LIMIT bytes may come
 * out of them (0: no limit).  Fails if the previous payload is not fully
 * decompressed yet.
 */
int zstream_feed(struct zstream *z, const void *src, size_t len,
		 uint64_t off, uint64_t limit, struct p2g_error *err);

/*
 * Make N bytes of decompressed output available in one piece,
 * decompressing more of the queued payload as needed.  *AVAIL gets how
 * many are: fewer than N once the queued payload is used up (the rest
 * comes with the next payload).  Returns NULL on a decompression error.
 */
const unsigned char *zstream_peek(struct zstream *z, size_t n, size_t *avail,
				  struct p2g_error *err);

/* Step over N bytes that zstream_peek() made available. */
void zstream_consume(struct zstream *z, size_t n);

/* Decompressed bytes buffered and not consumed. */
size_t zstream_buffered(const struct zstream *z);

/* File offset of the compressed record the next output comes from. */
uint64_t zstream_offset(const struct zstream *z);

#endif
