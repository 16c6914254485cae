/* SPDX-License-Identifier: MIT */
/*
 * The kernel records that describe processes and their address spaces
 * (MMAP, MMAP2, COMM, FORK, EXIT; perf_event.h gives their layouts),
 * decoded into one plain struct.  What they mean for the address spaces
 * is addrspace.h's business; this file only reads them.
 */
#ifndef P2G_RECORDS_H
#define P2G_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "perfdata.h"

/* The mapping an MMAP or MMAP2 record adds (what the address spaces
 * make of it is theirs to say). */
struct sideband_map {
	uint64_t start, end, pgoff;
	uint32_t maj, min;	/* MMAP2 without a build id */
	uint64_t ino;
	uint32_t prot, flags;	/* PROT_* and MAP_* as in MMAP2 */
	bool exec;
	uint8_t build_id_size;	/* MMAP2 with a build id */
	uint8_t build_id[20];
};

struct sideband {
	uint32_t type;		/* PERF_RECORD_MMAP, ... */
	int32_t pid, tid;
	int32_t ppid, ptid;	/* FORK and EXIT (ppid) */
	bool exec;		/* COMM: the process execs */
	const char *name;	/* COMM's command, MMAP's path: in the
				   record, NAMELEN bytes, not terminated */
	size_t namelen;
	struct sideband_map map;	/* MMAP and MMAP2 */
};

/* Whether records of TYPE are decoded here. */
static inline bool
records_is_sideband(uint32_t type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 ||
	       type == PERF_RECORD_COMM || type == PERF_RECORD_FORK ||
	       type == PERF_RECORD_EXIT;
}

/*
 * Decode REC (records_is_sideband() of its type) of a file of byte order
 * BIG_ENDIAN into SB.  Returns 0, or -1 with ERR set (P2G_INVALID at the
 * offset where a truncated record ends too soon).
 */
int records_decode(const struct perf_record *rec, bool big_endian,
		   struct sideband *sb, struct p2g_error *err);

#endif
