/* SPDX-License-Identifier: MIT */
/* gperftools CPU profiles: see cpuprof.h. */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "cursor.h"
#include "cpuprof.h"
#include "fdout.h"
#include "stacktab.h"

/* ---- writing ------------------------------------------------------------ */

struct writer {
	int fd;
	unsigned char buf[1 << 16];
	size_t len;
	unsigned slot;
	bool big;
	uint64_t written;
	struct p2g_error *err;
	bool failed;
};

#ifdef WORDS_BIGENDIAN
#define HOST_BIG true
#else
#define HOST_BIG false
#endif

static void
w_flush(struct writer *w)
{
	if (!w->failed && fdout_write_all(w->fd, w->buf, w->len, w->err) < 0)
		w->failed = true;
	w->len = 0;
}

static void
w_bytes(struct writer *w, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n > 0 && !w->failed) {
		size_t step = sizeof(w->buf) - w->len;

		if (step > n)
			step = n;
		memcpy(w->buf + w->len, s, step);
		w->len += step;
		s += step;
		n -= step;
		w->written += step;
		if (w->len == sizeof(w->buf))
			w_flush(w);
	}
}

/* One slot, stored whole: the profile is mostly slots, and building
 * them byte by byte was most of the cost of writing it. */
static inline void
w_slot(struct writer *w, uint64_t v)
{
	if (sizeof(w->buf) - w->len < w->slot)
		w_flush(w);
	if (w->slot == 8)
		store64(w->buf + w->len, v, w->big);
	else
		store32(w->buf + w->len, (uint32_t)v, w->big);
	w->len += w->slot;
	w->written += w->slot;
}

int
cpuprof_write(const struct profile *p, int fd, struct p2g_error *err)
{
	static struct writer w;	/* 64 KiB: keep it off the stack */
	size_t i, j;

	memset(&w, 0, sizeof(w));
	w.fd = fd;
	w.slot = p->slot_bytes == 4 ? 4 : 8;
	w.big = p->big_endian;
	w.err = err;

	if (w.slot == 4) {
		if (p->period_us > UINT32_MAX)
			return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
					"period %llu does not fit a 32-bit "
					"slot",
					(unsigned long long)p->period_us);
		for (i = 0; i < p->nrecs; i++) {
			const struct profile_record *r = &p->recs[i];

			if (r->count > UINT32_MAX)
				return p2g_fail(err, P2G_UNSUPPORTED,
						P2G_NO_OFFSET,
						"sample count %llu does not "
						"fit a 32-bit slot",
						(unsigned long long)r->count);
			for (j = 0; j < r->n; j++)
				if (p->pcs[r->off + j] > UINT32_MAX)
					return p2g_fail(
						err, P2G_UNSUPPORTED,
						P2G_NO_OFFSET,
						"address 0x%llx does not fit "
						"a 32-bit slot",
						(unsigned long long)
							p->pcs[r->off + j]);
		}
	}

	w_slot(&w, 0);
	w_slot(&w, 3);
	w_slot(&w, 0);
	w_slot(&w, p->period_us);
	w_slot(&w, 0);
	for (i = 0; i < p->nrecs && !w.failed; i++) {
		const struct profile_record *r = &p->recs[i];

		w_slot(&w, r->count);
		w_slot(&w, r->n);
		if (w.slot == 8 && w.big == HOST_BIG) {
			/* the PCs as they are in memory: a copy */
			w_bytes(&w, p->pcs + r->off, (size_t)r->n * 8);
			continue;
		}
		for (j = 0; j < r->n; j++)
			w_slot(&w, p->pcs[r->off + j]);
	}
	w_slot(&w, 0);
	w_slot(&w, 1);
	w_slot(&w, 0);
	if (p->maps_len > 0)
		w_bytes(&w, p->maps, p->maps_len);
	w_flush(&w);
	return w.failed ? -1 : 0;
}

/* ---- reading ------------------------------------------------------------ */

static uint64_t
slot_at(const unsigned char *p, unsigned width, bool big)
{
	return width == 8 ? load64(p, big) : load32(p, big);
}

/* Go pprof's order of attempts: 32-bit LE, 32-bit BE, 64-bit LE, BE. */
static const struct {
	unsigned width;
	bool big;
} layouts[] = {
	{ 4, false }, { 4, true }, { 8, false }, { 8, true },
};

static bool
starts(const unsigned char *buf, size_t len, const char *text)
{
	size_t n = strlen(text);

	return len >= n && memcmp(buf, text, n) == 0;
}

const char *
cpuprof_neighbour(const unsigned char *buf, size_t len)
{
	if (len >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)
		return "gzip-compressed data";
	/* perf's magic, the u64 "PERFILE2" in the writer's byte order
	 * (tools/perf/util/header.c), the same in file and pipe mode;
	 * "PERFFILE" is version 1's */
	if (starts(buf, len, "PERFILE2") || starts(buf, len, "2ELIFREP") ||
	    starts(buf, len, "PERFFILE"))
		return CPUPROF_PERFDATA;
	if (starts(buf, len, "heap profile:") ||
	    starts(buf, len, "heap_v2/"))
		return "a heap profile (text), not a CPU profile";
	if (starts(buf, len, "--- heapz") || starts(buf, len, "--- heap"))
		return "a heap profile (pprof's raw form), not a CPU profile";
	if (starts(buf, len, "--- contention") ||
	    starts(buf, len, "--- contentionz"))
		return "a contention profile, not a CPU profile";
	if (starts(buf, len, "--- symbol"))
		return "perl pprof's raw form (--- symbol, --- profile: "
		       "google-pprof --raw), not a binary CPU profile";
	if (starts(buf, len, "--- threadz"))
		return "a thread dump (--- threadz), not a CPU profile";
	/* profile.proto starts with field 1 (sample_type), a message */
	if (len >= 2 && buf[0] == 0x0a && buf[1] != 0)
		return "a protobuf profile (pprof's profile.proto), not a "
		       "legacy gperftools CPU profile";
	return NULL;
}

static int
bad_header(const unsigned char *buf, size_t len, struct p2g_error *err)
{
	unsigned width;
	bool big;
	uint64_t v[5];
	int i;

	if (len < 20)
		return p2g_fail(err, P2G_INVALID, 0,
				"file of %zu bytes is too short for a "
				"header", len);
	/* Guess the layout the writer meant, to say what is wrong: a
	 * 64-bit header starts with 8 zero bytes (perl pprof's test). */
	width = (len >= 40 && load64(buf, false) == 0) ? 8 : 4;
	big = slot_at(buf + width, width, false) > 0xffff;
	for (i = 0; i < 5; i++)
		v[i] = slot_at(buf + i * width, width, big);
	if (v[0] != 0)
		return p2g_fail(err, P2G_INVALID, 0,
				"header slot 0 is 0x%llx, expected 0 (not a "
				"gperftools CPU profile)",
				(unsigned long long)v[0]);
	if (v[1] != 3)
		return p2g_fail(err, P2G_INVALID, width,
				"header slot 1 is %llu, expected 3",
				(unsigned long long)v[1]);
	if (v[2] != 0)
		return p2g_fail(err, P2G_INVALID, 2 * width,
				"header slot 2 (format version) is %llu, "
				"expected 0%s", (unsigned long long)v[2],
				v[2] == 1 ? " (a Java CPU profile)" : "");
	if (v[3] == 0)
		return p2g_fail(err, P2G_INVALID, 3 * width,
				"header sampling period is 0");
	return p2g_fail(err, P2G_INVALID, 4 * width,
			"header slot 4 (padding) is %llu, expected 0",
			(unsigned long long)v[4]);
}

static bool
is_hex(int c)
{
	return isxdigit((unsigned char)c) != 0;
}

/* Skip [a-fA-F0-9]+ from *I; false if there is none. */
static bool
take_hex(const char *s, size_t len, size_t *i)
{
	size_t start = *i;

	while (*i < len && is_hex(s[*i]))
		(*i)++;
	return *i > start;
}

static bool
take_space(const char *s, size_t len, size_t *i)
{
	size_t start = *i;

	while (*i < len && isspace((unsigned char)s[*i]))
		(*i)++;
	return *i > start;
}

/* Skip an address as Go pprof's pattern reads it: optional 0x, hex. */
static bool
take_addr(const char *s, size_t len, size_t *i)
{
	if (*i + 1 < len && s[*i] == '0' && (s[*i + 1] == 'x' || s[*i + 1] == 'X'))
		*i += 2;
	return take_hex(s, len, i);
}

/* The next whitespace-separated token: [*start, *end). */
static bool
token(const char *s, size_t len, size_t *i, size_t *start, size_t *end)
{
	take_space(s, len, i);
	if (*i == len)
		return false;
	*start = *i;
	while (*i < len && !isspace((unsigned char)s[*i]))
		(*i)++;
	*end = *i;
	return true;
}

static bool
all_of(const char *s, size_t a, size_t b, const char *set)
{
	for (; a < b; a++)
		if (strchr(set, s[a]) == NULL)
			return false;
	return true;
}

const char *
cpuprof_check_maps_line(const char *s, size_t len)
{
	size_t i = 0, j, a, b;

	take_space(s, len, &i);
	if (i == len)
		return NULL;
	/* Go pprof (profile/legacy_profile.go) reads a mapping when the line
	 * starts with an address range "start-end" (or "start end", an
	 * optional colon after it), then optional permissions, then either
	 * /proc/maps fields (offset dev inode path) or the brief form (path,
	 * "(@offset)", build id).  Perl pprof reads the /proc/maps form. */
	j = i;
	if (take_addr(s, len, &j)) {
		if (j < len && (s[j] == '-' || isspace((unsigned char)s[j])))
			j++;
		take_space(s, len, &j);
		if (take_addr(s, len, &j)) {
			if (j < len && s[j] == ':')
				j++;
			if (j < len && !isspace((unsigned char)s[j]))
				goto other;
			if (!token(s, len, &j, &a, &b))
				return NULL;
			/* Permissions: Go's pattern knows [-rwxp] only; an
			 * executable shared mapping ("r-xs") loses its path
			 * there. */
			if (all_of(s, a, b, "-rwxps") && b - a <= 4 &&
			    memchr(s + a, 's', b - a) != NULL &&
			    memchr(s + a, 'x', b - a) != NULL)
				return "permissions with 's' on an executable "
				       "mapping: Go pprof drops its path";
			return NULL;
		}
	}
other:
	if (memchr(s, '=', len) != NULL)
		return NULL;	/* build=... or another $key substitution */
	return "unrecognized maps line";
}

/* The gperftools maintainers' rules for the maps text (--strict):
 * present, ending in a newline, every line "build=...", a /proc/maps
 * line or "start-end:". */
static int
check_strict_maps(const unsigned char *buf, size_t len, size_t pos,
		  struct p2g_error *err)
{
	size_t i;

	if (pos == len)
		return p2g_fail(err, P2G_INVALID, pos,
				"no maps text after the trailer");
	if (buf[len - 1] != '\n')
		return p2g_fail(err, P2G_INVALID, len - 1,
				"the maps text does not end in a newline");
	for (i = pos; i < len;) {
		const char *line = (const char *)buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = (size_t)(nl - line), j = 0, a, b, f = 0;
		bool ok = false;

		if (ll >= 6 && memcmp(line, "build=", 6) == 0) {
			ok = true;
		} else if (take_addr(line, ll, &j) && j < ll &&
			   line[j] == '-') {
			j++;
			if (take_addr(line, ll, &j)) {
				if (j < ll && line[j] == ':') {
					ok = true;	/* start-end: path */
				} else {
					/* perms offset dev inode [path] */
					while (f < 4 &&
					       token(line, ll, &j, &a, &b))
						f++;
					ok = f == 4;
				}
			}
		}
		if (!ok)
			return p2g_fail(err, P2G_INVALID, i,
					"maps line is not build=, a "
					"/proc/maps line or start-end: "
					"\"%.*s\"", ll > 60 ? 60 : (int)ll,
					line);
		i += ll + 1;
	}
	return 0;
}

int
cpuprof_read(const unsigned char *buf, size_t len, struct profile *p,
	     struct p2g_error *err)
{
	return cpuprof_read_mode(buf, len, p, CPUPROF_DEFAULT, err);
}

/*
 * The header's layout: the first of 32/64-bit little/big-endian where
 * the header reads 0, 3, 0, P > 0, 0 -- or, LENIENT, 0, N >= 3, 0 (the
 * format document's rule: N header words, all of them in BUF unless
 * PREFIX says that BUF holds only the first bytes of the file).  0 when
 * none fits.
 */
static unsigned
header_layout(const unsigned char *buf, size_t len, bool lenient, bool prefix,
	      bool *big, uint64_t v[5], uint64_t *words)
{
	unsigned k, i;

	for (k = 0; k < sizeof(layouts) / sizeof(layouts[0]); k++) {
		unsigned wd = layouts[k].width;

		if (len < 5 * (size_t)wd)
			continue;
		for (i = 0; i < 5; i++)
			v[i] = slot_at(buf + i * wd, wd, layouts[k].big);
		if (lenient ? v[0] == 0 && v[1] >= 3 && v[1] < (1u << 20) &&
				      v[2] == 0 &&
				      (prefix || (2 + v[1]) * wd <= len)
			    : v[0] == 0 && v[1] == 3 && v[2] == 0 &&
				      v[3] > 0 && v[4] == 0) {
			*big = layouts[k].big;
			*words = v[1];
			return wd;
		}
	}
	return 0;
}

int
cpuprof_read_mode(const unsigned char *buf, size_t len, struct profile *p,
		  enum cpuprof_mode mode, struct p2g_error *err)
{
	bool lenient = mode == CPUPROF_LENIENT, big = false;
	unsigned width;
	size_t pos, i;
	uint64_t v[5], words = 3;
	const char *why;

	width = header_layout(buf, len, lenient, false, &big, v, &words);
	if (width == 0)
		return bad_header(buf, len, err);
	if (v[3] > CPUPROF_MAX_PERIOD && !lenient)
		return p2g_fail(err, P2G_INVALID, 3 * (size_t)width,
				"sampling period %llu us is more than "
				"google-pprof reads (2^32)",
				(unsigned long long)v[3]);
	p->slot_bytes = width;
	p->big_endian = big;
	p->period_us = v[3];

	pos = (size_t)(2 + words) * width;
	for (;;) {
		uint64_t count, n, j, pc0, *pcs;
		size_t rec_off = pos;

		if (len - pos < 2 * (size_t)width) {
			return p2g_fail(err, P2G_INVALID, pos,
					len == pos ? "no trailer (0, 1, 0) "
						     "after the last record"
						   : "truncated record header");
		}
		count = slot_at(buf + pos, width, big);
		n = slot_at(buf + pos + width, width, big);
		pos += 2 * (size_t)width;
		if (n > (len - pos) / width)
			return p2g_fail(err, P2G_INVALID, rec_off,
					"record %zu needs %llu PC slots but "
					"the file ends first", p->nrecs,
					(unsigned long long)n);
		pc0 = n > 0 ? slot_at(buf + pos, width, big) : 1;
		if (count == 0 && n == 1 && pc0 == 0) {
			pos += width;
			p->has_trailer = true;
			break;
		}
		if (count == 0 && !lenient)
			return p2g_fail(err, P2G_INVALID, rec_off,
					"record %zu has a sample count of 0",
					p->nrecs);
		if (n == 0 && !lenient)
			return p2g_fail(err, P2G_INVALID, rec_off + width,
					"record %zu has no PCs", p->nrecs);
		if (n > STACKTAB_MAX_PCS)
			return p2g_fail(err, P2G_UNSUPPORTED, rec_off + width,
					"record %zu has %llu PCs, more than "
					"the %u read here", p->nrecs,
					(unsigned long long)n,
					STACKTAB_MAX_PCS);
		pcs = profile_new_record(p, count, n);
		if (pcs == NULL)
			goto nomem;
		for (j = 0; j < n; j++) {
			pcs[j] = slot_at(buf + pos + (size_t)j * width, width,
					 big);
			if (pcs[j] == 0 && !lenient)
				return p2g_fail(err, P2G_INVALID,
						pos + (size_t)j * width,
						"record %zu has PC 0 at depth "
						"%llu", p->nrecs - 1,
						(unsigned long long)j);
		}
		pos += (size_t)n * width;
	}

	p->maps_off = pos;
	if (lenient)
		return profile_set_maps(p, (const char *)buf + pos,
					len - pos) < 0
			       ? p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					  "out of memory")
			       : 0;
	if (memchr(buf + pos, '\0', len - pos) != NULL)
		return p2g_fail(err, P2G_INVALID,
				pos + (size_t)((const unsigned char *)memchr(
						       buf + pos, '\0',
						       len - pos) -
					       (buf + pos)),
				"NUL byte in the maps text");
	if (profile_set_maps(p, (const char *)buf + pos, len - pos) < 0)
		goto nomem;
	for (i = pos; i < len;) {
		const char *line = (const char *)buf + i;
		const char *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;

		if (ll >= CPUPROF_MAX_LINE)
			return p2g_fail(err, P2G_INVALID, i,
					"maps line of %zu bytes is longer than "
					"pprof reads (64 KiB)", ll);
		why = cpuprof_check_maps_line(line, ll);
		if (why != NULL)
			return p2g_fail(err, P2G_INVALID, i, "%s \"%.*s\"",
					why, ll > 60 ? 60 : (int)ll, line);
		i += ll + (nl != NULL);
	}
	if (mode == CPUPROF_STRICT)
		return check_strict_maps(buf, len, pos, err);
	return 0;
nomem:
	return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
}

int
cpuprof_check_start(const unsigned char *buf, size_t len,
		    enum cpuprof_mode mode, struct p2g_error *err)
{
	uint64_t v[5], words;
	bool big;

	if (cpuprof_neighbour(buf, len) != NULL ||
	    header_layout(buf, len, mode == CPUPROF_LENIENT, true, &big, v,
			  &words) != 0)
		return 0;
	return bad_header(buf, len, err);
}

unsigned
cpuprof_slot_bits(const char *arch)
{
	if (arch != NULL &&
	    ((arch[0] == 'i' && strlen(arch) == 4 &&
	      strcmp(arch + 2, "86") == 0) ||
	     strncmp(arch, "arm", 3) == 0 || strcmp(arch, "mips") == 0 ||
	     strcmp(arch, "ppc") == 0 || strcmp(arch, "powerpc") == 0 ||
	     strcmp(arch, "s390") == 0 || strcmp(arch, "sparc") == 0))
		return 32;
	return 64;
}
