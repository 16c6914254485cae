/* SPDX-License-Identifier: MIT */
/*
 * The perf.data reader (see perfdata.h).  Layout references: the perf.data
 * format document (tools/perf/Documentation/perf.data-file-format.txt) and
 * perf's util/header.c for what the document leaves out.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cursor.h"
#include "perf_abi.h"
#include "perfdata.h"
#include "zstream.h"

#define PERF_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" read as LE */
#define FILE_HEADER_MIN	104	/* magic, size, attr_size, 3 sections, flags */
#define PIPE_HEADER	16
/* Refuse absurd metadata sizes instead of allocating them. */
#define FEATURE_MAX	(256u << 20)
#define ATTRS_MAX	(64u << 20)
/* How often a directory's files give back the pages behind them. */
#define RELEASE_STEP	((uint64_t)1 << 20)

static void
warnf(struct perfdata *pd, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* OFF, an offset in the file being read, as perfdata_where() takes it. */
static uint64_t
tag_offset(const struct perfdata *pd, uint64_t off)
{
	if (pd->dir == NULL || off == P2G_NO_OFFSET)
		return off;
	return off | (uint64_t)(pd->cur - pd->parts) << PERFDATA_PART_SHIFT;
}

static void
warnf(struct perfdata *pd, uint64_t off, const char *fmt, ...)
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

static const char *const feature_names[] = {
	[HEADER_TRACING_DATA] = "tracing_data",
	[HEADER_BUILD_ID] = "build_id",
	[HEADER_HOSTNAME] = "hostname",
	[HEADER_OSRELEASE] = "osrelease",
	[HEADER_VERSION] = "version",
	[HEADER_ARCH] = "arch",
	[HEADER_NRCPUS] = "nrcpus",
	[HEADER_CPUDESC] = "cpudesc",
	[HEADER_CPUID] = "cpuid",
	[HEADER_TOTAL_MEM] = "total_mem",
	[HEADER_CMDLINE] = "cmdline",
	[HEADER_EVENT_DESC] = "event_desc",
	[HEADER_CPU_TOPOLOGY] = "cpu_topology",
	[HEADER_NUMA_TOPOLOGY] = "numa_topology",
	[HEADER_BRANCH_STACK] = "branch_stack",
	[HEADER_PMU_MAPPINGS] = "pmu_mappings",
	[HEADER_GROUP_DESC] = "group_desc",
	[HEADER_AUXTRACE] = "auxtrace",
	[HEADER_STAT] = "stat",
	[HEADER_CACHE] = "cache",
	[HEADER_SAMPLE_TIME] = "sample_time",
	[HEADER_MEM_TOPOLOGY] = "mem_topology",
	[HEADER_CLOCKID] = "clockid",
	[HEADER_DIR_FORMAT] = "dir_format",
	[HEADER_BPF_PROG_INFO] = "bpf_prog_info",
	[HEADER_BPF_BTF] = "bpf_btf",
	[HEADER_COMPRESSED] = "compressed",
	[HEADER_CPU_PMU_CAPS] = "cpu_pmu_caps",
	[HEADER_CLOCK_DATA] = "clock_data",
	[HEADER_HYBRID_TOPOLOGY] = "hybrid_topology",
	[HEADER_PMU_CAPS] = "pmu_caps",
};

const char *
perfdata_feature_name(unsigned bit)
{
	if (bit < sizeof(feature_names) / sizeof(feature_names[0]))
		return feature_names[bit];
	return NULL;
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
		size_t nc = pd->cap_ids ? pd->cap_ids * 2 : 32;
		struct perf_id *n = realloc(pd->ids, nc * sizeof(*n));

		if (n == NULL)
			return false;
		pd->ids = n;
		pd->cap_ids = nc;
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
	return &pd->attrs[pd->ids[i].attr];
}

static struct perf_attr *
id_map_get(struct perfdata *pd, uint64_t id)
{
	return id_map_find(pd, id, NULL);
}

const struct perf_attr *
perfdata_id_attr(const struct perfdata *pd, uint64_t id, size_t *seq)
{
	return id_map_find(pd, id, seq);
}

/* Add an attr decoded by the caller (ownership of its name and ids moves
 * into PD).  */
static int
add_attr(struct perfdata *pd, struct perf_attr *a, uint64_t off,
	 struct p2g_error *err)
{
	struct perf_attr *na;
	size_t i;

	if (!attr_finish(a))
		goto nomem;
	na = realloc(pd->attrs, (pd->nr_attrs + 1) * sizeof(*na));
	if (na == NULL)
		goto nomem;
	pd->attrs = na;
	pd->attrs[pd->nr_attrs] = *a;
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
		return &pd->attrs[0];
	if (pd->nr_attrs == 0)
		return NULL;
	/* perf requires every event of a file to put the id at the same
	 * place; the first attr tells where. */
	pos = pd->attrs[0].id_pos;
	if (pos < 0 || (size_t)(pos + 1) * 8 > len)
		return NULL;
	return id_map_get(pd, load64(body + (size_t)pos * 8, pd->big_endian));
}

static struct perf_attr *
trailer_attr(struct perfdata *pd, const unsigned char *rec, size_t size)
{
	const struct perf_attr *a0;
	size_t off;

	if (pd->nr_attrs == 1)
		return &pd->attrs[0];
	if (pd->nr_attrs == 0)
		return NULL;
	a0 = &pd->attrs[0];
	if (!a0->sample_id_all || a0->id_pos_end < 0)
		return NULL;
	off = (size_t)a0->id_pos_end * 8;
	if (off + 8 > size)
		return NULL;
	return id_map_get(pd, load64(rec + size - off, pd->big_endian));
}

/* ---- feature sections --------------------------------------------------- */

static char *
dup_string(struct cursor *c)
{
	size_t n;
	const char *s = cursor_string(c, &n);
	char *r;

	if (s == NULL)
		return NULL;
	r = malloc(n + 1);
	if (r != NULL) {
		memcpy(r, s, n);
		r[n] = '\0';
	}
	return r;
}

static char *
string_list(struct cursor *c)
{
	uint32_t nr = cursor_u32(c), i;
	size_t len = 0, n;
	char *out = NULL, *t;
	const char *s;

	for (i = 0; i < nr && cursor_ok(c); i++) {
		s = cursor_string(c, &n);
		if (s == NULL)
			break;
		t = realloc(out, len + n + 2);
		if (t == NULL)
			break;
		out = t;
		if (len > 0)
			out[len++] = ' ';
		memcpy(out + len, s, n);
		len += n;
		out[len] = '\0';
	}
	return out;
}

/* HEADER_EVENT_DESC: names (and ids) of the events. */
static void
parse_event_desc(struct perfdata *pd, struct cursor *c)
{
	uint32_t nr = cursor_u32(c);
	uint32_t asz = cursor_u32(c);
	uint32_t i, nids, j;
	const char *name;
	size_t n;

	if (!cursor_ok(c) || asz < PERF_ATTR_SIZE_VER0) {
		warnf(pd, cursor_err_offset(c), "bad event_desc feature");
		return;
	}
	for (i = 0; i < nr; i++) {
		struct perf_attr tmp;
		struct perf_attr *dst = NULL;
		uint64_t first_id = 0;

		if (!attr_decode(c, asz, &tmp))
			break;
		nids = cursor_u32(c);
		name = cursor_string(c, &n);
		if (name == NULL || (uint64_t)nids * 8 > cursor_left(c))
			break;
		if (nids > 0) {
			first_id = load64(c->base + c->pos, c->big_endian);
			dst = id_map_get(pd, first_id);
		}
		for (j = 0; j < nids; j++)
			(void)cursor_u64(c);
		if (dst == NULL && nr == pd->nr_attrs)
			dst = &pd->attrs[i];
		if (dst != NULL && !attr_set_name(dst, name, n))
			return;
	}
	if (!cursor_ok(c))
		warnf(pd, cursor_err_offset(c),
		      "event_desc feature is truncated");
}

/* HEADER_BUILD_ID: a sequence of build_id_event records.  perf 6.12 wrote
 * broken tables, so problems here are warnings only. */
static void
parse_build_ids(struct perfdata *pd, struct cursor *c)
{
	struct perf_header_info *hi = &pd->info;

	while (cursor_left(c) >= 8 && cursor_ok(c)) {
		struct cursor r;
		uint64_t start = cursor_offset(c);
		uint16_t misc, size;
		struct perf_build_id *nb, *b;
		const unsigned char *id, *nul;
		size_t fnlen, k;

		(void)cursor_u32(c);		/* type */
		misc = cursor_u16(c);
		size = cursor_u16(c);
		if (size < 8 + 4 + 24 || !cursor_sub(c, size - 8u, &r)) {
			warnf(pd, start, "bad build id entry of size %u", size);
			return;
		}
		nb = realloc(hi->build_ids,
			     (hi->nr_build_ids + 1) * sizeof(*nb));
		if (nb == NULL)
			return;
		hi->build_ids = nb;
		b = &nb[hi->nr_build_ids];
		memset(b, 0, sizeof(*b));
		b->pid = (int32_t)cursor_u32(&r);
		id = cursor_bytes(&r, 24);
		memcpy(b->id, id, 20);
		if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) {
			b->size = id[20] <= 20 ? id[20] : 20;
		} else {
			for (k = 20; k > 0 && id[k - 1] == 0; k--)
				;
			b->size = (uint8_t)k;
		}
		fnlen = cursor_left(&r);
		nul = memchr(r.base + r.pos, '\0', fnlen);
		if (nul != NULL)
			fnlen = (size_t)(nul - (r.base + r.pos));
		b->filename = malloc(fnlen + 1);
		if (b->filename == NULL)
			return;
		memcpy(b->filename, r.base + r.pos, fnlen);
		b->filename[fnlen] = '\0';
		hi->nr_build_ids++;
	}
}

static void
parse_feature(struct perfdata *pd, unsigned bit, const unsigned char *buf,
	      size_t len, uint64_t off)
{
	struct perf_header_info *hi = &pd->info;
	struct cursor c;
	char **str = NULL;

	cursor_init(&c, buf, len, off, pd->big_endian);
	if (bit < 256)
		hi->features[bit / 64] |= 1ULL << (bit % 64);
	if (bit < HEADER_LAST_FEATURE && bit != HEADER_BUILD_ID &&
	    bit != HEADER_TRACING_DATA) {
		unsigned char *copy = malloc(len ? len : 1);

		if (copy != NULL) {
			memcpy(copy, buf, len);
			free(hi->raw[bit].data);
			hi->raw[bit].data = copy;
			hi->raw[bit].len = len;
			hi->raw[bit].off = off;
		}
	}
	switch (bit) {
	case HEADER_HOSTNAME: str = &hi->hostname; break;
	case HEADER_OSRELEASE: str = &hi->osrelease; break;
	case HEADER_VERSION: str = &hi->version; break;
	case HEADER_ARCH: str = &hi->arch; break;
	case HEADER_CPUDESC: str = &hi->cpudesc; break;
	case HEADER_CPUID: str = &hi->cpuid; break;
	case HEADER_NRCPUS:
		hi->nr_cpus_avail = cursor_u32(&c);
		hi->nr_cpus_online = cursor_u32(&c);
		break;
	case HEADER_TOTAL_MEM:
		hi->total_mem_kb = cursor_u64(&c);
		break;
	case HEADER_CMDLINE:
		free(hi->cmdline);
		hi->cmdline = string_list(&c);
		break;
	case HEADER_EVENT_DESC:
		parse_event_desc(pd, &c);
		return;
	case HEADER_BUILD_ID:
		parse_build_ids(pd, &c);
		return;
	case HEADER_SAMPLE_TIME:
		hi->first_sample_time = cursor_u64(&c);
		hi->last_sample_time = cursor_u64(&c);
		hi->have_sample_time = cursor_ok(&c);
		break;
	case HEADER_CLOCKID:
		hi->clockid_res_ns = cursor_u64(&c);
		break;
	case HEADER_COMPRESSED:
		(void)cursor_u32(&c);
		hi->compression_type = cursor_u32(&c);
		hi->compression_level = cursor_u32(&c);
		hi->compression_ratio = cursor_u32(&c);
		hi->compression_mmap_len = cursor_u32(&c);
		break;
	default:
		return;
	}
	if (str != NULL) {
		free(*str);
		*str = dup_string(&c);
	}
	if (!cursor_ok(&c))
		warnf(pd, cursor_err_offset(&c), "feature %s is truncated",
		      perfdata_feature_name(bit));
}

static int
read_features(struct perfdata *pd, const uint64_t flags[4],
	      struct p2g_error *err)
{
	unsigned bit, nr = 0, i = 0;
	unsigned char *tab = NULL, *buf = NULL;
	uint64_t tab_off = pd->data_offset + pd->data_size;
	struct cursor c;
	int ret = -1;

	for (bit = 1; bit < HEADER_FEAT_BITS; bit++)
		if (flags[bit / 64] & (1ULL << (bit % 64)))
			nr++;
	if (nr == 0)
		return 0;
	tab = malloc((size_t)nr * 16);
	if (tab == NULL) {
		p2g_fail(err, P2G_NOMEM, tab_off, "out of memory");
		goto out;
	}
	if (input_pread(pd->in, tab_off, tab, (size_t)nr * 16, err) < 0) {
		/* A missing feature table is survivable: perf reads the
		 * data without it. */
		warnf(pd, tab_off, "feature section table missing: %s",
		      err->msg);
		p2g_error_clear(err);
		ret = 0;
		goto out;
	}
	cursor_init(&c, tab, (size_t)nr * 16, tab_off, pd->big_endian);
	for (bit = 1; bit < HEADER_FEAT_BITS; bit++) {
		uint64_t off, size;

		if (!(flags[bit / 64] & (1ULL << (bit % 64))))
			continue;
		off = cursor_u64(&c);
		size = cursor_u64(&c);
		i++;
		if (bit == HEADER_TRACING_DATA) {
			/* large and not needed: only noted */
			pd->info.features[0] |= 1ULL << HEADER_TRACING_DATA;
			continue;
		}
		if (size > FEATURE_MAX || off > input_size(pd->in) ||
		    size > input_size(pd->in) - off) {
			warnf(pd, tab_off + (i - 1) * 16,
			      "feature %u section (0x%llx bytes at 0x%llx) "
			      "lies outside the file", bit,
			      (unsigned long long)size,
			      (unsigned long long)off);
			continue;
		}
		free(buf);
		buf = malloc(size ? (size_t)size : 1);
		if (buf == NULL) {
			p2g_fail(err, P2G_NOMEM, off, "out of memory");
			goto out;
		}
		if (input_pread(pd->in, off, buf, (size_t)size, err) < 0)
			goto out;
		parse_feature(pd, bit, buf, (size_t)size, off);
	}
	ret = 0;
out:
	free(tab);
	free(buf);
	return ret;
}

/* ---- opening ------------------------------------------------------------ */

static int
read_file_header(struct perfdata *pd, struct p2g_error *err)
{
	unsigned char hdr[FILE_HEADER_MIN];
	uint64_t attrs_off, attrs_size, flags[4], i, n;
	unsigned char *abuf = NULL;
	struct cursor c, ac;
	int ret = -1;

	if (input_pread(pd->in, 0, hdr, sizeof(hdr), err) < 0) {
		if (err->status == P2G_INVALID)
			p2g_fail(err, P2G_INVALID, 0,
				 "file is too short for a perf.data header");
		return -1;
	}
	cursor_init(&c, hdr, sizeof(hdr), 0, pd->big_endian);
	(void)cursor_u64(&c);
	pd->header_size = cursor_u64(&c);
	pd->attr_size = cursor_u64(&c);
	attrs_off = cursor_u64(&c);
	attrs_size = cursor_u64(&c);
	pd->data_offset = cursor_u64(&c);
	pd->data_size = cursor_u64(&c);
	(void)cursor_u64(&c);	/* event_types: unused since perf 3.x */
	(void)cursor_u64(&c);
	for (i = 0; i < 4; i++)
		flags[i] = cursor_u64(&c);

	if (pd->header_size < FILE_HEADER_MIN)
		return p2g_fail(err, P2G_INVALID, 8,
				"header size %llu is smaller than %u",
				(unsigned long long)pd->header_size,
				FILE_HEADER_MIN);
	/* attr_size covers an attr and its ids section. */
	if (pd->attr_size < PERF_ATTR_SIZE_VER0 + 16 ||
	    pd->attr_size > 4096)
		return p2g_fail(err, P2G_INVALID, 16,
				"attr size %llu is not a perf_event_attr "
				"plus an ids section",
				(unsigned long long)pd->attr_size);
	if (pd->data_offset > input_size(pd->in))
		return p2g_fail(err, P2G_INVALID, 40,
				"data section offset 0x%llx is past the end "
				"of the file (0x%llx)",
				(unsigned long long)pd->data_offset,
				(unsigned long long)input_size(pd->in));
	if (pd->data_size == 0) {
		pd->cur->salvage = true;
		pd->cur->data_end = UINT64_MAX;
		warnf(pd, 48, "data size is 0 (perf did not finish the "
		      "file); reading the records that are there");
	} else if (pd->data_size > input_size(pd->in) - pd->data_offset) {
		return p2g_fail(err, P2G_INVALID, 48,
				"data section (0x%llx bytes at 0x%llx) runs "
				"past the end of the file (0x%llx)",
				(unsigned long long)pd->data_size,
				(unsigned long long)pd->data_offset,
				(unsigned long long)input_size(pd->in));
	} else {
		pd->cur->data_end = pd->data_offset + pd->data_size;
	}

	if (attrs_size % pd->attr_size != 0)
		return p2g_fail(err, P2G_INVALID, 32,
				"attrs section size %llu is not a multiple "
				"of the attr size %llu",
				(unsigned long long)attrs_size,
				(unsigned long long)pd->attr_size);
	if (attrs_off > input_size(pd->in) ||
	    attrs_size > input_size(pd->in) - attrs_off)
		return p2g_fail(err, P2G_INVALID, 24,
				"attrs section (0x%llx bytes at 0x%llx) runs "
				"past the end of the file (0x%llx)",
				(unsigned long long)attrs_size,
				(unsigned long long)attrs_off,
				(unsigned long long)input_size(pd->in));
	if (attrs_size > ATTRS_MAX)
		return p2g_fail(err, P2G_NOMEM, 32,
				"attrs section of %llu bytes is too large",
				(unsigned long long)attrs_size);
	abuf = malloc(attrs_size ? (size_t)attrs_size : 1);
	if (abuf == NULL)
		return p2g_fail(err, P2G_NOMEM, attrs_off, "out of memory");
	if (input_pread(pd->in, attrs_off, abuf, (size_t)attrs_size, err) < 0)
		goto out;
	cursor_init(&ac, abuf, (size_t)attrs_size, attrs_off, pd->big_endian);
	n = attrs_size / pd->attr_size;
	for (i = 0; i < n; i++) {
		struct perf_attr a;
		struct cursor one;
		uint64_t ids_off, ids_size, k, asz;
		uint64_t *ids = NULL;
		unsigned char *idbuf = NULL;
		struct cursor ic;

		cursor_sub(&ac, pd->attr_size, &one);
		/* The attr's own size field says how much of the slot is
		 * the attr; old files have 0 there, meaning 64. */
		asz = pd->attr_size - 16;
		attr_decode(&one, asz, &a);
		ids_off = cursor_u64(&one);
		ids_size = cursor_u64(&one);
		if (!cursor_ok(&one))
			goto bad_attr;
		if (ids_size % 8 != 0 || ids_off > input_size(pd->in) ||
		    ids_size > input_size(pd->in) - ids_off) {
			attr_release(&a);
			p2g_fail(err, P2G_INVALID, cursor_offset(&one) - 16,
				 "ids of attr %llu (0x%llx bytes at 0x%llx) "
				 "lie outside the file",
				 (unsigned long long)i,
				 (unsigned long long)ids_size,
				 (unsigned long long)ids_off);
			goto out;
		}
		if (ids_size > 0) {
			idbuf = malloc((size_t)ids_size);
			ids = malloc((size_t)ids_size);
			if (idbuf == NULL || ids == NULL) {
				free(idbuf);
				free(ids);
				attr_release(&a);
				p2g_fail(err, P2G_NOMEM, ids_off,
					 "out of memory");
				goto out;
			}
			if (input_pread(pd->in, ids_off, idbuf,
					(size_t)ids_size, err) < 0) {
				free(idbuf);
				free(ids);
				attr_release(&a);
				goto out;
			}
			cursor_init(&ic, idbuf, (size_t)ids_size, ids_off,
				    pd->big_endian);
			for (k = 0; k < ids_size / 8; k++)
				ids[k] = cursor_u64(&ic);
			if (!attr_add_ids(&a, ids, (size_t)(ids_size / 8))) {
				free(idbuf);
				free(ids);
				attr_release(&a);
				p2g_fail(err, P2G_NOMEM, ids_off,
					 "out of memory");
				goto out;
			}
			free(idbuf);
			free(ids);
		}
		if (add_attr(pd, &a, cursor_offset(&ac), err) < 0)
			goto out;
		continue;
bad_attr:
		attr_release(&a);
		p2g_fail(err, P2G_INVALID, cursor_err_offset(&one),
			 "attr %llu is truncated", (unsigned long long)i);
		goto out;
	}
	if (read_features(pd, flags, err) < 0)
		goto out;
	ret = input_seek(pd->in, pd->data_offset, err);
out:
	free(abuf);
	return ret;
}

/* Open file NAME of the directory, or return NULL with ERR clear if there
 * is no such file (or with ERR set if it cannot be opened). */
static struct input *
open_part(struct perfdata *pd, const char *name, struct p2g_error *err)
{
	struct input *in;
	struct stat st;
	char *path;

	path = malloc(strlen(pd->dir) + strlen(name) + 2);
	if (path == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		return NULL;
	}
	sprintf(path, "%s/%s", pd->dir, name);
	if (stat(path, &st) != 0 && errno == ENOENT) {
		free(path);
		p2g_error_clear(err);
		return NULL;
	}
	in = input_open(path, err);
	free(path);
	if (in == NULL) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		p2g_fail(err, err->status, err->offset, "%s: %s", name, msg);
	}
	return in;
}

/*
 * After the header of a directory's "data": open data.0, data.1, ... up
 * to the first that is missing, all to be read side by side, and set up
 * the heap of files by frontier (all at 0: in the order of the files).
 * 0, or -1 with ERR set.
 */
static int
open_parts(struct perfdata *pd, struct p2g_error *err)
{
	struct perf_part *np;
	struct input *in;
	char name[24];
	size_t i;

	for (;;) {
		snprintf(name, sizeof(name), "data.%zu", pd->nparts - 1);
		in = open_part(pd, name, err);
		if (in == NULL) {
			if (err->status != P2G_OK)
				return -1;
			break;
		}
		/* the number of the file must fit above an offset */
		if (pd->nparts >> (64 - PERFDATA_PART_SHIFT) != 0) {
			input_close(in);
			return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
					"more than %u data.N files in the "
					"directory",
					(1u << (64 - PERFDATA_PART_SHIFT)) - 1);
		}
		np = realloc(pd->parts, (pd->nparts + 1) * sizeof(*np));
		if (np == NULL) {
			input_close(in);
			return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					"out of memory");
		}
		pd->parts = np;
		memset(&np[pd->nparts], 0, sizeof(*np));
		np[pd->nparts].in = in;
		np[pd->nparts].data_end = UINT64_MAX;
		/* perf did not finish the header: it may have left any
		 * file cut inside a record */
		np[pd->nparts].salvage = np[0].salvage;
		memcpy(np[pd->nparts].name, name, sizeof(name));
		pd->nparts++;
	}
	pd->cur = pd->parts;
	if (pd->nparts == 1)
		warnf(pd, P2G_NO_OFFSET, "the directory has no data.0 file: "
		      "only its header file was read");
	pd->heap = malloc(pd->nparts * sizeof(*pd->heap));
	if (pd->heap == NULL)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	pd->total_size = 0;
	for (i = 0; i < pd->nparts; i++) {
		uint64_t size = input_size(pd->parts[i].in);

		pd->heap[i].time = 0;
		pd->heap[i].part = (uint32_t)i;
		if (size == UINT64_MAX || pd->total_size == UINT64_MAX)
			pd->total_size = UINT64_MAX;
		else
			pd->total_size += size;
	}
	pd->nheap = pd->nparts;
	return 0;
}

struct perfdata *
perfdata_open(const char *path, perfdata_warn_fn warn, void *warn_ctx,
	      struct p2g_error *err)
{
	struct perfdata *pd;
	const unsigned char *p;
	size_t avail;
	uint64_t magic, size;
	struct stat st;
	int gz;

	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		return NULL;
	}
	pd->warn = warn;
	pd->warn_ctx = warn_ctx;
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
		pd->cur->in = open_part(pd, "data", err);
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
	}
	pd->in = pd->cur->in;
	gz = input_is_gzip(pd->in, err);
	if (gz < 0)
		goto fail;
	if (gz) {
		/* perf.data.gz: offsets are then those of the
		 * decompressed data. */
		if (input_gunzip(pd->in, err) < 0)
			goto fail;
		pd->gzip = true;
	}
	p = input_peek(pd->in, PIPE_HEADER, &avail, err);
	if (p == NULL)
		goto fail;
	if (avail < 8) {
		p2g_fail(err, P2G_INVALID, 0,
			 avail ? "file is too short for a perf.data header"
			       : "file is empty");
		goto fail;
	}
	magic = load64(p, false);
	if (magic == PERF_MAGIC2) {
		pd->big_endian = false;
	} else if (magic == __builtin_bswap64(PERF_MAGIC2)) {
		pd->big_endian = true;
	} else if (memcmp(p, "PERFFILE", 8) == 0) {
		p2g_fail(err, P2G_UNSUPPORTED, 0,
			 "perf.data version 1 (PERFFILE) is not supported");
		goto fail;
	} else {
		p2g_fail(err, P2G_INVALID, 0,
			 "not a perf.data file (no PERFILE2 magic)");
		goto fail;
	}
	if (avail < PIPE_HEADER) {
		p2g_fail(err, P2G_INVALID, 0,
			 "file is too short for a perf.data header");
		goto fail;
	}
	size = load64(p + 8, pd->big_endian);
	if (size == PIPE_HEADER) {
		pd->pipe_mode = true;
		pd->header_size = PIPE_HEADER;
		pd->data_offset = PIPE_HEADER;
		input_consume(pd->in, PIPE_HEADER);
	} else {
		if (input_make_seekable(pd->in, err) < 0)
			goto fail;
		if (read_file_header(pd, err) < 0)
			goto fail;
	}
	pd->total_size = input_size(pd->in);
	if (pd->dir != NULL && open_parts(pd, err) < 0)
		goto fail;
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
	for (i = 0; i < pd->nr_attrs; i++)
		attr_release(&pd->attrs[i]);
	free(pd->attrs);
	free(pd->ids);
	hashtab_free(&pd->id_index);
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

/* PERF_RECORD_HEADER_ATTR: an attr followed by its ids (pipe mode). */
static int
header_attr(struct perfdata *pd, const unsigned char *rec, size_t size,
	    uint64_t off, struct p2g_error *err)
{
	struct perf_attr a;
	struct cursor c;
	uint32_t asz;
	size_t k, nids;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		return p2g_fail(err, P2G_INVALID, off,
				"attr record of %zu bytes is too small", size);
	asz = load32(rec + 8 + 4, pd->big_endian);
	if (asz == 0)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > size - 8)
		return p2g_fail(err, P2G_INVALID, off + 12,
				"attr size %u does not fit its record of %zu "
				"bytes", asz, size);
	cursor_init(&c, rec + 8, size - 8, off + 8, pd->big_endian);
	attr_decode(&c, asz, &a);
	nids = cursor_left(&c) / 8;
	for (k = 0; k < nids; k++) {
		uint64_t id = cursor_u64(&c);

		if (!attr_add_ids(&a, &id, 1)) {
			attr_release(&a);
			return p2g_fail(err, P2G_NOMEM, off, "out of memory");
		}
	}
	return add_attr(pd, &a, off, err);
}

/* PERF_RECORD_HEADER_FEATURE: a feature section in a record (pipe mode). */
static void
header_feature(struct perfdata *pd, const unsigned char *rec, size_t size,
	       uint64_t off)
{
	uint64_t bit;

	if (size < 16) {
		warnf(pd, off, "feature record of %zu bytes is too small",
		      size);
		return;
	}
	bit = load64(rec + 8, pd->big_endian);
	if (bit == 0 || bit >= HEADER_FEAT_BITS) {
		warnf(pd, off, "feature record for unknown feature %llu",
		      (unsigned long long)bit);
		return;
	}
	parse_feature(pd, (unsigned)bit, rec + 16, size - 16, off + 16);
}

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

/* Whether heap entry A goes before B: the earlier time, then the earlier
 * file. */
static inline bool
key_before(const struct part_key *a, const struct part_key *b)
{
	return a->time < b->time || (a->time == b->time && a->part < b->part);
}

/* Put the file at the top of the heap in its place, and read on from the
 * file that is then at the top. */
static void
part_sift(struct perfdata *pd)
{
	struct part_key *h = pd->heap, x = h[0];
	size_t i = 0, c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= pd->nheap)
			break;
		if (c + 1 < pd->nheap && key_before(&h[c + 1], &h[c]))
			c++;
		if (!key_before(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
	pd->cur = &pd->parts[h[0].part];
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
		warnf(pd, zstream_offset(pt->z),
		      "the compressed data ends inside a record; its %zu "
		      "bytes are ignored", zstream_buffered(pt->z));
	zstream_free(pt->z);
	pt->z = NULL;
	if (pd->dir == NULL)
		return;
	input_release(pt->in, UINT64_MAX);
	if (--pd->nheap > 0) {
		pd->heap[0] = pd->heap[pd->nheap];
		part_sift(pd);
	}
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

	pt = pd->cur;
	if (pt->z != NULL) {
		p = zstream_peek(pt->z, 8, &avail, err);
		if (p == NULL)
			return -1;
		if (avail == 8) {
			size = load16(p + 6, pd->big_endian);
			if (size < 8)
				return p2g_fail(err, P2G_INVALID,
						zstream_offset(pt->z),
						"record size %u inside the "
						"compressed record is smaller "
						"than a record header", size);
			p = zstream_peek(pt->z, size, &avail, err);
			if (p == NULL)
				return -1;
			if (avail == size) {
				zstream_consume(pt->z, size);
				*recp = p;
				*sizep = size;
				*offp = zstream_offset(pt->z);
				*inner = true;
				return 1;
			}
		}
		/* The rest of this record comes with the next compressed
		 * record. */
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
	/* A mapped file's records are taken where they lie, with no call
	 * to read them; anything out of the ordinary goes the general way
	 * below, which says what is wrong. */
	if (pt->map != NULL && left >= 8 && off <= pt->map_size &&
	    pt->map_size - off >= 8) {
		p = pt->map + off;
		size = load16(p + 6, pd->big_endian);
		if (size >= 8 && size <= left && size <= pt->map_size - off &&
		    !(pd->pipe_mode && trailing_text(p, 8))) {
			input_consume(pt->in, size);
			goto record;
		}
	}
	/* A mapped input has the whole record at hand without a read: ask
	 * for the largest one at once, and peek only once. */
	p = input_peek(pt->in, pt->map != NULL ? UINT16_MAX : 8, &avail, err);
	if (p == NULL)
		return -1;
	if (avail == 0 && pt->data_end == UINT64_MAX)
		goto end;
	if (pd->pipe_mode && trailing_text(p, avail))
		goto text;
	if (avail < 8 || left < 8)
		goto truncated;
	size = load16(p + 6, pd->big_endian);
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
record:
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
	if (pd->pipe_mode || pt->salvage) {
		warnf(pd, off, "data ends inside a record; the rest of the "
		      "input is ignored");
		goto end;
	}
	return p2g_fail(err, P2G_INVALID, off,
			"record runs past the end of the data section");
text:
	warnf(pd, off, "text after the last record; ignored");
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
		dsize = load64(p + 8, pd->big_endian);
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
		pd->cur->z = zstream_new();
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

/* Whether a record of TYPE is folded into the handle (perfdata_next()
 * below): new attrs and ids, feature sections, build ids, or the start
 * of a compressed stream whose records are not lasting. */
static bool
changes_handle(uint32_t type)
{
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
	case PERF_RECORD_HEADER_BUILD_ID:
	case PERF_RECORD_COMPRESSED:
	case PERF_RECORD_COMPRESSED2:
		return true;
	default:
		return false;
	}
}

static int
next_record(struct perfdata *pd, struct perf_record *rec,
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
		rec->type = load32(p, pd->big_endian);
		if (pd->frozen && !inner && pd->cur->map != NULL &&
		    changes_handle(rec->type)) {
			/* a mapped input steps back by its offset alone */
			if (input_seek(pd->cur->in, off, err) < 0)
				return -1;
			return 2;
		}
		rec->misc = load16(p + 4, pd->big_endian);
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
			if (header_attr(pd, p, size, off, err) < 0)
				return -1;
			continue;
		case PERF_RECORD_HEADER_FEATURE:
			header_feature(pd, p, size, off);
			continue;
		case PERF_RECORD_HEADER_BUILD_ID: {
			struct cursor c;

			cursor_init(&c, p, size, off, pd->big_endian);
			parse_build_ids(pd, &c);
			continue;
		}
		case PERF_RECORD_HEADER_TRACING_DATA:
		case PERF_RECORD_AUXTRACE: {
			/* The payload follows the record, outside its
			 * size. */
			uint64_t skip;

			if (size < (rec->type == PERF_RECORD_AUXTRACE ? 16
								       : 12))
				return p2g_fail(err, P2G_INVALID, off,
						"%s record is too small",
						rec->type ==
								PERF_RECORD_AUXTRACE
							? "auxtrace"
							: "tracing data");
			skip = rec->type == PERF_RECORD_AUXTRACE
				       ? load64(p + 8, pd->big_endian)
				       : load32(p + 8, pd->big_endian);
			if (inner)
				return p2g_fail(err, P2G_UNSUPPORTED, off,
						"a record with a payload "
						"outside it inside compressed "
						"data");
			if (input_skip(pd->cur->in, skip, err) < 0)
				return -1;
			continue;
		}
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
					load64(p + 16, pd->big_endian);
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

/*
 * A directory's files, each in time order (one per CPU, or per group of
 * CPUs with their rounds), are merged by time as they are read: each
 * holds its next record (its head), and the earliest head goes first
 * (on a tie, the earlier file's).  A head without a time keeps its file
 * where it was; one of time 0, which perf delivers at once, goes first.
 * The files are read only at the top of the heap, so a record read stays
 * valid until the next call, as perfdata_next() promises.  (perf reads
 * the files in turns of a few megabytes and holds every record until the
 * end instead.)
 */
int
perfdata_next(struct perfdata *pd, struct perf_record *rec,
	      struct p2g_error *err)
{
	struct perf_part *pt;
	uint64_t t;
	int r;

	if (pd->dir == NULL)
		return next_record(pd, rec, err);
	while (pd->nheap > 0) {
		pt = pd->cur;
		if (pt->has_head) {
			pt->has_head = false;
			*rec = pt->head;
			return 1;
		}
		r = next_record(pd, &pt->head, err);
		if (r < 0) {
			if (err->part[0] == '\0')
				snprintf(err->part, sizeof(err->part), "%s",
					 pt->name);
			return r;
		}
		if (r == 0)
			continue;	/* the file is off the heap */
		pt->head.offset = tag_offset(pd, pt->head.offset);
		pt->has_head = true;
		if (perfdata_record_time(pd, &pt->head, &t) &&
		    t != UINT64_MAX) {
			struct part_key *h = pd->heap;

			h[0].time = t;
			/* most often it stays on top */
			if ((pd->nheap > 1 && key_before(&h[1], &h[0])) ||
			    (pd->nheap > 2 && key_before(&h[2], &h[0])))
				part_sift(pd);
		}
	}
	return 0;
}

const char *
perfdata_where(const struct perfdata *pd, uint64_t off, uint64_t *file_off)
{
	uint64_t k = off >> PERFDATA_PART_SHIFT;

	if (pd->dir == NULL || off == P2G_NO_OFFSET || k >= pd->nparts) {
		*file_off = off;
		return pd->parts[0].name;
	}
	*file_off = off & (((uint64_t)1 << PERFDATA_PART_SHIFT) - 1);
	return pd->parts[k].name;
}

void
perfdata_freeze(struct perfdata *pd, bool frozen)
{
	pd->frozen = frozen;
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

void
perfdata_locate(const struct perfdata *pd, struct p2g_error *err)
{
	const char *part;

	if (pd->dir == NULL || err->part[0] != '\0' ||
	    err->offset == P2G_NO_OFFSET)
		return;
	part = perfdata_where(pd, err->offset, &err->offset);
	snprintf(err->part, sizeof(err->part), "%s", part);
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
