/* SPDX-License-Identifier: MIT */
/*
 * A bounds-checked byte cursor.  Every byte the library parses, from a
 * perf.data header to a gperftools record, is read through one of these.
 * The cursor knows the byte order of the data and the file offset of its
 * first byte, so values come out in host order and errors can name the
 * exact offset.  A read past the end never touches memory outside the
 * buffer: it returns 0, marks the cursor bad and remembers where the first
 * failing read started.  Callers check cursor_ok() once after a group of
 * reads.
 */
#ifndef P2G_CURSOR_H
#define P2G_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct cursor {
	const unsigned char *base;
	size_t len;
	size_t pos;
	uint64_t origin;	/* file offset of base[0] */
	uint64_t bad_at;	/* file offset of the first failed read */
	bool big_endian;	/* data is big-endian */
	bool bad;
};

/* Start a cursor over LEN bytes at BUF, which sit at file offset ORIGIN. */
static inline void
cursor_init(struct cursor *c, const void *buf, size_t len, uint64_t origin,
	    bool big_endian)
{
	c->base = buf;
	c->len = len;
	c->pos = 0;
	c->origin = origin;
	c->bad_at = 0;
	c->big_endian = big_endian;
	c->bad = false;
}

static inline bool cursor_ok(const struct cursor *c) { return !c->bad; }
static inline size_t cursor_left(const struct cursor *c)
{
	return c->len - c->pos;
}
/* File offset of the next byte to read. */
static inline uint64_t cursor_offset(const struct cursor *c)
{
	return c->origin + c->pos;
}
/* File offset to name in a message: the first failed read, or the
 * current position. */
static inline uint64_t cursor_err_offset(const struct cursor *c)
{
	return c->bad ? c->bad_at : c->origin + c->pos;
}

static inline void
cursor_fail(struct cursor *c)
{
	if (!c->bad) {
		c->bad = true;
		c->bad_at = c->origin + c->pos;
	}
	c->pos = c->len;
}

/* Return a pointer to the next N bytes and step over them, or NULL. */
static inline const unsigned char *
cursor_bytes(struct cursor *c, size_t n)
{
	const unsigned char *p;

	if (c->bad || n > c->len - c->pos) {
		cursor_fail(c);
		return NULL;
	}
	p = c->base + c->pos;
	c->pos += n;
	return p;
}

static inline bool
cursor_skip(struct cursor *c, uint64_t n)
{
	if (c->bad || n > c->len - c->pos) {
		cursor_fail(c);
		return false;
	}
	c->pos += (size_t)n;
	return true;
}

/* Move to absolute position POS within the buffer. */
static inline bool
cursor_seek(struct cursor *c, size_t pos)
{
	if (c->bad || pos > c->len) {
		cursor_fail(c);
		return false;
	}
	c->pos = pos;
	return true;
}

/* Load helpers: decode a value in the given byte order from raw bytes. */
static inline uint16_t
load16(const unsigned char *p, bool big)
{
	return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t
load32(const unsigned char *p, bool big)
{
	uint32_t v;

	memcpy(&v, p, 4);
#if defined(WORDS_BIGENDIAN)
	return big ? v : __builtin_bswap32(v);
#else
	return big ? __builtin_bswap32(v) : v;
#endif
}

static inline uint64_t
load64(const unsigned char *p, bool big)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(WORDS_BIGENDIAN)
	return big ? v : __builtin_bswap64(v);
#else
	return big ? __builtin_bswap64(v) : v;
#endif
}

/* Store helpers, the reverse of the loads: for writers of the same
 * formats, which choose the byte order of their output. */
static inline void
store32(unsigned char *p, uint32_t v, bool big)
{
#if defined(WORDS_BIGENDIAN)
	v = big ? v : __builtin_bswap32(v);
#else
	v = big ? __builtin_bswap32(v) : v;
#endif
	memcpy(p, &v, 4);
}

static inline void
store64(unsigned char *p, uint64_t v, bool big)
{
#if defined(WORDS_BIGENDIAN)
	v = big ? v : __builtin_bswap64(v);
#else
	v = big ? __builtin_bswap64(v) : v;
#endif
	memcpy(p, &v, 8);
}

static inline uint8_t
cursor_u8(struct cursor *c)
{
	const unsigned char *p = cursor_bytes(c, 1);
	return p ? p[0] : 0;
}

static inline uint16_t
cursor_u16(struct cursor *c)
{
	const unsigned char *p = cursor_bytes(c, 2);
	return p ? load16(p, c->big_endian) : 0;
}

static inline uint32_t
cursor_u32(struct cursor *c)
{
	const unsigned char *p = cursor_bytes(c, 4);
	return p ? load32(p, c->big_endian) : 0;
}

static inline uint64_t
cursor_u64(struct cursor *c)
{
	const unsigned char *p = cursor_bytes(c, 8);
	return p ? load64(p, c->big_endian) : 0;
}

/* Split off the next N bytes as a cursor of their own (same byte order). */
bool cursor_sub(struct cursor *c, uint64_t n, struct cursor *sub);

/*
 * Read the flag bit-field word of a perf_event_attr.  The kernel's
 * bit-field is allocated from the least significant bit on little-endian
 * machines and from the most significant bit on big-endian ones, so for a
 * big-endian file the bits of each byte are reversed (as perf's own
 * swap_bitfield does) and the word is then read as little-endian.  The
 * result always has "disabled" in bit 0, "freq" in bit 10 and so on.
 */
uint64_t cursor_bitfield64(struct cursor *c);

/*
 * Read a perf_header_string (u32 length, then that many bytes holding a
 * NUL-terminated string, possibly padded).  Returns a pointer into the
 * buffer, or NULL if the length overruns the buffer or no NUL is found;
 * *LEN gets the length of the string without its NUL.
 */
const char *cursor_string(struct cursor *c, size_t *len);

#endif
