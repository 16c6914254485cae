/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf record [-o OUTPUT] [--off-cpu] [PERF-RECORD-OPTIONS] -- CMD
 * [ARGS]: runs perf record -o - (the program in $PERF, else perf) with -g
 * and -F 999 unless the options given choose a call graph or a rate
 * (with --off-cpu, -e cpu-clock -e sched:sched_switch --switch-events
 * instead of -F 999), and hands its stream to the conversion as it
 * comes.
 */
#ifndef P2G_RECORD_H
#define P2G_RECORD_H

#include <stdbool.h>
#include <sys/types.h>

struct record {
	pid_t pid;		/* of perf, 0 when not started */
	int fd;			/* the read end of perf's output */
	char input[32];		/* "/dev/fd/N": the conversion's INPUT */
	char *output;		/* OUTPUT: -o, else CMD's name + ".prof" */
	const char *perf;	/* the program run */
	bool off_cpu;		/* --off-cpu: record what off-CPU time
				   needs, and convert that */
};

/* Read the arguments after "record" (ARGV[0] is "record") and start
 * perf.  From then on SIGINT and SIGTERM sent to this process stop perf
 * as a terminal's Ctrl-C does (perf gets SIGINT and ends its stream, and
 * what it recorded is converted); a Ctrl-C, which reaches perf itself,
 * is left to perf.  Exits with a usage error (2) for bad arguments; -1
 * when perf cannot be run (said on stderr), else 0. */
int record_start(int argc, char **argv, struct record *r);

/* Wait for perf after a conversion that ended with exit status STATUS:
 * say what went wrong with perf, if anything, and return the exit
 * status of the whole: STATUS, or 2 when perf failed and so did the
 * conversion. */
int record_finish(struct record *r, int status);

#endif
