/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks, the text FlameGraph's flamegraph.pl, inferno and
 * speedscope read: one line "comm;root;...;leaf COUNT" per distinct
 * stack, sorted, exactly as perf's own script prints them (perf script
 * report stackcollapse, tools/perf/scripts/python/stackcollapse.py):
 * perf's names, "[unknown]" for a frame without one, ';' in a name
 * written as ':', spaces in the command as '_'.  Unlike perf's, a line
 * cannot be forged from within a name: a newline or carriage return in a
 * name is written as a space (in the command as '_'), and a name longer
 * than FOLDED_NAME_MAX bytes is cut there (at a character's boundary)
 * and ends in "...", so that the output stays within a small multiple
 * of the input.
 */
#ifndef P2G_FOLDED_H
#define P2G_FOLDED_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "symstacks.h"

/* The most bytes of a name (a command or a function) in a line. */
#define FOLDED_NAME_MAX 4096

/* The options of stackcollapse.py, and the weight. */
struct folded_opts {
	bool perf_style;	/* --folded-style=perf: the names of perf's
				   stackcollapse.py; else those of
				   FlameGraph's stackcollapse-perf.pl */
	bool include_pid;	/* --include-pid: "comm-PID" */
	bool include_tid;	/* --include-tid: "comm-TID" (perf style
				   without include_pid) or "comm-PID/TID" */
	bool no_comm;		/* --no-comm: no first frame */
	bool tidy_java;		/* --tidy-java: Java signatures shortened
				   (perf style; FlameGraph's always are,
				   in a command that starts "java") */
	bool annotate_kernel;	/* --kernel: kernel functions + "_[k]" */
	bool periods;		/* count periods rather than samples */
	uint64_t divisor;	/* each line's count divided by it (0:
				   by 1) */
	bool comm_only;		/* the event has no callchains: perf's
				   script then writes the first frame
				   alone */
};

/* Write the folded stacks of SS to FD.  0, or -1 with ERR set
 * (memory, P2G_IO). */
int folded_write(const struct symstacks *ss, const struct folded_opts *o,
		 int fd, struct p2g_error *err);

#endif
