/* SPDX-License-Identifier: MIT */
/* pprof's profile format: see pprof.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fdout.h"
#include "grow.h"
#include "hashtab.h"
#include "pprof.h"
#include "protobuf.h"

/*
 * Field numbers of proto/profile.proto (the document pprof's own
 * encoder and decoder, profile/encode.go, follow).
 */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE = 2, PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4, PROFILE_FUNCTION = 5, PROFILE_STRING_TABLE = 6,
	PROFILE_TIME_NANOS = 9, PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11, PROFILE_PERIOD = 12, PROFILE_COMMENT = 13,
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2 };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3 };
enum { LABEL_KEY = 1, LABEL_STR = 2, LABEL_NUM = 3 };
enum {
	MAPPING_ID = 1, MAPPING_MEMORY_START = 2, MAPPING_MEMORY_LIMIT = 3,
	MAPPING_FILE_OFFSET = 4, MAPPING_FILENAME = 5, MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7, MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9, MAPPING_HAS_INLINE_FRAMES = 10,
};
enum {
	LOCATION_ID = 1, LOCATION_MAPPING_ID = 2, LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
};
enum { LINE_FUNCTION_ID = 1, LINE_LINE = 2 };
enum {
	FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
};

/* The string table: each string once, "" first (the format wants it
 * at index 0).  The strings are the caller's, or in HELD. */
struct strings {
	const char **v;
	size_t n, cap;
	struct hashtab index;
	char **held;
	size_t nheld;
	bool failed;
};

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The index of S (NULL: ""), added if new; 0 once memory ran out. */
static int64_t
str(struct strings *t, const char *s)
{
	struct hashtab_iter it;
	uint64_t h;
	uint32_t i;

	if (s == NULL)
		s = "";
	h = hash_str(s);
	if (t->failed || hashtab_reserve(&t->index, t->n + 1) < 0)
		goto fail;
	for (i = hashtab_probe(&t->index, h, &it); i != HASHTAB_NONE;
	     i = hashtab_next(&t->index, &it))
		if (strcmp(t->v[i], s) == 0)
			return i;
	if (t->n == t->cap) {
		const char **nv = grow(t->v, &t->cap, t->n + 1, sizeof(*nv),
				       256);

		if (nv == NULL)
			goto fail;
		t->v = nv;
	}
	if (t->n >= HASHTAB_NONE - 1)
		goto fail;
	t->v[t->n] = s;
	hashtab_insert(&t->index, &it, (uint32_t)t->n);
	return (int64_t)t->n++;
fail:
	t->failed = true;
	return 0;
}

/* The index of S, a string made here (taken over: freed with T). */
static int64_t
str_held(struct strings *t, char *s)
{
	char **nh;

	if (s == NULL) {
		t->failed = true;
		return 0;
	}
	nh = realloc(t->held, (t->nheld + 1) * sizeof(*nh));
	if (nh == NULL) {
		free(s);
		t->failed = true;
		return 0;
	}
	t->held = nh;
	t->held[t->nheld++] = s;
	return str(t, s);
}

static void
strings_release(struct strings *t)
{
	size_t i;

	for (i = 0; i < t->nheld; i++)
		free(t->held[i]);
	free(t->held);
	free(t->v);
	hashtab_free(&t->index);
}

static void
value_type(struct protobuf *b, uint32_t field, struct strings *t,
	   const char *type, const char *unit)
{
	size_t m = protobuf_begin(b, field);

	protobuf_int(b, VALUE_TYPE_TYPE, str(t, type));
	protobuf_int(b, VALUE_TYPE_UNIT, str(t, unit));
	protobuf_end(b, m);
}

static char *
hex(const uint8_t *id, size_t n)
{
	char *s = malloc(2 * n + 1);
	size_t i;

	if (s == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, "%02x", id[i]);
	s[2 * n] = '\0';
	return s;
}

/* A sample's Label: the key NAME, its index in *KEY (-1 until it is
 * first needed: the string table has it where it was first met), and
 * the value, the string S when FIELD is LABEL_STR, else the number N. */
static void
label(struct protobuf *b, struct strings *t, int64_t *key, const char *name,
      uint32_t field, const char *s, int64_t n)
{
	size_t m = protobuf_begin(b, SAMPLE_LABEL);

	if (*key < 0)
		*key = str(t, name);
	protobuf_int(b, LABEL_KEY, *key);
	protobuf_int(b, field, field == LABEL_STR ? str(t, s) : n);
	protobuf_end(b, m);
}

static void
samples(struct protobuf *b, const struct symstacks *ss, struct strings *t,
	uint64_t *ids, const struct pprof_meta *meta)
{
	int64_t comm = -1, pid = -1, tid = -1, state = -1;
	size_t i, k, m;
	uint64_t v[3];
	bool on_cpu;

	for (i = 0; i < ss->nsamples; i++) {
		const struct ss_sample *s = &ss->samples[i];

		m = protobuf_begin(b, PROFILE_SAMPLE);
		for (k = 0; k < s->n; k++)
			ids[k] = (uint64_t)ss->pool[s->off + k] + 1;
		protobuf_packed(b, SAMPLE_LOCATION_ID, ids, s->n);
		v[0] = s->count;
		on_cpu = meta->on_cpu_measure != NULL &&
			 s->ev == meta->on_cpu_ev;
		if (meta->on_cpu_measure != NULL) {
			/* samples, cpu, off-cpu */
			v[1] = on_cpu ? s->period : 0;
			v[2] = on_cpu ? 0 : s->period;
			protobuf_packed(b, SAMPLE_VALUE, v, 3);
		} else {
			v[1] = s->period;
			protobuf_packed(b, SAMPLE_VALUE, v, 2);
		}
		label(b, t, &comm, "comm", LABEL_STR, s->comm, 0);
		label(b, t, &pid, "pid", LABEL_NUM, NULL, s->pid);
		if (s->tid >= 0)
			label(b, t, &tid, "tid", LABEL_NUM, NULL, s->tid);
		if (meta->off_cpu && !on_cpu)
			label(b, t, &state, "state", LABEL_STR,
			      s->preempted ? "preempted" : "blocked", 0);
		protobuf_end(b, m);
	}
}

static void
mappings(struct protobuf *b, const struct symstacks *ss, struct strings *t)
{
	size_t i, m;

	for (i = 0; i < ss->nmaps; i++) {
		const struct ss_mapping *p = &ss->maps[i];

		m = protobuf_begin(b, PROFILE_MAPPING);
		protobuf_uint(b, MAPPING_ID, i + 1);
		protobuf_uint(b, MAPPING_MEMORY_START, p->start);
		protobuf_uint(b, MAPPING_MEMORY_LIMIT, p->end);
		protobuf_uint(b, MAPPING_FILE_OFFSET, p->pgoff);
		protobuf_int(b, MAPPING_FILENAME, str(t, p->path));
		if (p->build_id_size > 0)
			protobuf_int(b, MAPPING_BUILD_ID,
				     str_held(t, hex(p->build_id,
						     p->build_id_size)));
		protobuf_uint(b, MAPPING_HAS_FUNCTIONS, p->has_functions);
		protobuf_uint(b, MAPPING_HAS_FILENAMES, p->has_filenames);
		protobuf_uint(b, MAPPING_HAS_LINE_NUMBERS, p->has_lines);
		protobuf_uint(b, MAPPING_HAS_INLINE_FRAMES, p->has_inline);
		protobuf_end(b, m);
	}
}

static void
locations(struct protobuf *b, const struct symstacks *ss)
{
	size_t i, k, m, l;

	for (i = 0; i < ss->nlocs; i++) {
		const struct ss_location *p = &ss->locs[i];

		m = protobuf_begin(b, PROFILE_LOCATION);
		protobuf_uint(b, LOCATION_ID, i + 1);
		if (p->map != 0)
			protobuf_uint(b, LOCATION_MAPPING_ID, p->map);
		protobuf_uint(b, LOCATION_ADDRESS, p->addr);
		for (k = 0; k < p->nlines; k++) {
			const struct ss_line *ln = &ss->lines[p->line + k];

			l = protobuf_begin(b, LOCATION_LINE);
			protobuf_uint(b, LINE_FUNCTION_ID, ln->func + 1);
			if (ln->line != 0)
				protobuf_int(b, LINE_LINE, ln->line);
			protobuf_end(b, l);
		}
		protobuf_end(b, m);
	}
}

static void
functions(struct protobuf *b, const struct symstacks *ss, struct strings *t)
{
	size_t i, m;

	for (i = 0; i < ss->nfuncs; i++) {
		const struct ss_function *f = &ss->funcs[i];
		int64_t name = str(t, f->name);

		m = protobuf_begin(b, PROFILE_FUNCTION);
		protobuf_uint(b, FUNCTION_ID, i + 1);
		protobuf_int(b, FUNCTION_NAME, name);
		protobuf_int(b, FUNCTION_SYSTEM_NAME, name);
		if (f->file != NULL)
			protobuf_int(b, FUNCTION_FILENAME, str(t, f->file));
		protobuf_end(b, m);
	}
}

int
pprof_encode(const struct symstacks *ss, const struct pprof_meta *meta,
	     struct protobuf *b)
{
	struct strings t;
	uint64_t *ids;
	size_t i, most = 1;
	int ret = -1;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < ss->nsamples; i++)
		if (ss->samples[i].n > most)
			most = ss->samples[i].n;
	ids = malloc(most * sizeof(*ids));
	if (ids == NULL)
		return -1;
	str(&t, "");
	value_type(b, PROFILE_SAMPLE_TYPE, &t, "samples", "count");
	if (meta->on_cpu_measure != NULL)
		value_type(b, PROFILE_SAMPLE_TYPE, &t, meta->on_cpu_measure,
			   "nanoseconds");
	value_type(b, PROFILE_SAMPLE_TYPE, &t, meta->measure, meta->unit);
	samples(b, ss, &t, ids, meta);
	mappings(b, ss, &t);
	locations(b, ss);
	functions(b, ss, &t);
	if (meta->time_nanos != 0)
		protobuf_int(b, PROFILE_TIME_NANOS, meta->time_nanos);
	if (meta->duration_nanos != 0)
		protobuf_int(b, PROFILE_DURATION_NANOS, meta->duration_nanos);
	value_type(b, PROFILE_PERIOD_TYPE, &t, meta->measure, meta->unit);
	protobuf_int(b, PROFILE_PERIOD, meta->period);
	for (i = 0; i < 4 && meta->comments[i] != NULL; i++)
		protobuf_int(b, PROFILE_COMMENT, str(&t, meta->comments[i]));
	for (i = 0; i < t.n; i++)
		protobuf_bytes(b, PROFILE_STRING_TABLE, t.v[i],
			       strlen(t.v[i]));
	if (!t.failed && !b->failed)
		ret = 0;
	free(ids);
	strings_release(&t);
	return ret;
}

/* Gzip LEN bytes at P into W. */
static int
gzip_out(struct fdout *w, const unsigned char *p, size_t len,
	 struct p2g_error *err)
{
	unsigned char out[64 * 1024];
	z_stream z;
	int zr;

	memset(&z, 0, sizeof(z));
	/* windowBits 15 + 16: a gzip wrapper, as pprof expects; the
	 * fastest level, as Go's runtime/pprof writes its profiles (the
	 * default level took a fifth of the conversion's time) */
	if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	z.next_in = (unsigned char *)p;
	do {
		uInt step = len > (1u << 30) ? 1u << 30 : (uInt)len;

		z.avail_in = step;
		len -= step;
		do {
			z.next_out = out;
			z.avail_out = sizeof(out);
			zr = deflate(&z, len == 0 ? Z_FINISH : Z_NO_FLUSH);
			fdout_bytes(w, out, sizeof(out) - z.avail_out);
		} while (z.avail_out == 0);
	} while (len > 0);
	deflateEnd(&z);
	if (zr != Z_STREAM_END && !w->failed)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"compression failed");
	return fdout_flush(w);
}

int
pprof_write(const struct symstacks *ss, const struct pprof_meta *meta,
	    int fd, struct p2g_error *err)
{
	struct protobuf b;
	struct fdout *w;
	int ret;

	protobuf_init(&b);
	w = malloc(sizeof(*w));
	if (w == NULL || pprof_encode(ss, meta, &b) < 0) {
		free(w);
		protobuf_release(&b);
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	}
	fdout_init(w, fd, err);
	ret = gzip_out(w, b.buf, b.len, err);
	free(w);
	protobuf_release(&b);
	return ret;
}
