/* SPDX-License-Identifier: MIT */
/*
 * PERF_RECORD_SAMPLE decoding.  Every sample_type bit that Linux 6.x
 * defines is decoded, in the kernel's field order, so that the position
 * of every later field is right whatever the recording asked for.
 * Variable-size fields are returned as pointers into the record, in the
 * file's byte order; use sample_callchain() to read callchain entries.
 */
#ifndef P2G_SAMPLE_H
#define P2G_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "attr.h"
#include "error.h"

struct perf_sample {
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
	uint64_t weight;
	uint64_t data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;

	/* PERF_SAMPLE_READ */
	uint64_t read_nr;		/* values (1 without FORMAT_GROUP) */
	const unsigned char *read_values;	/* read_nr entries */
	unsigned read_value_size;	/* bytes per entry: value, then with
					   FORMAT_GROUP [id] [lost] */
	uint64_t read_one_id;		/* without FORMAT_GROUP: the id, or
					   0 without FORMAT_ID */

	uint64_t callchain_nr;
	const unsigned char *callchain;

	uint32_t raw_size;
	const unsigned char *raw;

	uint64_t branch_nr;
	uint64_t branch_hw_idx;
	const unsigned char *branches;	/* branch_nr x {from, to, flags} */

	uint64_t user_regs_abi;
	const unsigned char *user_regs;	/* attr->regs_user_n u64s */
	uint64_t user_stack_size;
	uint64_t user_stack_dyn_size;
	const unsigned char *user_stack;

	uint64_t intr_regs_abi;
	const unsigned char *intr_regs;

	uint64_t aux_size;
	const unsigned char *aux;

	bool big_endian;
};

/*
 * Decode the sample body BODY (LEN bytes after the record header, at file
 * offset OFF) of an event described by A.  Returns 0, or -1 with ERR set
 * (P2G_INVALID when the fields overrun the record, P2G_UNSUPPORTED when
 * A's sample_type has bits whose layout is unknown).
 */
int sample_decode(const struct perf_attr *a, const unsigned char *body,
		  size_t len, uint64_t off, bool big_endian,
		  struct perf_sample *s, struct p2g_error *err);

/* Entry I of the callchain (I < callchain_nr). */
static inline uint64_t
sample_callchain(const struct perf_sample *s, uint64_t i)
{
	return load64(s->callchain + i * 8, s->big_endian);
}

#endif
