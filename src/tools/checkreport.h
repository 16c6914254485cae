/* SPDX-License-Identifier: MIT */
/*
 * What gperfcheck prints about a profile: its assertions (one line each,
 * as text or as TAP), its warnings, --summary, --json, and the table of
 * a --compare.  The numbers come from the core library (profstats.h,
 * profcheck.h); this file only words and prints them.
 */
#ifndef P2G_CHECKREPORT_H
#define P2G_CHECKREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "profile.h"
#include "profstats.h"

enum check_kind {
	CHECK_MIN_SAMPLES,	/* --min-samples N */
	CHECK_MAX_SAMPLES,	/* --max-samples N */
	CHECK_PERIOD,		/* --period-us N */
	CHECK_SYMBOLIZABLE,	/* --symbolizable P */
	CHECK_FUNCTION,		/* --expect-function NAME */
	CHECK_MAPPING,		/* --expect-mapping PATH */
};

/* One assertion of the command line. */
struct check {
	enum check_kind kind;
	const char *name;	/* the function or mapping */
	bool flat;		/* leaf samples; else cumulative */
	bool have_min, have_max;	/* --min-share, --max-share */
	double min_share, max_share;	/* percent */
	uint64_t n;		/* the samples or period asked for */
	double percent;		/* --symbolizable */
};

/* How the lines are printed. */
struct report {
	bool tap;		/* "ok N - ..." lines; else "FILE: ...: ok" */
	bool quiet;		/* nothing at all */
	bool verbose;		/* -v: the notes too */
	unsigned long tap_n;	/* the number of the last TAP line */
};

/* The most names an unknown function or mapping is told near. */
#define CHECK_CLOSE 3

/* What a check measured, and its verdict. */
struct check_result {
	bool ok;
	char text[1024];	/* the line, without file name or verdict */
	double value;		/* samples, period (us) or share (percent) */
	uint64_t x, total;	/* samples counted, of all samples */
	const char *measure;	/* "flat", "cum", or NULL */
	/* the comparisons: "--min-share" and "--max-share" are two */
	size_t nparts;
	const char *op[2];	/* ">=", "<=", "==", ">" */
	double threshold[2];
	bool holds[2];
	/* a function or mapping: whether its name is known, and if not,
	 * the known names nearest to it */
	bool known;
	const char *close[CHECK_CLOSE];
	size_t nclose;
};

/* Evaluate check C for P (S its shares) into R. */
void checkreport_eval(const struct check *c, const struct profile *p,
		      const struct profstats *s, struct check_result *r);

/* Run the N checks C on FILE's profile P (S its shares) and print a line
 * for each; true if all hold. */
bool checkreport_run(struct report *r, const char *file,
		     const struct profile *p, const struct profstats *s,
		     const struct check *c, size_t n);

/* The TAP plan for N lines ("1..N"), printed before any of them. */
void checkreport_plan(const struct report *r, unsigned long n);

/* The TAP line of FILE's validity: ERR is NULL for a valid profile.
 * Then SKIP lines, each naming its check, for the N checks C that
 * cannot run on an invalid one. */
void checkreport_valid(struct report *r, const char *file,
		       const struct p2g_error *err, const struct check *c,
		       size_t n);

/* Call FN(ARG, MESSAGE) for each warning about P: what one pprof or the
 * other mishandles (with VERBOSE, also what both read well: records that
 * repeat a stack).  Out of memory is said as a warning too. */
void checkreport_warnings(const struct profile *p, bool verbose,
			  void (*fn)(void *arg, const char *msg), void *arg);

/* The --summary lines of FILE. */
void checkreport_summary(const char *file, const struct profile *p,
			 const struct profstats *s);

/* FILE's --json object, on one line: the verdict (ERR, STATUS) of an
 * invalid one (P and S NULL), or the facts, every function and mapping,
 * the warnings (VERBOSE: as for checkreport_warnings()) and the N checks
 * C of a valid one, one object for each comparison they make. */
void checkreport_json(const char *file, const struct profile *p,
		      const struct profstats *s, const struct p2g_error *err,
		      int status, bool verbose, const struct check *c,
		      size_t n);

/* --compare's verdict and table of the differences of A and B (their
 * names FA, FB): at most ROWS rows, or as JSON with JSON, every row. */
void checkreport_compare(struct report *r, const char *fa, const char *fb,
			 const struct profile *a, const struct profile *b,
			 const struct profstats_cmp *c, bool json,
			 size_t rows);

#endif
