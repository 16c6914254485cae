/* SPDX-License-Identifier: MIT */
/*
 * A growing byte buffer with little-endian integers, and \xHH escapes
 * read back: the helpers of the test tools that write binary inputs
 * (tests/blowup.c, tests/mkelf.c, tests/mkdata.c).  They exit with
 * status 2 when out of memory.
 */
#ifndef P2G_TESTS_MKBUF_H
#define P2G_TESTS_MKBUF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static inline void
put(struct buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->cap - b->len < n) {
		size_t cap = b->cap ? b->cap : 1 << 16;

		while (cap - b->len < n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (b->p == NULL) {
			fprintf(stderr, "out of memory\n");
			exit(2);
		}
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static inline void
put64(struct buf *b, uint64_t v)
{
	unsigned char x[8];
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		x[i] = (unsigned char)v;
	put(b, x, 8);
}

static inline void
put32(struct buf *b, uint32_t v)
{
	unsigned char x[4];
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		x[i] = (unsigned char)v;
	put(b, x, 4);
}

static inline void
put16(struct buf *b, uint16_t v)
{
	unsigned char x[2] = { (unsigned char)v, (unsigned char)(v >> 8) };

	put(b, x, 2);
}

/* S with \xHH and \\ read into OUT (at least as large as S); a \x00
 * ends the string. */
static inline void
unescape(char *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if (s[0] == '\\' && s[1] == 'x' && s[2] != '\0' &&
		    s[3] != '\0') {
			char hex[3] = { s[2], s[3], '\0' };

			*out++ = (char)strtoul(hex, NULL, 16);
			s += 3;
		} else if (s[0] == '\\' && s[1] == '\\') {
			*out++ = '\\';
			s++;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* Write B to standard output: 0, or 2 (said on stderr, naming PROG). */
static inline int
put_stdout(const struct buf *b, const char *prog)
{
	if (fwrite(b->p, 1, b->len, stdout) != b->len || fflush(stdout) != 0) {
		fprintf(stderr, "%s: standard output: ", prog);
		perror(NULL);
		return 2;
	}
	return 0;
}

#endif
