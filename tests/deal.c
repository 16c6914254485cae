/* SPDX-License-Identifier: MIT */
/*
 * deal IN OUT K C: copy the perf.data directory IN (perf record --threads)
 * to the directory OUT with each of its files data.N dealt out to K
 * files: runs of C records of IN/data.N go in turn to OUT/data.(N*K),
 * ..., OUT/data.(N*K+K-1).  OUT/data is IN/data.  Each new file holds
 * records of one old file in their order, so it is in time order when
 * the old one is, and the files overlap in time: a reader has to merge
 * K times as many files, as on a machine with K times as many CPUs.
 *
 * A test tool (tests/run-rounds.sh), independent of the library: it
 * knows the record header (type, misc, size) and nothing else.  The
 * files must be little-endian.  Exit status 1 for input it cannot read,
 * 2 for usage and I/O trouble.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL, *np;
	size_t cap = 0, got;

	*len = 0;
	if (f == NULL)
		return NULL;
	for (;;) {
		if (cap - *len < 65536) {
			cap = cap ? 2 * cap : 1 << 20;
			np = realloc(p, cap);
			if (np == NULL) {
				fprintf(stderr, "deal: out of memory\n");
				exit(2);
			}
			p = np;
		}
		got = fread(p + *len, 1, cap - *len, f);
		if (got == 0)
			break;
		*len += got;
	}
	if (ferror(f)) {
		fprintf(stderr, "deal: %s: read error\n", path);
		exit(2);
	}
	fclose(f);
	return p;
}

static void
spill(const char *path, const unsigned char *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "deal: cannot write %s\n", path);
		exit(2);
	}
}

int
main(int argc, char **argv)
{
	char path[4096];
	unsigned char *in, *out;
	size_t len, off, size, *outlen, k, c, i, n, rec;

	if (argc != 5 || atoi(argv[3]) < 1 || atoi(argv[4]) < 1) {
		fprintf(stderr, "usage: deal IN OUT K C  (K, C >= 1)\n");
		return 2;
	}
	k = (size_t)atoi(argv[3]);
	c = (size_t)atoi(argv[4]);
	snprintf(path, sizeof(path), "%s/data", argv[1]);
	in = slurp(path, &len);
	if (in == NULL) {
		fprintf(stderr, "deal: cannot read %s\n", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/data", argv[2]);
	spill(path, in, len);
	free(in);
	outlen = calloc(k, sizeof(*outlen));
	if (outlen == NULL)
		return 2;
	for (n = 0;; n++) {
		snprintf(path, sizeof(path), "%s/data.%zu", argv[1], n);
		in = slurp(path, &len);
		if (in == NULL)
			break;
		/* Records never grow in dealing: each new file fits in LEN. */
		out = malloc(k * (len ? len : 1));
		if (out == NULL)
			return 2;
		memset(outlen, 0, k * sizeof(*outlen));
		for (off = 0, rec = 0; off < len; off += size, rec++) {
			if (len - off < 8) {
				fprintf(stderr, "deal: %s: record header cut "
					"at offset %zu\n", path, off);
				return 1;
			}
			size = (size_t)in[off + 6] | (size_t)in[off + 7] << 8;
			if (size < 8 || size > len - off) {
				fprintf(stderr, "deal: %s: bad record size %zu "
					"at offset %zu\n", path, size, off);
				return 1;
			}
			i = rec / c % k;
			memcpy(out + i * len + outlen[i], in + off, size);
			outlen[i] += size;
		}
		for (i = 0; i < k; i++) {
			snprintf(path, sizeof(path), "%s/data.%zu", argv[2],
				 n * k + i);
			spill(path, out + i * len, outlen[i]);
		}
		free(out);
		free(in);
	}
	free(outlen);
	if (n == 0) {
		fprintf(stderr, "deal: %s has no data.0\n", argv[1]);
		return 1;
	}
	return 0;
}
