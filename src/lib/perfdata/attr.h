/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr: decoding every published size (64 to 136 bytes, and
 * larger unknown ones) into one normalized struct, naming the event the way
 * perf prints it, and the derived facts the sample decoder needs.
 */
#ifndef P2G_ATTR_H
#define P2G_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "error.h"

struct perf_attr {
	uint32_t type;
	uint32_t size;		/* as recorded (0 means 64) */
	uint64_t config;
	uint64_t sample_period;	/* or sample_freq when freq is set */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t flags;		/* bit-field word, "disabled" in bit 0 */
	uint64_t config1;
	uint64_t config2;
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	uint64_t sample_regs_intr;
	bool big_endian;	/* the byte order of the attr and of its
				   event's records */
	uint32_t index;		/* its number among the attrs of its
				   file (perfdata_attr()) */

	char *name;		/* owned; never NULL after attr_finish() */
	uint64_t *ids;		/* owned */
	size_t nr_ids;

	/* Derived by attr_finish(). */
	bool freq;
	bool sample_id_all;
	bool unknown_bits;	/* sample_type has bits we cannot lay out */
	unsigned regs_user_n;	/* popcount(sample_regs_user) */
	unsigned regs_intr_n;
	int id_pos;		/* u64 index of the id in a sample, or -1 */
	int id_pos_end;		/* u64 index from the end of the sample_id
				   trailer of other records, or -1 */
	unsigned trailer_size;	/* bytes of the sample_id_all trailer */
	/* Samples of one-word fields and a callchain only (no READ, RAW,
	 * BRANCH_STACK, registers, stack copies, ...): the u64 index of
	 * each field or -1, and the words before the callchain, so that
	 * sample_decode() reads them with one check of the size. */
	bool simple;
	int8_t w_id, w_ip, w_tid, w_time, w_addr, w_stream_id, w_cpu;
	int8_t w_period, w_chain;
};

/*
 * Decode a perf_event_attr of SIZE bytes from C (SIZE 0 means 64; fields
 * beyond SIZE read as zero, bytes beyond the known layout are ignored).
 * Returns false, with the cursor marked bad, if the bytes are not there.
 */
bool attr_decode(struct cursor *c, uint64_t size, struct perf_attr *a);

/* Compute the derived fields and, if A has no name yet, give it perf's
 * name for its type and config.  Returns false only when out of memory. */
bool attr_finish(struct perf_attr *a);

/* Replace A's name with a copy of NAME (N bytes).  False when out of
 * memory. */
bool attr_set_name(struct perf_attr *a, const char *name, size_t n);

/* Append ids to A.  False when out of memory. */
bool attr_add_ids(struct perf_attr *a, const uint64_t *ids, size_t n);

/* Release what A owns (not A itself). */
void attr_release(struct perf_attr *a);

/* True if NAME selects A: equal to A's name, or to its name without the
 * ":modifiers" suffix. */
bool attr_matches(const struct perf_attr *a, const char *name);

/* True if A counts time (cpu-clock or task-clock: periods in ns). */
bool attr_is_time_event(const struct perf_attr *a);

/*
 * The gperftools header period in microseconds for samples of A: a fixed
 * period of a time event (ns) becomes us, frequency mode gives 1e6/freq;
 * both rounded to the nearest integer and at least 1.  Returns 0 when A
 * has a fixed period of an event that is not time (the caller decides).
 */
uint64_t attr_period_us(const struct perf_attr *a);

#endif
