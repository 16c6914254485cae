/* SPDX-License-Identifier: MIT */
/* gperfcheck's reports: see checkreport.h. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkreport.h"
#include "count.h"
#include "message.h"
#include "profcheck.h"
#include "stacktab.h"

/* The threshold options of share check C, in BUF at USED: ", --min-share
 * P%", ", --max-share P%" or ", in some sample".  The new length. */
static size_t
share_options(const struct check *c, char *buf, size_t len, size_t used)
{
	if (c->have_min && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", --min-share %g%%", c->min_share);
	if (c->have_max && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", --max-share %g%%", c->max_share);
	if (!c->have_min && !c->have_max && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 ", in some sample");
	return used < len ? used : len;
}

/* " (did you mean A, B or C?)" for the N names of V, in BUF at USED. */
static size_t
did_you_mean(const char *const *v, size_t n, char *buf, size_t len,
	     size_t used)
{
	size_t i;

	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? " (did you mean "
					 : i + 1 < n ? ", " : " or ", v[i]);
	if (n > 0 && used < len)
		used += (size_t)snprintf(buf + used, len - used, "?)");
	return used < len ? used : len;
}

/* The share of function or mapping check C in R. */
static void
eval_share(const struct check *c, const struct profstats *s,
	   struct check_result *r)
{
	bool fn = c->kind == CHECK_FUNCTION;
	uint64_t flat, cum;
	char *buf = r->text;
	size_t len = sizeof(r->text), used;
	int known;

	if (fn)
		profstats_function(s, c->name, &flat, &cum);
	else
		profstats_mapping(s, c->name, &flat, &cum);
	r->x = c->flat ? flat : cum;
	r->total = s->samples;
	r->value = profstats_percent(r->x, s->samples);
	r->measure = c->flat ? "flat" : "cum";
	r->known = true;
	if (cum == 0) {
		known = profstats_known(s, !fn, c->name, r->close,
					CHECK_CLOSE, &r->nclose);
		/* out of memory: the name is not refused for it */
		r->known = known != 0;
	}
	/* without a share option: in some sample */
	if (!c->have_min && !c->have_max) {
		r->op[0] = ">";
		r->threshold[0] = 0;
		r->holds[0] = r->x > 0;
		r->nparts = 1;
	}
	if (c->have_min) {
		r->op[r->nparts] = ">=";
		r->threshold[r->nparts] = c->min_share;
		r->holds[r->nparts++] = r->value >= c->min_share;
	}
	if (c->have_max) {
		r->op[r->nparts] = "<=";
		r->threshold[r->nparts] = c->max_share;
		r->holds[r->nparts++] = r->value <= c->max_share;
	}
	if (!r->known) {
		used = (size_t)snprintf(buf, len, fn ?
			"function %s: no function has that name, in the "
			"profile or in the symbols of its files" :
			strchr(c->name, '/') ?
			"mapping %s: no line of the maps text has that path" :
			"mapping %s: no line of the maps text has a file of "
			"that name", c->name);
		used = did_you_mean(r->close, r->nclose, buf, len,
				    used < len ? used : len);
		share_options(c, buf, len, used);
		r->holds[0] = r->holds[1] = false;
		r->ok = false;
		return;
	}
	used = (size_t)snprintf(buf, len, "%s %s: %s %.1f%% (%" PRIu64
				" of %" PRIu64 " samples)",
				fn ? "function" : "mapping", c->name,
				c->flat ? "flat" : "cumulative", r->value,
				r->x, s->samples);
	used = share_options(c, buf, len, used < len ? used : len);
	r->ok = r->holds[0] && (r->nparts < 2 || r->holds[1]);
	if (count_saturated(s->samples) && used < len) {
		snprintf(buf + used, len - used, " (a sum of 2^64-1 or more "
			 "samples: not exact)");
		r->holds[0] = r->holds[1] = false;
		r->ok = false;
	}
}

void
checkreport_eval(const struct check *c, const struct profile *p,
		 const struct profstats *s, struct check_result *r)
{
	uint64_t n = s->samples;
	char *buf = r->text;
	size_t len = sizeof(r->text);

	memset(r, 0, sizeof(*r));
	r->nparts = 1;
	r->total = n;
	r->x = n;
	r->value = (double)n;
	r->threshold[0] = (double)c->n;
	switch (c->kind) {
	case CHECK_MIN_SAMPLES:
		snprintf(buf, len, "%" PRIu64 " samples, --min-samples %"
			 PRIu64, n, c->n);
		r->op[0] = ">=";
		r->ok = n >= c->n;
		break;
	case CHECK_MAX_SAMPLES:
		snprintf(buf, len, "%" PRIu64 " samples, --max-samples %"
			 PRIu64, n, c->n);
		r->op[0] = "<=";
		r->ok = n <= c->n;
		break;
	case CHECK_PERIOD:
		snprintf(buf, len, "period %" PRIu64 " us, --period-us %"
			 PRIu64, p->period_us, c->n);
		r->op[0] = "==";
		r->value = (double)p->period_us;
		r->ok = p->period_us == c->n;
		break;
	case CHECK_SYMBOLIZABLE:
		r->x = s->symbolized;
		r->value = profstats_percent(s->symbolized, n);
		r->threshold[0] = c->percent;
		r->measure = "flat";
		snprintf(buf, len, "a leaf with a symbol: %.1f%% (%" PRIu64
			 " of %" PRIu64 " samples), --symbolizable %g%%",
			 r->value, s->symbolized, n, c->percent);
		r->op[0] = ">=";
		r->ok = r->value >= c->percent;
		break;
	case CHECK_FUNCTION:
	case CHECK_MAPPING:
		r->nparts = 0;
		eval_share(c, s, r);
		return;
	}
	r->holds[0] = r->ok;
}

/* What check C asserts, in BUF: its line without the measurement. */
static void
describe(const struct check *c, char *buf, size_t len)
{
	size_t used;

	switch (c->kind) {
	case CHECK_MIN_SAMPLES:
		snprintf(buf, len, "--min-samples %" PRIu64, c->n);
		return;
	case CHECK_MAX_SAMPLES:
		snprintf(buf, len, "--max-samples %" PRIu64, c->n);
		return;
	case CHECK_PERIOD:
		snprintf(buf, len, "--period-us %" PRIu64, c->n);
		return;
	case CHECK_SYMBOLIZABLE:
		snprintf(buf, len, "--symbolizable %g%%", c->percent);
		return;
	case CHECK_FUNCTION:
	case CHECK_MAPPING:
		break;
	}
	used = (size_t)snprintf(buf, len, "%s %s, %s",
				c->kind == CHECK_FUNCTION ? "function"
							  : "mapping",
				c->name, c->flat ? "flat" : "cumulative");
	share_options(c, buf, len, used < len ? used : len);
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
	struct check_result res;
	bool all = true;
	size_t i;

	for (i = 0; i < n; i++) {
		checkreport_eval(&c[i], p, s, &res);
		all = all && res.ok;
		if (r->tap) {
			tap_line(r, res.ok, file, res.text, NULL);
		} else if (!r->quiet) {
			message_put_safe(stdout, file);
			fputs(": ", stdout);
			message_put_safe(stdout, res.text);
			puts(res.ok ? ": ok" : ": FAIL");
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
		  const struct p2g_error *err, const struct check *c, size_t n)
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
	for (i = 0; i < n; i++) {
		describe(&c[i], text, sizeof(text));
		tap_line(r, true, file, text, "SKIP not a valid profile");
	}
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
checkreport_warnings(const struct profile *p, bool verbose,
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
	/* libprofiler's hash table repeats stacks as it evicts them:
	 * both pprofs sum them, so only -v tells */
	if (n.duplicate_records && verbose)
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
		/* one function a line: names can be long (C++) */
		printf("  top functions (leaf samples):\n");
		for (k = 0; k < ntop; k++) {
			fputs("    ", stdout);
			message_put_safe(stdout, top[k]->name);
			printf(" %" PRIu64 " (%.1f%%)\n", top[k]->flat,
			       profstats_percent(top[k]->flat, s->samples));
		}
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

/* The JSON names of the check kinds. */
static const char *const kind_names[] = {
	[CHECK_MIN_SAMPLES] = "min_samples",
	[CHECK_MAX_SAMPLES] = "max_samples",
	[CHECK_PERIOD] = "period_us",
	[CHECK_SYMBOLIZABLE] = "symbolizable",
	[CHECK_FUNCTION] = "function",
	[CHECK_MAPPING] = "mapping",
};

/* A number as JSON: integers exactly, others to 4 decimals. */
static void
json_num(double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		printf("%.0f", v);
	else
		printf("%.4f", v);
}

/* Check C of P (S its shares) as JSON objects, one per comparison (a
 * share with --min-share and --max-share is two); *N counts them. */
static void
json_check(const struct check *c, const struct profile *p,
	   const struct profstats *s, size_t *n)
{
	struct check_result r;
	size_t i, k;

	checkreport_eval(c, p, s, &r);
	for (i = 0; i < r.nparts; i++) {
		printf("%s{\"kind\":\"%s\",\"name\":", (*n)++ ? "," : "",
		       kind_names[c->kind]);
		if (c->name != NULL)
			json_str(c->name);
		else
			printf("null");
		printf(",\"measure\":");
		if (r.measure != NULL)
			printf("\"%s\"", r.measure);
		else
			printf("null");
		printf(",\"operator\":\"%s\",\"value\":", r.op[i]);
		json_num(r.value);
		printf(",\"threshold\":");
		json_num(r.threshold[i]);
		printf(",\"samples\":%" PRIu64 ",\"total\":%" PRIu64
		       ",\"verdict\":\"%s\"", r.x, r.total,
		       r.holds[i] ? "ok" : "fail");
		if (c->kind == CHECK_FUNCTION || c->kind == CHECK_MAPPING) {
			printf(",\"known\":%s", r.known ? "true" : "false");
			if (!r.known) {
				printf(",\"did_you_mean\":[");
				for (k = 0; k < r.nclose; k++) {
					if (k)
						putchar(',');
					json_str(r.close[k]);
				}
				putchar(']');
			}
		}
		printf(",\"check\":");
		json_str(r.text);
		printf(",\"ok\":%s}", r.ok ? "true" : "false");
	}
}

void
checkreport_json(const char *file, const struct profile *p,
		 const struct profstats *s, const struct p2g_error *err,
		 int status, bool verbose, const struct check *c, size_t n)
{
	struct facts f;
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
	checkreport_warnings(p, verbose, json_warning, &nw);
	printf("],\"checks\":[");
	for (k = 0, nw = 0; k < n; k++)
		json_check(&c[k], p, s, &nw);
	printf("]}\n");
}

/* The words of the verdicts, of a row and of a comparison. */
static const char *const row_words[] = {
	[PROFSTATS_SAME] = "same",
	[PROFSTATS_DIFFERENT] = "different",
	[PROFSTATS_UNSURE] = "unsure",
};

static const char *
points(double v)
{
	return v == 1 ? "point" : "points";
}

/* --compare's first line, in TEXT. */
static void
compare_verdict(const char *fa, const char *fb, const struct profile *a,
		const struct profile *b, const struct profstats_cmp *c,
		char *text, size_t len)
{
	uint64_t na = profile_samples(a), nb = profile_samples(b);
	size_t used;

	if (c->inexact) {
		snprintf(text, len, "%s and %s: a sum of 2^64-1 or more "
			 "samples: the shares are not exact", fa, fb);
		return;
	}
	switch (c->verdict) {
	case PROFSTATS_SAME:
		snprintf(text, len, "%s and %s: the same shares: each of "
			 "the %zu functions and mappings within %g %s "
			 "(%g%% confidence), %" PRIu64 " and %" PRIu64
			 " samples (%zu functions in both)", fa, fb,
			 c->nrows, c->tolerance, points(c->tolerance),
			 c->confidence, na, nb, c->nfns_both);
		return;
	case PROFSTATS_DIFFERENT:
		snprintf(text, len, "%s and %s: different shares: %zu of "
			 "%zu functions and mappings differ, beyond chance "
			 "and not within %g %s (%g%% confidence), %" PRIu64
			 " and %" PRIu64 " samples", fa, fb, c->ndifferent,
			 c->nrows, c->tolerance, points(c->tolerance),
			 c->confidence, na, nb);
		return;
	case PROFSTATS_UNSURE:
		break;
	}
	used = (size_t)snprintf(text, len, "%s and %s: too few samples to "
				"tell: %" PRIu64 " and %" PRIu64 " samples",
				fa, fb, na, nb);
	if (used >= len || c->nunsure == 0)
		return;
	used += (size_t)snprintf(text + used, len - used,
				 " tell from chance only differences of "
				 "about %.1f points or more; for a tolerance "
				 "of %g %s", c->detectable, c->tolerance,
				 points(c->tolerance));
	if (used >= len)
		return;
	if (c->needed > (na < nb ? na : nb))
		snprintf(text + used, len - used, ", about %" PRIu64
			 " samples each would be needed (%zu of %zu "
			 "functions and mappings unsure at %g%% confidence)",
			 c->needed, c->nunsure, c->nrows, c->confidence);
	else
		snprintf(text + used, len - used, ", some share differs by "
			 "about the tolerance itself (%zu of %zu functions "
			 "and mappings unsure at %g%% confidence)",
			 c->nunsure, c->nrows, c->confidence);
}

/* --compare --json: one object, every row in it. */
static void
compare_json(const char *fa, const char *fb, const struct profile *a,
	     const struct profile *b, const struct profstats_cmp *c,
	     const char *text)
{
	static const char *const words[] = {
		[PROFSTATS_SAME] = "same",
		[PROFSTATS_DIFFERENT] = "different",
		[PROFSTATS_UNSURE] = "too few samples",
	};
	size_t k;

	printf("{\"a\":");
	json_str(fa);
	printf(",\"b\":");
	json_str(fb);
	printf(",\"status\":%d,\"verdict\":\"%s\",\"message\":",
	       c->inexact || c->verdict == PROFSTATS_DIFFERENT ? 1
	       : c->verdict == PROFSTATS_UNSURE ? 3 : 0,
	       c->inexact ? "not exact" : words[c->verdict]);
	json_str(text);
	printf(",\"samples_a\":%" PRIu64 ",\"samples_b\":%" PRIu64
	       ",\"period_us_a\":%" PRIu64 ",\"period_us_b\":%" PRIu64
	       ",\"tolerance\":", profile_samples(a), profile_samples(b),
	       a->period_us, b->period_us);
	json_num(c->tolerance);
	printf(",\"confidence\":");
	json_num(c->confidence);
	printf(",\"tests\":%zu,\"unnamed_a\":%" PRIu64 ",\"unnamed_b\":%"
	       PRIu64, c->ntests, c->unnamed_a, c->unnamed_b);
	if (c->verdict == PROFSTATS_UNSURE && c->nunsure > 0) {
		printf(",\"detectable\":");
		json_num(c->detectable);
		printf(",\"needed_samples\":%" PRIu64, c->needed);
	}
	printf(",\"rows\":[");
	for (k = 0; k < c->nrows; k++) {
		const struct profstats_row *w = &c->rows[k];

		printf("%s{\"kind\":\"%s\",\"name\":", k ? "," : "",
		       w->mapping ? "mapping" : "function");
		json_str(w->name);
		printf(",\"measure\":\"%s\",\"operator\":\"within\","
		       "\"value\":", w->cum ? "cum" : "flat");
		json_num(w->diff);
		printf(",\"low\":");
		json_num(w->lo);
		printf(",\"high\":");
		json_num(w->hi);
		printf(",\"threshold\":");
		json_num(c->tolerance);
		printf(",\"share_a\":");
		json_num(w->cum ? w->cum_a : w->flat_a);
		printf(",\"share_b\":");
		json_num(w->cum ? w->cum_b : w->flat_b);
		printf(",\"samples_a\":%" PRIu64 ",\"samples_b\":%" PRIu64
		       ",\"total_a\":%" PRIu64 ",\"total_b\":%" PRIu64
		       ",\"flat_a\":%" PRIu64 ",\"flat_b\":%" PRIu64
		       ",\"cum_a\":%" PRIu64 ",\"cum_b\":%" PRIu64
		       ",\"p_value\":",
		       w->cum ? w->ncum_a : w->nflat_a,
		       w->cum ? w->ncum_b : w->nflat_b, profile_samples(a),
		       profile_samples(b), w->nflat_a, w->nflat_b,
		       w->ncum_a, w->ncum_b);
		printf("%.6g", w->p);
		printf(",\"verdict\":\"%s\"}", row_words[w->verdict]);
	}
	printf("]}\n");
}

/* The heading of the bounds column, in BUF. */
static const char *
bounds_head(const struct profstats_cmp *c, char *buf, size_t len)
{
	snprintf(buf, len, "%g%% bounds", c->confidence);
	return buf;
}

void
checkreport_compare(struct report *r, const char *fa, const char *fb,
		    const struct profile *a, const struct profile *b,
		    const struct profstats_cmp *c, bool json, size_t rows)
{
	const char *lead = r->tap ? "# " : "";
	char text[2048];
	char bounds[48];
	size_t k;

	if (r->quiet)
		return;
	compare_verdict(fa, fb, a, b, c, text, sizeof(text));
	if (json) {
		compare_json(fa, fb, a, b, c, text);
		return;
	}
	if (r->tap) {
		checkreport_plan(r, 1);
		tap_line(r, !c->inexact && c->verdict != PROFSTATS_DIFFERENT,
			 "--compare", text,
			 !c->inexact && c->verdict == PROFSTATS_UNSURE
			 ? "SKIP too few samples to tell" : NULL);
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
	/* shares to two decimals and the difference with its bounds, so
	 * that no verdict hides behind rounding */
	printf("%s  flat A   flat B    cum A    cum B  A-B of      "
	       "%-20s verdict    name\n", lead, bounds_head(c, bounds,
						       sizeof(bounds)));
	for (k = 0; k < c->nrows && k < rows; k++) {
		const struct profstats_row *w = &c->rows[k];

		snprintf(bounds, sizeof(bounds), "[%+.2f, %+.2f]", w->lo,
			 w->hi);
		printf("%s%7.2f%% %7.2f%% %7.2f%% %7.2f%%  %-4s %+7.2f  %-20s "
		       "%-10s ", lead, w->flat_a, w->flat_b, w->cum_a,
		       w->cum_b, w->cum ? "cum" : "flat", w->diff, bounds,
		       row_words[w->verdict]);
		if (w->mapping)
			fputs("mapping ", stdout);
		message_put_safe(stdout, w->name);
		putchar('\n');
	}
	if (c->nrows > rows)
		printf("%s(%zu more)\n", lead, c->nrows - rows);
}
