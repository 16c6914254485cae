/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf's output: each profile goes to a temporary file beside its
 * target, renamed into place once it is whole, so that a failed or
 * interrupted conversion leaves no half profile behind; the temporary
 * file is removed on failure and, through output_cleanup(), when a
 * signal ends the process (signals.c).  A FIFO or a character device is
 * written into, never replaced; a symbolic link is followed.
 * Here too the refusal to write over an input, the names --split makes,
 * and the sink that convert_run() hands each profile to.
 */
#ifndef P2G_OUTPUT_H
#define P2G_OUTPUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "convert.h"
#include "strset.h"
#include "perfdata.h"
#include "report.h"

/* What output_write() needs from main(); zeroed, then filled in. */
struct output_sink {
	const char *output;	/* OUTPUT, or with --split its pattern */
	enum convert_split split;
	bool stats, verbose;
	bool in_place;		/* write into an existing OUTPUT rather
				   than replace it (perf_to_profile: pprof
				   reads the file it made, already open) */
	struct report *rp;	/* names the inputs in notes */
	dev_t *idev;		/* of every input file (malloc'd) */
	ino_t *iino;
	size_t nids;
	char failed[PATH_MAX];	/* the output an error is about, or "":
				   the input */
	size_t written;
	/* With --split: the samples written, the names (each written
	 * once), and the profiles each warning of warn_result() is about,
	 * told once in output_summary() unless verbose. */
	uint64_t samples;
	struct strset names;
	size_t strips, collisions, unconverged, spaces;
};

/* Remove the temporary file, if one is left, with async-signal-safe
 * calls only: the cleanup signals_init() is given. */
void output_cleanup(void);

/* Remove the temporary file, if one is left. */
void output_remove_tmp(void);

/* Remember the files of PD (each of a directory's), which the output must
 * not replace.  0, or -1 when out of memory. */
int output_add_identities(struct output_sink *sink,
			  const struct perfdata *pd);

/* A convert_sink (CTX a struct output_sink): write R's profile to its
 * file, through a temporary file renamed into place, or to standard
 * output, with its warnings, notes and --stats.  0, or -1 with ERR set
 * and in sink->failed the output it is about ("" for the input). */
int output_write(void *ctx, const struct convert_result *r,
		 struct p2g_error *err);

/* Check the --split pattern OUTPUT for MODE: a file name that holds
 * what tells MODE's profiles apart (%p, %t or %c), and nothing that has
 * no value in them; else a usage error. */
void output_check_pattern(const char *output, enum convert_split mode);

/* After a conversion with --split (options O, statistics ST) of INPUT:
 * one note for all the profiles written, and a warning for each kind of
 * trouble some of them have (the profiles named with -v). */
void output_summary(const struct output_sink *sink, const char *input,
		    const struct convert_stats *st,
		    const struct convert_opts *o);

/* Free what SINK holds; the sink itself is the caller's. */
void output_sink_release(struct output_sink *sink);

#endif
