/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the reading of zstd-compressed records (perf record -z):
 * the records of a real pipe-mode fixture, compressed here as one zstd
 * stream and cut into COMPRESSED and COMPRESSED2 records at awkward
 * places (one byte, inside record headers, across frames), must read
 * back as exactly the same sequence of records; a payload that
 * decompresses to more than the limit, a stream that inflates more than
 * the bound on the ratio (INFLATE_RATIO_DEFAULT, or one given), and a
 * corrupt payload, are refused with the offset of their record.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf_abi.h"
#include "perfdata.h"
#include "unit.h"
#include "zstream.h"

#ifdef HAVE_ZSTD
#include <zstd.h>

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void
put(struct buf *b, const void *src, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (b->p == NULL)
			abort();
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

static void
put_header(struct buf *b, uint32_t type, uint16_t size)
{
	unsigned char h[8];

	memcpy(h, &type, 4);
	memset(h + 4, 0, 2);
	memcpy(h + 6, &size, 2);
	put(b, h, 8);
}

/* Append the compressed bytes C[0..n) as records: COMPRESSED and
 * COMPRESSED2 in turn, cut into the chunk sizes of CUTS, cycled. */
static void
put_chunks(struct buf *out, const unsigned char *c, size_t n,
	   const size_t *cuts, size_t ncuts)
{
	size_t pos = 0, k = 0;
	static const unsigned char pad[8];

	while (pos < n) {
		size_t len = cuts[k % ncuts];

		if (len > n - pos)
			len = n - pos;
		if (k % 2 == 0) {
			put_header(out, PERF_RECORD_COMPRESSED,
				   (uint16_t)(8 + len));
			put(out, c + pos, len);
		} else {
			uint64_t dsize = len;
			size_t padded = (len + 7) & ~(size_t)7;

			put_header(out, PERF_RECORD_COMPRESSED2,
				   (uint16_t)(16 + padded));
			put(out, &dsize, 8);
			put(out, c + pos, len);
			put(out, pad, padded - len);
		}
		pos += len;
		k++;
	}
}

static char *
write_temp(const struct buf *b)
{
	char *path = strdup("/tmp/test-zstream-XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, b->p, b->len) != (ssize_t)b->len)
		abort();
	close(fd);
	return path;
}

/* The bound on inflation that read_records() opens files with. */
static uint64_t max_inflate = INFLATE_RATIO_DEFAULT;

/* A checksum of the records in PATH (type, size and bytes), and their
 * count; -1 in *NREC on an error, whose status goes to *STATUS. */
static uint64_t
read_records(const char *path, long *nrec, struct p2g_error *err)
{
	struct perfdata *pd;
	struct perf_record rec;
	uint64_t h = 1469598103934665603ULL;
	int r;
	uint16_t i;

	*nrec = 0;
	p2g_error_clear(err);
	pd = perfdata_open_limited(path, max_inflate, NULL, NULL, err);
	if (pd == NULL) {
		*nrec = -1;
		return 0;
	}
	while ((r = perfdata_next(pd, &rec, err)) > 0) {
		(*nrec)++;
		for (i = 0; i < rec.size; i++)
			h = (h ^ rec.data[i]) * 1099511628211ULL;
	}
	if (r < 0)
		*nrec = -1;
	perfdata_close(pd);
	return h;
}

/* A file of ORIG's first HEAD_END bytes (the pipe header) and one
 * compressed record of N bytes of FINISHED_ROUND records, built in OUT:
 * its path (the caller unlinks and frees it). */
static char *
bomb(struct buf *out, const struct buf *orig, size_t head_end, size_t n,
     const size_t *cuts)
{
	unsigned char *big = malloc(n), *c;
	size_t clen, blen, i;
	char *tmp;

	CHECK(big != NULL);
	for (i = 0; i < n; i += 8) {
		uint32_t t = PERF_RECORD_FINISHED_ROUND;
		uint16_t z = 0, s = 8;

		memcpy(big + i, &t, 4);
		memcpy(big + i + 4, &z, 2);
		memcpy(big + i + 6, &s, 2);
	}
	clen = ZSTD_compressBound(n);
	c = malloc(clen);
	CHECK(c != NULL);
	blen = ZSTD_compress(c, clen, big, n, 19);
	/* small enough for one record of at most 64 KiB */
	CHECK(!ZSTD_isError(blen) && blen < 60000);
	out->len = 0;
	put(out, orig->p, head_end);
	put_chunks(out, c, blen, cuts, 1);
	tmp = write_temp(out);
	free(c);
	free(big);
	return tmp;
}

int
main(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	FILE *f;
	struct buf orig = { 0 }, body = { 0 }, out = { 0 };
	unsigned char *c;
	size_t clen, pos, head_end = 16;
	struct p2g_error err;
	uint64_t want, got;
	long nwant, ngot;
	char *tmp;
	static const size_t cuts1[] = { 1, 7, 13, 500, 3, 4096, 9, 60000 };
	static const size_t cuts2[] = { 65000 };
	static const size_t cuts3[] = { 2 };
	int ch;

	snprintf(path, sizeof(path), "%s/testdata/multi-pipe.perf.data",
		 top ? top : ".");
	f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		return 99;
	}
	while ((ch = getc(f)) != EOF) {
		unsigned char byte = (unsigned char)ch;

		put(&orig, &byte, 1);
	}
	fclose(f);

	want = read_records(path, &nwant, &err);
	CHECK(nwant > 100);

	/* Keep the leading perf-made records (attrs, features) as they are
	 * and compress everything from the first kernel record on. */
	pos = 16;
	while (pos + 8 <= orig.len) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, orig.p + pos, 4);
		memcpy(&size, orig.p + pos + 6, 2);
		if (type < PERF_RECORD_USER_TYPE_START)
			break;
		pos += size;
	}
	head_end = pos;
	put(&body, orig.p + head_end, orig.len - head_end);
	/* Two frames, split inside a record, as one stream. */
	clen = ZSTD_compressBound(body.len) + ZSTD_compressBound(100) + 64;
	c = malloc(clen);
	CHECK(c != NULL);
	{
		size_t a = ZSTD_compress(c, clen, body.p, 100, 3);
		size_t b2 = ZSTD_compress(c + a, clen - a, body.p + 100,
					  body.len - 100, 19);

		CHECK(!ZSTD_isError(a) && !ZSTD_isError(b2));
		clen = a + b2;
	}

	{
		const size_t *cuts[] = { cuts1, cuts2, cuts3 };
		const size_t ncuts[] = { 8, 1, 1 };
		size_t k;

		for (k = 0; k < 3; k++) {
			out.len = 0;
			put(&out, orig.p, head_end);
			put_chunks(&out, c, clen, cuts[k], ncuts[k]);
			tmp = write_temp(&out);
			got = read_records(tmp, &ngot, &err);
			if (ngot < 0)
				fprintf(stderr, "cut %zu: %s at 0x%llx\n", k,
					err.msg,
					(unsigned long long)err.offset);
			CHECK_EQ_U64((uint64_t)ngot, (uint64_t)nwant);
			CHECK_EQ_U64(got, want);
			unlink(tmp);
			free(tmp);
		}
	}

	/* A corrupt payload (the second frame's magic number): the offset
	 * of its record is reported. */
	out.len = 0;
	put(&out, orig.p, head_end);
	put_chunks(&out, c, clen, cuts2, 1);
	{
		/* The first frame is small: both start in the first
		 * record, at payload offsets 0 and "a". */
		size_t a = ZSTD_findFrameCompressedSize(c, clen);

		CHECK(!ZSTD_isError(a));
		out.p[head_end + 8 + a] ^= 0xff;
	}
	tmp = write_temp(&out);
	(void)read_records(tmp, &ngot, &err);
	CHECK(ngot == -1);
	CHECK(err.status == P2G_INVALID);
	CHECK_EQ_U64(err.offset, head_end);
	CHECK(strstr(err.msg, "zstd") != NULL);
	unlink(tmp);
	free(tmp);
	free(c);

	/* Bombs of FINISHED_ROUND records in one small payload: 8 MiB,
	 * over 1000 times its size, is refused by the bound on the ratio,
	 * naming --max-inflate, and read with the bound lifted; 80 MiB,
	 * over the 64 MiB that a record may give when the recording's
	 * buffer size is unknown, is refused even then. */
	tmp = bomb(&out, &orig, head_end, 8u << 20, cuts2);
	(void)read_records(tmp, &ngot, &err);
	CHECK(ngot == -1);
	CHECK(err.status == P2G_UNSUPPORTED);
	CHECK_EQ_U64(err.offset, head_end);
	CHECK(strstr(err.msg, "--max-inflate") != NULL);
	max_inflate = 0;
	(void)read_records(tmp, &ngot, &err);
	CHECK(ngot == (long)((8u << 20) / 8));
	CHECK(err.status == P2G_OK);
	unlink(tmp);
	free(tmp);

	tmp = bomb(&out, &orig, head_end, 80u << 20, cuts2);
	(void)read_records(tmp, &ngot, &err);
	CHECK(ngot == -1);
	CHECK(err.status == P2G_INVALID);
	CHECK_EQ_U64(err.offset, head_end);
	CHECK(strstr(err.msg, "decompression bomb") != NULL);
	unlink(tmp);
	free(tmp);

	free(orig.p);
	free(body.p);
	free(out.p);
	return unit_exit();
}

#else /* !HAVE_ZSTD */

int
main(void)
{
	struct perfdata *pd;
	struct perf_record rec;
	struct p2g_error err;
	const char *top = getenv("top_srcdir");
	char path[4096];

	/* Without libzstd the -z fixture fails, naming what is missing. */
	snprintf(path, sizeof(path), "%s/testdata/multi-z.perf.data",
		 top ? top : ".");
	p2g_error_clear(&err);
	pd = perfdata_open(path, NULL, NULL, &err);
	CHECK(pd != NULL);
	if (pd != NULL) {
		int r;

		while ((r = perfdata_next(pd, &rec, &err)) > 0)
			;
		CHECK(r < 0);
		CHECK(err.status == P2G_UNSUPPORTED);
		CHECK(strstr(err.msg, "libzstd") != NULL);
		perfdata_close(pd);
	}
	return unit_exit();
}

#endif
