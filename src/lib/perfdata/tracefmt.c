/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint formats and their fields (see tracefmt.h).  A field line of
 * a format reads, tab-separated:
 *   field:TYPE NAME[ARRAY];  offset:N;  size:N;  signed:N;
 * NAME is the last identifier of the declaration before its array
 * bounds; "__data_loc char[] name" (a dynamic array) also ends in NAME.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "tracefmt.h"

static bool
is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* The number after KEY in L[0..N) ("offset:24;"), into *V; false when
 * there is none. */
static bool
keyed(const char *l, size_t n, const char *key, uint32_t *v)
{
	size_t klen = strlen(key), i, k;
	uint64_t x = 0;

	for (i = 0; i + klen <= n; i++) {
		if (memcmp(l + i, key, klen) != 0)
			continue;
		k = i + klen;
		if (k >= n || l[k] < '0' || l[k] > '9')
			return false;
		for (; k < n && l[k] >= '0' && l[k] <= '9'; k++) {
			x = x * 10 + (uint64_t)(l[k] - '0');
			if (x > UINT32_MAX)
				return false;
		}
		*v = (uint32_t)x;
		return true;
	}
	return false;
}

/* The field of line L[0..N) into F (its name allocated): 1, 0 when the
 * line is no field, -1 when out of memory. */
static int
parse_field(const char *l, size_t n, struct tracefmt_field *f)
{
	size_t i = 0, end, start;
	uint32_t sgn = 0;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (n - i < 6 || memcmp(l + i, "field:", 6) != 0)
		return 0;
	i += 6;
	for (end = i; end < n && l[end] != ';'; end++)
		;
	if (end == n || !keyed(l + end, n - end, "offset:", &f->offset) ||
	    !keyed(l + end, n - end, "size:", &f->size))
		return 0;
	(void)keyed(l + end, n - end, "signed:", &sgn);
	f->is_signed = sgn != 0;
	/* the declaration's array bounds, then its name */
	while (end > i && l[end - 1] == ']')
		while (end > i && l[--end] != '[')
			;
	while (end > i && !is_ident(l[end - 1]))
		end--;
	for (start = end; start > i && is_ident(l[start - 1]); start--)
		;
	if (start == end)
		return 0;
	f->name = malloc(end - start + 1);
	if (f->name == NULL)
		return -1;
	memcpy(f->name, l + start, end - start);
	f->name[end - start] = '\0';
	return 1;
}

static void
event_release(struct tracefmt_event *e)
{
	size_t i;

	for (i = 0; i < e->nfields; i++)
		free(e->fields[i].name);
	free(e->fields);
	free(e->name);
}

int
tracefmt_add(struct tracefmt *t, uint64_t id, const char *sys, size_t syslen,
	     const char *name, size_t namelen, const char *text,
	     size_t textlen)
{
	struct tracefmt_event e, *nv;
	struct tracefmt_field f;
	size_t i = 0, eol, nlines = 1, k;
	int r;

	memset(&e, 0, sizeof(e));
	e.id = id;
	for (k = 0; k < textlen; k++)
		nlines += text[k] == '\n';
	e.name = malloc(syslen + namelen + 2);
	e.fields = malloc(nlines * sizeof(*e.fields));
	if (e.name == NULL || e.fields == NULL)
		goto nomem;
	memcpy(e.name, sys, syslen);
	e.name[syslen] = ':';
	memcpy(e.name + syslen + 1, name, namelen);
	e.name[syslen + 1 + namelen] = '\0';
	while (i < textlen) {
		for (eol = i; eol < textlen && text[eol] != '\n'; eol++)
			;
		r = parse_field(text + i, eol - i, &f);
		if (r < 0)
			goto nomem;
		if (r > 0)
			e.fields[e.nfields++] = f;
		i = eol + 1;
	}
	for (k = 0; k < t->n; k++)
		if (t->ev[k].id == id) {
			event_release(&t->ev[k]);
			t->ev[k] = e;
			return 0;
		}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;

		nv = realloc(t->ev, cap * sizeof(*nv));
		if (nv == NULL)
			goto nomem;
		t->ev = nv;
		t->cap = cap;
	}
	t->ev[t->n++] = e;
	return 0;
nomem:
	event_release(&e);
	return -1;
}

void
tracefmt_release(struct tracefmt *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		event_release(&t->ev[i]);
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

const struct tracefmt_event *
tracefmt_find(const struct tracefmt *t, uint64_t id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->ev[i].id == id)
			return &t->ev[i];
	return NULL;
}

const struct tracefmt_field *
tracefmt_field(const struct tracefmt_event *e, const char *name)
{
	size_t i;

	if (e == NULL)
		return NULL;
	for (i = 0; i < e->nfields; i++)
		if (strcmp(e->fields[i].name, name) == 0)
			return &e->fields[i];
	return NULL;
}

bool
tracefmt_read(const struct tracefmt_field *f, const unsigned char *raw,
	      size_t len, bool big, uint64_t *v)
{
	const unsigned char *p;

	if (f == NULL || f->offset > len || f->size > len - f->offset)
		return false;
	p = raw + f->offset;
	switch (f->size) {
	case 1:
		*v = f->is_signed ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
		return true;
	case 2:
		*v = load16(p, big);
		if (f->is_signed)
			*v = (uint64_t)(int64_t)(int16_t)*v;
		return true;
	case 4:
		*v = load32(p, big);
		if (f->is_signed)
			*v = (uint64_t)(int64_t)(int32_t)*v;
		return true;
	case 8:
		*v = load64(p, big);
		return true;
	}
	return false;
}
