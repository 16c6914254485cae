/* SPDX-License-Identifier: MIT */
/*
 * resample SEED N IN OUT: write to OUT a gperftools CPU profile of N
 * samples drawn at random, with replacement, from the samples of the
 * profile IN: each draw picks a record with a probability proportional
 * to its count.  OUT has IN's header, the records drawn (their stacks
 * as in IN, in IN's order, with their new counts), the trailer and IN's
 * maps text.  Two draws from one profile are then what two profiles of
 * one program would be, as far as sampling goes; the draws depend only
 * on SEED (splitmix64), so that a test is deterministic.
 *
 * A test tool (tests/run-gperfcheck-verdicts.sh), independent of the
 * library: it reads 64-bit and 32-bit little-endian profiles, as the
 * format document lays them out, and nothing else.  Exit status 1 for
 * input it cannot read, 2 for usage and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole of PATH in a new buffer, its size in *LEN; NULL on error. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long size;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    (p = malloc((size_t)size + 1)) == NULL) {
		if (f != NULL)
			fclose(f);
		return NULL;
	}
	*len = fread(p, 1, (size_t)size, f);
	fclose(f);
	return p;
}

/* The slot of W bytes at P, little-endian. */
static uint64_t
slot(const unsigned char *p, unsigned w)
{
	uint64_t v = 0;
	unsigned i;

	for (i = w; i > 0; i--)
		v = v << 8 | p[i - 1];
	return v;
}

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
bad(const char *path, size_t off, const char *what)
{
	fprintf(stderr, "resample: %s: offset 0x%zx: %s\n", path, off, what);
	exit(1);
}

int
main(int argc, char **argv)
{
	unsigned char *buf;
	size_t len, off, nrec = 0, cap = 0, i, lo, hi, maps;
	size_t *recs = NULL;	/* the offset of each record */
	uint64_t *cum = NULL, *count, seed, n, total = 0, k, u;
	unsigned w;
	FILE *out;

	if (argc != 5) {
		fprintf(stderr, "usage: resample SEED N IN OUT\n");
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	n = strtoull(argv[2], NULL, 0);
	buf = slurp(argv[3], &len);
	if (buf == NULL) {
		perror(argv[3]);
		return 2;
	}
	/* the header 0, 3, 0, period, 0: 64-bit if its first 8 bytes are
	 * 0 and slot 1 then reads 3 */
	if (len >= 40 && slot(buf, 8) == 0 && slot(buf + 8, 8) == 3)
		w = 8;
	else if (len >= 20 && slot(buf, 4) == 0 && slot(buf + 4, 4) == 3)
		w = 4;
	else
		bad(argv[3], 0, "not a little-endian gperftools profile");
	for (off = 5 * w;; ) {
		uint64_t c, d;

		if (len - off < 2 * (size_t)w)
			bad(argv[3], off, "no trailer");
		c = slot(buf + off, w);
		d = slot(buf + off + w, w);
		if (d > (len - off) / w - 2)
			bad(argv[3], off, "record longer than the file");
		if (c == 0 && d == 1 && slot(buf + off + 2 * w, w) == 0) {
			maps = off + 3 * (size_t)w;
			break;
		}
		if (nrec == cap) {
			cap = cap ? 2 * cap : 1024;
			recs = realloc(recs, cap * sizeof(*recs));
			cum = realloc(cum, cap * sizeof(*cum));
			if (recs == NULL || cum == NULL) {
				fprintf(stderr, "resample: out of memory\n");
				return 2;
			}
		}
		total += c;
		recs[nrec] = off;
		cum[nrec++] = total;	/* samples up to this record's end */
		off += (2 + (size_t)d) * w;
	}
	if (total == 0)
		bad(argv[3], 5 * w, "no samples to draw from");
	count = calloc(nrec + 1, sizeof(*count));
	if (count == NULL) {
		fprintf(stderr, "resample: out of memory\n");
		return 2;
	}
	for (k = 0; k < n; k++) {
		u = splitmix64(&seed) % total;
		/* the first record whose cumulative count exceeds u */
		for (lo = 0, hi = nrec - 1; lo < hi; ) {
			size_t mid = lo + (hi - lo) / 2;

			if (cum[mid] > u)
				hi = mid;
			else
				lo = mid + 1;
		}
		count[lo]++;
	}
	out = fopen(argv[4], "wb");
	if (out == NULL) {
		perror(argv[4]);
		return 2;
	}
	fwrite(buf, 1, 5 * (size_t)w, out);
	for (i = 0; i < nrec; i++) {
		unsigned char c[8];
		unsigned b;

		if (count[i] == 0)
			continue;
		for (b = 0; b < w; b++)
			c[b] = (unsigned char)(count[i] >> (8 * b));
		fwrite(c, 1, w, out);
		fwrite(buf + recs[i] + w, 1,
		       (1 + (size_t)slot(buf + recs[i] + w, w)) * w, out);
	}
	fwrite(buf + maps - 3 * (size_t)w, 1, len - maps + 3 * (size_t)w,
	       out);
	if (fclose(out) != 0) {
		perror(argv[4]);
		return 2;
	}
	free(buf);
	free(recs);
	free(cum);
	free(count);
	return 0;
}
