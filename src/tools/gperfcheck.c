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

#include "count.h"
#include "cpuprof.h"
#include "gzbuf.h"
#include "profcheck.h"
#include "stacktab.h"
#include "symbolize.h"
#include "message.h"
#include "signals.h"

/* Largest file read into memory; profiles are far smaller. */
#define MAX_FILE ((size_t)1 << 34)

static void
usage(void)
{
	printf("Usage: %s [OPTIONS] FILE...\n"
"       %s --compare [--tolerance P] A B\n"
"Check that each FILE is a gperftools CPU profile that Go pprof and\n"
"google-pprof read as its writer meant: header 0,3,0,period,0 with a\n"
"period above 0, records with a count and at least one PC, no PC 0, the\n"
"trailer 0,1,0, and maps lines that parse and are shorter than 64 KiB.\n"
"Slot width (32 or 64 bits) and byte order come from the header.  The\n"
"first defect of a file is reported as 'FILE: offset 0xHEX: problem'.\n"
"A gzip-compressed profile is read inflated, as pprof reads it; a heap\n"
"or contention profile, perl pprof's raw form and a protobuf profile are\n"
"named as such (exit status 1).\n"
"\n"
"  -d, --dump      print each valid FILE in canonical text form: the\n"
"                  header, one line per record (count, then the leaf-first\n"
"                  PCs in hex), the trailer and the maps lines\n"
"  -s, --summary   print a summary of each valid FILE: a first line\n"
"                  (slots, period, samples, records, depth, maps lines),\n"
"                  then the distinct stacks, the samples by depth and the\n"
"                  top functions of the leaves when they can be named\n"
"      --json      print one JSON object per FILE on standard output:\n"
"                  its verdict (status, error message and offset) or the\n"
"                  facts of --summary\n"
"  -q, --quiet     print nothing, not even errors or warnings; use the\n"
"                  exit status\n"
"\n"
"Rules (doc/gperfcheck-rules.md):\n"
"      --strict         also the gperftools maintainers' rules: the maps\n"
"                       text present, ending in a newline, every line\n"
"                       build=..., a /proc/maps line or start-end:\n"
"      --lenient        only what the format document requires: header\n"
"                       0, N >= 3 words, version 0; records; trailer\n"
"\n"
"Assertions (a FILE that fails one makes the exit status 1):\n"
"      --min-samples N  at least N samples\n"
"      --max-samples N  at most N samples\n"
"      --period-us N    a sampling period of N microseconds\n"
"      --expect-function NAME\n"
"                       a frame in function NAME in some samples (PCs\n"
"                       symbolized through the maps text and the mapped\n"
"                       ELF files)\n"
"      --expect-mapping PATH\n"
"                       a frame in the mapping of PATH in some samples\n"
"      --min-share P    with the two above: in at least P%% of samples\n"
"      --symbolizable P at least P%% of the samples have a leaf with a\n"
"                       symbol\n"
"\n"
"Comparison:\n"
"      --compare        FILE A and FILE B hold the same stacks with the\n"
"                       same counts (identical stacks summed) and the\n"
"                       same period; else exit status 1 and the first\n"
"                       difference\n"
"      --tolerance P    with --compare: a stack's counts may differ by\n"
"                       P%% of the larger\n"
"\n"
"Warnings, for what one pprof or the other mishandles, never change the\n"
"exit status: a second frame (nearly) all records share, records that\n"
"repeat a stack, maps paths with a space or glued to the inode, PCs in\n"
"no executable mapping.\n"
"  -h, --help      print this help and exit\n"
"  -V, --version   print the version and exit\n"
"\n"
"Exit status: 0 every FILE is valid (and passes the assertions; with\n"
"--compare: A and B agree), 1 some FILE is invalid or unsupported or\n"
"fails an assertion (A and B differ), 2 trouble (usage, I/O, memory).\n"
"\n"
"Report bugs to: %s\n", progname, progname, PACKAGE_BUGREPORT);
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
			nb = realloc(b, cap * 2);
			if (nb == NULL) {
				p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					 "out of memory");
				goto fail;
			}
			b = nb;
			cap *= 2;
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

struct fnshare {
	const char *name;
	uint64_t flat;
};

static int
cmp_fn(const void *x, const void *y)
{
	const struct fnshare *a = x, *b = y;

	if (a->flat != b->flat)
		return a->flat > b->flat ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The facts --summary and --json give. */
struct facts {
	uint64_t samples, depth, lines;
	size_t stacks;
	uint64_t hist[9];	/* samples by depth: 1..8, then 9 or more */
	struct fnshare top[5];	/* by samples with the function as leaf */
	size_t ntop;
};

static void
gather(const struct profile *p, struct facts *f)
{
	struct symbolizer *sy;
	struct fnshare *fs = NULL;
	struct stacktab *t;
	size_t i, k, nfs = 0;
	const char *s;

	memset(f, 0, sizeof(*f));
	t = stacktab_new();
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		if (r->n > f->depth)
			f->depth = r->n;
		/* --lenient reads records of no PCs: they have no depth */
		if (r->n > 0)
			f->hist[r->n >= 9 ? 8 : r->n - 1] = count_add(
				f->hist[r->n >= 9 ? 8 : r->n - 1], r->count);
		f->samples = count_add(f->samples, r->count);
		if (t != NULL)
			(void)stacktab_add(t, 0, 0, p->pcs + r->off,
					   (uint32_t)r->n, r->count, 0);
	}
	f->stacks = t != NULL ? stacktab_nr(t) : 0;
	stacktab_free(t);
	for (s = p->maps; s != NULL && *s != '\0'; s++)
		if (*s == '\n' || s[1] == '\0')
			f->lines++;
	/* the functions of the leaves, where the maps text lets them be
	 * named */
	sy = symbolizer_new(p->maps, p->maps_len);
	fs = calloc(p->nrecs + 1, sizeof(*fs));
	for (i = 0; sy != NULL && fs != NULL && i < p->nrecs; i++) {
		const char *name;

		if (p->recs[i].n == 0)
			continue;	/* no leaf (--lenient) */
		name = symbolizer_lookup(sy, p->pcs[p->recs[i].off], NULL);
		if (name == NULL)
			continue;
		for (k = 0; k < nfs && strcmp(fs[k].name, name) != 0; k++)
			;
		if (k == nfs)
			fs[nfs++].name = name;
		fs[k].flat = count_add(fs[k].flat, p->recs[i].count);
	}
	if (fs != NULL && nfs > 0) {
		qsort(fs, nfs, sizeof(*fs), cmp_fn);
		for (k = 0; k < nfs && k < 5; k++) {
			/* the names die with the symbolizer: keep copies */
			f->top[k].name = strdup(fs[k].name);
			f->top[k].flat = fs[k].flat;
			if (f->top[k].name != NULL)
				f->ntop++;
		}
	}
	free(fs);
	symbolizer_free(sy);
}

static void
facts_release(struct facts *f)
{
	size_t k;

	for (k = 0; k < f->ntop; k++)
		free((char *)f->top[k].name);
}

static void
summary(const char *file, const struct profile *p)
{
	struct facts f;
	size_t k;

	gather(p, &f);
	printf("%s: %u-bit %s-endian, period %" PRIu64 " us, %" PRIu64
	       " samples in %zu records, max depth %" PRIu64 ", %" PRIu64
	       " maps lines\n", file, p->slot_bytes * 8,
	       p->big_endian ? "big" : "little", p->period_us,
	       f.samples, p->nrecs, f.depth, f.lines);
	printf("  distinct stacks: %zu\n  samples by depth:", f.stacks);
	for (k = 0; k < 9; k++)
		if (f.hist[k])
			printf(" %zu%s:%" PRIu64, k + 1, k == 8 ? "+" : "",
			       f.hist[k]);
	printf("\n");
	if (f.ntop > 0) {
		printf("  top functions (leaf samples):");
		for (k = 0; k < f.ntop; k++) {
			printf(" ");
			message_put_safe(stdout, f.top[k].name);
			printf(" %" PRIu64 " (%.1f%%)", f.top[k].flat,
			       f.samples ? 100.0 * (double)f.top[k].flat /
						   (double)f.samples
					 : 0.0);
		}
		printf("\n");
	}
	facts_release(&f);
}

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void
json_str(const char *s)
{
	const unsigned char *c;

	putchar('"');
	for (c = (const unsigned char *)s; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/* One JSON object per file, one per line. */
static void
json(const char *file, const struct profile *p,
     const struct p2g_error *err, int status)
{
	struct facts f;
	size_t k;

	printf("{\"file\":");
	json_str(file);
	printf(",\"status\":%d", status);
	if (err != NULL) {
		printf(",\"valid\":false,\"error\":{\"message\":");
		json_str(err->msg);
		if (err->offset != P2G_NO_OFFSET)
			printf(",\"offset\":%" PRIu64, err->offset);
		printf("}}\n");
		return;
	}
	gather(p, &f);
	printf(",\"valid\":true,\"slot_bits\":%u,\"byte_order\":\"%s\","
	       "\"period_us\":%" PRIu64 ",\"samples\":%" PRIu64
	       ",\"records\":%zu,\"distinct_stacks\":%zu,\"max_depth\":%"
	       PRIu64 ",\"maps_lines\":%" PRIu64 ",\"samples_by_depth\":{",
	       p->slot_bytes * 8, p->big_endian ? "big" : "little",
	       p->period_us, f.samples, p->nrecs, f.stacks, f.depth, f.lines);
	for (k = 0; k < 9; k++)
		printf("%s\"%zu%s\":%" PRIu64, k ? "," : "", k + 1,
		       k == 8 ? "+" : "", f.hist[k]);
	printf("},\"top_functions\":[");
	for (k = 0; k < f.ntop; k++) {
		printf("%s{\"name\":", k ? "," : "");
		json_str(f.top[k].name);
		printf(",\"leaf_samples\":%" PRIu64 "}", f.top[k].flat);
	}
	printf("]}\n");
	facts_release(&f);
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

/* What one pprof or the other mishandles; never an error. */
static void
warnings(const char *name, const struct profile *p)
{
	struct profcheck_notes n;

	if (profcheck_notes(p, &n) < 0) {
		message_warning(name, P2G_NO_OFFSET,
				"out of memory for the warnings");
		return;
	}
	if (n.perl_strips)
		message_warning(name, P2G_NO_OFFSET,
				"every record has the second frame 0x%" PRIx64
				": google-pprof removes it (unless run with "
				"--no-auto-signal-frm), Go pprof too",
				n.second_pc);
	else if (n.go_strips)
		message_warning(name, P2G_NO_OFFSET,
				"%zu of %zu records share the second frame 0x%"
				PRIx64 ": Go pprof removes it",
				n.second_records, p->nrecs, n.second_pc);
	if (n.duplicate_records)
		message_warning(name, P2G_NO_OFFSET,
				"%zu records repeat the stack of an earlier "
				"record", n.duplicate_records);
	if (n.space_paths)
		message_warning(name, P2G_NO_OFFSET,
				"%zu maps lines have a path with a space, "
				"which Go pprof cuts at the space",
				n.space_paths);
	if (n.glued_paths)
		message_warning(name, P2G_NO_OFFSET,
				"%zu maps lines have no space between the "
				"inode and the path (as gperftools 2.16 wrote "
				"them): Go pprof reads no path there",
				n.glued_paths);
	if (n.exec_maps > 0 && n.pcs_unmapped > 0)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " of %" PRIu64 " PCs (counted by "
				"samples) are in no executable mapping: pprof "
				"cannot symbolize them", n.pcs_unmapped, n.pcs);
	if (n.pcs_widened > 0)
		message_warning(name, P2G_NO_OFFSET,
				"%" PRIu64 " of these are below a mapping with "
				"a nonzero offset: Go pprof lowers its start "
				"to take them (%" PRIu64 " by %.*s at 0x%"
				PRIx64 ", offset 0x%" PRIx64 ", from 0x%"
				PRIx64 ")", n.pcs_widened, n.widened_taken,
				n.widened_path ? (int)n.widened_path_len : 9,
				n.widened_path ? n.widened_path : "no path",
				n.widened_lo, n.widened_off,
				n.widened_lo - n.widened_off);
}

/* An assertion that failed: "gperfcheck: FILE: what". */
static void
assert_fail(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
assert_fail(const char *name, const char *fmt, ...)
{
	struct p2g_error e;
	va_list ap;

	p2g_error_clear(&e);
	e.status = P2G_INVALID;
	e.offset = P2G_NO_OFFSET;
	va_start(ap, fmt);
	vsnprintf(e.msg, sizeof(e.msg), fmt, ap);
	va_end(ap);
	if (!message_quiet)
		message_error(name, &e);
}

struct asserts {
	uint64_t min_samples, max_samples, period_us;
	bool have_min, have_max, have_period;
	const char *function, *mapping;	/* --expect-function/-mapping */
	double min_share;		/* --min-share, percent */
	double symbolizable;		/* --symbolizable, percent; < 0: off */
};

/* The share (percent of samples) of the records with a frame in function
 * FN / mapping MAP, and of those whose leaf has a symbol. */
struct shares {
	double function, mapping, symbolized;
	uint64_t samples;
};

static int
symbol_shares(const struct profile *p, const struct asserts *as,
	      struct shares *sh)
{
	struct symbolizer *sy = symbolizer_new(p->maps, p->maps_len);
	uint64_t fn = 0, mp = 0, sym = 0, total = 0;
	size_t i;
	uint64_t j;

	if (sy == NULL)
		return -1;
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];
		bool has_fn = false, has_map = false;

		for (j = 0; j < r->n; j++) {
			uint64_t pc = p->pcs[r->off + j];
			const char *path, *name;

			/* pprof looks up return addresses less 1 */
			name = symbolizer_lookup(sy, j ? pc - 1 : pc, &path);
			if (j == 0 && name != NULL)
				sym = count_add(sym, r->count);
			if (as->function && name && !strcmp(name, as->function))
				has_fn = true;
			if (as->mapping && path && !strcmp(path, as->mapping))
				has_map = true;
		}
		total = count_add(total, r->count);
		fn = count_add(fn, has_fn ? r->count : 0);
		mp = count_add(mp, has_map ? r->count : 0);
	}
	symbolizer_free(sy);
	sh->samples = total;
	sh->function = total ? 100.0 * (double)fn / (double)total : 0;
	sh->mapping = total ? 100.0 * (double)mp / (double)total : 0;
	sh->symbolized = total ? 100.0 * (double)sym / (double)total : 0;
	return 0;
}

/* The --min-samples, --max-samples and --period-us assertions; false
 * (with a message) when one fails. */
static bool
assertions(const char *name, const struct profile *p,
	   const struct asserts *as)
{
	uint64_t n = profile_samples(p);
	bool ok = true;

	if (as->have_min && n < as->min_samples) {
		assert_fail(name, "%" PRIu64 " samples, fewer than "
			     "--min-samples %" PRIu64, n, as->min_samples);
		ok = false;
	}
	if (as->have_max && n > as->max_samples) {
		assert_fail(name, "%" PRIu64 " samples, more than "
			     "--max-samples %" PRIu64, n, as->max_samples);
		ok = false;
	}
	if (as->have_period && p->period_us != as->period_us) {
		assert_fail(name, "the period is %" PRIu64 " us, not "
			     "--period-us %" PRIu64, p->period_us,
			     as->period_us);
		ok = false;
	}
	if (as->function || as->mapping || as->symbolizable >= 0) {
		struct shares sh;

		if (symbol_shares(p, as, &sh) < 0) {
			assert_fail(name, "out of memory for symbols");
			return false;
		}
		/* without --min-share: in at least one sample */
		if (as->function && (sh.function == 0 ||
				     sh.function < as->min_share)) {
			assert_fail(name, "function %s is in %.1f%% of the "
				    "samples%s", as->function, sh.function,
				    as->min_share > 0 ? ", less than "
							"--min-share" : "");
			ok = false;
		}
		if (as->mapping && (sh.mapping == 0 ||
				    sh.mapping < as->min_share)) {
			assert_fail(name, "mapping %s is in %.1f%% of the "
				    "samples%s", as->mapping, sh.mapping,
				    as->min_share > 0 ? ", less than "
							"--min-share" : "");
			ok = false;
		}
		if (as->symbolizable >= 0 && sh.symbolized < as->symbolizable) {
			assert_fail(name, "%.1f%% of the samples have a leaf "
				    "with a symbol, less than --symbolizable "
				    "%g", sh.symbolized, as->symbolizable);
			ok = false;
		}
	}
	return ok;
}

/* --compare A B: 0 equal, 1 different (the first difference shown), 2
 * trouble. */
static int
do_compare(const char *fa, const char *fb, enum cpuprof_mode mode,
	   double tolerance)
{
	struct profile a, b;
	unsigned char *ba = NULL, *bb = NULL;
	struct p2g_error err;
	struct profcheck_diff d;
	int ret = 2;
	uint64_t j;

	profile_init(&a);
	profile_init(&b);
	if (load(fa, mode, &a, &ba, &err) < 0) {
		message_error(display_name(fa), &err);
		ret = err.status == P2G_INVALID || err.status ==
			P2G_UNSUPPORTED ? 1 : 2;
		goto out;
	}
	if (load(fb, mode, &b, &bb, &err) < 0) {
		message_error(display_name(fb), &err);
		ret = err.status == P2G_INVALID || err.status ==
			P2G_UNSUPPORTED ? 1 : 2;
		goto out;
	}
	if (profcheck_compare(&a, &b, tolerance, &d) < 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto out;
	}
	if (d.equal && a.period_us == b.period_us) {
		if (!message_quiet)
			printf("%s and %s: the same %zu stacks, %" PRIu64
			       " and %" PRIu64 " samples\n", display_name(fa),
			       display_name(fb), d.stacks_a,
			       profile_samples(&a), profile_samples(&b));
		ret = 0;
		goto out;
	}
	ret = 1;
	if (message_quiet)
		goto out;
	if (a.period_us != b.period_us) {
		printf("period: %" PRIu64 " us in %s, %" PRIu64 " us in %s\n",
		       a.period_us, display_name(fa), b.period_us,
		       display_name(fb));
		if (d.equal)
			goto out;
	}
	printf("first difference: stack");
	for (j = 0; j < d.n && d.pcs != NULL; j++)
		printf(" 0x%" PRIx64, d.pcs[j]);
	printf(": %" PRIu64 " samples in %s, %" PRIu64 " in %s%s\n", d.count_a,
	       display_name(fa), d.count_b, display_name(fb),
	       count_saturated(d.count_a) || count_saturated(d.count_b)
		       ? " (a sum of 2^64-1 or more: not exact)" : "");
out:
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

/* What the command line asks for. */
struct options {
	bool dump, summary, json, compare;
	double tolerance;		/* --tolerance, percent */
	enum cpuprof_mode mode;		/* --strict, --lenient */
	struct asserts as;
};

/* Take option C (as getopt_long() returned it, with optarg) into OP. */
static void
parse_option(int c, char **argv, struct options *op)
{
	struct asserts *as = &op->as;

	switch (c) {
	case 'd':
		op->dump = true;
		break;
	case 's':
		op->summary = true;
		break;
	case 'm':
		as->min_samples = message_parse_uint("--min-samples", optarg,
						     0, UINT64_MAX);
		as->have_min = true;
		break;
	case 'M':
		as->max_samples = message_parse_uint("--max-samples", optarg,
						     0, UINT64_MAX);
		as->have_max = true;
		break;
	case 'P':
		as->period_us = message_parse_uint("--period-us", optarg, 0,
						   UINT64_MAX);
		as->have_period = true;
		break;
	case 'C':
		op->compare = true;
		break;
	case 'S':
		op->mode = CPUPROF_STRICT;
		break;
	case 'j':
		op->json = true;
		break;
	case 'f':
		as->function = optarg;
		break;
	case 'g':
		as->mapping = optarg;
		break;
	case 'r':
		as->min_share = percent("--min-share", optarg);
		break;
	case 'y':
		as->symbolizable = percent("--symbolizable", optarg);
		break;
	case 'L':
		op->mode = CPUPROF_LENIENT;
		break;
	case 'T':
		op->tolerance = percent("--tolerance", optarg);
		break;
	case 'q':
		message_quiet = true;
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
		{ "strict", no_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "expect-function", required_argument, NULL, 'f' },
		{ "expect-mapping", required_argument, NULL, 'g' },
		{ "min-share", required_argument, NULL, 'r' },
		{ "symbolizable", required_argument, NULL, 'y' },
		{ "lenient", no_argument, NULL, 'L' },
		{ "tolerance", required_argument, NULL, 'T' },
		{ "summary", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(op, 0, sizeof(*op));
	op->mode = CPUPROF_DEFAULT;
	op->as.symbolizable = -1;
	opterr = 0;	/* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":dsqhVm:M:P:CT:SLf:g:r:y:j",
				longopts, NULL)) != -1)
		parse_option(c, argv, op);
}

/* Check FILE and print what OP asks for (its name first in a --dump of
 * SEVERAL files).  The exit status for FILE. */
static int
check_file(const char *file, const struct options *op, bool several)
{
	const char *name = display_name(file);
	struct p2g_error err;
	struct profile p;
	unsigned char *buf = NULL;
	int st;

	profile_init(&p);
	if (load(file, op->mode, &p, &buf, &err) < 0) {
		st = p2g_exit_status(err.status);
		if (!message_quiet)
			message_error(name, &err);
		if (op->json)
			json(name, NULL, &err, st);
	} else {
		if (!message_quiet)
			warnings(name, &p);
		st = assertions(name, &p, &op->as) ? 0 : 1;
		if (op->json)
			json(name, &p, NULL, st);
		if (op->summary)
			summary(name, &p);
		if (op->dump && several)
			printf("file %s\n", name);
		if (op->dump)
			dump(&p);
	}
	profile_release(&p);
	free(buf);
	return st;
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

	if (op.compare) {
		if (argc - optind != 2)
			message_usage("--compare takes exactly two FILEs");
		message_exit(do_compare(argv[optind], argv[optind + 1],
					op.mode, op.tolerance));
	}
	for (i = optind; i < argc; i++) {
		st = check_file(argv[i], &op, argc - optind > 1);
		if (st > ret)
			ret = st;
	}
	message_exit(ret);
}
