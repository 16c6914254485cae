/* SPDX-License-Identifier: MIT */
/*
 * What perf2gperf says about its inputs while and after it reads them:
 * the name a message gives (in a perf.data directory, the file of it that
 * an offset is in), the warnings the library hears, the progress line,
 * and the statistics and notes at the end of a conversion.  A struct
 * report holds that state and is the context of the library's callbacks.
 */
#ifndef P2G_REPORT_H
#define P2G_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "convert.h"
#include "dbgfetch.h"
#include "strset.h"
#include "perfdata.h"

struct report {
	char *const *names;		/* the inputs, as given */
	const char *name;		/* the input messages name now */
	char where[4096];		/* "INPUT/data.N", made by
					   report_where() */
	int progress;			/* the progress line: 0 none, 1 on
					   a terminal after two seconds, 2
					   always (--progress) */
	double start, shown;		/* seconds: report_init(), the
					   last line shown */
	double phase;			/* seconds: the start of what the
					   line shows (a spool, the reading
					   of an input), for the time left */
	bool spooling;			/* the line shows a spool */
	bool pending;			/* a line was not shown since the
					   last one that was */
	uint64_t done, total, samples;	/* what the last line (shown or
					   not) says */
	/* For report_missing(): where files are looked for, whether to
	 * say so, and the files already reported. */
	const struct convert_opts *o;
	bool verbose;
	struct strset missing;
	/* Whether messages may point to options: not as perf_to_profile,
	 * which pprof runs with none to give. */
	bool hints;
};

/* TEXT if RP's messages may point to options (rp->hints), else "". */
const char *report_hint(const struct report *rp, const char *text);

/* Start RP for the inputs NAMES (kept, not copied): no handles yet. */
void report_init(struct report *rp, char *const *names);

/* Messages name input N from now on (and so does SIGBUS, when it cannot
 * tell the file). */
void report_input(struct report *rp, size_t n);

/* The file a message names: the input, or the file PART of a perf.data
 * directory (as p2g_error.part and perfdata_warn_fn give it).  Valid
 * until the next call. */
const char *report_where(struct report *rp, const char *part);

/* Release what RP holds. */
void report_free(struct report *rp);

/*
 * For convert_opts.missing (CTX a struct report): a warning, once per
 * PATH, that no usable file was found for it and WHY; with rp->verbose,
 * a note of where it was looked for (from rp->o).
 */
void report_missing(void *ctx, const char *path, const char *why);

/* A perfdata_warn_fn (CTX a struct report): a warning about the input. */
void report_warn(void *ctx, const char *part, uint64_t off,
		 const char *msg);

/* For convert_opts.progress (CTX a struct report): the status line, as
 * RP's progress says: the input, the bytes read (with the share and the
 * time left when the size is known) and the samples so far. */
void report_progress(void *ctx, uint64_t done, uint64_t total,
		     uint64_t samples);

/* A dbgfetch_progress_fn (CTX a struct report): the status line, as
 * RP's progress says, while a file is fetched from a debuginfod
 * server. */
void report_fetch(void *ctx, const char *hex, enum dbgfetch_kind kind,
		  const struct dbgfetch_counts *c);

/* For perfdata_open_opts.spool_progress (CTX a struct report): the
 * status line while the input is copied to a temporary file, as RP's
 * progress says: the bytes copied, with the share and the time left when
 * the size is known. */
void report_spool(void *ctx, uint64_t done, uint64_t total);

/* End the status line of what was done to its end (the spool of an
 * input, the reading of the inputs).  Into a file or a pipe, its final
 * state is written first: the whole size, when known, and SAMPLES
 * samples (when not NULL). */
void report_progress_end(struct report *rp, const uint64_t *samples);

/* For convert_opts.input_start (CTX a struct report): messages are
 * about input N now. */
void report_input_start(void *ctx, size_t n);

/* After a conversion of the options O: the warnings and notes its
 * statistics ST call for, about the first input PD. */
void report_notes(const struct report *rp, const struct convert_stats *st,
		  const struct convert_opts *o, const struct perfdata *pd);

/* --stats: the conversion's statistics on stderr. */
void report_stats(const struct report *rp, const struct convert_stats *st);

/* --stats: those of the profile R written into OUTPUT, on stderr. */
void report_result_stats(const char *output,
			 const struct convert_result *r);

#endif
