/* SPDX-License-Identifier: MIT */
/*
 * mutate SEED INDEX INPUT OUTPUT: write to OUTPUT the INDEX-th damaged
 * copy of INPUT for seed SEED.  The same arguments always give the same
 * bytes, so a failure of run-mutate.sh is reproduced by its printed seed
 * and index.  Damage: flipped bits, random bytes, aligned fields set to
 * boundary values (0, 1, all ones, sizes near the file's), truncation,
 * and a chunk copied over another.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;

static uint64_t
next(void)
{
	/* xorshift64* */
	state ^= state >> 12;
	state ^= state << 25;
	state ^= state >> 27;
	return state * 0x2545f4914f6cdd1dULL;
}

static size_t
pick(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

int
main(int argc, char **argv)
{
	static const uint64_t boundary[] = {
		0, 1, 7, 8, 0x7f, 0x80, 0xff, 0xffff, 0x10000, 0x7fffffff,
		0xffffffff, 0x100000000ULL, 0x7fffffffffffffffULL, UINT64_MAX,
	};
	unsigned char *buf;
	size_t len, cap = 1 << 20, i, k, n;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: mutate SEED INDEX INPUT OUTPUT\n");
		return 2;
	}
	state = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ULL +
		strtoull(argv[2], NULL, 0) + 1;
	if (state == 0)
		state = 1;
	f = fopen(argv[3], "rb");
	if (f == NULL) {
		perror(argv[3]);
		return 2;
	}
	buf = malloc(cap);
	len = 0;
	while (buf != NULL && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (buf == NULL || len == 0)
		return 2;

	n = 1 + pick(6);
	for (i = 0; i < n; i++) {
		size_t at = pick(len);

		switch (pick(6)) {
		case 0:
			buf[at] ^= (unsigned char)(1u << pick(8));
			break;
		case 1:
			buf[at] = (unsigned char)next();
			break;
		case 2: {
			/* an aligned field of 2, 4 or 8 bytes */
			size_t w = (size_t)2 << pick(3);
			uint64_t v = boundary[pick(sizeof(boundary) /
						   sizeof(boundary[0]))];

			if (pick(4) == 0)
				v = len + pick(64) - 32;
			at &= ~(w - 1);
			for (k = 0; k < w && at + k < len; k++)
				buf[at + k] = (unsigned char)(v >> (8 * k));
			break;
		}
		case 3:
			len = at ? at : 1;
			break;
		case 4: {
			size_t from = pick(len), m = 1 + pick(64);

			if (from + m <= len && at + m <= len)
				memmove(buf + at, buf + from, m);
			break;
		}
		default:
			buf[at] = 0;
			break;
		}
	}
	f = fopen(argv[4], "wb");
	if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		perror(argv[4]);
		return 2;
	}
	free(buf);
	return 0;
}
