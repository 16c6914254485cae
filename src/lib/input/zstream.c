/* SPDX-License-Identifier: MIT */
/* The zstd stream of perf record -z files: see zstream.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "zstream.h"

bool
inflate_too_much(uint64_t in, uint64_t out, uint64_t max_ratio)
{
	uint64_t bound;

	if (max_ratio == 0)
		return false;
	if (__builtin_mul_overflow(in, max_ratio, &bound) ||
	    __builtin_add_overflow(bound, INFLATE_SLACK, &bound))
		return false;
	return out > bound;
}

#ifdef HAVE_ZSTD
#include <zstd.h>

/* Output buffer: a record is at most 64 KiB, so this always holds one
 * whole record plus room to decompress ahead. */
#define OUT_CAP (256u << 10)

struct zstream {
	ZSTD_DStream *ds;
	unsigned char *in;	/* the queued payload */
	size_t in_cap, in_len, in_pos;
	bool drained;		/* the payload gave all it will */
	uint64_t off;		/* file offset of its record */
	uint64_t limit, produced;	/* output bound for the payload */
	uint64_t max_ratio, total_in, total_out;	/* for the stream */
	unsigned char out[OUT_CAP];
	size_t start, end;	/* unconsumed output */
};

bool
zstream_supported(void)
{
	return true;
}

struct zstream *
zstream_new(uint64_t max_ratio)
{
	struct zstream *z = calloc(1, sizeof(*z));

	if (z == NULL)
		return NULL;
	z->max_ratio = max_ratio;
	z->ds = ZSTD_createDStream();
	if (z->ds == NULL || ZSTD_isError(ZSTD_initDStream(z->ds))) {
		zstream_free(z);
		return NULL;
	}
	z->drained = true;
	return z;
}

void
zstream_free(struct zstream *z)
{
	if (z == NULL)
		return;
	if (z->ds != NULL)
		ZSTD_freeDStream(z->ds);
	free(z->in);
	free(z);
}

int
zstream_feed(struct zstream *z, const void *src, size_t len, uint64_t off,
	     uint64_t limit, struct p2g_error *err)
{
	if (!z->drained)
		return p2g_fail(err, P2G_INVALID, off,
				"compressed record before the previous one "
				"was used up");
	if (len > z->in_cap) {
		unsigned char *n = realloc(z->in, len);

		if (n == NULL)
			return p2g_fail(err, P2G_NOMEM, off, "out of memory");
		z->in = n;
		z->in_cap = len;
	}
	if (len > 0)
		memcpy(z->in, src, len);
	z->in_len = len;
	z->total_in += len;
	z->in_pos = 0;
	z->off = off;
	z->limit = limit;
	z->produced = 0;
	z->drained = false;
	return 0;
}

const unsigned char *
zstream_peek(struct zstream *z, size_t n, size_t *avail,
	     struct p2g_error *err)
{
	while (z->end - z->start < n && !z->drained) {
		ZSTD_inBuffer ib;
		ZSTD_outBuffer ob;
		size_t r, got;

		if (z->start > 0) {
			memmove(z->out, z->out + z->start, z->end - z->start);
			z->end -= z->start;
			z->start = 0;
		}
		ib.src = z->in;
		ib.size = z->in_len;
		ib.pos = z->in_pos;
		ob.dst = z->out;
		ob.size = OUT_CAP;
		ob.pos = z->end;
		r = ZSTD_decompressStream(z->ds, &ob, &ib);
		if (ZSTD_isError(r)) {
			p2g_fail(err, P2G_INVALID, z->off,
				 "compressed record does not decompress: "
				 "zstd: %s", ZSTD_getErrorName(r));
			return NULL;
		}
		got = ob.pos - z->end;
		z->end = ob.pos;
		z->in_pos = ib.pos;
		z->produced += got;
		z->total_out += got;
		if (inflate_too_much(z->total_in, z->total_out,
				     z->max_ratio)) {
			p2g_fail(err, P2G_UNSUPPORTED, z->off,
				 "compressed records inflate to over %llu "
				 "times their size (%llu bytes from %llu), "
				 "as a decompression bomb does "
				 "(--max-inflate lifts the bound)",
				 (unsigned long long)z->max_ratio,
				 (unsigned long long)z->total_out,
				 (unsigned long long)z->total_in);
			return NULL;
		}
		if (z->limit != 0 && z->produced > z->limit) {
			p2g_fail(err, P2G_INVALID, z->off,
				 "compressed record decompresses to more "
				 "than %llu bytes, the recording's buffer "
				 "size (a corrupt file or a decompression "
				 "bomb)", (unsigned long long)z->limit);
			return NULL;
		}
		/* With room left in the output, zstd has flushed all it
		 * could from the input it took. */
		if (z->in_pos == z->in_len && ob.pos < ob.size)
			z->drained = true;
	}
	*avail = z->end - z->start < n ? z->end - z->start : n;
	return z->out + z->start;
}

#else /* !HAVE_ZSTD */

struct zstream {
	size_t start, end;
	uint64_t off;
};

bool
zstream_supported(void)
{
	return false;
}

struct zstream *
zstream_new(uint64_t max_ratio)
{
	(void)max_ratio;
	return NULL;
}

void
zstream_free(struct zstream *z)
{
	free(z);
}

int
zstream_feed(struct zstream *z, const void *src, size_t len, uint64_t off,
	     uint64_t limit, struct p2g_error *err)
{
	return p2g_fail(err, P2G_UNSUPPORTED, off,
			"zstd support is not built in");
}

const unsigned char *
zstream_peek(struct zstream *z, size_t n, size_t *avail,
	     struct p2g_error *err)
{
	*avail = 0;
	return NULL;
}

#endif /* HAVE_ZSTD */

void
zstream_consume(struct zstream *z, size_t n)
{
	z->start += n;
}

size_t
zstream_buffered(const struct zstream *z)
{
	return z->end - z->start;
}

uint64_t
zstream_offset(const struct zstream *z)
{
	return z->off;
}
