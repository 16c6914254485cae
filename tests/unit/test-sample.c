/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the sample decoder: a sample carrying every sample_type
 * bit of Linux 6.x, laid out by hand from perf_event.h's field order and
 * written in both byte orders, must decode field by field; every
 * truncation must be refused with an offset inside the record; an unknown
 * sample_type bit must be refused.
 */
#include "config.h"

#include <string.h>

#include "attr.h"
#include "cursor.h"
#include "perf_abi.h"
#include "sample.h"
#include "unit.h"

struct buf {
	unsigned char b[1024];
	size_t n;
	bool big;
};

static void
put(struct buf *w, uint64_t v, unsigned size)
{
	unsigned i;

	for (i = 0; i < size; i++)
		w->b[w->n + i] = (unsigned char)(v >> (w->big ? 8 * (size - 1 - i)
							      : 8 * i));
	w->n += size;
}

static void
p64(struct buf *w, uint64_t v)
{
	put(w, v, 8);
}

static void
p32(struct buf *w, uint32_t v)
{
	put(w, v, 4);
}

static const uint64_t all_bits = PERF_SAMPLE_KNOWN_MASK;

/* The attr: every bit, group read with ID and LOST, HW_INDEX branches,
 * three user registers and two interrupt registers. */
static void
make_attr(struct perf_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->sample_type = all_bits & ~PERF_SAMPLE_WEIGHT;  /* WEIGHT_STRUCT */
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			 PERF_FORMAT_LOST | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_regs_user = 0x7;
	a->sample_regs_intr = 0x3;
	a->type = PERF_TYPE_SOFTWARE;
	attr_finish(a);
}

static void
make_sample(struct buf *w)
{
	int i;

	p64(w, 0x1d);			/* IDENTIFIER */
	p64(w, 0x401136);		/* IP */
	p32(w, 100);			/* TID: pid */
	p32(w, 101);			/*      tid */
	p64(w, 123456789);		/* TIME */
	p64(w, 0xdead);			/* ADDR */
	p64(w, 0x1d);			/* ID */
	p64(w, 0x5);			/* STREAM_ID */
	p32(w, 3);			/* CPU */
	p32(w, 0);			/*     res */
	p64(w, 1001001);		/* PERIOD */
	p64(w, 2);			/* READ: nr */
	p64(w, 999);			/*       time_enabled */
	for (i = 0; i < 2; i++) {	/*       {value, id, lost} */
		p64(w, 10 + i);
		p64(w, 20 + i);
		p64(w, 0);
	}
	p64(w, 3);			/* CALLCHAIN: nr */
	p64(w, (uint64_t)-512);		/*   PERF_CONTEXT_USER */
	p64(w, 0x401136);
	p64(w, 0x40117a);
	p32(w, 12);			/* RAW: size (with padding) */
	for (i = 0; i < 12; i++)
		w->b[w->n++] = (unsigned char)i;
	p64(w, 1);			/* BRANCH_STACK: nr */
	p64(w, 7);			/*   hw_idx */
	p64(w, 0x1000);			/*   from, to, flags */
	p64(w, 0x2000);
	p64(w, 0);
	p64(w, 2);			/* REGS_USER: abi 64 */
	p64(w, 0xa);
	p64(w, 0xb);
	p64(w, 0xc);
	p64(w, 16);			/* STACK_USER: size */
	for (i = 0; i < 16; i++)
		w->b[w->n++] = 0xee;
	p64(w, 8);			/*   dyn_size */
	p64(w, 0x00010002);		/* WEIGHT_STRUCT */
	p64(w, 0x42);			/* DATA_SRC */
	p64(w, 0x43);			/* TRANSACTION */
	p64(w, 2);			/* REGS_INTR: abi */
	p64(w, 0xd);
	p64(w, 0xe);
	p64(w, 0x7000);			/* PHYS_ADDR */
	p64(w, 0x77);			/* CGROUP */
	p64(w, 4096);			/* DATA_PAGE_SIZE */
	p64(w, 2097152);		/* CODE_PAGE_SIZE */
	p64(w, 8);			/* AUX: size */
	p64(w, 0x1122334455667788ULL);
}

static void
test_all_fields(bool big)
{
	struct perf_attr a;
	struct perf_sample s;
	struct p2g_error err;
	struct buf w;
	size_t full, cut;

	make_attr(&a);
	memset(&w, 0, sizeof(w));
	w.big = big;
	make_sample(&w);
	full = w.n;

	CHECK(sample_decode(&a, w.b, full, 0x1000, big, &s, &err) == 0);
	CHECK_EQ_U64(s.id, 0x1d);
	CHECK_EQ_U64(s.ip, 0x401136);
	CHECK_EQ_U64(s.pid, 100);
	CHECK_EQ_U64(s.tid, 101);
	CHECK_EQ_U64(s.time, 123456789);
	CHECK_EQ_U64(s.addr, 0xdead);
	CHECK_EQ_U64(s.stream_id, 5);
	CHECK_EQ_U64(s.cpu, 3);
	CHECK_EQ_U64(s.period, 1001001);
	CHECK_EQ_U64(s.read_nr, 2);
	CHECK_EQ_U64(s.read_value_size, 24);
	CHECK_EQ_U64(s.callchain_nr, 3);
	CHECK_EQ_U64(sample_callchain(&s, 0), (uint64_t)-512);
	CHECK_EQ_U64(sample_callchain(&s, 2), 0x40117a);
	CHECK_EQ_U64(s.raw_size, 12);
	CHECK(s.raw != NULL && s.raw[11] == 11);
	CHECK_EQ_U64(s.branch_nr, 1);
	CHECK_EQ_U64(s.branch_hw_idx, 7);
	CHECK_EQ_U64(s.user_regs_abi, 2);
	CHECK(s.user_regs != NULL);
	CHECK_EQ_U64(s.user_stack_size, 16);
	CHECK_EQ_U64(s.user_stack_dyn_size, 8);
	CHECK_EQ_U64(s.weight, 0x00010002);
	CHECK_EQ_U64(s.data_src, 0x42);
	CHECK_EQ_U64(s.transaction, 0x43);
	CHECK_EQ_U64(s.intr_regs_abi, 2);
	CHECK_EQ_U64(s.phys_addr, 0x7000);
	CHECK_EQ_U64(s.cgroup, 0x77);
	CHECK_EQ_U64(s.data_page_size, 4096);
	CHECK_EQ_U64(s.code_page_size, 2097152);
	CHECK_EQ_U64(s.aux_size, 8);

	/* Every shorter length must be refused, with the offset of the
	 * failing field inside the record. */
	for (cut = 0; cut < full; cut++) {
		int r = sample_decode(&a, w.b, cut, 0x1000, big, &s, &err);

		CHECK(r < 0);
		CHECK(err.status == P2G_INVALID);
		CHECK(err.offset >= 0x1000 && err.offset <= 0x1000 + cut);
	}
	attr_release(&a);
}

static void
test_optional_layouts(void)
{
	struct perf_attr a;
	struct perf_sample s;
	struct p2g_error err;
	struct buf w;

	/* REGS_USER with abi 0 has no registers; STACK_USER with size 0 has
	 * no dyn_size; the next field must still be found. */
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
			PERF_SAMPLE_PHYS_ADDR;
	a.sample_regs_user = 0xff;
	attr_finish(&a);
	memset(&w, 0, sizeof(w));
	p64(&w, 0);
	p64(&w, 0);
	p64(&w, 0x1234);
	CHECK(sample_decode(&a, w.b, w.n, 0, false, &s, &err) == 0);
	CHECK_EQ_U64(s.phys_addr, 0x1234);
	attr_release(&a);

	/* Non-group read: value, id. */
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD;
	a.read_format = PERF_FORMAT_ID;
	attr_finish(&a);
	memset(&w, 0, sizeof(w));
	p64(&w, 77);
	p64(&w, 5);
	p64(&w, 9);
	CHECK(sample_decode(&a, w.b, w.n, 0, false, &s, &err) == 0);
	CHECK_EQ_U64(s.period, 77);
	CHECK_EQ_U64(s.read_nr, 1);
	CHECK_EQ_U64(load64(s.read_values, false), 5);
	CHECK_EQ_U64(s.read_one_id, 9);
	attr_release(&a);

	/* Non-group read with every field: value, enabled, running, id,
	 * lost; then the callchain must start right after. */
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
			PERF_FORMAT_LOST;
	attr_finish(&a);
	memset(&w, 0, sizeof(w));
	p64(&w, 1000);		/* value */
	p64(&w, 11);		/* enabled */
	p64(&w, 12);		/* running */
	p64(&w, 42);		/* id */
	p64(&w, 3);		/* lost */
	p64(&w, 1);		/* callchain nr */
	p64(&w, 0x401000);
	CHECK(sample_decode(&a, w.b, w.n, 0, false, &s, &err) == 0);
	CHECK_EQ_U64(load64(s.read_values, false), 1000);
	CHECK_EQ_U64(s.read_one_id, 42);
	CHECK_EQ_U64(s.callchain_nr, 1);
	CHECK_EQ_U64(sample_callchain(&s, 0), 0x401000);
	attr_release(&a);

	/* Group read without ids: entries are the bare values. */
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;
	a.read_format = PERF_FORMAT_GROUP;
	attr_finish(&a);
	memset(&w, 0, sizeof(w));
	p64(&w, 2);		/* nr */
	p64(&w, 100);
	p64(&w, 200);
	p64(&w, 1);
	p64(&w, 0x402000);
	CHECK(sample_decode(&a, w.b, w.n, 0, false, &s, &err) == 0);
	CHECK_EQ_U64(s.read_nr, 2);
	CHECK_EQ_U64(s.read_value_size, 8);
	CHECK_EQ_U64(load64(s.read_values + 8, false), 200);
	CHECK_EQ_U64(sample_callchain(&s, 0), 0x402000);
	attr_release(&a);

	/* A callchain count that would overflow a multiplication. */
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr_finish(&a);
	memset(&w, 0, sizeof(w));
	p64(&w, UINT64_MAX / 4);
	p64(&w, 1);
	CHECK(sample_decode(&a, w.b, w.n, 0, false, &s, &err) < 0);
	attr_release(&a);
}

static void
test_unknown_bit(void)
{
	struct perf_attr a;
	struct perf_sample s;
	struct p2g_error err;
	unsigned char b[64] = { 0 };

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | (1ULL << 40);
	attr_finish(&a);
	CHECK(a.unknown_bits);
	CHECK(sample_decode(&a, b, sizeof(b), 0, false, &s, &err) < 0);
	CHECK(err.status == P2G_UNSUPPORTED);
	attr_release(&a);
}

static void
test_id_positions(void)
{
	struct perf_attr a;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	a.flags = 1ULL << 18;	/* sample_id_all */
	attr_finish(&a);
	CHECK_EQ_U64(a.id_pos, 3);	/* after IP, TID, TIME */
	CHECK_EQ_U64(a.id_pos_end, 2);	/* ID, then CPU at the end */
	CHECK_EQ_U64(a.trailer_size, 32);	/* TID TIME ID CPU */
	attr_release(&a);

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP;
	attr_finish(&a);
	CHECK_EQ_U64(a.id_pos, 0);
	CHECK_EQ_U64(a.id_pos_end, 1);
	attr_release(&a);
}

static void
test_period(void)
{
	struct perf_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.flags = PERF_ATTR_FLAG_FREQ;
	a.sample_period = 999;		/* -F 999: 1e6/999 = 1001.001 */
	attr_finish(&a);
	CHECK_EQ_U64(attr_period_us(&a), 1001);
	a.sample_period = 4000;
	CHECK_EQ_U64(attr_period_us(&a), 250);
	a.sample_period = 3000000;	/* rounds to 0: at least 1 */
	CHECK_EQ_U64(attr_period_us(&a), 1);
	a.flags = 0;
	attr_finish(&a);
	a.sample_period = 250000;	/* -c 250000 ns */
	CHECK_EQ_U64(attr_period_us(&a), 250);
	a.sample_period = 1500;		/* 1.5 us rounds to 2 */
	CHECK_EQ_U64(attr_period_us(&a), 2);
	a.type = PERF_TYPE_HARDWARE;	/* cycles with a fixed period */
	a.config = 0;
	CHECK_EQ_U64(attr_period_us(&a), 0);
	attr_release(&a);
}

/*
 * The attr flag bits as a big-endian compiler lays them out: each field
 * from the most significant end, a wider field in its own bit order.
 * freq (bit 10) and precise_ip = 2 (bits 15-16) in a big-endian attr
 * must read as in a little-endian one.
 */
static void
test_big_endian_flags(void)
{
	unsigned char buf[64];
	struct cursor c;
	struct perf_attr a;
	uint64_t be;

	memset(buf, 0, sizeof(buf));
	buf[3] = 64;	/* size (big-endian u32 at 4) is 0x40 */
	buf[7] = 64;
	/* field k of width w sits at bits 63-k-w+1 .. 63-k: freq at 53,
	 * precise_ip's high bit at 48 and low bit at 47 */
	be = 1ULL << 53 | 1ULL << 48;
	for (int i = 0; i < 8; i++)
		buf[40 + i] = (unsigned char)(be >> (56 - 8 * i));
	cursor_init(&c, buf, sizeof(buf), 0, true);
	CHECK(attr_decode(&c, 64, &a));
	CHECK((a.flags >> 10 & 1) == 1);
	CHECK_EQ_U64(a.flags >> 15 & 3, 2);
	CHECK_EQ_U64(a.flags & ~(1ULL << 10 | 3ULL << 15), 0);
	attr_release(&a);
}

/*
 * A frame-pointer sample (perf record -g: IDENTIFIER IP TID TIME PERIOD
 * CALLCHAIN, attr.h "simple") in both byte orders: its values, and every
 * truncated body refused.
 */
static void
test_frame_pointer(bool big)
{
	struct perf_attr a;
	struct perf_sample s;
	struct p2g_error err;
	struct buf w;
	size_t cut;

	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	attr_finish(&a);
	CHECK(a.simple);
	memset(&w, 0, sizeof(w));
	w.big = big;
	p64(&w, 77);			/* identifier */
	p64(&w, 0x401136);		/* ip */
	p32(&w, 1234);			/* pid */
	p32(&w, 1235);			/* tid */
	p64(&w, 99999);			/* time */
	p64(&w, 250000);		/* period */
	p64(&w, 3);			/* callchain: nr, then 3 PCs */
	p64(&w, (uint64_t)-512);	/* PERF_CONTEXT_USER */
	p64(&w, 0x401136);
	p64(&w, 0x40117a);
	CHECK(sample_decode(&a, w.b, w.n, 0, big, &s, &err) == 0);
	CHECK_EQ_U64(s.pid, 1234);
	CHECK_EQ_U64(s.tid, 1235);
	CHECK_EQ_U64(s.ip, 0x401136);
	CHECK_EQ_U64(s.period, 250000);
	CHECK_EQ_U64(s.callchain_nr, 3);
	CHECK(s.callchain == w.b + 6 * 8);
	for (cut = 0; cut < w.n; cut++)
		CHECK(sample_decode(&a, w.b, cut, 0, big, &s, &err) < 0);
	attr_release(&a);
}

int
main(void)
{
	test_all_fields(false);
	test_all_fields(true);
	test_optional_layouts();
	test_unknown_bit();
	test_id_positions();
	test_period();
	test_big_endian_flags();
	test_frame_pointer(false);
	test_frame_pointer(true);
	return unit_exit();
}
