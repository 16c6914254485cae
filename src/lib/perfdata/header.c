/* SPDX-License-Identifier: MIT */
/*
 * What a perf.data input says about itself: the file header, the attrs
 * section with the ids of each attr, and the feature sections (or, in
 * pipe mode, the records that carry the same).  Layout references: the
 * perf.data format document
 * (tools/perf/Documentation/perf.data-file-format.txt) and perf's
 * util/header.c for what the document leaves out.  See
 * perfdata-private.h.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "extent.h"
#include "perf_abi.h"
#include "perfdata-private.h"

#define PERF_MAGIC2	0x32454c4946524550ULL	/* "PERFILE2" read as LE */
#define FILE_HEADER_MIN	104	/* magic, size, attr_size, 3 sections, flags */
#define PIPE_HEADER	16
/* Refuse absurd metadata sizes instead of allocating them. */
#define FEATURE_MAX	(256u << 20)
#define ATTRS_MAX	(64u << 20)

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
		perfdata_warnf(pd, cursor_err_offset(c),
			       "bad event_desc feature");
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
			dst = perfdata_find_id(pd, first_id);
		}
		for (j = 0; j < nids; j++)
			(void)cursor_u64(c);
		if (dst == NULL && nr == pd->nr_attrs)
			dst = pd->attrs[i];
		if (dst != NULL && !attr_set_name(dst, name, n))
			return;
	}
	if (!cursor_ok(c))
		perfdata_warnf(pd, cursor_err_offset(c),
			       "event_desc feature is truncated");
}

/* HEADER_BUILD_ID: a sequence of build_id_event records.  perf 6.12 wrote
 * broken tables, so problems here are warnings only. */
void
header_build_ids(struct perfdata *pd, struct cursor *c)
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
			perfdata_warnf(pd, start,
				       "bad build id entry of size %u", size);
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

	cursor_init(&c, buf, len, off, pd->f.big_endian);
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
		header_build_ids(pd, &c);
		return;
	case HEADER_SAMPLE_TIME:
		hi->first_sample_time = cursor_u64(&c);
		hi->last_sample_time = cursor_u64(&c);
		hi->have_sample_time = cursor_ok(&c);
		break;
	case HEADER_CLOCKID:
		hi->clockid_res_ns = cursor_u64(&c);
		break;
	case HEADER_CLOCK_DATA:
		/* a u32 version and u32 clockid, then the two times; a
		 * section too short only leaves the times unknown */
		(void)cursor_u32(&c);
		(void)cursor_u32(&c);
		hi->clock_tod_ns = cursor_u64(&c);
		hi->clock_ref_ns = cursor_u64(&c);
		hi->have_clock_data = cursor_ok(&c);
		return;
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
		perfdata_warnf(pd, cursor_err_offset(&c),
			       "feature %s is truncated",
			       perfdata_feature_name(bit));
}

static int
read_features(struct perfdata *pd, const uint64_t flags[4],
	      struct p2g_error *err)
{
	unsigned bit, nr = 0, i = 0;
	unsigned char *tab = NULL, *buf = NULL;
	uint64_t tab_off = pd->f.data_offset + pd->f.data_size;
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
		perfdata_warnf(pd, tab_off,
			       "feature section table missing: %s", err->msg);
		p2g_error_clear(err);
		ret = 0;
		goto out;
	}
	cursor_init(&c, tab, (size_t)nr * 16, tab_off, pd->f.big_endian);
	for (bit = 1; bit < HEADER_FEAT_BITS; bit++) {
		uint64_t off, size;

		if (!(flags[bit / 64] & (1ULL << (bit % 64))))
			continue;
		off = cursor_u64(&c);
		size = cursor_u64(&c);
		i++;
		if (size > FEATURE_MAX || off > input_size(pd->in) ||
		    size > input_size(pd->in) - off) {
			perfdata_warnf(pd, tab_off + (i - 1) * 16,
				       "feature %u section (0x%llx bytes at "
				       "0x%llx) lies outside the file", bit,
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
		if (bit == HEADER_TRACING_DATA) {
			/* the tracepoints' names and formats */
			pd->info.features[0] |= 1ULL << HEADER_TRACING_DATA;
			if (perfdata_tracing(pd, buf, (size_t)size, off) < 0) {
				p2g_fail(err, P2G_NOMEM, off, "out of memory");
				goto out;
			}
			continue;
		}
		parse_feature(pd, bit, buf, (size_t)size, off);
	}
	ret = 0;
out:
	free(tab);
	free(buf);
	return ret;
}

/* The ids of attr A: IDS_SIZE bytes at IDS_OFF.  0, or -1 with ERR set
 * and A released. */
static int
read_attr_ids(struct perfdata *pd, struct perf_attr *a, uint64_t ids_off,
	      uint64_t ids_size, struct p2g_error *err)
{
	uint64_t *ids = NULL, k;
	unsigned char *idbuf = NULL;
	struct cursor ic;
	int ret = -1;

	idbuf = malloc((size_t)ids_size);
	ids = malloc((size_t)ids_size);
	if (idbuf == NULL || ids == NULL) {
		p2g_fail(err, P2G_NOMEM, ids_off, "out of memory");
		goto out;
	}
	if (input_pread(pd->in, ids_off, idbuf, (size_t)ids_size, err) < 0)
		goto out;
	cursor_init(&ic, idbuf, (size_t)ids_size, ids_off, pd->f.big_endian);
	for (k = 0; k < ids_size / 8; k++)
		ids[k] = cursor_u64(&ic);
	if (!attr_add_ids(a, ids, (size_t)(ids_size / 8))) {
		p2g_fail(err, P2G_NOMEM, ids_off, "out of memory");
		goto out;
	}
	ret = 0;
out:
	if (ret < 0)
		attr_release(a);
	free(idbuf);
	free(ids);
	return ret;
}

/* The attrs section: ATTRS_SIZE bytes at ATTRS_OFF, an attr and where its
 * ids are in each slot of the header's attr size.  0, or -1 with ERR
 * set. */
static int
read_attrs(struct perfdata *pd, uint64_t attrs_off, uint64_t attrs_size,
	   struct p2g_error *err)
{
	unsigned char *abuf;
	struct cursor ac;
	uint64_t i, n, ids_total = 0;
	int ret = -1;

	if (attrs_size % pd->f.attr_size != 0)
		return p2g_fail(err, P2G_INVALID, 32,
				"attrs section size %llu is not a multiple "
				"of the attr size %llu",
				(unsigned long long)attrs_size,
				(unsigned long long)pd->f.attr_size);
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
	cursor_init(&ac, abuf, (size_t)attrs_size, attrs_off, pd->f.big_endian);
	n = attrs_size / pd->f.attr_size;
	for (i = 0; i < n; i++) {
		struct perf_attr a;
		struct cursor one;
		uint64_t ids_off, ids_size;

		cursor_sub(&ac, pd->f.attr_size, &one);
		/* The attr's own size field says how much of the slot is
		 * the attr; old files have 0 there, meaning 64. */
		attr_decode(&one, pd->f.attr_size - 16, &a);
		ids_off = cursor_u64(&one);
		ids_size = cursor_u64(&one);
		if (!cursor_ok(&one)) {
			attr_release(&a);
			p2g_fail(err, P2G_INVALID, cursor_err_offset(&one),
				 "attr %llu is truncated",
				 (unsigned long long)i);
			goto out;
		}
		/* The attrs' ids are in sections of their own: together
		 * they fit in the file too, so that what is read for them
		 * grows with the file, not with the number of attrs. */
		if (ids_size > input_size(pd->in) - ids_total) {
			attr_release(&a);
			p2g_fail(err, P2G_INVALID, cursor_offset(&one) - 16,
				 "the ids of attrs 0 to %llu add up to more "
				 "bytes than the file has",
				 (unsigned long long)i);
			goto out;
		}
		ids_total += ids_size;
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
		if (ids_size > 0 &&
		    read_attr_ids(pd, &a, ids_off, ids_size, err) < 0)
			goto out;
		if (perfdata_add_attr(pd, &a, cursor_offset(&ac), err) < 0)
			goto out;
	}
	ret = 0;
out:
	free(abuf);
	return ret;
}

static int
read_file_header(struct perfdata *pd, struct p2g_error *err)
{
	unsigned char hdr[FILE_HEADER_MIN];
	uint64_t attrs_off, attrs_size, flags[4], i;
	struct cursor c;

	if (input_pread(pd->in, 0, hdr, sizeof(hdr), err) < 0) {
		if (err->status == P2G_INVALID)
			p2g_fail(err, P2G_INVALID, 0,
				 "file is too short for a perf.data header");
		return -1;
	}
	cursor_init(&c, hdr, sizeof(hdr), 0, pd->f.big_endian);
	(void)cursor_u64(&c);
	pd->f.header_size = cursor_u64(&c);
	pd->f.attr_size = cursor_u64(&c);
	attrs_off = cursor_u64(&c);
	attrs_size = cursor_u64(&c);
	pd->f.data_offset = cursor_u64(&c);
	pd->f.data_size = cursor_u64(&c);
	(void)cursor_u64(&c);	/* event_types: unused since perf 3.x */
	(void)cursor_u64(&c);
	for (i = 0; i < 4; i++)
		flags[i] = cursor_u64(&c);

	if (pd->f.header_size < FILE_HEADER_MIN)
		return p2g_fail(err, P2G_INVALID, 8,
				"header size %llu is smaller than %u",
				(unsigned long long)pd->f.header_size,
				FILE_HEADER_MIN);
	/* attr_size covers an attr and its ids section. */
	if (pd->f.attr_size < PERF_ATTR_SIZE_VER0 + 16 ||
	    pd->f.attr_size > 4096)
		return p2g_fail(err, P2G_INVALID, 16,
				"attr size %llu is not a perf_event_attr "
				"plus an ids section",
				(unsigned long long)pd->f.attr_size);
	if (pd->f.data_offset > input_size(pd->in))
		return p2g_fail(err, P2G_INVALID, 40,
				"data section offset 0x%llx is past the end "
				"of the file (0x%llx)",
				(unsigned long long)pd->f.data_offset,
				(unsigned long long)input_size(pd->in));
	if (pd->f.data_size == 0) {
		pd->cur->salvage = true;
		pd->cur->data_end = UINT64_MAX;
		perfdata_warnf(pd, 48, "data size is 0 (perf did not finish "
			       "the file); reading the records that are "
			       "there, without the feature sections");
	} else if (pd->f.data_size > input_size(pd->in) - pd->f.data_offset) {
		return p2g_fail(err, P2G_INVALID, 48,
				"data section (0x%llx bytes at 0x%llx) runs "
				"past the end of the file (0x%llx)",
				(unsigned long long)pd->f.data_size,
				(unsigned long long)pd->f.data_offset,
				(unsigned long long)input_size(pd->in));
	} else {
		pd->cur->data_end = pd->f.data_offset + pd->f.data_size;
	}

	if (read_attrs(pd, attrs_off, attrs_size, err) < 0)
		return -1;
	/* perf sets the feature bits when it starts but writes their table
	 * after the data only when it finishes: in a file it did not
	 * finish, the table's place holds samples, not sections. */
	if (pd->f.data_size != 0 && read_features(pd, flags, err) < 0)
		return -1;
	return input_seek(pd->in, pd->f.data_offset, err);
}

int
header_read(struct perfdata *pd, struct p2g_error *err)
{
	const unsigned char *p;
	size_t avail;
	uint64_t magic, size;

	p = input_peek(pd->in, PIPE_HEADER, &avail, err);
	if (p == NULL)
		return -1;
	if (avail < 8) {
		p2g_fail(err, P2G_INVALID, 0,
			 avail ? "file is too short for a perf.data header"
			       : "file is empty");
		return -1;
	}
	magic = load64(p, false);
	if (magic == PERF_MAGIC2) {
		pd->f.big_endian = false;
	} else if (magic == __builtin_bswap64(PERF_MAGIC2)) {
		pd->f.big_endian = true;
	} else if (memcmp(p, "PERFFILE", 8) == 0) {
		p2g_fail(err, P2G_UNSUPPORTED, 0,
			 "perf.data version 1 (PERFFILE) is not supported");
		return -1;
	} else {
		p2g_fail(err, P2G_INVALID, 0,
			 "not a perf.data file (no PERFILE2 magic)");
		return -1;
	}
	if (avail < PIPE_HEADER) {
		p2g_fail(err, P2G_INVALID, 0,
			 "file is too short for a perf.data header");
		return -1;
	}
	size = load64(p + 8, pd->f.big_endian);
	if (size == PIPE_HEADER) {
		pd->f.pipe_mode = true;
		pd->f.header_size = PIPE_HEADER;
		pd->f.data_offset = PIPE_HEADER;
		input_consume(pd->in, PIPE_HEADER);
	} else {
		if (input_make_seekable(pd->in, perfdata_extent, err) < 0)
			return -1;
		if (read_file_header(pd, err) < 0)
			return -1;
	}
	return 0;
}

int
header_attr_record(struct perfdata *pd, const unsigned char *rec,
		   size_t size, uint64_t off, struct p2g_error *err)
{
	struct perf_attr a;
	struct cursor c;
	uint32_t asz;
	size_t k, nids;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		return p2g_fail(err, P2G_INVALID, off,
				"attr record of %zu bytes is too small", size);
	asz = load32(rec + 8 + 4, pd->f.big_endian);
	if (asz == 0)
		asz = PERF_ATTR_SIZE_VER0;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > size - 8)
		return p2g_fail(err, P2G_INVALID, off + 12,
				"attr size %u does not fit its record of %zu "
				"bytes", asz, size);
	cursor_init(&c, rec + 8, size - 8, off + 8, pd->f.big_endian);
	attr_decode(&c, asz, &a);
	nids = cursor_left(&c) / 8;
	for (k = 0; k < nids; k++) {
		uint64_t id = cursor_u64(&c);

		if (!attr_add_ids(&a, &id, 1)) {
			attr_release(&a);
			return p2g_fail(err, P2G_NOMEM, off, "out of memory");
		}
	}
	return perfdata_add_attr(pd, &a, off, err);
}

void
header_feature_record(struct perfdata *pd, const unsigned char *rec,
		      size_t size, uint64_t off)
{
	uint64_t bit;

	if (size < 16) {
		perfdata_warnf(pd, off,
			       "feature record of %zu bytes is too small",
			       size);
		return;
	}
	bit = load64(rec + 8, pd->f.big_endian);
	if (bit == 0 || bit >= HEADER_FEAT_BITS) {
		perfdata_warnf(pd, off,
			       "feature record for unknown feature %llu",
			       (unsigned long long)bit);
		return;
	}
	parse_feature(pd, (unsigned)bit, rec + 16, size - 16, off + 16);
}
