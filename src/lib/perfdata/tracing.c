/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint names from perf's tracing data (see tracing.h).  The layout,
 * as tools/perf/util/trace-event-read.c reads it (trace_report()):
 *   "\x17\x08\x44tracing", a NUL-terminated version string, a byte that
 *   is 1 for big-endian data, a byte for sizeof(long), a u32 page size;
 *   "header_page\0", a u64 size and that many bytes;
 *   "header_event\0", a u64 size and that many bytes;
 *   a u32 count of ftrace formats, each a u64 size and its text;
 *   a u32 count of systems, each a NUL-terminated name, a u32 count of
 *   event formats and each format as a u64 size and its text;
 *   then kallsyms, printk formats and saved command lines (not read).
 * A format's text has the lines "name: NAME" and "ID: NUMBER".
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "cursor.h"
#include "tracing.h"

/* A NUL-terminated string at the cursor: its bytes, *LEN of them, and
 * the cursor past its NUL; NULL (the cursor bad) without one. */
static const char *
cstring(struct cursor *c, size_t *len)
{
	const unsigned char *s = c->base + c->pos, *nul;

	nul = cursor_left(c) ? memchr(s, 0, cursor_left(c)) : NULL;
	if (nul == NULL) {
		cursor_fail(c);
		return NULL;
	}
	*len = (size_t)(nul - s);
	(void)cursor_bytes(c, *len + 1);
	return (const char *)s;
}

/* The value of the line "KEY: VALUE" of format text T[0..N): a pointer
 * to VALUE and *VLEN its length, or NULL. */
static const char *
format_field(const char *t, size_t n, const char *key, size_t *vlen)
{
	size_t klen = strlen(key), i = 0, e;

	while (i < n) {
		for (e = i; e < n && t[e] != '\n'; e++)
			;
		if (e - i > klen && memcmp(t + i, key, klen) == 0) {
			*vlen = e - i - klen;
			return t + i + klen;
		}
		i = e + 1;
	}
	return NULL;
}

/* The decimal number V[0..N), into *ID; false if it is not one. */
static bool
decimal(const char *v, size_t n, uint64_t *id)
{
	size_t i;

	*id = 0;
	if (n == 0 || n > 19)
		return false;
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		*id = *id * 10 + (uint64_t)(v[i] - '0');
	}
	return true;
}

/* Whether the next N bytes at the cursor are S; the cursor moves past
 * them only if they are. */
static bool
expect(struct cursor *c, const char *s, size_t n)
{
	if (cursor_left(c) < n || memcmp(c->base + c->pos, s, n) != 0)
		return false;
	(void)cursor_bytes(c, n);
	return true;
}

/* Step over a section: a u64 size, then that many bytes. */
static void
skip_sized(struct cursor *c)
{
	uint64_t n = cursor_u64(c);

	if (n > cursor_left(c))
		cursor_fail(c);
	else
		(void)cursor_bytes(c, (size_t)n);
}

int
tracing_names(const unsigned char *p, size_t len, tracing_name_fn fn,
	      void *arg, size_t *bad_at)
{
	static const char magic[] = "\x17\x08\x44tracing";
	struct cursor c;
	const char *sys, *text, *name, *idv;
	size_t syslen, namelen, idlen, vlen;
	uint32_t nsys, nev, i, j;
	uint64_t size, id;

	cursor_init(&c, p, len, 0, false);
	if (!expect(&c, magic, 10))
		goto bad;
	(void)cstring(&c, &vlen);		/* version */
	c.big_endian = cursor_u8(&c) != 0;
	(void)cursor_u8(&c);			/* sizeof(long) */
	(void)cursor_u32(&c);			/* page size */
	if (!expect(&c, "header_page", 12))
		goto bad;
	skip_sized(&c);
	if (!expect(&c, "header_event", 13))
		goto bad;
	skip_sized(&c);
	nev = cursor_u32(&c);			/* ftrace formats */
	for (j = 0; j < nev && cursor_ok(&c); j++)
		skip_sized(&c);
	nsys = cursor_u32(&c);
	for (i = 0; i < nsys && cursor_ok(&c); i++) {
		sys = cstring(&c, &syslen);
		nev = cursor_u32(&c);
		for (j = 0; j < nev && cursor_ok(&c); j++) {
			size = cursor_u64(&c);
			if (size > cursor_left(&c)) {
				cursor_fail(&c);
				break;
			}
			text = (const char *)cursor_bytes(&c, (size_t)size);
			name = format_field(text, (size_t)size, "name: ",
					    &namelen);
			idv = format_field(text, (size_t)size, "ID: ", &idlen);
			if (name == NULL || idv == NULL ||
			    !decimal(idv, idlen, &id))
				continue;
			if (!fn(arg, id, sys, syslen, name, namelen, text,
				(size_t)size))
				return 1;
		}
	}
	if (cursor_ok(&c))
		return 0;
bad:
	*bad_at = (size_t)cursor_err_offset(&c);
	return -1;
}
