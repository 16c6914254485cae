/* SPDX-License-Identifier: MIT */
/*
 * rounds IN OUT N M: rewrite the little-endian pipe-mode perf.data IN
 * with a FINISHED_ROUND record after every sample (any it had are
 * dropped), and with sample number N (from 0) held back and written M
 * samples later.  Every round tells a reader that what came before it
 * can no longer be overtaken, so that sample arrives after records later
 * than it were given back: it is out of order, as perf counts such
 * records, and goes where perf's reading puts it.
 *
 * A test tool (tests/run-rounds.sh), independent of the library: it knows
 * the pipe-mode header (magic, size) and the record header (type, misc,
 * size) and nothing else, so it refuses the records whose payload
 * follows them outside their size (tracing data, auxtrace).  Exit status 1 for input it cannot read, 2 for
 * usage and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_SAMPLE 9
#define RECORD_TRACING_DATA 66
#define RECORD_FINISHED_ROUND 68
#define RECORD_AUXTRACE 71

static int
put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : -1;
}

static int
put_round(FILE *f)
{
	/* type 68, misc 0, size 8, little-endian */
	static const unsigned char r[8] = { RECORD_FINISHED_ROUND, 0, 0, 0,
					    0, 0, 8, 0 };

	return put(f, r, sizeof(r));
}

int
main(int argc, char **argv)
{
	FILE *in, *out;
	unsigned char hdr[16], rh[8], *rec, *held = NULL;
	unsigned long n, m, sample = 0, wait = 0;
	size_t held_len = 0;
	int ret = 2;

	if (argc != 5) {
		fprintf(stderr, "usage: rounds IN OUT N M\n");
		return 2;
	}
	n = strtoul(argv[3], NULL, 10);
	m = strtoul(argv[4], NULL, 10);
	in = fopen(argv[1], "rb");
	if (in == NULL) {
		perror(argv[1]);
		return 2;
	}
	out = fopen(argv[2], "wb");
	if (out == NULL) {
		perror(argv[2]);
		fclose(in);
		return 2;
	}
	rec = malloc(65536);
	if (rec == NULL)
		goto done;
	if (fread(hdr, 1, sizeof(hdr), in) != sizeof(hdr) ||
	    memcmp(hdr, "PERFILE2", 8) != 0 || hdr[8] != 16 || hdr[9] != 0) {
		fprintf(stderr, "%s: not a little-endian pipe-mode perf.data\n",
			argv[1]);
		ret = 1;
		goto done;
	}
	if (put(out, hdr, sizeof(hdr)) < 0)
		goto io;
	while (fread(rh, 1, sizeof(rh), in) == sizeof(rh)) {
		uint32_t type = rh[0] | rh[1] << 8 | rh[2] << 16 |
				(uint32_t)rh[3] << 24;
		size_t size = rh[6] | rh[7] << 8;

		if (size < 8 || fread(rec + 8, 1, size - 8, in) != size - 8) {
			fprintf(stderr, "%s: truncated record\n", argv[1]);
			ret = 1;
			goto done;
		}
		memcpy(rec, rh, 8);
		if (type == RECORD_TRACING_DATA || type == RECORD_AUXTRACE) {
			fprintf(stderr, "%s: a record with a payload after "
				"it (type %u) is not handled\n", argv[1],
				(unsigned)type);
			ret = 1;
			goto done;
		}
		if (type == RECORD_FINISHED_ROUND)
			continue;
		if (type != RECORD_SAMPLE) {
			if (put(out, rec, size) < 0)
				goto io;
			continue;
		}
		if (sample++ == n) {
			held = malloc(size);
			if (held == NULL)
				goto done;
			memcpy(held, rec, size);
			held_len = size;
			wait = m;
			continue;
		}
		if (put(out, rec, size) < 0 || put_round(out) < 0)
			goto io;
		if (held != NULL && --wait == 0) {
			if (put(out, held, held_len) < 0 || put_round(out) < 0)
				goto io;
			free(held);
			held = NULL;
		}
	}
	if (held != NULL || sample <= n) {
		fprintf(stderr, "%s: fewer than %lu samples after sample %lu\n",
			argv[1], m, n);
		ret = 1;
		goto done;
	}
	if (ferror(in))
		goto io;
	ret = 0;
	goto done;
io:
	perror(argv[2]);
done:
	free(held);
	free(rec);
	fclose(in);
	if (fclose(out) != 0 && ret == 0) {
		perror(argv[2]);
		ret = 2;
	}
	return ret;
}
