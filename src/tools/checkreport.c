/* SPDX-License-Identifier: MIT */
/* gperfcheck's reports: see checkreport.h. */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkreport.h"
#include "count.h"
#include "message.h"
#include "profcheck.h"
#include "stacktab.h"

/* The share of function or mapping check C: its words, and whether it
 * holds. */
static bool
eval_share(const struct check *c, const struct profstats *s, char *buf,
	   size_t len)
{
	bool fn = c->kind == CHECK_FUNCTION, ok;
	uint64_t flat, cum, x;
	double share;
	size_t used;

	if (fn)
		profstats_function(s, c->name, &flat, &cum);
	else
		profstats_mapping(s, c->name, &flat, &cum);
	x = c->flat ? flat : cum;
	share = profstats_percent(x, s->samples);
	/* without a share option: in some sample */
	ok = c->have_min || c->have_max ? true : x > 0;
	if (c->have_min && share < c->min_share)
		ok = false;
	if (c->have_max && share > c->max_share)
		ok = false;
	snprintf(buf, len, "%s %s: %s %.1f%% (%" PRIu64 " of %" PRIu64
		 " samples)", fn ? "function" : "mapping", c->name,
		 c->flat ? "flat" : "cumulative", share, x, s->samples);
	used = strlen(buf);
	if (c->have_min)
		used += (size_t)snprintf(buf + used, len - used,
					 ", --min-share %g%%", c->min_share);
	if (c->have_max && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", --max-share %g%%", c->max_share);
	if (!c->have_min && !c->have_max && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", in some sample");
	if (!fn && cum == 0 && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 strchr(c->name, '/') ?
					 " (no mapping has that path)" :
					 " (no mapping has that basename)");
	if (count_saturated(s->samples) && used < len) {
		snprintf(buf + used, len - used, " (a sum of 2^64-1 or more "
			 "samples: not exact)");
		ok = false;
	}
	return ok;
}

bool
checkreport_eval(const struct check *c, const struct profile *p,
		 const struct profstats *s, char *buf, size_t len)
{
	uint64_t n = s->samples;
	double sym;

	switch (c->kind) {
	case CHECK_MIN_SAMPLES:
		snprintf(buf, len, "%" PRIu64 " samples, --min-samples %"
			 PRIu64, n, c->n);
		return n >= c->n;
	case CHECK_MAX_SAMPLES:
		snprintf(buf, len, "%" PRIu64 " samples, --max-samples %"
			 PRIu64, n, c->n);
		return n <= c->n;
	case CHECK_PERIOD:
		snprintf(buf, len, "period %" PRIu64 " us, --period-us %"
			 PRIu64, p->period_us, c->n);
		return p->period_us == c->n;
	case CHECK_SYMBOLIZABLE:
		sym = profstats_percent(s->symbolized, n);
		snprintf(buf, len, "a leaf with a symbol: %.1f%% (%" PRIu64
			 " of %" PRIu64 " samples), --symbolizable %g%%", sym,
			 s->symbolized, n, c->percent);
		return sym >= c->percent;
	case CHECK_FUNCTION:
	case CHECK_MAPPING:
		break;
	}
	return eval_share(c, s, buf, len);
}

/* S on stdout as a TAP description: '#' escaped (it starts a
 * directive), non-printable bytes as \xHH. */
static void
tap_put(const char *s)
{
	const unsigned char *c;

	for (c = (const unsigned char *)s; *c; c++) {
		if (*c == '#')
			fputs("\\#", stdout);
		else if (*c < 0x20 || *c >= 0x7f)
			printf("\\x%02x", *c);
		else
			putchar(*c);
	}
}

/* One TAP line: ok or not, FILE: TEXT, and a directive (or NULL). */
static void
tap_line(struct report *r, bool ok, const char *file, const char *text,
	 const char *directive)
{
	r->tap_n++;
	printf("%sok %lu - ", ok ? "" : "not ", r->tap_n);
	tap_put(file);
	fputs(": ", stdout);
	tap_put(text);
	if (directive != NULL)
		printf(" # %s", directive);
	putchar('\n');
}

bool
checkreport_run(struct report *r, const char *file, const struct profile *p,
		const struct profstats *s, const struct check *c, size_t n)
{
	char text[1024];
	bool all = true, ok;
	size_t i;

	for (i = 0; i < n; i++) {
		ok = checkreport_eval(&c[i], p, s, text, sizeof(text));
		all = all && ok;
		if (r->tap) {
			tap_line(r, ok, file, text, NULL);
		} else if (!r->quiet) {
			message_put_safe(stdout, file);
			fputs(": ", stdout);
			message_put_safe(stdout, text);
			puts(ok ? ": ok" : ": FAIL");
		}
	}
	return all;
}

void
checkreport_plan(const struct report *r, unsigned long n)
{
	if (r->tap)
		printf("1..%lu\n", n);
}

void
checkreport_valid(struct report *r, const char *file,
		  const struct p2g_error *err, size_t n)
{
	char text[sizeof(err->msg) + 64];
	size_t i;

	if (!r->tap)
		return;
	if (err == NULL) {
		tap_line(r, true, file, "a valid profile", NULL);
		return;
	}
	if (err->offset != P2G_NO_OFFSET)
		snprintf(text, sizeof(text), "offset 0x%" PRIx64 ": %s",
			 err->offset, err->msg);
	else
		snprintf(text, sizeof(text), "%s", err->msg);
	tap_line(r, false, file, text, NULL);
	for (i = 0; i < n; i++)
		tap_line(r, true, file, "an assertion", "SKIP not a valid "
			 "profile");
}

/* A warning of FMT for FN. */
static void emit(void (*fn)(void *, const char *), void *arg,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
emit(void (*fn)(void *, const char *), void *arg, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fn(arg, buf);
}

void
checkreport_warnings(const struct profile *p,
		     void (*fn)(void *arg, const char *msg), void *arg)
{
	struct profcheck_notes n;

	if (profcheck_notes(p, &n) < 0) {
		fn(arg, "out of memory for the warnings");
		return;
	}
	if (n.perl_strips)
		emit(fn, arg, "every record has the second frame 0x%" PRIx64
		     ": google-pprof removes it (unless run with "
		     "--no-auto-signal-frm), Go pprof too", n.second_pc);
	else if (n.go_strips)
		emit(fn, arg, "%zu of %zu records share the second frame 0x%"
		     PRIx64 ": Go pprof removes it", n.second_records,
		     p->nrecs, n.second_pc);
	if (n.duplicate_records)
		emit(fn, arg, "%zu records repeat the stack of an earlier "
		     "record", n.duplicate_records);
	if (n.space_paths)
		emit(fn, arg, "%zu maps lines have a path with a space, "
		     "which Go pprof cuts at the space", n.space_paths);
	if (n.glued_paths)
		emit(fn, arg, "%zu maps lines have no space between the "
		     "inode and the path (as gperftools 2.16 wrote them): "
		     "Go pprof reads no path there", n.glued_paths);
	if (n.exec_maps > 0 && n.pcs_unmapped > 0)
		emit(fn, arg, "%" PRIu64 " of %" PRIu64 " PCs (counted by "
		     "samples) are in no executable mapping: pprof cannot "
		     "symbolize them", n.pcs_unmapped, n.pcs);
	if (n.pcs_widened > 0)
		emit(fn, arg, "%" PRIu64 " of these are below a mapping with "
		     "a nonzero offset: Go pprof lowers its start to take "
		     "them (%" PRIu64 " by %.*s at 0x%" PRIx64 ", offset 0x%"
		     PRIx64 ", from 0x%" PRIx64 ")", n.pcs_widened,
		     n.widened_taken,
		     n.widened_path ? (int)n.widened_path_len : 9,
		     n.widened_path ? n.widened_path : "no path",
		     n.widened_lo, n.widened_off,
		     n.widened_lo - n.widened_off);
}

/* The facts --summary and --json give beyond the shares. */
struct facts {
	uint64_t depth, lines;
	size_t stacks;
	uint64_t hist[9];	/* samples by depth: 1..8, then 9 or more */
};

static void
gather(const struct profile *p, struct facts *f)
{
	struct stacktab *t;
	size_t i;
	const char *s;

	memset(f, 0, sizeof(*f));
	t = stacktab_new();
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];
		size_t k = r->n >= 9 ? 8 : (size_t)r->n - 1;

		if (r->n > f->depth)
			f->depth = r->n;
		/* --lenient reads records of no PCs: they have no depth */
		if (r->n > 0)
			f->hist[k] = count_add(f->hist[k], r->count);
		if (t != NULL)
			(void)stacktab_add(t, 0, 0, p->pcs + r->off,
					   (uint32_t)r->n, r->count, 0);
	}
	f->stacks = t != NULL ? stacktab_nr(t) : 0;
	stacktab_free(t);
	for (s = p->maps; s != NULL && *s != '\0'; s++)
		if (*s == '\n' || s[1] == '\0')
			f->lines++;
}

/* The functions of S with leaf samples, most first (then by name): a
 * new array of at most MAX pointers, *N of them; NULL when none. */
static const struct profstats_entry **
top_flat(const struct profstats *s, size_t max, size_t *n)
{
	const struct profstats_entry **v;
	size_t i, k, m = 0;

	*n = 0;
	v = calloc(max + 1, sizeof(*v));
	if (v == NULL)
		return NULL;
	/* insertion into a short sorted list */
	for (i = 0; i < s->nfns; i++) {
		const struct profstats_entry *e = &s->fns[i];

		if (e->flat == 0)
			continue;
		for (k = 0; k < m && (v[k]->flat > e->flat ||
				      (v[k]->flat == e->flat &&
				       strcmp(v[k]->name, e->name) < 0)); k++)
			;
		if (k == max)
			continue;
		if (m < max)
			m++;
		memmove(&v[k + 1], &v[k], (m - 1 - k) * sizeof(*v));
		v[k] = e;
	}
	*n = m;
	return v;
}

void
checkreport_summary(const char *file, const struct profile *p,
		    const struct profstats *s)
{
	const struct profstats_entry **top;
	struct facts f;
	size_t k, ntop;

	gather(p, &f);
	printf("%s: %u-bit %s-endian, period %" PRIu64 " us, %" PRIu64
	       " samples in %zu records, max depth %" PRIu64 ", %" PRIu64
	       " maps lines\n", file, p->slot_bytes * 8,
	       p->big_endian ? "big" : "little", p->period_us,
	       s->samples, p->nrecs, f.depth, f.lines);
	printf("  distinct stacks: %zu\n  samples by depth:", f.stacks);
	for (k = 0; k < 9; k++)
		if (f.hist[k])
			printf(" %zu%s:%" PRIu64, k + 1, k == 8 ? "+" : "",
			       f.hist[k]);
	printf("\n");
	top = top_flat(s, 5, &ntop);
	if (ntop > 0) {
		printf("  top functions (leaf samples):");
		for (k = 0; k < ntop; k++) {
			printf(" ");
			message_put_safe(stdout, top[k]->name);
			printf(" %" PRIu64 " (%.1f%%)", top[k]->flat,
			       profstats_percent(top[k]->flat, s->samples));
		}
		printf("\n");
	}
	free(top);
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

/* The entries V[0..N) as a JSON array of objects {KEY, flat_samples,
 * cum_samples}. */
static void
json_entries(const char *key, const struct profstats_entry *v, size_t n)
{
	size_t i;

	putchar('[');
	for (i = 0; i < n; i++) {
		printf("%s{\"%s\":", i ? "," : "", key);
		json_str(v[i].name);
		printf(",\"flat_samples\":%" PRIu64 ",\"cum_samples\":%"
		       PRIu64 "}", v[i].flat, v[i].cum);
	}
	putchar(']');
}

/* checkreport_warnings() callback: one JSON array element; *ARG counts
 * them. */
static void
json_warning(void *arg, const char *msg)
{
	size_t *n = arg;

	if ((*n)++)
		putchar(',');
	json_str(msg);
}

void
checkreport_json(const char *file, const struct profile *p,
		 const struct profstats *s, const struct p2g_error *err,
		 int status, const struct check *c, size_t n)
{
	struct facts f;
	char text[1024];
	size_t k, nw = 0;

	printf("{\"file\":");
	json_str(file);
	printf(",\"status\":%d", status);
	if (err != NULL || p == NULL || s == NULL) {
		printf(",\"valid\":false,\"error\":{\"message\":");
		json_str(err != NULL ? err->msg : "");
		if (err != NULL && err->offset != P2G_NO_OFFSET)
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
	       p->period_us, s->samples, p->nrecs, f.stacks, f.depth,
	       f.lines);
	for (k = 0; k < 9; k++)
		printf("%s\"%zu%s\":%" PRIu64, k ? "," : "", k + 1,
		       k == 8 ? "+" : "", f.hist[k]);
	printf("},\"symbolized_samples\":%" PRIu64 ",\"functions\":",
	       s->symbolized);
	json_entries("name", s->fns, s->nfns);
	printf(",\"mappings\":");
	json_entries("path", s->maps, s->nmaps);
	printf(",\"warnings\":[");
	checkreport_warnings(p, json_warning, &nw);
	printf("],\"checks\":[");
	for (k = 0; k < n; k++) {
		bool ok = checkreport_eval(&c[k], p, s, text, sizeof(text));

		printf("%s{\"check\":", k ? "," : "");
		json_str(text);
		printf(",\"ok\":%s}", ok ? "true" : "false");
	}
	printf("]}\n");
}

/* --compare's first line, in TEXT. */
static bool
compare_verdict(const char *fa, const char *fb, const struct profile *a,
		const struct profile *b, const struct profstats_cmp *c,
		char *text, size_t len)
{
	size_t k, over = 0;

	for (k = 0; k < c->nrows; k++)
		if (c->rows[k].diff > c->rows[k].allowed)
			over++;
	if (c->inexact)
		snprintf(text, len, "%s and %s: a sum of 2^64-1 or more "
			 "samples: the shares are not exact", fa, fb);
	else if (c->equal)
		snprintf(text, len, "%s and %s: the same shares, %" PRIu64
			 " and %" PRIu64 " samples, %zu functions and "
			 "mappings within their tolerance (%zu functions "
			 "in both)", fa, fb, profile_samples(a),
			 profile_samples(b), c->nrows, c->nfns_both);
	else
		snprintf(text, len, "%s and %s: different shares, %" PRIu64
			 " and %" PRIu64 " samples, %zu of %zu functions "
			 "and mappings beyond their tolerance", fa, fb,
			 profile_samples(a), profile_samples(b), over,
			 c->nrows);
	return c->equal;
}

void
checkreport_compare(struct report *r, const char *fa, const char *fb,
		    const struct profile *a, const struct profile *b,
		    const struct profstats_cmp *c, double tolerance,
		    size_t rows)
{
	const char *lead = r->tap ? "# " : "";
	char text[2048];
	bool same;
	size_t k;

	if (r->quiet)
		return;
	same = compare_verdict(fa, fb, a, b, c, text, sizeof(text));
	if (r->tap) {
		checkreport_plan(r, 1);
		r->tap_n++;
		printf("%sok %lu - ", same ? "" : "not ", r->tap_n);
		tap_put(text);
		putchar('\n');
	} else {
		message_put_safe(stdout, text);
		putchar('\n');
	}
	if (a->period_us != b->period_us)
		printf("%speriod: %" PRIu64 " us in %s, %" PRIu64 " us in %s "
		       "(not compared)\n", lead, a->period_us, fa,
		       b->period_us, fb);
	if (c->nrows == 0)
		return;
	printf("%s  flat A  flat B   cum A   cum B    diff  %s  name\n", lead,
	       tolerance < 0 ? "allowed" : "tolerance");
	for (k = 0; k < c->nrows && k < rows; k++) {
		const struct profstats_row *w = &c->rows[k];

		printf("%s%7.1f%% %6.1f%% %6.1f%% %6.1f%% %7.1f  %7.1f%s  %s",
		       lead, w->flat_a, w->flat_b, w->cum_a, w->cum_b,
		       w->diff, w->allowed, tolerance < 0 ? "" : "  ",
		       w->diff > w->allowed ? "* " : "");
		if (w->mapping)
			fputs("mapping ", stdout);
		message_put_safe(stdout, w->name);
		putchar('\n');
	}
	if (c->nrows > rows)
		printf("%s(%zu more)\n", lead, c->nrows - rows);
}
