/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the protobuf encoder, against the encodings the wire
 * format document spells out (protobuf.dev, "Encoding": 150 as field 1
 * is 08 96 01, "testing" as field 2 is 12 07 74 65 73 74 69 6e 67, the
 * packed 3, 270, 86942 as field 4 is 22 06 03 8e 02 9e a7 05, -1 as an
 * int64 takes ten bytes), nested messages short and long (a length
 * over 127 takes two bytes, and the message moves up), and pprof_encode()
 * of a tiny profile.  Given a file name, it also writes that profile
 * there, for tests/run-protobuf.sh to decode with protoc.
 */
#include "config.h"

#include <string.h>

#include "pprof.h"
#include "protobuf.h"
#include "unit.h"

static int
same(const struct protobuf *b, const unsigned char *want, size_t n)
{
	return !b->failed && b->len == n && memcmp(b->buf, want, n) == 0;
}

static void
test_documented(void)
{
	static const unsigned char v150[] = { 0x08, 0x96, 0x01 };
	static const unsigned char testing[] = { 0x12, 0x07, 't', 'e', 's',
						 't', 'i', 'n', 'g' };
	static const unsigned char packed[] = { 0x22, 0x06, 0x03, 0x8e, 0x02,
						0x9e, 0xa7, 0x05 };
	static const unsigned char minus1[] = { 0x08, 0xff, 0xff, 0xff, 0xff,
						0xff, 0xff, 0xff, 0xff, 0xff,
						0x01 };
	static const uint64_t pv[] = { 3, 270, 86942 };
	struct protobuf b;

	protobuf_init(&b);
	protobuf_uint(&b, 1, 150);
	CHECK(same(&b, v150, sizeof(v150)));
	protobuf_release(&b);

	protobuf_bytes(&b, 2, "testing", 7);
	CHECK(same(&b, testing, sizeof(testing)));
	protobuf_release(&b);

	protobuf_packed(&b, 4, pv, 3);
	CHECK(same(&b, packed, sizeof(packed)));
	protobuf_release(&b);

	protobuf_int(&b, 1, -1);
	CHECK(same(&b, minus1, sizeof(minus1)));
	protobuf_release(&b);

	/* an empty packed field is left out */
	protobuf_packed(&b, 4, pv, 0);
	CHECK_EQ_U64(b.len, 0);
	protobuf_release(&b);
}

static void
test_nested(void)
{
	/* field 3 { field 1: 150 } is 1a 03 08 96 01 */
	static const unsigned char shortmsg[] = { 0x1a, 0x03, 0x08, 0x96,
						  0x01 };
	unsigned char big[300];
	struct protobuf b;
	size_t m, i;

	protobuf_init(&b);
	m = protobuf_begin(&b, 3);
	protobuf_uint(&b, 1, 150);
	protobuf_end(&b, m);
	CHECK(same(&b, shortmsg, sizeof(shortmsg)));
	protobuf_release(&b);

	/* 200 bytes of string and a varint in a message: 205 bytes,
	 * length cd 01 */
	for (i = 0; i < 200; i++)
		big[i] = (unsigned char)i;
	m = protobuf_begin(&b, 3);
	protobuf_bytes(&b, 2, big, 200);
	protobuf_uint(&b, 1, 1);
	protobuf_end(&b, m);
	CHECK_EQ_U64(b.len, 1 + 2 + 1 + 2 + 200 + 2);
	CHECK_EQ_U64(b.buf[0], 0x1a);
	CHECK_EQ_U64(b.buf[1], 0xcd);
	CHECK_EQ_U64(b.buf[2], 0x01);
	CHECK_EQ_U64(b.buf[3], 0x12);
	CHECK_EQ_U64(b.buf[4], 0xc8);
	CHECK_EQ_U64(b.buf[5], 0x01);
	CHECK(memcmp(b.buf + 6, big, 200) == 0);
	CHECK_EQ_U64(b.buf[206], 0x08);
	CHECK_EQ_U64(b.buf[207], 0x01);
	protobuf_release(&b);
}

/* A profile of one sample of two locations: the leaf with an inlined
 * function (two lines), its caller in no mapping. */
static int
tiny_profile(struct protobuf *b)
{
	static const uint8_t id[] = { 0xab, 0xcd };
	struct ss_mapping map = { 0x400000, 0x401000, 0, "/bin/prog", NULL,
				  id, 2, false, -1, true, true, true, true };
	struct ss_function funcs[] = { { "inner", "prog.c" },
				       { "outer", "prog.c" } };
	struct ss_line lines[] = { { 0, 7 }, { 1, 12 } };
	struct ss_location locs[] = { { 0x400123, 1, 0, 2, false },
				      { 0x7fff0000, 0, 2, 0, false } };
	uint32_t pool[] = { 0, 1 };
	struct ss_sample sample = { 0, 2, 42, 43, "prog", 3, 3000, false, 0 };
	struct symstacks ss;
	struct pprof_meta meta;

	memset(&ss, 0, sizeof(ss));
	ss.maps = &map;
	ss.nmaps = 1;
	ss.funcs = funcs;
	ss.nfuncs = 2;
	ss.lines = lines;
	ss.nlines = 2;
	ss.locs = locs;
	ss.nlocs = 2;
	ss.samples = &sample;
	ss.nsamples = 1;
	ss.pool = pool;
	ss.npool = 2;
	memset(&meta, 0, sizeof(meta));
	meta.measure = "cpu";
	meta.unit = "nanoseconds";
	meta.period = 1000;
	meta.duration_nanos = 5000;
	meta.comments[0] = "perf version 6.1";
	return pprof_encode(&ss, &meta, b);
}

static void
test_pprof(const char *path)
{
	struct protobuf b;
	FILE *f;

	protobuf_init(&b);
	CHECK(tiny_profile(&b) == 0);
	/* the first field: sample_type { type: 1, unit: 2 } */
	CHECK(b.len > 6);
	CHECK_EQ_U64(b.buf[0], 0x0a);
	CHECK_EQ_U64(b.buf[1], 0x04);
	CHECK_EQ_U64(b.buf[2], 0x08);
	CHECK_EQ_U64(b.buf[3], 0x01);
	CHECK_EQ_U64(b.buf[4], 0x10);
	CHECK_EQ_U64(b.buf[5], 0x02);
	if (path != NULL) {
		f = fopen(path, "wb");
		CHECK(f != NULL);
		if (f != NULL) {
			CHECK(fwrite(b.buf, 1, b.len, f) == b.len);
			CHECK(fclose(f) == 0);
		}
	}
	protobuf_release(&b);
}

int
main(int argc, char **argv)
{
	test_documented();
	test_nested();
	test_pprof(argc > 1 ? argv[1] : NULL);
	return unit_exit();
}
