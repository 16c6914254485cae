/* SPDX-License-Identifier: MIT */
/*
 * rounds IN OUT N M: rewrite the little-endian perf.data IN (file or pipe
 * mode) with a FINISHED_ROUND record after every sample (any it had are
 * dropped), and with sample number N (from 0) held back and written M
 * samples later (M >= 1).  Every round tells a reader that what came
 * before it can no longer be overtaken, so with M >= 2 that sample
 * arrives after records later than it were given back: it is out of
 * order, as perf counts such records, and goes where perf's reading puts
 * it.
 *
 * A test tool (tests/run-rounds.sh), independent of the library: it knows
 * the file header (the data section, the feature bits and the table of
 * feature sections after the data, whose offsets move with the data's
 * size), the pipe-mode header and the record header (type, misc, size),
 * and nothing else, so it refuses the records whose payload follows them
 * outside their size (tracing data, auxtrace).  Exit status 1 for input
 * it cannot read, 2 for usage and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_SAMPLE 9
#define RECORD_TRACING_DATA 66
#define RECORD_FINISHED_ROUND 68
#define RECORD_AUXTRACE 71

#define FILE_HEADER 104		/* perf_file_header */
#define DATA_AT 40		/* its data section: offset, size */
#define FEATURES_AT 72		/* its 256 feature bits */

static const char *in_path;

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static int
put(struct buf *b, const void *p, size_t n)
{
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 1 << 16;
		unsigned char *np;

		while (cap - b->len < n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (np == NULL)
			return -1;
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
set64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static int
bad(const char *what)
{
	fprintf(stderr, "%s: %s\n", in_path, what);
	return 1;
}

/* The records of D[0..LEN) rewritten into OUT.  0, 1 (bad input) or 2. */
static int
rewrite(const unsigned char *d, size_t len, unsigned long n, unsigned long m,
	struct buf *out)
{
	static const unsigned char round[8] = { RECORD_FINISHED_ROUND, 0, 0, 0,
						0, 0, 8, 0 };
	const unsigned char *held = NULL;
	unsigned long sample = 0, wait = 0;
	size_t pos = 0, held_len = 0;

	while (pos < len) {
		uint32_t type;
		size_t size;

		if (len - pos < 8)
			return bad("data ends inside a record header");
		type = d[pos] | d[pos + 1] << 8 | d[pos + 2] << 16 |
		       (uint32_t)d[pos + 3] << 24;
		size = d[pos + 6] | d[pos + 7] << 8;
		if (size < 8 || size > len - pos)
			return bad("a record runs past the data");
		if (type == RECORD_TRACING_DATA || type == RECORD_AUXTRACE)
			return bad("a record with a payload after it is not "
				   "handled");
		if (type == RECORD_FINISHED_ROUND) {
			;
		} else if (type != RECORD_SAMPLE) {
			if (put(out, d + pos, size) < 0)
				return 2;
		} else if (sample++ == n) {
			held = d + pos;
			held_len = size;
			wait = m;
		} else {
			if (put(out, d + pos, size) < 0 ||
			    put(out, round, sizeof(round)) < 0)
				return 2;
			if (held != NULL && --wait == 0) {
				if (put(out, held, held_len) < 0 ||
				    put(out, round, sizeof(round)) < 0)
					return 2;
				held = NULL;
			}
		}
		pos += size;
	}
	if (held != NULL || sample <= n)
		return bad("too few samples after the one held back");
	return 0;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = { NULL, 0, 0 };
	unsigned char chunk[1 << 16];
	size_t got;

	if (f == NULL)
		return NULL;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (put(&b, chunk, got) < 0) {
			free(b.p);
			fclose(f);
			return NULL;
		}
	if (ferror(f)) {
		free(b.p);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = b.len;
	return b.p ? b.p : malloc(1);
}

static int
number(const char *s, unsigned long *v)
{
	char *end;

	*v = strtoul(s, &end, 10);
	return *s >= '0' && *s <= '9' && *end == '\0';
}

int
main(int argc, char **argv)
{
	unsigned char *in;
	struct buf out = { NULL, 0, 0 };
	unsigned long n, m;
	size_t len;
	FILE *f;
	int ret;

	if (argc != 5 || !number(argv[3], &n) || !number(argv[4], &m) ||
	    m == 0) {
		fprintf(stderr, "usage: rounds IN OUT N M  (M >= 1)\n");
		return 2;
	}
	in_path = argv[1];
	in = slurp(in_path, &len);
	if (in == NULL) {
		perror(in_path);
		return 2;
	}
	if (len < 16 || memcmp(in, "PERFILE2", 8) != 0) {
		free(in);
		return bad("not a little-endian perf.data");
	}
	if (get64(in + 8) == 16) {
		/* pipe mode: the header, then records to the end */
		ret = put(&out, in, 16) < 0 ? 2
					       : rewrite(in + 16, len - 16, n, m,
							 &out);
	} else if (get64(in + 8) == FILE_HEADER && len >= FILE_HEADER) {
		uint64_t doff = get64(in + DATA_AT),
			 dsize = get64(in + DATA_AT + 8), nfeat = 0, delta, k;
		unsigned i;

		for (i = 0; i < 256; i++)
			nfeat += in[FEATURES_AT + i / 8] >> (i % 8) & 1;
		if (doff < FILE_HEADER || doff > len || dsize > len - doff ||
		    nfeat * 16 > len - doff - dsize) {
			free(in);
			return bad("sections out of the file");
		}
		ret = put(&out, in, doff) < 0 ? 2
						: rewrite(in + doff, dsize, n, m,
							  &out);
		if (ret == 0) {
			/* the data grew by DELTA: so do the offsets of the
			 * feature sections, which follow it */
			size_t table = out.len;

			delta = out.len - doff - dsize;
			set64(out.p + DATA_AT + 8, out.len - doff);
			if (put(&out, in + doff + dsize, len - doff - dsize) < 0)
				ret = 2;
			for (k = 0; ret == 0 && k < nfeat; k++) {
				unsigned char *s = out.p + table + k * 16;

				if (get64(s) >= doff + dsize)
					set64(s, get64(s) + delta);
			}
		}
	} else {
		ret = bad("a header of unknown size");
	}
	free(in);
	if (ret == 0) {
		f = fopen(argv[2], "wb");
		if (f == NULL) {
			perror(argv[2]);
			ret = 2;
		} else if ((fwrite(out.p, 1, out.len, f) != out.len) |
			   (fclose(f) != 0)) {
			perror(argv[2]);
			ret = 2;
		}
	} else if (ret == 2) {
		fprintf(stderr, "rounds: out of memory\n");
	}
	free(out.p);
	return ret;
}
