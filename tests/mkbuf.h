/* SPDX-License-Identifier: MIT */
/*
 * A growing byte buffer with little-endian integers, perf records'
 * headers and padded strings, and \xHH escapes read back: the helpers of the test tools that write binary inputs
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

/* A perf record's header: TYPE, MISC and SIZE (the whole record's). */
static inline void
put_header(struct buf *b, uint32_t type, uint16_t misc, size_t size)
{
	put32(b, type);
	put16(b, misc);
	put16(b, (uint16_t)size);
}

/* The bytes of S with its NUL, padded with NULs to a multiple of
 * ALIGN. */
static inline size_t
name_size(const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	return n + (align - n % align) % align;
}

/* S, NUL-ended and padded with NULs to a multiple of ALIGN (at most
 * 64). */
static inline void
put_name(struct buf *b, const char *s, size_t align)
{
	static const unsigned char zero[64];
	size_t n = strlen(s);

	put(b, s, n);
	put(b, zero, name_size(s, align) - n);
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
