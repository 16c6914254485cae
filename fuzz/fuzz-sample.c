/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the sample decoder.  The first 41 bytes choose the
 * event's layout (sample_type, read_format, branch_sample_type, register
 * masks and the byte order); the rest is the sample body.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "attr.h"
#include "cursor.h"
#include "sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_attr a;
	struct perf_sample s;
	struct p2g_error err;
	uint64_t i, sum = 0;

	if (size < 41)
		return 0;
	p2g_error_clear(&err);
	memset(&a, 0, sizeof(a));
	a.sample_type = load64(data, false);
	a.read_format = load64(data + 8, false);
	a.branch_sample_type = load64(data + 16, false);
	a.sample_regs_user = load64(data + 24, false);
	a.sample_regs_intr = load64(data + 32, false);
	if (!attr_finish(&a))
		return 0;
	if (sample_decode(&a, data + 41, size - 41, 41, data[40] & 1, &s,
			  &err) == 0) {
		/* Touch everything the decoder claims is there. */
		for (i = 0; i < s.callchain_nr; i++)
			sum += sample_callchain(&s, i);
		if (s.raw_size)
			sum += s.raw[s.raw_size - 1];
		if (s.branch_nr)
			sum += s.branches[s.branch_nr * 24 - 1];
		if (s.user_stack_size)
			sum += s.user_stack[s.user_stack_size - 1];
		if (s.read_nr)
			sum += s.read_values[s.read_nr * s.read_value_size - 1];
		if (s.aux_size)
			sum += s.aux[s.aux_size - 1];
	}
	attr_release(&a);
	return sum == 42;
}
