/* SPDX-License-Identifier: MIT */
/* Folded stacks: see folded.h. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "fdout.h"
#include "folded.h"
#include "grow.h"
#include "hashtab.h"

/* The distinct lines, each NUL-ended in TEXT at off[i], and their
 * counts. */
struct lines {
	char *text;
	size_t len, cap;
	size_t *off;
	uint64_t *count;
	size_t n, cap_lines;
	struct hashtab index;
	bool failed;
};

static void
put(struct lines *l, const char *s, size_t n)
{
	if (l->failed)
		return;
	if (l->cap - l->len < n) {
		char *nt = grow(l->text, &l->cap, grow_add(l->len, n), 1,
				1 << 16);

		if (nt == NULL) {
			l->failed = true;
			return;
		}
		l->text = nt;
	}
	memcpy(l->text + l->len, s, n);
	l->len += n;
}

static void
put_str(struct lines *l, const char *s)
{
	put(l, s, strlen(s));
}

/* The name from START to the end of L's text made safe: a newline or
 * carriage return as NL (they would end the line), and cut to
 * FOLDED_NAME_MAX bytes and "..." if longer (not in the middle of a
 * UTF-8 sequence). */
static void
sanitize(struct lines *l, size_t start, char nl)
{
	char *s = l->text + start;
	size_t i, n = l->len - start;

	if (l->failed)
		return;
	for (i = 0; i < n; i++)
		if (s[i] == '\n' || s[i] == '\r')
			s[i] = nl;
	if (n <= FOLDED_NAME_MAX)
		return;
	n = FOLDED_NAME_MAX - 3;
	while (n > 0 && (s[n] & 0xc0) == 0x80)
		n--;
	l->len = start + n;
	put_str(l, "...");
}

/* NAME as a frame: made safe (sanitize()), and ';' (which parts
 * frames) as ':'.  False when L has failed. */
static bool
put_frame(struct lines *l, const char *name)
{
	size_t start = l->len, i;

	put_str(l, name);
	sanitize(l, start, ' ');
	if (l->failed)
		return false;
	for (i = start; i < l->len; i++)
		if (l->text[i] == ';')
			l->text[i] = ':';
	return true;
}

/* A function's name as stackcollapse.py writes it: ';' as ':', and with
 * --tidy-java no '<' or '>', no leading 'L', nothing from '('. */
static void
put_name(struct lines *l, const char *name, const struct folded_opts *o)
{
	size_t start = l->len, i, k;
	char *s;

	if (!put_frame(l, name) || !o->tidy_java)
		return;
	s = l->text + start;
	for (i = k = 0; i < l->len - start; i++)
		if (s[i] != '<' && s[i] != '>')
			s[k++] = s[i];
	if (k > 0 && s[0] == 'L') {
		memmove(s, s + 1, k - 1);
		k--;
	}
	for (i = 0; i < k; i++)
		if (s[i] == '(') {
			k = i;
			break;
		}
	l->len = start + k;
}

/*
 * A function's name as FlameGraph's stackcollapse-perf.pl writes it (its
 * default tidy_generic): ';' as ':', nothing from the first '(' that does
 * not open "(anonymous namespace)" unless the name looks like a Go method
 * ("pkg.(*T).M"), no quotes; in a command starting "java" (JAVA), no
 * leading 'L' in a name with a '/' (tidy_java).
 */
static void
put_name_flamegraph(struct lines *l, const char *name, bool java)
{
	size_t start = l->len, i, k, n;
	bool go = false;
	char *s;

	if (!put_frame(l, name))
		return;
	s = l->text + start;
	n = l->len - start;
	/* a Go method: ".(" then ")." further on (S is not NUL-ended) */
	for (i = 0; i + 1 < n && !go; i++)
		if (s[i] == '.' && s[i + 1] == '(')
			for (k = i + 2; k + 1 < n && !go; k++)
				go = s[k] == ')' && s[k + 1] == '.';
	if (!go)
		for (i = 0; i < n; i++)
			if (s[i] == '(' &&
			    (n - i < 21 ||
			     memcmp(s + i, "(anonymous namespace)", 21) != 0)) {
				n = i;
				break;
			}
	for (i = k = 0; i < n; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[k++] = s[i];
	if (java && k > 0 && s[0] == 'L' && memchr(s, '/', k) != NULL) {
		memmove(s, s + 1, k - 1);
		k--;
	}
	l->len = start + k;
}

/* A hash of the N bytes at S, eight at a time. */
static uint64_t
hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n, w;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 31;
	}
	w = 0;
	memcpy(&w, s + i, n - i);
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

/* The line made from START to the end of TEXT: counted COUNT more
 * times, kept if new, else dropped from TEXT. */
static void
add_line(struct lines *l, size_t start, uint64_t count)
{
	struct hashtab_iter it;
	size_t n = l->len - start;
	uint64_t h;
	uint32_t i;

	put(l, "", 1);
	if (l->failed || hashtab_reserve(&l->index, l->n + 1) < 0) {
		l->failed = true;
		return;
	}
	h = hash_bytes(l->text + start, n);
	for (i = hashtab_probe(&l->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&l->index, &it))
		if (memcmp(l->text + l->off[i], l->text + start, n + 1) == 0) {
			l->count[i] = count_add(l->count[i], count);
			l->len = start;
			return;
		}
	if (l->n == l->cap_lines) {
		size_t nc = grow_cap(l->cap_lines, l->n + 1, sizeof(*l->off),
				     1024);
		size_t *no = nc ? grow_realloc(l->off, nc, sizeof(*no)) : NULL;
		uint64_t *ncnt;

		if (no == NULL) {
			l->failed = true;
			return;
		}
		l->off = no;
		ncnt = grow_realloc(l->count, nc, sizeof(*ncnt));
		if (ncnt == NULL) {
			l->failed = true;
			return;
		}
		l->count = ncnt;
		l->cap_lines = nc;
	}
	if (l->n >= HASHTAB_NONE - 1) {
		l->failed = true;
		return;
	}
	l->off[l->n] = start;
	l->count[l->n] = count;
	hashtab_insert(&l->index, &it, (uint32_t)l->n);
	l->n++;
}

/* The first frame: the command, with --include-pid/--include-tid. */
static void
put_comm(struct lines *l, const struct ss_sample *s,
	 const struct folded_opts *o)
{
	char num[32];
	const char *c;
	const char *sep = "-";
	size_t start = l->len;

	for (c = s->comm; *c != '\0'; c++)
		put(l, *c == ' ' ? "_" : c, 1);
	sanitize(l, start, '_');
	if (o->include_pid) {
		snprintf(num, sizeof(num), "%s%" PRId32, sep, s->pid);
		put_str(l, num);
		sep = "/";
	}
	if (o->include_tid) {
		/* stackcollapse-perf.pl's --tid is always comm-PID/TID */
		if (!o->perf_style && !o->include_pid) {
			snprintf(num, sizeof(num), "-%" PRId32, s->pid);
			put_str(l, num);
			sep = "/";
		}
		snprintf(num, sizeof(num), "%s%" PRId32, sep,
			 s->tid >= 0 ? s->tid : s->pid);
		put_str(l, num);
	}
}

/*
 * The text of each location in a line, made once: ";NAME" for each of
 * its functions (with "_[k]" after each of a kernel location's), or
 * ";[unknown]".  Debian's perf 6.1 adds inlined functions to the frames
 * its DWARF unwinding finds, not to those of a callchain: a location of
 * the first kind is named by all its functions (the outermost first),
 * one of the second by its symbol's function alone.
 */
struct segments {
	struct lines text;	/* their text, one after the other */
	size_t *off;		/* location i's from off[i] to off[i + 1] */
};

/* Whether stackcollapse-perf.pl's --kernel marks the frames of a file
 * perf script names PATH: "[...]" (the kernel, a module, but also the
 * vDSO) or a vmlinux, not "[unknown]". */
static bool
flamegraph_kernel(const char *path)
{
	size_t n = strlen(path);

	return (path[0] == '[' ||
		(n >= 7 && strcmp(path + n - 7, "vmlinux") == 0)) &&
	       strstr(path, "unknown") == NULL;
}

/* An unnamed location in the file perf script names PATH (NULL: none),
 * as stackcollapse-perf.pl names it: "[BASENAME]", or "[unknown]". */
static void
put_unnamed_flamegraph(struct lines *l, const char *path)
{
	const char *base;

	if (path == NULL || path[0] == '\0' ||
	    strcmp(path, "[unknown]") == 0) {
		put_str(l, "[unknown]");
		return;
	}
	base = strrchr(path, '/');
	put(l, "[", 1);
	put_name_flamegraph(l, base != NULL ? base + 1 : path, false);
	put(l, "]", 1);
}

/* The segments of SS's locations, named for a command that starts
 * "java" if JAVA (stackcollapse-perf.pl's names differ there). */
static int
segments_make(struct segments *g, const struct symstacks *ss,
	      const struct folded_opts *o, bool java)
{
	size_t i;
	uint32_t j, from;

	memset(g, 0, sizeof(*g));
	g->off = malloc((ss->nlocs + 1) * sizeof(*g->off));
	if (g->off == NULL)
		return -1;
	for (i = 0; i < ss->nlocs; i++) {
		const struct ss_location *loc = &ss->locs[i];
		const struct ss_mapping *m =
			loc->map != 0 ? &ss->maps[loc->map - 1] : NULL;
		const char *path = m == NULL ? NULL
				   : m->dso != NULL ? m->dso : m->path;
		bool kernel = o->annotate_kernel && loc->map != 0 &&
			      (o->perf_style ? ss->maps[loc->map - 1].kernel
					     : flamegraph_kernel(path));

		g->off[i] = g->text.len;
		if (loc->nlines == 0) {
			if (o->perf_style) {
				put_str(&g->text, ";[unknown]");
			} else {
				put(&g->text, ";", 1);
				put_unnamed_flamegraph(&g->text, path);
			}
			if (kernel)
				put_str(&g->text, "_[k]");
			continue;
		}
		from = loc->unwound ? 0 : loc->nlines - 1;
		for (j = loc->nlines; j-- > from;) {
			const char *name =
				ss->funcs[ss->lines[loc->line + j].func].name;

			/* stackcollapse-perf.pl skips a frame whose name
			 * starts with '(' (as it skips "(comm)" lines):
			 * "(anonymous namespace)::f" goes */
			if (!o->perf_style && name[0] == '(')
				continue;
			put(&g->text, ";", 1);
			if (o->perf_style)
				put_name(&g->text, name, o);
			else
				put_name_flamegraph(&g->text, name, java);
			if (kernel)
				put_str(&g->text, "_[k]");
		}
	}
	g->off[ss->nlocs] = g->text.len;
	return g->text.failed ? -1 : 0;
}

static void
segments_release(struct segments *g)
{
	free(g->text.text);
	free(g->off);
}

/* The line of sample S: its frames from the root. */
static void
make_line(struct lines *l, const struct symstacks *ss,
	  const struct segments *g, const struct ss_sample *s,
	  const struct folded_opts *o)
{
	size_t start = l->len;
	bool first = true;
	uint32_t k;

	if (!o->no_comm) {
		put_comm(l, s, o);
		first = false;
	}
	for (k = o->comm_only ? 0 : s->n; k-- > 0;) {
		uint32_t i = ss->pool[s->off + k];
		size_t from = g->off[i], to = g->off[i + 1];

		if (from == to)
			continue;	/* a frame left out (flamegraph) */
		/* the first frame of a line has no ';' before it */
		if (first)
			from++;
		first = false;
		put(l, g->text.text + from, to - from);
	}
	add_line(l, start, o->periods ? s->period : s->count);
}

/* A line to sort: where its text is, and its count. */
struct ref {
	size_t off;
	uint64_t count;
};

static const char *sort_text;

/* Python's sorted() of str: by code point, which is the order of the
 * bytes of UTF-8. */
static int
cmp_lines(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;

	return strcmp(sort_text + x->off, sort_text + y->off);
}

int
folded_write(const struct symstacks *ss, const struct folded_opts *o,
	     int fd, struct p2g_error *err)
{
	struct lines l;
	struct segments g, gj;
	bool java = false;
	struct fdout *w = NULL;
	struct ref *order = NULL;
	char num[32];
	size_t i;
	int ret = -1;

	memset(&l, 0, sizeof(l));
	memset(&gj, 0, sizeof(gj));
	if (segments_make(&g, ss, o, false) < 0)
		l.failed = true;
	/* stackcollapse-perf.pl names Java's frames apart */
	for (i = 0; i < ss->nsamples && !o->perf_style && !java; i++)
		java = strncmp(ss->samples[i].comm, "java", 4) == 0;
	if (java && segments_make(&gj, ss, o, true) < 0)
		l.failed = true;
	for (i = 0; i < ss->nsamples && !l.failed; i++)
		make_line(&l, ss,
			  java && strncmp(ss->samples[i].comm, "java", 4) == 0
				  ? &gj : &g,
			  &ss->samples[i], o);
	segments_release(&g);
	segments_release(&gj);
	hashtab_free(&l.index);
	w = malloc(sizeof(*w));
	order = malloc((l.n ? l.n : 1) * sizeof(*order));
	if (l.failed || w == NULL || order == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto out;
	}
	for (i = 0; i < l.n; i++) {
		order[i].off = l.off[i];
		order[i].count = o->divisor > 1 ? l.count[i] / o->divisor
						: l.count[i];
	}
	/* qsort's comparison gets no context: the text is given in a
	 * static for the call */
	sort_text = l.text;
	qsort(order, l.n, sizeof(*order), cmp_lines);
	sort_text = NULL;
	fdout_init(w, fd, err);
	for (i = 0; i < l.n; i++) {
		const char *s = l.text + order[i].off;

		fdout_bytes(w, s, strlen(s));
		snprintf(num, sizeof(num), " %" PRIu64 "\n", order[i].count);
		fdout_bytes(w, num, strlen(num));
	}
	ret = fdout_flush(w);
out:
	free(w);
	free(order);
	free(l.text);
	free(l.off);
	free(l.count);
	hashtab_free(&l.index);
	return ret;
}
