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

#include "addrspace.h"
#include "error.h"
#include "perfdata.h"

struct sideband {
	uint32_t type;		/* PERF_RECORD_MMAP, ... */
	int32_t pid, tid;
	int32_t ppid, ptid;	/* FORK and EXIT (ppid) */
	bool exec;		/* COMM: the process execs */
	const char *name;	/* COMM's command, MMAP's path: in the
				   record, NAMELEN bytes, not terminated */
	size_t namelen;
	struct mapping map;	/* MMAP and MMAP2 (its path unset) */
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
