/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr decoding and naming.  Offsets follow the kernel's
 * struct perf_event_attr (include/uapi/linux/perf_event.h):
 *   0 type, 4 size, 8 config, 16 sample_period/freq, 24 sample_type,
 *   32 read_format, 40 flag bits, 48 wakeup, 52 bp_type, 56 config1,
 *   64 config2 (VER1), 72 branch_sample_type (VER2), 80 sample_regs_user,
 *   88 sample_stack_user, 92 clockid (VER3), 96 sample_regs_intr (VER4),
 *   104 aux_watermark (VER5), 112 aux_sample_size (VER6), 120 sig_data
 *   (VER7), 128 config3 (VER8, 136 bytes).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "perf_abi.h"

bool
attr_decode(struct cursor *c, uint64_t size, struct perf_attr *a)
{
	unsigned char buf[PERF_ATTR_SIZE_MAX_KNOWN];
	const unsigned char *p;
	struct cursor f;
	size_t have;

	memset(a, 0, sizeof(*a));
	a->big_endian = c->big_endian;
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0) {
		cursor_fail(c);
		return false;
	}
	p = cursor_bytes(c, size);
	if (p == NULL)
		return false;
	/* Zero-fill what an older, shorter attr lacks. */
	have = size < sizeof(buf) ? (size_t)size : sizeof(buf);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, p, have);
	cursor_init(&f, buf, sizeof(buf), cursor_offset(c) - size,
		    c->big_endian);

	a->type = cursor_u32(&f);
	a->size = cursor_u32(&f);
	a->config = cursor_u64(&f);
	a->sample_period = cursor_u64(&f);
	a->sample_type = cursor_u64(&f);
	a->read_format = cursor_u64(&f);
	a->flags = cursor_bitfield64(&f);
	if (f.big_endian) {
		/* Reversing the bits of each byte is right for one-bit
		 * fields only: a big-endian compiler keeps a wider field's
		 * own bit order, so precise_ip (two bits, 15 and 16) comes
		 * out with its bits exchanged.  Exchange them back. */
		uint64_t lo = a->flags >> 15 & 1, hi = a->flags >> 16 & 1;

		a->flags = (a->flags & ~(3ULL << 15)) | lo << 16 | hi << 15;
	}
	cursor_skip(&f, 8);		/* wakeup_events, bp_type */
	a->config1 = cursor_u64(&f);
	a->config2 = cursor_u64(&f);
	a->branch_sample_type = cursor_u64(&f);
	a->sample_regs_user = cursor_u64(&f);
	a->sample_stack_user = cursor_u32(&f);
	cursor_skip(&f, 4);		/* clockid */
	a->sample_regs_intr = cursor_u64(&f);
	return true;
}

/* Names perf gives to the generic events (tools/perf/util/evsel.c). */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

/*
 * The modifier suffix perf prints after a name it makes up itself
 * (tools/perf/util/evsel.c, evsel__add_modifiers): the privilege levels
 * counted when any is excluded, "p" per precise_ip level, and H/G for
 * host and guest when they differ from the default.
 */
static void
add_modifiers(const struct perf_attr *a, char *buf, size_t size)
{
	uint64_t f = a->flags;
	unsigned precise = (unsigned)(f >> 15) & 3;
	bool guest_default = false;
	size_t n = strlen(buf);
	char mods[16];
	size_t m = 0;

	if (f & (PERF_ATTR_FLAG_EXCLUDE_KERNEL | PERF_ATTR_FLAG_EXCLUDE_USER |
		 PERF_ATTR_FLAG_EXCLUDE_HV)) {
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_KERNEL))
			mods[m++] = 'k';
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_USER))
			mods[m++] = 'u';
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_HV))
			mods[m++] = 'h';
		guest_default = true;
	}
	if (precise) {
		while (precise--)
			mods[m++] = 'p';
		guest_default = true;
	}
	if ((f & PERF_ATTR_FLAG_EXCLUDE_HOST) ||
	    ((f & PERF_ATTR_FLAG_EXCLUDE_GUEST) != 0) == guest_default) {
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_HOST))
			mods[m++] = 'H';
		if (!(f & PERF_ATTR_FLAG_EXCLUDE_GUEST))
			mods[m++] = 'G';
	}
	if (m > 0 && n + m + 2 <= size) {
		buf[n] = ':';
		memcpy(buf + n + 1, mods, m);
		buf[n + 1 + m] = '\0';
	}
}

static char *
default_name(const struct perf_attr *a)
{
	char buf[80];

	if (a->type == PERF_TYPE_HARDWARE &&
	    a->config < sizeof(hw_names) / sizeof(hw_names[0])) {
		snprintf(buf, sizeof(buf), "%s", hw_names[a->config]);
		add_modifiers(a, buf, sizeof(buf));
		return strdup(buf);
	}
	if (a->type == PERF_TYPE_SOFTWARE &&
	    a->config < sizeof(sw_names) / sizeof(sw_names[0])) {
		snprintf(buf, sizeof(buf), "%s", sw_names[a->config]);
		add_modifiers(a, buf, sizeof(buf));
		return strdup(buf);
	}
	switch (a->type) {
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, sizeof(buf), "tracepoint-%llu",
			 (unsigned long long)a->config);
		break;
	case PERF_TYPE_RAW:
		snprintf(buf, sizeof(buf), "r%llx",
			 (unsigned long long)a->config);
		break;
	default:
		snprintf(buf, sizeof(buf), "type%u-config%llx", a->type,
			 (unsigned long long)a->config);
		break;
	}
	return strdup(buf);
}

bool
attr_finish(struct perf_attr *a)
{
	uint64_t st = a->sample_type;
	int n;

	a->freq = (a->flags & PERF_ATTR_FLAG_FREQ) != 0;
	a->sample_id_all = (a->flags & PERF_ATTR_FLAG_SAMPLE_ID_ALL) != 0;
	a->unknown_bits = (st & ~PERF_SAMPLE_KNOWN_MASK) != 0;
	a->regs_user_n = (unsigned)__builtin_popcountll(a->sample_regs_user);
	a->regs_intr_n = (unsigned)__builtin_popcountll(a->sample_regs_intr);

	/* Where the id sits in a sample: IDENTIFIER is always first; ID
	 * follows IP, TID, TIME and ADDR, all fixed-size. */
	if (st & PERF_SAMPLE_IDENTIFIER) {
		a->id_pos = 0;
	} else if (st & PERF_SAMPLE_ID) {
		n = 0;
		n += (st & PERF_SAMPLE_IP) != 0;
		n += (st & PERF_SAMPLE_TID) != 0;
		n += (st & PERF_SAMPLE_TIME) != 0;
		n += (st & PERF_SAMPLE_ADDR) != 0;
		a->id_pos = n;
	} else {
		a->id_pos = -1;
	}

	/* The simple layout: fields in the kernel's order, one word each. */
	a->simple = (st & ~(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			    PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)) == 0;
	n = 0;
	a->w_id = (st & PERF_SAMPLE_IDENTIFIER) ? (int8_t)n++ : -1;
	a->w_ip = (st & PERF_SAMPLE_IP) ? (int8_t)n++ : -1;
	a->w_tid = (st & PERF_SAMPLE_TID) ? (int8_t)n++ : -1;
	a->w_time = (st & PERF_SAMPLE_TIME) ? (int8_t)n++ : -1;
	a->w_addr = (st & PERF_SAMPLE_ADDR) ? (int8_t)n++ : -1;
	if (st & PERF_SAMPLE_ID)	/* the same value as IDENTIFIER */
		a->w_id = (int8_t)n++;
	a->w_stream_id = (st & PERF_SAMPLE_STREAM_ID) ? (int8_t)n++ : -1;
	a->w_cpu = (st & PERF_SAMPLE_CPU) ? (int8_t)n++ : -1;
	a->w_period = (st & PERF_SAMPLE_PERIOD) ? (int8_t)n++ : -1;
	a->w_chain = (int8_t)n;	/* where the callchain is, if it is */

	/* The sample_id_all trailer of other records: TID, TIME, ID,
	 * STREAM_ID, CPU, IDENTIFIER, each one u64.  Count from its end. */
	n = 0;
	n += (st & PERF_SAMPLE_TID) != 0;
	n += (st & PERF_SAMPLE_TIME) != 0;
	n += (st & PERF_SAMPLE_ID) != 0;
	n += (st & PERF_SAMPLE_STREAM_ID) != 0;
	n += (st & PERF_SAMPLE_CPU) != 0;
	n += (st & PERF_SAMPLE_IDENTIFIER) != 0;
	a->trailer_size = a->sample_id_all ? (unsigned)n * 8 : 0;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		a->id_pos_end = 1;
	} else if (st & PERF_SAMPLE_ID) {
		n = 1;
		n += (st & PERF_SAMPLE_STREAM_ID) != 0;
		n += (st & PERF_SAMPLE_CPU) != 0;
		a->id_pos_end = n;
	} else {
		a->id_pos_end = -1;
	}

	if (a->name == NULL)
		a->name = default_name(a);
	return a->name != NULL;
}

bool
attr_set_name(struct perf_attr *a, const char *name, size_t n)
{
	char *s = malloc(n + 1);

	if (s == NULL)
		return false;
	memcpy(s, name, n);
	s[n] = '\0';
	free(a->name);
	a->name = s;
	return true;
}

bool
attr_add_ids(struct perf_attr *a, const uint64_t *ids, size_t n)
{
	uint64_t *p;

	if (n == 0)
		return true;
	if (a->nr_ids > SIZE_MAX / sizeof(*p) - n)
		return false;
	p = realloc(a->ids, (a->nr_ids + n) * sizeof(*p));
	if (p == NULL)
		return false;
	memcpy(p + a->nr_ids, ids, n * sizeof(*p));
	a->ids = p;
	a->nr_ids += n;
	return true;
}

void
attr_release(struct perf_attr *a)
{
	if (a == NULL)
		return;
	free(a->name);
	free(a->ids);
	a->name = NULL;
	a->ids = NULL;
	a->nr_ids = 0;
}

bool
attr_matches(const struct perf_attr *a, const char *name)
{
	const char *colon;

	if (a->name == NULL)
		return false;
	if (strcmp(a->name, name) == 0)
		return true;
	colon = strchr(a->name, ':');
	return colon != NULL && strlen(name) == (size_t)(colon - a->name) &&
	       strncmp(a->name, name, (size_t)(colon - a->name)) == 0;
}

bool
attr_is_time_event(const struct perf_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK ||
		a->config == PERF_COUNT_SW_TASK_CLOCK);
}

uint64_t
attr_period_us(const struct perf_attr *a)
{
	uint64_t us;

	if (a->freq) {
		if (a->sample_period == 0)
			return 0;
		us = (1000000 + a->sample_period / 2) / a->sample_period;
	} else if (attr_is_time_event(a)) {
		us = a->sample_period / 1000 +
		     (a->sample_period % 1000 >= 500);
	} else {
		return 0;
	}
	return us ? us : 1;
}
