/* SPDX-License-Identifier: MIT */
/* A small protocol buffers encoder: see protobuf.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "protobuf.h"

/* Wire types. */
#define WIRE_VARINT 0
#define WIRE_LEN 2

/* The most bytes of a varint. */
#define VARINT_MAX 10

void
protobuf_init(struct protobuf *b)
{
	b->buf = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

void
protobuf_release(struct protobuf *b)
{
	free(b->buf);
	protobuf_init(b);
}

/* Room for N more bytes; false (and B failed) when there is none. */
static bool
room(struct protobuf *b, size_t n)
{
	unsigned char *nb;

	if (b->failed)
		return false;
	if (b->cap - b->len >= n)
		return true;
	nb = grow(b->buf, &b->cap, grow_add(b->len, n), 1, 4096);
	if (nb == NULL) {
		b->failed = true;
		return false;
	}
	b->buf = nb;
	return true;
}

/* V as a varint at P: its length. */
static size_t
put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static size_t
varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void
varint(struct protobuf *b, uint64_t v)
{
	if (room(b, VARINT_MAX))
		b->len += put_varint(b->buf + b->len, v);
}

static void
tag(struct protobuf *b, uint32_t field, unsigned wire)
{
	varint(b, (uint64_t)field << 3 | wire);
}

void
protobuf_uint(struct protobuf *b, uint32_t field, uint64_t v)
{
	tag(b, field, WIRE_VARINT);
	varint(b, v);
}

void
protobuf_int(struct protobuf *b, uint32_t field, int64_t v)
{
	protobuf_uint(b, field, (uint64_t)v);
}

void
protobuf_bytes(struct protobuf *b, uint32_t field, const void *p, size_t n)
{
	tag(b, field, WIRE_LEN);
	varint(b, n);
	if (n > 0 && room(b, n)) {
		memcpy(b->buf + b->len, p, n);
		b->len += n;
	}
}

void
protobuf_packed(struct protobuf *b, uint32_t field, const uint64_t *v,
		size_t n)
{
	size_t i, len = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	tag(b, field, WIRE_LEN);
	varint(b, len);
	if (!room(b, len))
		return;
	for (i = 0; i < n; i++)
		b->len += put_varint(b->buf + b->len, v[i]);
}

/*
 * A nested message's length goes in front of it, but is known only at
 * its end: one byte is kept for it (most messages of a profile are
 * shorter than 128 bytes), and a longer message is moved up to make
 * room for the rest.
 */
size_t
protobuf_begin(struct protobuf *b, uint32_t field)
{
	tag(b, field, WIRE_LEN);
	if (room(b, 1))
		b->buf[b->len++] = 0;
	return b->len;
}

void
protobuf_end(struct protobuf *b, size_t mark)
{
	size_t len, extra;

	if (b->failed)
		return;
	len = b->len - mark;
	extra = varint_len(len) - 1;
	if (extra > 0) {
		if (!room(b, extra))
			return;
		memmove(b->buf + mark + extra, b->buf + mark, len);
		b->len += extra;
	}
	put_varint(b->buf + mark - 1, len);
}
