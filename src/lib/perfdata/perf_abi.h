/* SPDX-License-Identifier: MIT */
/*
 * Numbers from the perf.data format and Linux's perf_event.h (6.x) that
 * the reader needs.  Written out here rather than taken from the system's
 * <linux/perf_event.h>, because the file format is fixed while the
 * installed kernel headers may be older than the data we read.
 */
#ifndef P2G_PERF_ABI_H
#define P2G_PERF_ABI_H

/* perf_event_attr.sample_type bits, in the order their fields appear in a
 * PERF_RECORD_SAMPLE (IDENTIFIER first, see sample.c). */
#define PERF_SAMPLE_IP			(1ULL << 0)
#define PERF_SAMPLE_TID			(1ULL << 1)
#define PERF_SAMPLE_TIME		(1ULL << 2)
#define PERF_SAMPLE_ADDR		(1ULL << 3)
#define PERF_SAMPLE_READ		(1ULL << 4)
#define PERF_SAMPLE_CALLCHAIN		(1ULL << 5)
#define PERF_SAMPLE_ID			(1ULL << 6)
#define PERF_SAMPLE_CPU			(1ULL << 7)
#define PERF_SAMPLE_PERIOD		(1ULL << 8)
#define PERF_SAMPLE_STREAM_ID		(1ULL << 9)
#define PERF_SAMPLE_RAW			(1ULL << 10)
#define PERF_SAMPLE_BRANCH_STACK	(1ULL << 11)
#define PERF_SAMPLE_REGS_USER		(1ULL << 12)
#define PERF_SAMPLE_STACK_USER		(1ULL << 13)

/* The ABI word before PERF_SAMPLE_REGS_USER registers. */
#define PERF_SAMPLE_REGS_ABI_NONE	0
#define PERF_SAMPLE_REGS_ABI_32		1
#define PERF_SAMPLE_REGS_ABI_64		2
#define PERF_SAMPLE_WEIGHT		(1ULL << 14)
#define PERF_SAMPLE_DATA_SRC		(1ULL << 15)
#define PERF_SAMPLE_IDENTIFIER		(1ULL << 16)
#define PERF_SAMPLE_TRANSACTION		(1ULL << 17)
#define PERF_SAMPLE_REGS_INTR		(1ULL << 18)
#define PERF_SAMPLE_PHYS_ADDR		(1ULL << 19)
#define PERF_SAMPLE_AUX			(1ULL << 20)
#define PERF_SAMPLE_CGROUP		(1ULL << 21)
#define PERF_SAMPLE_DATA_PAGE_SIZE	(1ULL << 22)
#define PERF_SAMPLE_CODE_PAGE_SIZE	(1ULL << 23)
#define PERF_SAMPLE_WEIGHT_STRUCT	(1ULL << 24)
#define PERF_SAMPLE_KNOWN_MASK		((1ULL << 25) - 1)

/* perf_event_attr.read_format bits. */
#define PERF_FORMAT_TOTAL_TIME_ENABLED	(1ULL << 0)
#define PERF_FORMAT_TOTAL_TIME_RUNNING	(1ULL << 1)
#define PERF_FORMAT_ID			(1ULL << 2)
#define PERF_FORMAT_GROUP		(1ULL << 3)
#define PERF_FORMAT_LOST		(1ULL << 4)

/* perf_event_attr.branch_sample_type bits: CALL_STACK makes the branch
 * stack the user part of the call stack (--call-graph lbr); the others
 * change the sample layout. */
#define PERF_SAMPLE_BRANCH_CALL_STACK	(1ULL << 11)
#define PERF_SAMPLE_BRANCH_HW_INDEX	(1ULL << 17)
#define PERF_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)

/* Bits of the perf_event_attr flag word (bit 0 is "disabled"). */
#define PERF_ATTR_FLAG_INHERIT		(1ULL << 1)
#define PERF_ATTR_FLAG_EXCLUDE_USER	(1ULL << 4)
#define PERF_ATTR_FLAG_EXCLUDE_KERNEL	(1ULL << 5)
#define PERF_ATTR_FLAG_EXCLUDE_HV	(1ULL << 6)
#define PERF_ATTR_FLAG_FREQ		(1ULL << 10)
#define PERF_ATTR_FLAG_SAMPLE_ID_ALL	(1ULL << 18)
#define PERF_ATTR_FLAG_EXCLUDE_HOST	(1ULL << 19)
#define PERF_ATTR_FLAG_EXCLUDE_GUEST	(1ULL << 20)

/* perf_event_attr sizes: 64 is PERF_ATTR_SIZE_VER0 (and what 0 means). */
#define PERF_ATTR_SIZE_VER0		64
#define PERF_ATTR_SIZE_MAX_KNOWN	136

/* perf_event_attr.type values. */
#define PERF_TYPE_HARDWARE		0
#define PERF_TYPE_SOFTWARE		1
#define PERF_TYPE_TRACEPOINT		2
#define PERF_TYPE_HW_CACHE		3
#define PERF_TYPE_RAW			4
#define PERF_TYPE_BREAKPOINT		5

#define PERF_COUNT_SW_CPU_CLOCK		0
#define PERF_COUNT_SW_TASK_CLOCK	1

/* Kernel record types. */
#define PERF_RECORD_MMAP		1
#define PERF_RECORD_LOST		2
#define PERF_RECORD_COMM		3
#define PERF_RECORD_EXIT		4
#define PERF_RECORD_THROTTLE		5
#define PERF_RECORD_UNTHROTTLE		6
#define PERF_RECORD_FORK		7
#define PERF_RECORD_READ		8
#define PERF_RECORD_SAMPLE		9
#define PERF_RECORD_MMAP2		10
#define PERF_RECORD_LOST_SAMPLES	13
#define PERF_RECORD_SWITCH		14
#define PERF_RECORD_SWITCH_CPU_WIDE	15

/* Records that perf itself synthesizes (user types start at 64). */
#define PERF_RECORD_USER_TYPE_START	64
#define PERF_RECORD_HEADER_ATTR		64
#define PERF_RECORD_HEADER_EVENT_TYPE	65
#define PERF_RECORD_HEADER_TRACING_DATA	66
#define PERF_RECORD_HEADER_BUILD_ID	67
#define PERF_RECORD_FINISHED_ROUND	68
#define PERF_RECORD_ID_INDEX		69
#define PERF_RECORD_AUXTRACE_INFO	70
#define PERF_RECORD_AUXTRACE		71
#define PERF_RECORD_AUXTRACE_ERROR	72
#define PERF_RECORD_HEADER_FEATURE	80
#define PERF_RECORD_COMPRESSED		81
#define PERF_RECORD_FINISHED_INIT	82
#define PERF_RECORD_COMPRESSED2		83

/* perf_event_header.misc bits. */
#define PERF_RECORD_MISC_CPUMODE_MASK	7
#define PERF_RECORD_MISC_KERNEL		1
#define PERF_RECORD_MISC_USER		2
#define PERF_RECORD_MISC_MMAP_DATA	(1 << 13)
#define PERF_RECORD_MISC_COMM_EXEC	(1 << 13)
#define PERF_RECORD_MISC_SWITCH_OUT	(1 << 13)
#define PERF_RECORD_MISC_MMAP_BUILD_ID	(1 << 14)
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
#define PERF_RECORD_MISC_LOST_SAMPLES_BPF (1 << 15)

/* Callchain context markers: values at or above this are not addresses. */
#define PERF_CONTEXT_MAX		((uint64_t)-4095)
#define PERF_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PERF_CONTEXT_USER		((uint64_t)-512)

/* Header feature bits (perf_header.flags, and HEADER_FEATURE records). */
enum perf_feature {
	HEADER_TRACING_DATA = 1,
	HEADER_BUILD_ID = 2,
	HEADER_HOSTNAME = 3,
	HEADER_OSRELEASE = 4,
	HEADER_VERSION = 5,
	HEADER_ARCH = 6,
	HEADER_NRCPUS = 7,
	HEADER_CPUDESC = 8,
	HEADER_CPUID = 9,
	HEADER_TOTAL_MEM = 10,
	HEADER_CMDLINE = 11,
	HEADER_EVENT_DESC = 12,
	HEADER_CPU_TOPOLOGY = 13,
	HEADER_NUMA_TOPOLOGY = 14,
	HEADER_BRANCH_STACK = 15,
	HEADER_PMU_MAPPINGS = 16,
	HEADER_GROUP_DESC = 17,
	HEADER_AUXTRACE = 18,
	HEADER_STAT = 19,
	HEADER_CACHE = 20,
	HEADER_SAMPLE_TIME = 21,
	HEADER_MEM_TOPOLOGY = 22,
	HEADER_CLOCKID = 23,
	HEADER_DIR_FORMAT = 24,
	HEADER_BPF_PROG_INFO = 25,
	HEADER_BPF_BTF = 26,
	HEADER_COMPRESSED = 27,
	HEADER_CPU_PMU_CAPS = 28,
	HEADER_CLOCK_DATA = 29,
	HEADER_HYBRID_TOPOLOGY = 30,
	HEADER_PMU_CAPS = 31,
	HEADER_LAST_FEATURE = 32,
	HEADER_FEAT_BITS = 256,
};

#endif
