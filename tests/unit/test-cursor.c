/* SPDX-License-Identifier: MIT */
/* Unit tests of the byte cursor: bounds, byte order, strings, bit-fields. */
#include "config.h"

#include <string.h>

#include "cursor.h"
#include "unit.h"

static void
test_byte_order(void)
{
	static const unsigned char b[] = {
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	struct cursor c;

	cursor_init(&c, b, sizeof(b), 0x100, false);
	CHECK_EQ_U64(cursor_u16(&c), 0x0201);
	CHECK_EQ_U64(cursor_u16(&c), 0x0403);
	CHECK_EQ_U64(cursor_u32(&c), 0x08070605);
	CHECK(cursor_ok(&c));
	CHECK_EQ_U64(cursor_offset(&c), 0x108);

	cursor_init(&c, b, sizeof(b), 0, true);
	CHECK_EQ_U64(cursor_u64(&c), 0x0102030405060708ULL);
	cursor_init(&c, b, sizeof(b), 0, true);
	/* u32 pairs (pid, tid) are two big-endian u32s, not halves of a
	 * swapped u64. */
	CHECK_EQ_U64(cursor_u32(&c), 0x01020304);
	CHECK_EQ_U64(cursor_u32(&c), 0x05060708);
}

static void
test_bounds(void)
{
	static const unsigned char b[6] = { 1, 2, 3, 4, 5, 6 };
	struct cursor c, sub;

	cursor_init(&c, b, sizeof(b), 0x40, false);
	CHECK_EQ_U64(cursor_u32(&c), 0x04030201);
	/* 2 bytes left: a u32 read fails, returns 0, remembers where. */
	CHECK_EQ_U64(cursor_u32(&c), 0);
	CHECK(!cursor_ok(&c));
	CHECK_EQ_U64(cursor_err_offset(&c), 0x44);
	/* Sticky: later reads fail too, even small ones. */
	CHECK_EQ_U64(cursor_u8(&c), 0);
	CHECK_EQ_U64(cursor_err_offset(&c), 0x44);

	cursor_init(&c, b, sizeof(b), 0, false);
	CHECK(!cursor_skip(&c, UINT64_MAX));
	cursor_init(&c, b, sizeof(b), 0, false);
	CHECK(cursor_bytes(&c, SIZE_MAX) == NULL);
	CHECK(!cursor_ok(&c));

	cursor_init(&c, b, sizeof(b), 0x10, false);
	(void)cursor_u8(&c);
	CHECK(cursor_sub(&c, 4, &sub));
	CHECK_EQ_U64(cursor_offset(&sub), 0x11);
	CHECK_EQ_U64(cursor_u32(&sub), 0x05040302);
	CHECK_EQ_U64(cursor_u8(&sub), 0);
	CHECK(!cursor_ok(&sub));
	CHECK(cursor_ok(&c));
	CHECK(!cursor_sub(&c, 2, &sub));
	CHECK(!cursor_ok(&c));
}

static void
test_string(void)
{
	/* perf_header_string: u32 length, then NUL-padded text. */
	static const unsigned char ok[] = {
		8, 0, 0, 0, 'h', 'o', 's', 't', 0, 0, 0, 0, 0xff,
	};
	static const unsigned char no_nul[] = { 4, 0, 0, 0, 'a', 'b', 'c', 'd' };
	static const unsigned char too_long[] = { 9, 0, 0, 0, 'a', 0 };
	struct cursor c;
	const char *s;
	size_t n = 0;

	cursor_init(&c, ok, sizeof(ok), 0, false);
	s = cursor_string(&c, &n);
	CHECK(s != NULL && n == 4 && memcmp(s, "host", 4) == 0);
	CHECK_EQ_U64(cursor_u8(&c), 0xff);

	cursor_init(&c, no_nul, sizeof(no_nul), 0, false);
	CHECK(cursor_string(&c, &n) == NULL);
	CHECK(!cursor_ok(&c));
	cursor_init(&c, too_long, sizeof(too_long), 0, false);
	CHECK(cursor_string(&c, &n) == NULL);
	CHECK(!cursor_ok(&c));
}

static void
test_bitfield(void)
{
	/* "disabled" (bit 0), "freq" (bit 10) and "sample_id_all" (bit 18)
	 * as a little-endian machine stores them, and as a big-endian one
	 * does: there the first bit-field member is the most significant
	 * bit of the first byte. */
	static const unsigned char le[8] = { 0x01, 0x04, 0x04, 0, 0, 0, 0, 0 };
	static const unsigned char be[8] = { 0x80, 0x20, 0x20, 0, 0, 0, 0, 0 };
	struct cursor c;
	uint64_t want = 1ULL | 1ULL << 10 | 1ULL << 18;

	cursor_init(&c, le, 8, 0, false);
	CHECK_EQ_U64(cursor_bitfield64(&c), want);
	cursor_init(&c, be, 8, 0, true);
	CHECK_EQ_U64(cursor_bitfield64(&c), want);
}

int
main(void)
{
	test_byte_order();
	test_bounds();
	test_string();
	test_bitfield();
	return unit_exit();
}
