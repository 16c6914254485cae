/* SPDX-License-Identifier: MIT */
/* The maps text of the profile: see mapstext.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "guards.h"
#include "mapstext.h"

#define PROT_READ_ 1
#define PROT_WRITE_ 2

/* The path as the kernel prints it in /proc/PID/maps: a newline, which a
 * file name may hold, becomes "\012" so that the line stays one line. */
static size_t
escaped_path(const char *path, char *out)
{
	size_t n = 0;

	for (; *path != '\0'; path++) {
		if (*path == '\n') {
			if (out)
				memcpy(out + n, "\\012", 4);
			n += 4;
		} else {
			if (out)
				out[n] = *path;
			n++;
		}
	}
	if (out)
		out[n] = '\0';
	return n;
}

/* PATH (escaped_path()'s) with each space as "\040", as the kernel
 * escapes a space in /proc/PID/mountinfo: the brief form's path is one
 * token to Go pprof, which would cut it at a space and then take no
 * build ID.  A string the caller frees, or NULL when out of memory. */
static char *
one_token(const char *path)
{
	size_t n = 0, k = 0;
	const char *p;
	char *out;

	for (p = path; *p != '\0'; p++)
		n += *p == ' ' ? 4 : 1;
	out = malloc(n + 1);
	if (out == NULL)
		return NULL;
	for (p = path; *p != '\0'; p++) {
		if (*p == ' ') {
			memcpy(out + k, "\\040", 4);
			k += 4;
		} else {
			out[k++] = *p;
		}
	}
	out[k] = '\0';
	return out;
}

/* The maps text as it grows: its size doubles, so that a text of many
 * lines costs time linear in its length. */
struct text {
	char *buf;
	size_t len, cap;
};

static int
append(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
append(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (t->cap - t->len <= (size_t)n) {
		char *nb = grow(t->buf, &t->cap,
				grow_add(t->len, (size_t)n + 1), 1, 4096);

		if (nb == NULL)
			return -1;
		t->buf = nb;
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
	return 0;
}

/*
 * One mapping: with a build id, first the form Go pprof takes it from
 * ("start-end perms path (@offset) buildid", which google-pprof skips),
 * then always the /proc/PID/maps line, which both read (Go pprof uses
 * the first line that covers an address).
 */
static int
append_mapping(struct text *t, uint64_t start, uint64_t end,
	       uint64_t off, const struct mapping *m, const char *name,
	       uint8_t bsize, const uint8_t *bid)
{
	char perms[5], hex[41], *path;
	size_t k;
	int ret = 0;

	perms[0] = (m->prot & PROT_READ_) ? 'r' : '-';
	perms[1] = (m->prot & PROT_WRITE_) ? 'w' : '-';
	perms[2] = 'x';
	/* Always 'p': Go pprof's maps pattern has no 's' and would drop the
	 * path of a shared executable mapping. */
	perms[3] = 'p';
	perms[4] = '\0';
	path = malloc(escaped_path(name, NULL) + 1);
	if (path == NULL)
		return -1;
	escaped_path(name, path);
	if (bsize > 0) {
		char *brief = one_token(path);

		if (brief == NULL) {
			free(path);
			return -1;
		}
		for (k = 0; k < bsize; k++)
			snprintf(hex + 2 * k, 3, "%02x", bid[k]);
		ret = append(t, "%08llx-%08llx %s %s (@%llx) %s\n",
			     (unsigned long long)start,
			     (unsigned long long)end, perms, brief,
			     (unsigned long long)off, hex);
		free(brief);
	}
	if (ret == 0)
		ret = append(t, "%08llx-%08llx %s %08llx %02x:%02x %llu "
			     "%s\n", (unsigned long long)start,
			     (unsigned long long)end, perms,
			     (unsigned long long)off, m->maj, m->min,
			     (unsigned long long)m->ino, path);
	free(path);
	return ret;
}

static int
cmp_seg(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	return x->pgoff < y->pgoff ? -1 : x->pgoff > y->pgoff;
}

static int
cmp_place_base(const void *a, const void *b)
{
	const struct place *x = *(const struct place *const *)a;
	const struct place *y = *(const struct place *const *)b;
	uint64_t xa = x->base + x->lo, ya = y->base + y->lo;

	return xa < ya ? -1 : xa > ya;
}

/* Add the range of a line written to LINES (room for all made). */
static void
line_add(struct guard_range *lines, size_t *n, uint64_t start, uint64_t end,
	 uint64_t off)
{
	lines[*n].start = start;
	lines[*n].end = end;
	lines[*n].off = off;
	(*n)++;
}

/* The guard lines for the NUNMAPPED addresses UNMAPPED (guards.h),
 * given the NLINES lines LINES written. */
static int
guard_lines(uint64_t *unmapped, size_t nunmapped,
	    struct guard_range *lines, size_t nlines, struct text *text)
{
	struct guard_range *g;
	size_t i, ng;
	int ret = 0;

	if (guards_find(lines, nlines, unmapped, nunmapped, &g, &ng) < 0)
		return -1;
	for (i = 0; i < ng && ret == 0; i++)
		ret = append(text, "%08llx-%08llx r-xp 00000000 00:00 0 %s\n",
			     (unsigned long long)g[i].start,
			     (unsigned long long)g[i].end, GUARDS_NAME);
	free(g);
	return ret;
}

int
mapstext_write(struct place *places, size_t nplaces,
	       const struct mapstext_kernel *kernel, size_t nkernel,
	       uint64_t *unmapped, size_t nunmapped,
	       struct profile *out)
{
	struct place **order;
	struct guard_range *lines;
	struct text text = { out->maps, out->maps_len, out->maps_len };
	size_t i, k, nlines = 0;
	int ret = 0;

	order = malloc((nplaces + 1) * sizeof(*order));
	lines = malloc((bases_nsegs(places, nplaces) + nkernel + 1) *
		       sizeof(*lines));
	if (order == NULL || lines == NULL) {
		free(order);
		free(lines);
		return -1;
	}
	for (i = 0; i < nplaces; i++)
		order[i] = &places[i];
	qsort(order, nplaces, sizeof(*order), cmp_place_base);
	for (i = 0; i < nplaces && ret == 0; i++) {
		struct place *p = order[i];

		qsort(p->segs, p->nsegs, sizeof(*p->segs), cmp_seg);
		for (k = 0; k < p->nsegs && ret == 0; k++) {
			const struct segment *s = &p->segs[k];
			uint64_t start = p->base + s->pgoff;

			ret = append_mapping(&text, start, start + s->len,
					     s->pgoff, s->m, s->m->path,
					     p->build_id_size, p->build_id);
			line_add(lines, &nlines, start, start + s->len,
				 s->pgoff);
		}
	}
	for (i = 0; i < nkernel && ret == 0; i++) {
		const struct mapping *km = kernel[i].m;

		/* Offset 0, not perf's pgoff (the address of _text): Go
		 * pprof gives an address in no mapping to any mapping with
		 * a nonzero offset that has it in [start - offset, start),
		 * lowering that mapping's start, so an offset equal to the
		 * start took every unmapped user frame for the kernel's.
		 * Its symbolizer takes offset 0 for a kernel at its start
		 * (elfexec.go, kernelBase); google-pprof skips the line.
		 * Modules likewise: Go pprof also treats a name in
		 * brackets as one it cannot symbolize; google-pprof reads
		 * no line without a library's name. */
		ret = append_mapping(&text, km->start, km->end, 0, km,
				     kernel[i].name, kernel[i].build_id_size,
				     kernel[i].build_id);
		line_add(lines, &nlines, km->start, km->end, 0);
	}
	if (ret == 0)
		ret = guard_lines(unmapped, nunmapped, lines, nlines, &text);
	out->maps = text.buf;
	out->maps_len = text.len;
	free(order);
	free(lines);
	return ret;
}
