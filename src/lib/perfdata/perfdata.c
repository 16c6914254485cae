/* SPDX-License-Identifier: MIT */
/*
 * The perf.data reader (see perfdata.h): the handle, its attrs and the
 * map from event ids to them, and the records of a file in file order,
 * with those that perf writes for itself (attrs, features, build ids,
 * compressed data) folded into the handle.  The header is read by
 * header.c, a perf.data directory's files by directory.c.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grow.h"
#include "perf_abi.h"
#include "perfdata-private.h"
#include "tracing.h"
#include "zstream.h"

/* How often a directory's files give back the pages behind them. */
#define RELEASE_STEP	((uint64_t)1 << 20)

void
perfdata_warnf(struct perfdata *pd, uint64_t off, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (pd->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pd->warn(pd->warn_ctx,
		 pd->dir != NULL && pd->opened ? pd->cur->name : "", off, msg);
}

/* ---- id -> attr map ---------------------------------------------------- */

/* The entry of ID, or HASHTAB_NONE with IT where it would go. */
static uint32_t
id_map_probe(const struct perfdata *pd, uint64_t id, struct hashtab_iter *it)
{
	uint32_t i;

	for (i = hashtab_probe(&pd->id_index, hashtab_hash64(id), it);
	     i != HASHTAB_NONE; i = hashtab_next(&pd->id_index, it))
		if (pd->ids[i].id == id)
			break;
	return i;
}

static bool
id_map_put(struct perfdata *pd, uint64_t id, uint32_t idx)
{
	struct hashtab_iter it;
	uint32_t i;

	if (hashtab_reserve(&pd->id_index, pd->nids + 1) < 0)
		return false;
	i = id_map_probe(pd, id, &it);
	if (i != HASHTAB_NONE) {
		pd->ids[i].attr = idx;
		return true;
	}
	if (pd->nids == pd->cap_ids) {
		struct perf_id *n = grow(pd->ids, &pd->cap_ids, pd->nids + 1,
					 sizeof(*n), 32);

		if (n == NULL)
			return false;
		pd->ids = n;
	}
	pd->ids[pd->nids].id = id;
	pd->ids[pd->nids].attr = idx;
	hashtab_insert(&pd->id_index, &it, (uint32_t)pd->nids++);
	return true;
}

/* The attr of ID, or NULL; its number in *SEQ.  Kept out of
 * perfdata_sample_attr(), whose one-event case runs per sample. */
static __attribute__((noinline)) struct perf_attr *
id_map_find(const struct perfdata *pd, uint64_t id, size_t *seq)
{
	struct hashtab_iter it;
	uint32_t i = id_map_probe(pd, id, &it);

	if (i == HASHTAB_NONE)
		return NULL;
	if (seq != NULL)
		*seq = i;
	return pd->attrs[pd->ids[i].attr];
}

struct perf_attr *
perfdata_find_id(const struct perfdata *pd, uint64_t id)
{
	return id_map_find(pd, id, NULL);
}

const struct perf_attr *
perfdata_id_attr(const struct perfdata *pd, uint64_t id, size_t *seq)
{
	return id_map_find(pd, id, seq);
}

int
perfdata_add_attr(struct perfdata *pd, struct perf_attr *a, uint64_t off,
		  struct p2g_error *err)
{
	struct perf_attr **na, *one;
	size_t i;

	if (!attr_finish(a))
		goto nomem;
	one = malloc(sizeof(*one));
	if (one == NULL)
		goto nomem;
	na = realloc(pd->attrs, (pd->nr_attrs + 1) * sizeof(*na));
	if (na == NULL) {
		free(one);
		goto nomem;
	}
	pd->attrs = na;
	a->index = (uint32_t)pd->nr_attrs;
	*one = *a;
	pd->attrs[pd->nr_attrs] = one;
	for (i = 0; i < a->nr_ids; i++)
		if (!id_map_put(pd, a->ids[i], (uint32_t)pd->nr_attrs)) {
			pd->nr_attrs++;
			goto nomem_owned;
		}
	pd->nr_attrs++;
	return 0;
nomem:
	attr_release(a);
nomem_owned:
	return p2g_fail(err, P2G_NOMEM, off, "out of memory for event attrs");
}

struct perf_attr *
perfdata_sample_attr(struct perfdata *pd, const unsigned char *body,
		     size_t len)
{
	int pos;

	if (pd->nr_attrs == 1)
		return pd->attrs[0];
	if (pd->nr_attrs == 0)
		return NULL;
	/* perf requires every event of a file to put the id at the same
	 * place; the first attr tells where. */
	pos = pd->attrs[0]->id_pos;
	if (pos < 0 || (size_t)(pos + 1) * 8 > len)
		return NULL;
	return perfdata_find_id(pd, load64(body + (size_t)pos * 8,
					   pd->f.big_endian));
}

static struct perf_attr *
trailer_attr(struct perfdata *pd, const unsigned char *rec, size_t size)
{
	const struct perf_attr *a0;
	size_t off;

	if (pd->nr_attrs == 1)
		return pd->attrs[0];
	if (pd->nr_attrs == 0)
		return NULL;
	a0 = pd->attrs[0];
	if (!a0->sample_id_all || a0->id_pos_end < 0)
		return NULL;
	off = (size_t)a0->id_pos_end * 8;
	if (off + 8 > size)
		return NULL;
	return perfdata_find_id(pd, load64(rec + size - off, pd->f.big_endian));
}

/* ---- feature sections --------------------------------------------------- */

/* ---- opening ------------------------------------------------------------ */

struct perfdata *
perfdata_open(const char *path, perfdata_warn_fn warn, void *warn_ctx,
	      struct p2g_error *err)
{
	return perfdata_open_limited(path, INFLATE_RATIO_DEFAULT, warn,
				     warn_ctx, err);
}

struct perfdata *
perfdata_open_limited(const char *path, uint64_t max_inflate,
		      perfdata_warn_fn warn, void *warn_ctx,
		      struct p2g_error *err)
{
	struct perfdata_open_opts o;

	memset(&o, 0, sizeof(o));
	o.max_inflate = max_inflate;
	o.warn = warn;
	o.warn_ctx = warn_ctx;
	return perfdata_open_with(path, &o, err);
}

struct perfdata *
perfdata_open_with(const char *path, const struct perfdata_open_opts *o,
		   struct p2g_error *err)
{
	uint64_t max_inflate = o->max_inflate;
	struct perfdata *pd;
	struct stat st;
	int gz;

	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		return NULL;
	}
	pd->warn = o->warn;
	pd->warn_ctx = o->warn_ctx;
	pd->max_inflate = max_inflate;
	pd->parts = calloc(1, sizeof(*pd->parts));
	if (pd->parts == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto fail;
	}
	pd->nparts = 1;
	pd->cur = pd->parts;
	pd->cur->data_end = UINT64_MAX;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		/* A perf.data directory (perf record --threads): the
		 * header and the first records are in "data", the rest in
		 * data.0, data.1, ... */
		pd->dir = strdup(path);
		if (pd->dir == NULL) {
			p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				 "out of memory");
			goto fail;
		}
		snprintf(pd->cur->name, sizeof(pd->cur->name), "data");
		pd->cur->in = directory_open_file(pd, "data", err);
		if (pd->cur->in == NULL) {
			if (err->status == P2G_OK)
				p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET,
					 "is a directory, but not a "
					 "perf.data directory: it has no "
					 "data file");
			goto fail;
		}
	} else {
		pd->cur->in = input_open(path, err);
		if (pd->cur->in == NULL)
			goto fail;
		input_set_progress(pd->cur->in, o->spool_progress,
				   o->progress_ctx);
	}
	pd->in = pd->cur->in;
	gz = input_is_gzip(pd->in, err);
	if (gz < 0)
		goto fail;
	if (gz) {
		/* perf.data.gz: offsets are then those of the
		 * decompressed data, which are read as they are inflated
		 * (pipe mode), or spooled as far as the header declares
		 * (file mode, in header_read()). */
		if (input_gunzip(pd->in, max_inflate, err) < 0)
			goto fail;
		pd->f.gzip = true;
	}
	if (header_read(pd, err) < 0)
		goto fail;
	pd->f.total_size = input_size(pd->in);
	if (pd->dir != NULL && directory_open(pd, err) < 0)
		goto fail;
	pd->f.directory = pd->dir != NULL;
	pd->opened = true;
	return pd;
fail:
	perfdata_close(pd);
	return NULL;
}

void
perfdata_close(struct perfdata *pd)
{
	size_t i;

	if (pd == NULL)
		return;
	for (i = 0; i < pd->nparts; i++) {
		input_close(pd->parts[i].in);
		zstream_free(pd->parts[i].z);
	}
	free(pd->parts);
	free(pd->heap);
	free(pd->dir);
	for (i = 0; i < pd->nr_attrs; i++) {
		attr_release(pd->attrs[i]);
		free(pd->attrs[i]);
	}
	free(pd->attrs);
	free(pd->ids);
	hashtab_free(&pd->id_index);
	tracefmt_release(&pd->tf);
	free(pd->info.hostname);
	free(pd->info.osrelease);
	free(pd->info.version);
	free(pd->info.arch);
	free(pd->info.cpudesc);
	free(pd->info.cpuid);
	free(pd->info.cmdline);
	for (i = 0; i < HEADER_LAST_FEATURE; i++)
		free(pd->info.raw[i].data);
	for (i = 0; i < pd->info.nr_build_ids; i++)
		free(pd->info.build_ids[i].filename);
	free(pd->info.build_ids);
	free(pd);
}

/* ---- records ------------------------------------------------------------ */

/*
 * True if the N bytes at P (where a record header should be) are text: no
 * record header is, since its type's upper bytes are 0.  Pipe-mode
 * output sometimes has perf's messages appended to it.
 */
static bool
trailing_text(const unsigned char *p, size_t n)
{
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n && i < 8; i++)
		if ((p[i] < 0x20 || p[i] > 0x7e) && p[i] != '\n' &&
		    p[i] != '\t' && p[i] != '\r')
			return false;
	return true;
}

/*
 * The file being read is at its end: warn about a compressed record it
 * left unfinished; in a directory, give back its pages and take it off
 * the heap.
 */
static void
part_end(struct perfdata *pd)
{
	struct perf_part *pt = pd->cur;

	if (pt->z != NULL && zstream_buffered(pt->z) > 0)
		perfdata_warnf(pd, zstream_offset(pt->z),
			       "the compressed data ends inside a record; "
			       "its %zu bytes are ignored",
			       zstream_buffered(pt->z));
	zstream_free(pt->z);
	pt->z = NULL;
	if (pd->dir != NULL)
		directory_part_end(pd);
}

/*
 * The next whole record of the decompressed stream of perf record -z data
 * in the file being read: 1, or 0 when the stream has none (the rest of
 * a record comes with the next compressed record), or -1.
 */
static int
next_inner(struct perfdata *pd, const unsigned char **recp,
	   uint16_t *sizep, uint64_t *offp, struct p2g_error *err)
{
	struct zstream *z = pd->cur->z;
	const unsigned char *p;
	size_t avail;
	uint16_t size;

	p = zstream_peek(z, 8, &avail, err);
	if (p == NULL)
		return -1;
	if (avail != 8)
		return 0;
	size = load16(p + 6, pd->f.big_endian);
	if (size < 8)
		return p2g_fail(err, P2G_INVALID, zstream_offset(z),
				"record size %u inside the compressed record "
				"is smaller than a record header", size);
	p = zstream_peek(z, size, &avail, err);
	if (p == NULL)
		return -1;
	if (avail != size)
		return 0;
	zstream_consume(z, size);
	*recp = p;
	*sizep = size;
	*offp = zstream_offset(z);
	return 1;
}

/*
 * The next raw record: from the decompressed stream of perf record -z
 * while it has a whole one, else from the data section.  *INNER tells
 * which.  Returns 1, 0 at the end of the data, or -1.
 */
static int
next_raw(struct perfdata *pd, const unsigned char **recp, uint16_t *sizep,
	 uint64_t *offp, bool *inner, struct p2g_error *err)
{
	struct perf_part *pt;
	const unsigned char *p;
	size_t avail;
	uint64_t off, left;
	uint16_t size;
	int r;

	pt = pd->cur;
	if (pt->z != NULL) {
		r = next_inner(pd, recp, sizep, offp, err);
		if (r != 0) {
			*inner = r > 0;
			return r;
		}
	}
	*inner = false;
	if (pd->done)
		return 0;
	off = input_tell(pt->in);
	left = pt->data_end == UINT64_MAX ? UINT64_MAX : pt->data_end - off;
	if (left == 0)
		goto end;
	if (!pt->map_known) {
		pt->map = input_map(pt->in, &pt->map_size);
		pt->map_known = true;
	}
	/* A mapped input has the whole record at hand without a read: ask
	 * for the largest one at once, and peek only once. */
	p = input_peek(pt->in, pt->map != NULL ? UINT16_MAX : 8, &avail, err);
	if (p == NULL)
		return -1;
	if (avail == 0 && pt->data_end == UINT64_MAX)
		goto end;
	if (pd->f.pipe_mode && trailing_text(p, avail))
		goto text;
	if (avail < 8 || left < 8)
		goto truncated;
	size = load16(p + 6, pd->f.big_endian);
	if (size < 8) {
		return p2g_fail(err, P2G_INVALID, off,
				"record size %u is smaller than a record "
				"header", size);
	}
	if (size > left)
		goto truncated;
	if (avail < size) {
		p = input_peek(pt->in, size, &avail, err);
		if (p == NULL)
			return -1;
		if (avail < size)
			goto truncated;
	}
	input_consume(pt->in, size);
	/* A directory's records are copied where they are kept: the pages
	 * before this one can go (a file's own records are lasting, and
	 * reader.c gives their pages back). */
	if (pd->dir != NULL && off >= pt->next_release) {
		input_release(pt->in, off);
		pt->next_release = off + RELEASE_STEP;
	}
	*recp = p;
	*sizep = size;
	*offp = off;
	return 1;
truncated:
	if (pd->f.pipe_mode || pt->salvage) {
		perfdata_warnf(pd, off, "data ends inside a record; the rest "
			       "of the input is ignored");
		goto end;
	}
	return p2g_fail(err, P2G_INVALID, off,
			"record runs past the end of the data section");
text:
	perfdata_warnf(pd, off, "text after the last record; ignored");
end:
	part_end(pd);
	if (pd->nheap == 0)	/* the last of a directory, or a file */
		pd->done = true;
	return 0;
}

/* PERF_RECORD_COMPRESSED(2): queue the payload for decompression. */
static int
compressed(struct perfdata *pd, const unsigned char *p, uint16_t size,
	   uint64_t off, uint32_t type, struct p2g_error *err)
{
	const unsigned char *payload = p + 8;
	size_t len = size - 8u;
	uint64_t limit;

	if (type == PERF_RECORD_COMPRESSED2) {
		uint64_t dsize;

		if (size < 16)
			return p2g_fail(err, P2G_INVALID, off,
					"compressed record of %u bytes is "
					"too small", size);
		dsize = load64(p + 8, pd->f.big_endian);
		if (dsize > size - 16u)
			return p2g_fail(err, P2G_INVALID, off + 8,
					"compressed data size %llu does not "
					"fit its record of %u bytes",
					(unsigned long long)dsize, size);
		payload = p + 16;
		len = (size_t)dsize;
	}
	if (!zstream_supported())
		return p2g_fail(err, P2G_UNSUPPORTED, off,
				"zstd-compressed records (perf record -z): "
				"this perf2gperf was built without libzstd");
	if (pd->cur->z == NULL) {
		pd->cur->z = zstream_new(pd->max_inflate);
		if (pd->cur->z == NULL)
			return p2g_fail(err, P2G_NOMEM, off, "out of memory");
	}
	/* perf decompresses each record into a buffer of the recording's
	 * mmap size; allow twice that, and 64 MiB when it is not known. */
	limit = pd->info.compression_mmap_len
			? 2 * (uint64_t)pd->info.compression_mmap_len + 65536
			: 64u << 20;
	return zstream_feed(pd->cur->z, payload, len, off, limit, err);
}

/* PERF_RECORD_HEADER_TRACING_DATA and PERF_RECORD_AUXTRACE: the payload
 * follows the record P of SIZE bytes at OFF, outside its size, and is
 * skipped.  0, or -1 with ERR set. */
static int
skip_payload(struct perfdata *pd, const unsigned char *p, uint16_t size,
	     uint64_t off, bool inner, struct p2g_error *err)
{
	bool aux = load32(p, pd->f.big_endian) == PERF_RECORD_AUXTRACE;
	uint64_t skip;

	if (size < (aux ? 16 : 12))
		return p2g_fail(err, P2G_INVALID, off, "%s record is too small",
				aux ? "auxtrace" : "tracing data");
	skip = aux ? load64(p + 8, pd->f.big_endian)
		   : load32(p + 8, pd->f.big_endian);
	if (inner)
		return p2g_fail(err, P2G_UNSUPPORTED, off,
				"a record with a payload outside it inside "
				"compressed data");
	return input_skip(pd->cur->in, skip, err);
}

/* A tracepoint of the tracing data: its format kept, and the name of
 * the tracepoint events of its ID that have only their number (attr.c's
 * "tracepoint-ID"). */
static bool
name_tracepoint(void *arg, uint64_t id, const char *sys, size_t syslen,
		const char *name, size_t namelen, const char *text,
		size_t textlen)
{
	struct perfdata *pd = arg;
	char num[40], *full;
	size_t i;
	bool ok = true;

	if (tracefmt_add(&pd->tf, id, sys, syslen, name, namelen, text,
			 textlen) < 0)
		return false;
	snprintf(num, sizeof(num), "tracepoint-%llu", (unsigned long long)id);
	for (i = 0; i < pd->nr_attrs && ok; i++) {
		struct perf_attr *a = pd->attrs[i];

		if (a->type != PERF_TYPE_TRACEPOINT || a->config != id ||
		    a->name == NULL || strcmp(a->name, num) != 0)
			continue;
		full = malloc(syslen + 1 + namelen);
		if (full == NULL)
			return false;
		memcpy(full, sys, syslen);
		full[syslen] = ':';
		memcpy(full + syslen + 1, name, namelen);
		ok = attr_set_name(a, full, syslen + 1 + namelen);
		free(full);
	}
	return ok;
}

int
perfdata_tracing(struct perfdata *pd, const unsigned char *buf, size_t len,
		 uint64_t off)
{
	size_t bad;
	int r;

	r = tracing_names(buf, len, name_tracepoint, pd, &bad);
	if (r > 0)
		return -1;
	if (r < 0)
		perfdata_warnf(pd, off + bad, "tracing data unreadable "
			       "here: tracepoints are named by number");
	return 0;
}

const struct tracefmt *
perfdata_tracefmt(const struct perfdata *pd)
{
	return &pd->tf;
}

/* PERF_RECORD_HEADER_TRACING_DATA (pipe mode): the payload follows the
 * record P of SIZE bytes at OFF, outside its size; it is read (held as
 * it arrives, so memory grows with the bytes there are, not with the
 * size claimed) for the names of the tracepoints.  Tracing data that
 * cannot be read are a warning.  0, or -1 with ERR set. */
static int
tracing_data(struct perfdata *pd, const unsigned char *p, uint16_t size,
	     uint64_t off, bool inner, struct p2g_error *err)
{
	struct input *in = pd->cur->in;
	const unsigned char *q;
	unsigned char *buf = NULL, *nb;
	size_t have = 0, cap = 0, n, avail;
	uint64_t want, start;

	if (size < 12 || inner)
		return skip_payload(pd, p, size, off, inner, err);
	want = load32(p + 8, pd->f.big_endian);
	start = input_tell(in);
	while (have < want) {
		n = want - have > 65536 ? 65536 : (size_t)(want - have);
		q = input_peek(in, n, &avail, err);
		if (q == NULL)
			goto fail;
		if (avail < n) {
			p2g_fail(err, P2G_INVALID, start + have + avail,
				 "tracing data end early (%llu of %llu bytes)",
				 (unsigned long long)(have + avail),
				 (unsigned long long)want);
			goto fail;
		}
		if (have + n > cap) {
			cap = grow_cap(cap, have + n, 1, have + n);
			if (cap > want)
				cap = (size_t)want;
			nb = realloc(buf, cap);
			if (nb == NULL)
				goto nomem;
			buf = nb;
		}
		memcpy(buf + have, q, n);
		input_consume(in, n);
		have += n;
	}
	if (perfdata_tracing(pd, buf, have, start) < 0)
		goto nomem;
	free(buf);
	return 0;
nomem:
	p2g_fail(err, P2G_NOMEM, off, "out of memory");
fail:
	free(buf);
	return -1;
}

int
perfdata_next_in_file(struct perfdata *pd, struct perf_record *rec,
		      struct p2g_error *err)
{
	const unsigned char *p = NULL;
	uint64_t off = 0;
	uint16_t size = 0;
	bool inner = false;
	int r;

	for (;;) {
		r = next_raw(pd, &p, &size, &off, &inner, err);
		if (r <= 0)
			return r;
		rec->type = load32(p, pd->f.big_endian);
		rec->misc = load16(p + 4, pd->f.big_endian);
		rec->size = size;
		rec->offset = off;
		rec->data = p;
		rec->attr = NULL;
		/* A directory's files give their pages back as they are
		 * read, and decompressed bytes live in a buffer. */
		rec->lasting = !inner && pd->dir == NULL &&
			       pd->cur->map != NULL;
		pd->counts.records++;
		pd->counts.by_type[rec->type < 128 ? rec->type : 0]++;

		switch (rec->type) {
		case PERF_RECORD_SAMPLE:
			rec->attr = perfdata_sample_attr(pd, p + 8, size - 8u);
			if (rec->attr == NULL) {
				pd->counts.unknown_id++;
				continue;
			}
			return 1;
		case PERF_RECORD_HEADER_ATTR:
			if (header_attr_record(pd, p, size, off, err) < 0)
				return -1;
			continue;
		case PERF_RECORD_HEADER_FEATURE:
			header_feature_record(pd, p, size, off);
			continue;
		case PERF_RECORD_HEADER_BUILD_ID: {
			struct cursor c;

			cursor_init(&c, p, size, off, pd->f.big_endian);
			header_build_ids(pd, &c);
			continue;
		}
		case PERF_RECORD_HEADER_TRACING_DATA:
			if (tracing_data(pd, p, size, off, inner, err) < 0)
				return -1;
			continue;
		case PERF_RECORD_AUXTRACE:
			if (skip_payload(pd, p, size, off, inner, err) < 0)
				return -1;
			continue;
		case PERF_RECORD_COMPRESSED:
		case PERF_RECORD_COMPRESSED2:
			if (inner)
				return p2g_fail(err, P2G_INVALID, off,
						"compressed record inside "
						"compressed data");
			if (compressed(pd, p, size, off, rec->type, err) < 0)
				return -1;
			continue;
		case PERF_RECORD_LOST:
			if (size >= 24)
				pd->counts.lost +=
					load64(p + 16, pd->f.big_endian);
			break;
		case PERF_RECORD_LOST_SAMPLES:
			/* as perf report counts them: not those a BPF
			 * filter dropped on purpose */
			if (size >= 16 &&
			    !(rec->misc & PERF_RECORD_MISC_LOST_SAMPLES_BPF))
				pd->counts.lost_samples +=
					load64(p + 8, pd->f.big_endian);
			break;
		default:
			break;
		}
		/* The end of a round of the ring buffers is the reader's
		 * cue to put records in time order (order.h); the other
		 * records perf writes for itself are not returned. */
		if (rec->type == PERF_RECORD_FINISHED_ROUND)
			return 1;
		if (rec->type >= PERF_RECORD_USER_TYPE_START)
			continue;
		rec->attr = trailer_attr(pd, p, size);
		return 1;
	}
}

void
perfdata_get_warn(const struct perfdata *pd, perfdata_warn_fn *fn,
		  void **ctx)
{
	*fn = pd->warn;
	*ctx = pd->warn_ctx;
}

void
perfdata_set_warn(struct perfdata *pd, perfdata_warn_fn fn, void *ctx)
{
	pd->warn = fn;
	pd->warn_ctx = ctx;
}

uint64_t
perfdata_done(const struct perfdata *pd)
{
	uint64_t done = 0;
	size_t i;

	for (i = 0; i < pd->nparts; i++)
		done += input_tell(pd->parts[i].in);
	return done;
}

int
perfdata_next(struct perfdata *pd, struct perf_record *rec,
	      struct p2g_error *err)
{
	if (pd->dir != NULL)
		return directory_next(pd, rec, err);
	return perfdata_next_in_file(pd, rec, err);
}

void
perfdata_release(struct perfdata *pd, uint64_t upto)
{
	input_release(pd->in, upto);
}

const struct perfdata_format *
perfdata_format(const struct perfdata *pd)
{
	return &pd->f;
}

const struct perf_build_id *
perfdata_kernel_build_id(const struct perf_header_info *hi)
{
	const struct perf_build_id *vmlinux = NULL;
	const char *base;
	size_t i;

	for (i = 0; hi != NULL && i < hi->nr_build_ids; i++) {
		const struct perf_build_id *b = &hi->build_ids[i];

		if (b->size == 0)
			continue;
		if (strcmp(b->filename, "[kernel.kallsyms]") == 0)
			return b;
		base = strrchr(b->filename, '/');
		base = base != NULL ? base + 1 : b->filename;
		if (vmlinux == NULL && b->pid == -1 &&
		    strncmp(base, "vmlinux", 7) == 0)
			vmlinux = b;
	}
	return vmlinux;
}

const struct perf_header_info *
perfdata_header(const struct perfdata *pd)
{
	return &pd->info;
}

const struct perfdata_counts *
perfdata_counts(const struct perfdata *pd)
{
	return &pd->counts;
}

size_t
perfdata_nattrs(const struct perfdata *pd)
{
	return pd->nr_attrs;
}

const struct perf_attr *
perfdata_attr(const struct perfdata *pd, size_t i)
{
	return pd->attrs[i];
}

void
perfdata_facts(const struct perfdata *pd, struct perfdata_facts *f)
{
	f->format = &pd->f;
	f->header = &pd->info;
	f->attrs = (const struct perf_attr *const *)pd->attrs;
	f->nattrs = pd->nr_attrs;
}

size_t
perfdata_nparts(const struct perfdata *pd)
{
	return pd->nparts;
}

const struct input *
perfdata_part_input(const struct perfdata *pd, size_t i)
{
	return pd->parts[i].in;
}

const char *
perfdata_part_name(const struct perfdata *pd, size_t i)
{
	return pd->dir != NULL ? pd->parts[i].name : NULL;
}
