/* SPDX-License-Identifier: MIT */
/*
 * pprof's profile format: a gzipped profile.proto message
 * (github.com/google/pprof, proto/profile.proto), which every current
 * pprof reads, with the names of the functions in it, so that a profile
 * reads the same on a machine without the binaries.
 */
#ifndef P2G_PPROF_H
#define P2G_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "symstacks.h"

/* What the profile says besides its stacks. */
struct pprof_meta {
	/* The second sample type (the first is samples/count), also the
	 * period's type: "cpu"/"nanoseconds", or the event's name and
	 * "count". */
	const char *measure, *unit;
	int64_t period;		/* of one sample, in UNIT */
	int64_t time_nanos;	/* when the recording started (since the
				   epoch), or 0 when not known */
	int64_t duration_nanos;	/* 0 when not known */
	const char *comments[4];	/* NULL-ended */
	bool off_cpu;		/* the periods are off-CPU time: each
				   sample has a label "state", "blocked"
				   or "preempted" */
	/* With off_cpu, the on-CPU samples too: those of event ON_CPU_EV
	 * (ss_sample.ev) have their periods under this third sample type,
	 * "cpu"/"nanoseconds", before the off-CPU type, and no state. */
	const char *on_cpu_measure;	/* NULL: none */
	uint32_t on_cpu_ev;
	char *owned;		/* the comments' storage, if any */
};

/*
 * Write the profile of SS with META to FD, gzipped.  Each sample has the
 * values [count, period] and the labels comm, pid and (when known) tid.
 * 0, or -1 with ERR set (memory, or P2G_IO).
 */
int pprof_write(const struct symstacks *ss, const struct pprof_meta *meta,
		int fd, struct p2g_error *err);

/* The profile.proto message of SS and META, not compressed, into B
 * (protobuf_init()ed); for the tests.  0, or -1 (memory). */
struct protobuf;
int pprof_encode(const struct symstacks *ss, const struct pprof_meta *meta,
		 struct protobuf *b);

#endif
