/* SPDX-License-Identifier: MIT */
/*
 * A small protocol buffers encoder, enough for pprof's profile.proto:
 * varints, length-delimited fields (strings, bytes, nested messages) and
 * packed repeated integers, appended to one growing buffer (the wire
 * format: protobuf.dev/programming-guides/encoding).  A failed
 * allocation is remembered and reported once, at the end, so that the
 * writer of a message need not check every field.
 */
#ifndef P2G_PROTOBUF_H
#define P2G_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct protobuf {
	unsigned char *buf;	/* owned */
	size_t len, cap;
	bool failed;		/* an allocation failed: BUF is incomplete */
};

/* An empty buffer (no memory held yet). */
void protobuf_init(struct protobuf *b);

/* Free the buffer; B is then empty again. */
void protobuf_release(struct protobuf *b);

/* Field FIELD as a varint (wire type 0): unsigned, bool, or an int64
 * in two's complement (a negative one takes ten bytes, as the format
 * says). */
void protobuf_uint(struct protobuf *b, uint32_t field, uint64_t v);
void protobuf_int(struct protobuf *b, uint32_t field, int64_t v);

/* Field FIELD as N bytes at P (wire type 2): a string or bytes. */
void protobuf_bytes(struct protobuf *b, uint32_t field, const void *p,
		    size_t n);

/* Field FIELD as a packed repeated varint of the N values V. */
void protobuf_packed(struct protobuf *b, uint32_t field, const uint64_t *v,
		     size_t n);

/* A nested message as field FIELD: its fields are appended after
 * protobuf_begin(), whose return value protobuf_end() takes to put the
 * length in front of them. */
size_t protobuf_begin(struct protobuf *b, uint32_t field);
void protobuf_end(struct protobuf *b, size_t mark);

#endif
