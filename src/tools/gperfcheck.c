/* SPDX-License-Identifier: MIT */
/*
 * gperfcheck: validate gperftools CPU profiles, any slot width and byte
 * order, and print them in a canonical text form.  Front end only: the
 * reading and the rules live in cpuprof.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkreport.h"
#include "count.h"
#include "cpuprof.h"
#include "fetch.h"
#include "grow.h"
#include "gzbuf.h"
#include "profcheck.h"
#include "profstats.h"
#include "message.h"
#include "signals.h"

/* Long options without a short form. */
enum {
	OPT_COMPARE_STACKS = 256,
	OPT_TAP,
	OPT_MAX_SHARE,
	OPT_FLAT,
	OPT_CUM,
	OPT_BINARIES,
	OPT_CONFIDENCE,
	OPT_DEBUGINFOD,
};

/* Largest file read into memory; profiles are far smaller. */
#define MAX_FILE ((size_t)1 << 34)

static void
usage(void)
{
	printf("Usage: %s [OPTIONS] FILE...\n"
"       %s --compare [--tolerance P] [--confidence C] A B\n"
"       %s --compare-stacks [--tolerance P] A B\n"
"Check that each FILE is a gperftools CPU profile that Go pprof and\n"
"google-pprof read as its writer meant: header 0,3,0,period,0 with a\n"
"period above 0, records with a count and at least one PC, no PC 0, the\n"
"trailer 0,1,0, and maps lines that parse and are shorter than 64 KiB.\n"
"Slot width (32 or 64 bits) and byte order come from the header.  The\n"
"first defect of a file is reported as 'FILE: offset 0xHEX: problem'.\n"
"A gzip-compressed profile is read inflated, as pprof reads it; a heap\n"
"or contention profile, perl pprof's raw form and a protobuf profile are\n"
"named as such, and so is a perf.data file, to convert with perf2gperf\n"
"(exit status 1).\n"
"\n"
"  -d, --dump      print each valid FILE in canonical text form: the\n"
"                  header, one line per record (count, then the leaf-first\n"
"                  PCs in hex), the trailer and the maps lines\n"
"  -s, --summary   print a summary of each valid FILE: a first line\n"
"                  (slots, period, samples, records, depth, maps lines),\n"
"                  then the distinct stacks, the samples by depth and the\n"
"                  top functions of the leaves when they can be named\n"
"      --json      print one JSON object per FILE, one per line: its\n"
"                  verdict (status, error message and offset), or the\n"
"                  facts of --summary, every function and every mapping\n"
"                  with flat_samples and cum_samples, the warnings and\n"
"                  each comparison of each assertion (kind, name,\n"
"                  measure, operator, value, threshold, samples, total,\n"
"                  verdict); with --compare, the verdict and every row\n"
"      --tap       print the checks as TAP: the plan, then a line for\n"
"                  each FILE's validity and one for each assertion\n"
"  -q, --quiet     print nothing, not even errors or warnings; use the\n"
"                  exit status\n"
"  -v, --verbose   also warn of what both pprofs read well: records\n"
"                  that repeat a stack (libprofiler writes them)\n"
"\n"
"Rules (doc/gperfcheck-rules.md):\n"
"      --strict         also the gperftools maintainers' rules: the maps\n"
"                       text present, ending in a newline, every line\n"
"                       build=..., a /proc/maps line or start-end:\n"
"      --lenient        only what the format document requires: header\n"
"                       0, N >= 3 words, version 0; records; trailer\n"
"\n"
"Assertions, each checked and reported on a line of its own with its\n"
"value, its threshold and ok or FAIL (a FILE that fails one makes the\n"
"exit status 1):\n"
"      --min-samples N  at least N samples\n"
"      --max-samples N  at most N samples\n"
"      --period-us N    a sampling period of N microseconds\n"
"      --expect-function NAME\n"
"                       a frame in function NAME in some samples (PCs\n"
"                       symbolized through the maps text and the mapped\n"
"                       ELF files); a NAME neither in the profile nor\n"
"                       among the symbols of those files fails, naming\n"
"                       the nearest known ones\n"
"      --expect-mapping PATH\n"
"                       a leaf in the mapping of PATH (a full path, or\n"
"                       the last part of one) in some samples; a PATH\n"
"                       the maps text does not have fails\n"
"      --min-share P    the --expect-* before it: in at least P%% of the\n"
"                       samples\n"
"      --max-share P    the --expect-* before it: in at most P%%\n"
"      --cum            the --expect-* before it counts the samples with\n"
"                       a frame in it, once each (the default for a\n"
"                       function)\n"
"      --flat           the --expect-* before it counts the samples whose\n"
"                       leaf is in it (the default for a mapping, as\n"
"                       perf report --sort dso)\n"
"      --symbolizable P at least P%% of the samples have a leaf with a\n"
"                       symbol\n"
"      --binaries DIR   for the names: look for the profile's files in DIR\n"
"                       too (repeatable), as perf2gperf --binaries does\n"
"      --debuginfod     for the names: fetch the files found nowhere by\n"
"                       the build IDs of the maps text from the servers\n"
"                       in DEBUGINFOD_URLS; no server is asked without it\n"
"\n"
"Comparison:\n"
"      --compare        FILE A and FILE B give each function and each\n"
"                       mapping (by its file name) the same flat and\n"
"                       cumulative shares, as far as their samples can\n"
"                       tell: the same (every difference shown within\n"
"                       the tolerance), different (one beyond chance and\n"
"                       not within it) or too few samples to tell (exit\n"
"                       status 3); a table gives each difference, its\n"
"                       bounds and its verdict\n"
"      --tolerance P    the shares may differ by P points (default 8)\n"
"      --confidence C   the confidence of --compare's verdicts, in\n"
"                       percent (default 95)\n"
"      --compare-stacks FILE A and FILE B hold the same stacks with the\n"
"                       same counts (identical stacks summed) and the\n"
"                       same period; with --tolerance P, a stack's counts\n"
"                       may differ by P%% of the larger\n"
"\n"
"Warnings, for what one pprof or the other mishandles, never change the\n"
"exit status: a second frame (nearly) all records share, maps paths with\n"
"a space or glued to the inode, PCs in no executable mapping.\n"
"  -h, --help      print this help and exit\n"
"  -V, --version   print the version and exit\n"
"\n"
"Exit status: 0 every FILE is valid (and passes the assertions; with\n"
"--compare: A and B agree), 1 some FILE is invalid or unsupported or\n"
"fails an assertion (A and B differ), 2 trouble (usage, I/O, memory),\n"
"3 with --compare: too few samples to tell.\n"
"\n"
"On Debian, a program linked with libprofiler to write a profile must\n"
"be linked with -Wl,--no-as-needed -lprofiler, or libprofiler writes\n"
"none.\n"
"\n"
"Report bugs to: %s\n", progname, progname, progname, PACKAGE_BUGREPORT);
	message_exit(0);
}

/* read() into BUF until LEN bytes or end of file: the count, or -1. */
static ssize_t
read_full(int fd, unsigned char *buf, size_t len)
{
	size_t n = 0;
	ssize_t got;

	while (n < len) {
		got = read(fd, buf + n, len - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		n += (size_t)got;
	}
	return (ssize_t)n;
}

/*
 * Read PATH ("-": standard input) whole into *BUF, *LEN.  The header is
 * looked at first: a file that cannot be a profile of MODE is refused
 * after its first bytes, whatever follows (/dev/zero, a large file of
 * another kind).  Memory grows with the bytes actually read: a regular
 * file gets a buffer of its size, anything else one that doubles.
 */
static int
read_file(const char *path, enum cpuprof_mode mode, unsigned char **buf,
	  size_t *len, struct p2g_error *err)
{
	size_t cap = 1 << 16, n;
	unsigned char *b = NULL, *nb;
	struct stat st;
	ssize_t got;
	int fd;

	fd = strcmp(path, "-") == 0 ? STDIN_FILENO
				    : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < MAX_FILE && (size_t)st.st_size >= cap)
		cap = (size_t)st.st_size + 1;	/* + 1: to see the end */
	b = malloc(cap);
	if (b == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto fail;
	}
	got = read_full(fd, b, CPUPROF_START_BYTES);
	if (got < 0)
		goto io;
	n = (size_t)got;
	if (cpuprof_check_start(b, n, mode, err) < 0)
		goto fail;
	while (n == CPUPROF_START_BYTES || n == cap) {
		if (n == cap) {
			if (cap >= MAX_FILE / 2) {
				p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					 "file is larger than %zu bytes",
					 MAX_FILE);
				goto fail;
			}
			nb = grow(b, &cap, n + 1, 1, cap);
			if (nb == NULL) {
				p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					 "out of memory");
				goto fail;
			}
			b = nb;
		}
		got = read_full(fd, b + n, cap - n);
		if (got < 0)
			goto io;
		n += (size_t)got;
		if (n < cap)
			break;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*buf = b;
	*len = n;
	return 0;
io:
	p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s", strerror(errno));
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	free(b);
	return -1;
}

/* Profiles this large are not CPU profiles: the bound on gzip input. */
#define MAX_INFLATED ((size_t)512 << 20)

/*
 * A gzip-compressed profile is read as pprof reads it, inflated; a
 * neighbouring format (heap profile, perl pprof's raw form, protobuf) is
 * named rather than reported as a bad header.
 */
static int
unwrap(unsigned char **buf, size_t *len, struct p2g_error *err)
{
	const char *what = cpuprof_neighbour(*buf, *len);
	bool gz = false;

	if (what != NULL && (*buf)[0] == 0x1f) {
		unsigned char *out;
		size_t n;

		if (gzbuf_inflate(*buf, *len, MAX_INFLATED, &out, &n,
				  err) < 0)
			return -1;
		free(*buf);
		*buf = out;
		*len = n;
		gz = true;
		what = cpuprof_neighbour(*buf, *len);
	}
	if (what != NULL && strcmp(what, CPUPROF_PERFDATA) == 0)
		return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
				"%s%s; convert it with perf2gperf", what,
				gz ? " (gzip-compressed)" : "");
	if (what != NULL)
		return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET, "%s%s",
				what, gz ? " (gzip-compressed)" : "");
	return 0;
}

static void
dump(const struct profile *p)
{
	size_t i;
	uint64_t j;
	const char *s, *nl;

	printf("header 0 3 0 %" PRIu64 " 0\n", p->period_us);
	printf("slots %u-bit %s-endian\n", p->slot_bytes * 8,
	       p->big_endian ? "big" : "little");
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		printf("%" PRIu64, r->count);
		for (j = 0; j < r->n; j++)
			printf(" 0x%" PRIx64, p->pcs[r->off + j]);
		putchar('\n');
	}
	printf("trailer 0 1 0\n");
	for (s = p->maps; s != NULL && *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl == NULL) {
			printf("map %s\n", s);
			break;
		}
		printf("map %.*s\n", (int)(nl - s), s);
	}
}

static const char *
display_name(const char *arg)
{
	return strcmp(arg, "-") == 0 ? "(standard input)" : arg;
}

/* Read, unwrap and check FILE into P by the rules of MODE (*BUF holds the
 * bytes P refers to: free it after P). */
static int
load(const char *file, enum cpuprof_mode mode, struct profile *p,
     unsigned char **buf, struct p2g_error *err)
{
	size_t len = 0;

	p2g_error_clear(err);
	*buf = NULL;
	if (read_file(file, mode, buf, &len, err) < 0 ||
	    unwrap(buf, &len, err) < 0 ||
	    cpuprof_read_mode(*buf, len, p, mode, err) < 0)
		return -1;
	return 0;
}

/* checkreport_warnings() callback: a warning about file ARG. */
static void
warn(void *arg, const char *msg)
{
	message_warning(arg, P2G_NO_OFFSET, "%s", msg);
}

/* Load FILE for --compare into P (its bytes in *BUF): 0, or the exit
 * status with the error reported. */
static int
compare_load(const char *file, enum cpuprof_mode mode, struct profile *p,
	     unsigned char **buf)
{
	struct p2g_error err;

	if (load(file, mode, p, buf, &err) == 0)
		return 0;
	message_error(display_name(file), &err);
	return err.status == P2G_INVALID || err.status == P2G_UNSUPPORTED
		       ? 1 : 2;
}

/* --compare-stacks A B: 0 equal, 1 different (the first difference
 * shown), 2 trouble. */
static int
compare_stacks(const struct profile *a, const struct profile *b,
	       const char *na, const char *nb, double tolerance)
{
	struct profcheck_diff d;
	uint64_t j;

	if (profcheck_compare(a, b, tolerance, &d) < 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return 2;
	}
	if (d.equal && a->period_us == b->period_us) {
		if (!message_quiet)
			printf("%s and %s: the same stacks, %zu in %s, %zu "
			       "in %s, %zu in both; %" PRIu64 " and %" PRIu64
			       " samples\n", na, nb, d.stacks_a, na,
			       d.stacks_b, nb, d.stacks_both,
			       profile_samples(a), profile_samples(b));
		return 0;
	}
	if (message_quiet)
		return 1;
	if (a->period_us != b->period_us) {
		printf("period: %" PRIu64 " us in %s, %" PRIu64 " us in %s\n",
		       a->period_us, na, b->period_us, nb);
		if (d.equal)
			return 1;
	}
	printf("first difference: stack");
	for (j = 0; j < d.n && d.pcs != NULL; j++)
		printf(" 0x%" PRIx64, d.pcs[j]);
	printf(": %" PRIu64 " samples in %s, %" PRIu64 " in %s%s\n",
	       d.count_a, na, d.count_b, nb,
	       count_saturated(d.count_a) || count_saturated(d.count_b)
		       ? " (a sum of 2^64-1 or more: not exact)" : "");
	return 1;
}

/* A warning for --compare when N of the TOTAL samples of NAME have no
 * function name at their leaf. */
static void
unnamed(const char *name, uint64_t n, uint64_t total)
{
	if (n > 0)
		message_warning(name, P2G_NO_OFFSET, "%" PRIu64 " of %" PRIu64
				" samples have no function name at their "
				"leaf: --compare sees only their mappings "
				"(are the mapped files where the maps text "
				"says? --binaries DIR)", n, total);
}

/* The rows of --compare's table. */
#define COMPARE_ROWS 10

/* What the command line asks for. */
struct options {
	bool dump, summary, json, compare, compare_stacks;
	double tolerance;		/* --tolerance, percent; < 0: none */
	double confidence;		/* --confidence, percent; 0: none */
	enum cpuprof_mode mode;		/* --strict, --lenient */
	struct check *checks;		/* the assertions, in order */
	size_t nchecks;
	struct report report;		/* --tap, --quiet */
	const char **binaries;		/* --binaries (malloc'd) */
	size_t nbinaries;
	bool debuginfod;		/* --debuginfod */
	struct dbgfetch *fetch;		/* its handle, or NULL */
};

/* --compare A B: the shares of the functions and mappings (or with
 * --compare-stacks, the stacks), as OP asks; 0 the same, 1 different, 2
 * trouble, 3 too few samples to tell. */
static int
do_compare(const char *fa, const char *fb, const struct options *op)
{
	enum cpuprof_mode mode = op->mode;
	double tolerance = op->tolerance;
	const char *na = display_name(fa), *nb = display_name(fb);
	struct profstats sa, sb;
	struct profstats_cmp c;
	struct profile a, b;
	unsigned char *ba = NULL, *bb = NULL;
	struct report r = op->report;
	int ret;

	profile_init(&a);
	profile_init(&b);
	memset(&sa, 0, sizeof(sa));
	memset(&sb, 0, sizeof(sb));
	memset(&c, 0, sizeof(c));
	if ((ret = compare_load(fa, mode, &a, &ba)) != 0 ||
	    (ret = compare_load(fb, mode, &b, &bb)) != 0)
		goto out;
	if (op->compare_stacks) {
		ret = compare_stacks(&a, &b, na, nb,
				     tolerance < 0 ? 0 : tolerance);
		goto out;
	}
	ret = 2;
	if (profstats_compute(&a, op->binaries, op->nbinaries, op->fetch,
			      &sa) < 0 ||
	    profstats_compute(&b, op->binaries, op->nbinaries, op->fetch,
			      &sb) < 0 ||
	    profstats_compare(&sa, &sb, tolerance, op->confidence, &c) < 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto out;
	}
	/* a shift between functions of one file is invisible to the
	 * mappings alone: say so */
	unnamed(na, c.unnamed_a, sa.samples);
	unnamed(nb, c.unnamed_b, sb.samples);
	checkreport_compare(&r, na, nb, &a, &b, &c, op->json, COMPARE_ROWS);
	ret = c.inexact || c.verdict == PROFSTATS_DIFFERENT ? 1
	      : c.verdict == PROFSTATS_UNSURE ? 3 : 0;
out:
	profstats_cmp_release(&c);
	profstats_release(&sa);
	profstats_release(&sb);
	profile_release(&a);
	profile_release(&b);
	free(ba);
	free(bb);
	return ret;
}

/* A percentage from 0 to 100, with or without a '%'. */
static double
percent(const char *opt, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end != '\0' || errno != 0 || v < 0 || v > 100)
		message_usage("%s: '%s' is not a percentage from 0 to 100",
			      opt, arg);
	return v;
}

/* A new assertion of KIND at the end of OP's. */
static struct check *
add_check(struct options *op, enum check_kind kind)
{
	struct check *nc = realloc(op->checks,
				   (op->nchecks + 1) * sizeof(*nc));

	if (nc == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		message_exit(2);
	}
	op->checks = nc;
	memset(&nc[op->nchecks], 0, sizeof(*nc));
	nc[op->nchecks].kind = kind;
	return &nc[op->nchecks++];
}

/* The --expect-function or --expect-mapping that option OPT binds to:
 * the last one before it; a usage error when there is none. */
static struct check *
bound(struct options *op, const char *opt)
{
	size_t i;

	for (i = op->nchecks; i > 0; i--)
		if (op->checks[i - 1].kind == CHECK_FUNCTION ||
		    op->checks[i - 1].kind == CHECK_MAPPING)
			return &op->checks[i - 1];
	message_usage("%s applies to the --expect-function or "
		      "--expect-mapping before it, and none is", opt);
	return NULL;
}

/* Take option C (as getopt_long() returned it, with optarg) into OP. */
static void
parse_option(int c, char **argv, struct options *op)
{
	struct check *k;

	switch (c) {
	case 'd':
		op->dump = true;
		break;
	case 's':
		op->summary = true;
		break;
	case 'm':
		add_check(op, CHECK_MIN_SAMPLES)->n = message_parse_uint(
			"--min-samples", optarg, 0, UINT64_MAX);
		break;
	case 'M':
		add_check(op, CHECK_MAX_SAMPLES)->n = message_parse_uint(
			"--max-samples", optarg, 0, UINT64_MAX);
		break;
	case 'P':
		add_check(op, CHECK_PERIOD)->n = message_parse_uint(
			"--period-us", optarg, 0, UINT64_MAX);
		break;
	case 'C':
		op->compare = true;
		break;
	case OPT_COMPARE_STACKS:
		op->compare = true;
		op->compare_stacks = true;
		break;
	case 'S':
		op->mode = CPUPROF_STRICT;
		break;
	case 'j':
		op->json = true;
		break;
	case OPT_TAP:
		op->report.tap = true;
		break;
	case 'f':
		add_check(op, CHECK_FUNCTION)->name = optarg;
		break;
	case 'g':
		/* as perf report --sort dso: self samples */
		k = add_check(op, CHECK_MAPPING);
		k->name = optarg;
		k->flat = true;
		break;
	case 'r':
		k = bound(op, "--min-share");
		if (k->have_min)
			message_usage("--min-share given twice for %s",
				      k->name);
		k->min_share = percent("--min-share", optarg);
		k->have_min = true;
		break;
	case OPT_MAX_SHARE:
		k = bound(op, "--max-share");
		if (k->have_max)
			message_usage("--max-share given twice for %s",
				      k->name);
		k->max_share = percent("--max-share", optarg);
		k->have_max = true;
		break;
	case OPT_FLAT:
		bound(op, "--flat")->flat = true;
		break;
	case OPT_CUM:
		bound(op, "--cum")->flat = false;
		break;
	case 'y':
		add_check(op, CHECK_SYMBOLIZABLE)->percent =
			percent("--symbolizable", optarg);
		break;
	case OPT_BINARIES: {
		const char **nb = realloc(op->binaries,
					  (op->nbinaries + 1) * sizeof(*nb));

		if (nb == NULL) {
			fprintf(stderr, "%s: out of memory\n", progname);
			message_exit(2);
		}
		nb[op->nbinaries++] = optarg;
		op->binaries = nb;
		break;
	}
	case OPT_DEBUGINFOD:
		op->debuginfod = true;
		break;
	case 'L':
		op->mode = CPUPROF_LENIENT;
		break;
	case 'T':
		op->tolerance = percent("--tolerance", optarg);
		break;
	case 'q':
		message_quiet = true;
		op->report.quiet = true;
		break;
	case 'v':
		op->report.verbose = true;
		break;
	case OPT_CONFIDENCE:
		op->confidence = percent("--confidence", optarg);
		if (op->confidence < 50 || op->confidence >= 100)
			message_usage("--confidence: '%s' is not from 50 to "
				      "100%% (excluded)", optarg);
		break;
	case 'h':
		usage();
		break;
	case 'V':
		printf("%s (%s) %s\n", progname, PACKAGE_NAME,
		       PACKAGE_VERSION);
		message_library_versions();
		message_exit(0);
		break;
	default:
		message_bad_option(argv[optind - 1], optopt);
	}
}

/* Fill OP from the options of the command line, or exit with a usage
 * error; the FILEs are left at argv[optind] on. */
static void
parse_options(int argc, char **argv, struct options *op)
{
	static const struct option longopts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "min-samples", required_argument, NULL, 'm' },
		{ "max-samples", required_argument, NULL, 'M' },
		{ "period-us", required_argument, NULL, 'P' },
		{ "compare", no_argument, NULL, 'C' },
		{ "compare-stacks", no_argument, NULL, OPT_COMPARE_STACKS },
		{ "strict", no_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "tap", no_argument, NULL, OPT_TAP },
		{ "expect-function", required_argument, NULL, 'f' },
		{ "expect-mapping", required_argument, NULL, 'g' },
		{ "min-share", required_argument, NULL, 'r' },
		{ "max-share", required_argument, NULL, OPT_MAX_SHARE },
		{ "flat", no_argument, NULL, OPT_FLAT },
		{ "cum", no_argument, NULL, OPT_CUM },
		{ "symbolizable", required_argument, NULL, 'y' },
		{ "binaries", required_argument, NULL, OPT_BINARIES },
		{ "debuginfod", no_argument, NULL, OPT_DEBUGINFOD },
		{ "lenient", no_argument, NULL, 'L' },
		{ "tolerance", required_argument, NULL, 'T' },
		{ "summary", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "confidence", required_argument, NULL, OPT_CONFIDENCE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(op, 0, sizeof(*op));
	op->mode = CPUPROF_DEFAULT;
	op->tolerance = -1;
	opterr = 0;	/* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":dsqvhVm:M:P:CT:SLf:g:r:y:j",
				longopts, NULL)) != -1)
		parse_option(c, argv, op);
	if (op->json && op->report.tap)
		message_usage("--json and --tap cannot be given together");
}

/* Check FILE and print what OP asks for (its name first in a --dump of
 * SEVERAL files).  The exit status for FILE. */
static int
check_file(const char *file, struct options *op, bool several)
{
	const char *name = display_name(file);
	struct p2g_error err;
	struct profstats st;
	struct profile p;
	unsigned char *buf = NULL;
	bool stats;
	int ret;

	profile_init(&p);
	memset(&st, 0, sizeof(st));
	if (load(file, op->mode, &p, &buf, &err) < 0) {
		ret = p2g_exit_status(err.status);
		if (!message_quiet)
			message_error(name, &err);
		checkreport_valid(&op->report, name, &err, op->checks,
				  op->nchecks);
		if (op->json)
			checkreport_json(name, NULL, NULL, &err, ret, false,
					 NULL, 0);
		goto out;
	}
	if (!message_quiet)
		checkreport_warnings(&p, op->report.verbose, warn,
				     (void *)name);
	checkreport_valid(&op->report, name, NULL, NULL, 0);
	stats = op->nchecks > 0 || op->summary || op->json;
	if (stats && profstats_compute(&p, op->binaries, op->nbinaries,
				       op->fetch, &st) < 0) {
		p2g_fail(&err, P2G_NOMEM, P2G_NO_OFFSET,
			 "out of memory for the shares");
		message_error(name, &err);
		ret = 2;
		goto out;
	}
	ret = 0;
	if (op->json) {
		struct check_result res;
		size_t i;

		for (i = 0; i < op->nchecks; i++) {
			checkreport_eval(&op->checks[i], &p, &st, &res);
			if (!res.ok)
				ret = 1;
		}
		checkreport_json(name, &p, &st, NULL, ret, op->report.verbose,
				 op->checks, op->nchecks);
	} else if (!checkreport_run(&op->report, name, &p, &st, op->checks,
				    op->nchecks)) {
		ret = 1;
	}
	if (op->summary)
		checkreport_summary(name, &p, &st);
	if (op->dump && several)
		printf("file %s\n", name);
	if (op->dump)
		dump(&p);
out:
	profstats_release(&st);
	profile_release(&p);
	free(buf);
	return ret;
}

int
main(int argc, char **argv)
{
	struct options op;
	int ret = 0, st, i;

	progname = "gperfcheck";
	/* before any file is read: see signals.h */
	signals_init(NULL);
	parse_options(argc, argv, &op);
	if (optind == argc)
		message_usage("no FILE given");
	/* libdw asks the servers in DEBUGINFOD_URLS for what it cannot find
	 * on disk: no network unasked */
	if (!op.debuginfod)
		unsetenv("DEBUGINFOD_URLS");
	else
		op.fetch = fetch_open(display_name(argv[optind]), NULL, NULL);

	if (op.compare) {
		if (argc - optind != 2)
			message_usage("--compare takes exactly two FILEs");
		st = do_compare(argv[optind], argv[optind + 1], &op);
		fetch_warn(display_name(argv[optind]), op.fetch);
		dbgfetch_free(op.fetch);
		free(op.checks);
		free(op.binaries);
		message_exit(st);
	}
	checkreport_plan(&op.report,
			 (unsigned long)(argc - optind) * (op.nchecks + 1));
	for (i = optind; i < argc; i++) {
		st = check_file(argv[i], &op, argc - optind > 1);
		if (st > ret)
			ret = st;
	}
	fetch_warn(display_name(argv[optind]), op.fetch);
	dbgfetch_free(op.fetch);
	free(op.checks);
	free(op.binaries);
	message_exit(ret);
}
