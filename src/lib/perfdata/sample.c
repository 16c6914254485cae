/* SPDX-License-Identifier: MIT */
/*
 * Sample decoding (see sample.h).  Field order, from perf_event.h:
 * IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD, READ,
 * CALLCHAIN, RAW, BRANCH_STACK, REGS_USER, STACK_USER, WEIGHT or
 * WEIGHT_STRUCT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR, CGROUP,
 * DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX.
 */
#include "config.h"

#include <string.h>

#include "cursor.h"
#include "perf_abi.h"
#include "sample.h"

/* Step over N u64s, checking the count before multiplying. */
static const unsigned char *
u64_array(struct cursor *c, uint64_t n)
{
	if (n > cursor_left(c) / 8) {
		cursor_fail(c);
		return NULL;
	}
	return cursor_bytes(c, (size_t)n * 8);
}

static void
decode_read(const struct perf_attr *a, struct cursor *c,
	    struct perf_sample *s)
{
	uint64_t rf = a->read_format;
	unsigned per = 8;

	per += (rf & PERF_FORMAT_ID) ? 8 : 0;
	per += (rf & PERF_FORMAT_LOST) ? 8 : 0;
	s->read_value_size = per;
	if (rf & PERF_FORMAT_GROUP) {
		s->read_nr = cursor_u64(c);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			(void)cursor_u64(c);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			(void)cursor_u64(c);
		if (s->read_nr > cursor_left(c) / per) {
			cursor_fail(c);
			return;
		}
		s->read_values = cursor_bytes(c, (size_t)s->read_nr * per);
	} else {
		/* value, [enabled], [running], [id], [lost] */
		s->read_nr = 1;
		s->read_values = cursor_bytes(c, 8);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			(void)cursor_u64(c);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			(void)cursor_u64(c);
		if (rf & PERF_FORMAT_ID)
			s->read_one_id = cursor_u64(c);
		if (rf & PERF_FORMAT_LOST)
			(void)cursor_u64(c);
		s->read_value_size = 8;
	}
}

/* A u64 at word W of BODY, or 0 for a field that is absent (W < 0). */
static inline uint64_t
word(const unsigned char *body, int w, bool big)
{
	return w < 0 ? 0 : load64(body + (size_t)w * 8, big);
}

/*
 * The usual frame-pointer sample (attr.h "simple"): every field at a
 * place known from the attr, so one check of the length does for all.
 * False when the fields overrun the body: the cursor then says where.
 */
static bool
decode_simple(const struct perf_attr *a, const unsigned char *body,
	      size_t len, bool big, struct perf_sample *s)
{
	size_t head = (size_t)a->w_chain * 8;
	bool chain = (a->sample_type & PERF_SAMPLE_CALLCHAIN) != 0;
	uint64_t nr = 0;

	if (chain) {
		if (len < head + 8)
			return false;
		nr = load64(body + head, big);
		if (nr > (len - head - 8) / 8)
			return false;
	}
	if (len < head)
		return false;
	memset(s, 0, sizeof(*s));
	s->big_endian = big;
	s->id = word(body, a->w_id, big);
	s->ip = word(body, a->w_ip, big);
	if (a->w_tid >= 0) {
		s->pid = load32(body + (size_t)a->w_tid * 8, big);
		s->tid = load32(body + (size_t)a->w_tid * 8 + 4, big);
	}
	s->time = word(body, a->w_time, big);
	s->addr = word(body, a->w_addr, big);
	s->stream_id = word(body, a->w_stream_id, big);
	if (a->w_cpu >= 0)
		s->cpu = load32(body + (size_t)a->w_cpu * 8, big);
	/* without PERF_SAMPLE_PERIOD, the fixed period (as perf's
	 * evsel__parse_sample() takes it) */
	s->period = a->w_period >= 0 ? word(body, a->w_period, big)
				     : (a->freq ? 0 : a->sample_period);
	if (chain) {
		s->callchain_nr = nr;
		s->callchain = body + head + 8;
	}
	return true;
}

int
sample_decode(const struct perf_attr *a, const unsigned char *body,
	      size_t len, uint64_t off, bool big_endian,
	      struct perf_sample *s, struct p2g_error *err)
{
	uint64_t st = a->sample_type;
	struct cursor c;

	if (a->unknown_bits)
		return p2g_fail(err, P2G_UNSUPPORTED, off,
				"event %s has sample_type bits 0x%llx that "
				"this version cannot lay out", a->name,
				(unsigned long long)(st &
						     ~PERF_SAMPLE_KNOWN_MASK));
	if (a->simple && decode_simple(a, body, len, big_endian, s))
		return 0;
	memset(s, 0, sizeof(*s));
	s->big_endian = big_endian;
	cursor_init(&c, body, len, off, big_endian);

	if (st & PERF_SAMPLE_IDENTIFIER)
		s->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_IP)
		s->ip = cursor_u64(&c);
	if (st & PERF_SAMPLE_TID) {
		s->pid = cursor_u32(&c);
		s->tid = cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_TIME)
		s->time = cursor_u64(&c);
	if (st & PERF_SAMPLE_ADDR)
		s->addr = cursor_u64(&c);
	if (st & PERF_SAMPLE_ID)
		s->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)
		s->stream_id = cursor_u64(&c);
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = cursor_u32(&c);
		(void)cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = cursor_u64(&c);
	else if (!a->freq)
		s->period = a->sample_period;
	if (st & PERF_SAMPLE_READ)
		decode_read(a, &c, s);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = cursor_u64(&c);
		s->callchain = u64_array(&c, s->callchain_nr);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, then data; the pair is padded to 8 bytes by
		 * the kernel, and size includes that padding. */
		s->raw_size = cursor_u32(&c);
		s->raw = cursor_bytes(&c, s->raw_size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s->branch_nr = cursor_u64(&c);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			s->branch_hw_idx = cursor_u64(&c);
		if (s->branch_nr > cursor_left(&c) / 24)
			cursor_fail(&c);
		else
			s->branches = cursor_bytes(&c,
						   (size_t)s->branch_nr * 24);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			(void)u64_array(&c, s->branch_nr);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		s->user_regs_abi = cursor_u64(&c);
		if (s->user_regs_abi != 0)
			s->user_regs = u64_array(&c, a->regs_user_n);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		s->user_stack_size = cursor_u64(&c);
		if (s->user_stack_size != 0) {
			if (s->user_stack_size > cursor_left(&c)) {
				cursor_fail(&c);
			} else {
				s->user_stack = cursor_bytes(
					&c, (size_t)s->user_stack_size);
				s->user_stack_dyn_size = cursor_u64(&c);
				if (s->user_stack_dyn_size >
				    s->user_stack_size)
					s->user_stack_dyn_size =
						s->user_stack_size;
			}
		}
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = cursor_u64(&c);
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = cursor_u64(&c);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = cursor_u64(&c);
	if (st & PERF_SAMPLE_REGS_INTR) {
		s->intr_regs_abi = cursor_u64(&c);
		if (s->intr_regs_abi != 0)
			s->intr_regs = u64_array(&c, a->regs_intr_n);
	}
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = cursor_u64(&c);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = cursor_u64(&c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		s->data_page_size = cursor_u64(&c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		s->code_page_size = cursor_u64(&c);
	if (st & PERF_SAMPLE_AUX) {
		s->aux_size = cursor_u64(&c);
		if (s->aux_size > cursor_left(&c))
			cursor_fail(&c);
		else
			s->aux = cursor_bytes(&c, (size_t)s->aux_size);
	}
	if (!cursor_ok(&c))
		return p2g_fail(err, P2G_INVALID, cursor_err_offset(&c),
				"sample of event %s is shorter than its "
				"sample_type 0x%llx needs", a->name,
				(unsigned long long)st);
	return 0;
}
