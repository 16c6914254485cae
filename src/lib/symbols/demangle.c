/* SPDX-License-Identifier: MIT */
/* C++ names as perf shows them: see demangle.h. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>
#include <setjmp.h>

/* The name being demangled, and where to go once it is too long. */
struct out {
	char buf[DEMANGLE_BUF];
	size_t len;
	jmp_buf full;
};

/* libiberty's callback: N more bytes of the name at S. */
static void
out_put(const char *s, size_t n, void *ctx)
{
	struct out *o = ctx;

	if (n > DEMANGLE_MAX - o->len) {
		/* and the first byte left out, for the cut */
		memcpy(o->buf + o->len, s, DEMANGLE_MAX + 1 - o->len);
		o->len = DEMANGLE_MAX;
		/* the callback demanglers allocate nothing on the heap
		 * (their state is on the stack): leaving them is safe */
		longjmp(o->full, 1);
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

size_t
demangle_into(const char *name, char *buf)
{
	struct out *o;
	size_t len = 0;
	int ok;

	/* only names the C++ ABI mangles (as perf's Rust names are too):
	 * never a C name that a D or Ada demangler would read */
	if (name[0] != '_' || name[1] != 'Z')
		return 0;
	/* on the heap: its contents survive the longjmp() */
	o = malloc(sizeof(*o));
	if (o == NULL)
		return 0;
	o->len = 0;
	if (setjmp(o->full) == 0) {
		/* cplus_demangle()'s order: a legacy Rust name, then the
		 * C++ ABI's */
		ok = rust_demangle_callback(name, DMGL_NO_OPTS, out_put, o);
		if (!ok) {
			o->len = 0;
			ok = cplus_demangle_v3_callback(name, DMGL_NO_OPTS,
							out_put, o);
		}
	} else {
		/* cut at a UTF-8 character's start */
		while (o->len > 0 && (o->buf[o->len] & 0xc0) == 0x80)
			o->len--;
		memcpy(o->buf + o->len, "...", 3);
		o->len += 3;
		ok = 1;
	}
	if (ok && o->len > 0) {
		memcpy(buf, o->buf, o->len);
		buf[o->len] = '\0';
		len = o->len;
	}
	free(o);
	return len;
}

bool
demangle_available(void)
{
	return true;
}
#else
size_t
demangle_into(const char *name, char *buf)
{
	(void)name;
	(void)buf;
	return 0;
}

bool
demangle_available(void)
{
	return false;
}
#endif

char *
demangle_name(const char *name)
{
	char buf[DEMANGLE_BUF];
	size_t len = demangle_into(name, buf);
	char *r;

	if (len == 0 || (r = malloc(len + 1)) == NULL)
		return NULL;
	memcpy(r, buf, len + 1);
	return r;
}
