/* SPDX-License-Identifier: MIT */
/* The feature sections of the recording machine: see feature.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cursor.h"
#include "feature.h"

/* The CPU topology section claims at most this many CPUs. */
#define MAX_CPUS 65536

/* C over section BIT of PD, and S present, if the file has its bytes. */
static bool
section(const struct perfdata *pd, unsigned bit, struct cursor *c,
	struct feat_section *s)
{
	const struct perf_header_info *hi = perfdata_header(pd);
	const struct perf_feature_raw *r = &hi->raw[bit];

	if (!(hi->features[bit / 64] & (1ULL << (bit % 64))) ||
	    r->data == NULL)
		return false;
	cursor_init(c, r->data, r->len, r->off,
		    perfdata_format(pd)->big_endian);
	s->present = true;
	return true;
}

/* S stops parsing at C's failure (or where C is). */
static void
stop(struct feat_section *s, const struct cursor *c)
{
	s->bad = true;
	s->bad_at = cursor_err_offset(c);
}

/* Room for the entries of a list that claims CLAIMED of SIZE bytes each,
 * in what is left of C, where each takes LEAST bytes at least: a list
 * that claims more than its section holds takes memory of the section's
 * size, not of the claim.  NULL when out of memory. */
static void *
entries(const struct cursor *c, uint64_t claimed, size_t least, size_t size)
{
	uint64_t most = cursor_left(c) / least;

	return calloc((claimed < most ? claimed : most) + 1, size);
}

/* A perf string takes this many bytes at least: its length and a NUL. */
#define STR 5

/* A perf string, or NULL (C then fails). */
static const char *
string(struct cursor *c)
{
	size_t n;

	return cursor_string(c, &n);
}

/* Up to N strings into *V (room made), *COUNT of them: as many as parse
 * before one does not.  0, or -1 when out of memory. */
static int
strings(struct cursor *c, uint32_t n, const char ***v, size_t *count)
{
	const char *s;
	uint32_t i;

	*v = entries(c, n, STR, sizeof(**v));
	if (*v == NULL)
		return -1;
	for (i = 0; i < n && (s = string(c)) != NULL; i++)
		(*v)[(*count)++] = s;
	return 0;
}

/* CPU_TOPOLOGY: the sibling sockets and threads, then (perf 4.16 on) each
 * CPU's core and socket, then (perf 5.3 on) the sibling dies and each
 * CPU's die. */
static int
cpu_topology(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	uint32_t i, n, ncpus;
	size_t mark;

	if (!section(pd, HEADER_CPU_TOPOLOGY, &c, &f->cpu.sec))
		return 0;
	ncpus = perfdata_header(pd)->nr_cpus_avail;
	n = cursor_u32(&c);
	if (strings(&c, n, &f->cpu.sockets, &f->cpu.nsockets) < 0)
		return -1;
	n = cursor_u32(&c);
	if (strings(&c, n, &f->cpu.threads, &f->cpu.nthreads) < 0)
		return -1;
	if (!cursor_ok(&c) || ncpus > MAX_CPUS) {
		stop(&f->cpu.sec, &c);
		return 0;
	}
	f->cpu.ncpus = ncpus;
	if (cursor_left(&c) < (size_t)ncpus * 8)
		return 0;
	f->cpu.core = calloc(ncpus + 1, sizeof(*f->cpu.core));
	f->cpu.socket = calloc(ncpus + 1, sizeof(*f->cpu.socket));
	if (f->cpu.core == NULL || f->cpu.socket == NULL)
		return -1;
	for (i = 0; i < ncpus; i++) {
		f->cpu.core[i] = cursor_u32(&c);
		f->cpu.socket[i] = cursor_u32(&c);
	}
	if (cursor_left(&c) < 4)
		return 0;
	mark = c.pos;
	n = cursor_u32(&c);
	if (strings(&c, n, &f->cpu.dies, &f->cpu.ndies) < 0)
		return -1;
	f->cpu.die = calloc(ncpus + 1, sizeof(*f->cpu.die));
	if (f->cpu.die == NULL)
		return -1;
	for (i = 0; i < ncpus; i++)
		f->cpu.die[i] = cursor_u32(&c);
	if (!cursor_ok(&c) || f->cpu.ndies == 0) {
		/* no dies after all */
		c.pos = mark;
		f->cpu.ndies = 0;
		free(f->cpu.die);
		f->cpu.die = NULL;
	}
	return 0;
}

static int
numa_topology(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	struct feat_numa_node x;
	uint32_t nr, i;

	if (!section(pd, HEADER_NUMA_TOPOLOGY, &c, &f->numa.sec))
		return 0;
	nr = cursor_u32(&c);
	f->numa.v = entries(&c, nr, 20 + STR, sizeof(*f->numa.v));
	if (f->numa.v == NULL)
		return -1;
	for (i = 0; i < nr && cursor_ok(&c); i++) {
		x.node = cursor_u32(&c);
		x.total_kb = cursor_u64(&c);
		x.free_kb = cursor_u64(&c);
		x.cpus = string(&c);
		if (x.cpus == NULL)
			break;
		f->numa.v[f->numa.n++] = x;
	}
	if (!cursor_ok(&c))
		stop(&f->numa.sec, &c);
	return 0;
}

static int
pmu_mappings(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	struct feat_pmu_mapping x;
	uint32_t i;

	if (!section(pd, HEADER_PMU_MAPPINGS, &c, &f->pmu_mappings.sec))
		return 0;
	f->pmu_mappings.nr = cursor_u32(&c);
	f->pmu_mappings.v = entries(&c, f->pmu_mappings.nr, 4 + STR,
				    sizeof(*f->pmu_mappings.v));
	if (f->pmu_mappings.v == NULL)
		return -1;
	for (i = 0; i < f->pmu_mappings.nr; i++) {
		x.type = cursor_u32(&c);
		x.name = string(&c);
		if (x.name == NULL)
			break;
		f->pmu_mappings.v[f->pmu_mappings.n++] = x;
	}
	if (!cursor_ok(&c))
		stop(&f->pmu_mappings.sec, &c);
	return 0;
}

/* GROUP_DESC: the groups of two or more events that start at an event
 * of the file (perf prints only those). */
static int
group_desc(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	struct feat_group x;
	uint32_t nr, i;

	if (!section(pd, HEADER_GROUP_DESC, &c, &f->groups.sec))
		return 0;
	nr = cursor_u32(&c);
	f->groups.v = entries(&c, nr, STR + 8, sizeof(*f->groups.v));
	if (f->groups.v == NULL)
		return -1;
	for (i = 0; i < nr; i++) {
		x.name = string(&c);
		x.leader = cursor_u32(&c);
		x.members = cursor_u32(&c);
		if (x.name == NULL || !cursor_ok(&c))
			break;
		if (x.members < 2 || x.leader >= perfdata_nattrs(pd))
			continue;
		f->groups.v[f->groups.n++] = x;
	}
	if (!cursor_ok(&c))
		stop(&f->groups.sec, &c);
	return 0;
}

static int
cache(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	struct feat_cache x;
	uint32_t cnt, i;

	if (!section(pd, HEADER_CACHE, &c, &f->cache.sec))
		return 0;
	(void)cursor_u32(&c);	/* version */
	cnt = cursor_u32(&c);
	f->cache.v = entries(&c, cnt, 16 + 3 * STR, sizeof(*f->cache.v));
	if (f->cache.v == NULL)
		return -1;
	for (i = 0; i < cnt; i++) {
		x.level = cursor_u32(&c);
		(void)cursor_u32(&c);	/* line size */
		(void)cursor_u32(&c);	/* sets */
		(void)cursor_u32(&c);	/* ways */
		x.type = string(&c);
		x.size = string(&c);
		x.map = string(&c);
		if (x.type == NULL || x.size == NULL || x.map == NULL)
			break;
		f->cache.v[f->cache.n++] = x;
	}
	if (!cursor_ok(&c))
		stop(&f->cache.sec, &c);
	return 0;
}

/* MEM_TOPOLOGY: a version, the block size, then per node its number,
 * size and a bitmap of its blocks. */
static int
mem_topology(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	struct feat_mem_node x;
	uint64_t words, i, k, set;

	if (!section(pd, HEADER_MEM_TOPOLOGY, &c, &f->mem.sec))
		return 0;
	(void)cursor_u64(&c);	/* version */
	f->mem.block_size = cursor_u64(&c);
	f->mem.nr = cursor_u64(&c);
	if (!cursor_ok(&c))
		goto bad;
	f->mem.have_nodes = true;
	f->mem.v = entries(&c, f->mem.nr, 24, sizeof(*f->mem.v));
	if (f->mem.v == NULL)
		return -1;
	for (i = 0; i < f->mem.nr && cursor_ok(&c); i++) {
		x.node = cursor_u64(&c);
		(void)cursor_u64(&c);	/* the node's size... */
		x.bits = cursor_u64(&c);	/* ...and its bitmap's, in
						   bits */
		/* rounded up without bits + 63, which wraps near 2^64 */
		words = x.bits / 64 + (x.bits % 64 != 0);
		if (!cursor_ok(&c) || words > cursor_left(&c) / 8)
			goto bad;
		x.bitmap = c.base + c.pos;
		for (k = 0, set = 0; k < x.bits; k++)
			set += (load64(x.bitmap + (k / 64) * 8,
				       f->big_endian) >> (k % 64)) & 1;
		cursor_skip(&c, (size_t)words * 8);
		if (__builtin_mul_overflow(f->mem.block_size, set, &x.size))
			goto bad;
		f->mem.v[f->mem.n++] = x;
	}
	if (cursor_ok(&c))
		return 0;
bad:
	stop(&f->mem.sec, &c);
	return 0;
}

bool
feature_mem_run(const struct perf_features *f, const struct feat_mem_node *n,
		 uint64_t *pos, uint64_t *from, uint64_t *to)
{
	uint64_t k = *pos;

#define ON(k) ((load64(n->bitmap + ((k) / 64) * 8, f->big_endian) >> \
		((k) % 64)) & 1)
	while (k < n->bits && !ON(k))
		k++;
	if (k == n->bits) {
		*pos = k;
		return false;
	}
	*from = k;
	while (k < n->bits && ON(k))
		k++;
#undef ON
	*to = k - 1;
	*pos = k;
	return true;
}

/* BPF_BTF: count, then per BTF object its id, size and data. */
static int
bpf_btf(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	uint32_t nr, i, id, size;

	if (!section(pd, HEADER_BPF_BTF, &c, &f->btf.sec))
		return 0;
	nr = cursor_u32(&c);
	f->btf.ids = entries(&c, nr, 8, sizeof(*f->btf.ids));
	if (f->btf.ids == NULL)
		return -1;
	for (i = 0; i < nr && cursor_ok(&c); i++) {
		id = cursor_u32(&c);
		size = cursor_u32(&c);
		if (!cursor_ok(&c) || !cursor_skip(&c, size))
			break;
		f->btf.ids[f->btf.n++] = id;
	}
	if (!cursor_ok(&c))
		stop(&f->btf.sec, &c);
	return 0;
}

/* Up to NR pairs of strings from C into V (room made), *N of them: as
 * many as parse before one does not. */
static void
pairs(struct cursor *c, uint32_t nr, struct feat_pair *v, size_t *n)
{
	struct feat_pair x;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		x.name = string(c);
		x.value = string(c);
		if (x.name == NULL || x.value == NULL)
			break;
		v[(*n)++] = x;
	}
}

static int
cpu_pmu_caps(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;

	if (!section(pd, HEADER_CPU_PMU_CAPS, &c, &f->cpu_pmu_caps.sec))
		return 0;
	f->cpu_pmu_caps.nr = cursor_u32(&c);
	f->cpu_pmu_caps.v = entries(&c, f->cpu_pmu_caps.nr, 2 * STR,
				    sizeof(*f->cpu_pmu_caps.v));
	if (f->cpu_pmu_caps.v == NULL)
		return -1;
	pairs(&c, f->cpu_pmu_caps.nr, f->cpu_pmu_caps.v, &f->cpu_pmu_caps.n);
	if (!cursor_ok(&c))
		stop(&f->cpu_pmu_caps.sec, &c);
	return 0;
}

static int
hybrid_topology(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	uint32_t nr;

	if (!section(pd, HEADER_HYBRID_TOPOLOGY, &c, &f->hybrid.sec))
		return 0;
	nr = cursor_u32(&c);
	f->hybrid.v = entries(&c, nr, 2 * STR, sizeof(*f->hybrid.v));
	if (f->hybrid.v == NULL)
		return -1;
	pairs(&c, nr, f->hybrid.v, &f->hybrid.n);
	if (!cursor_ok(&c))
		stop(&f->hybrid.sec, &c);
	return 0;
}

/* PMU_CAPS: per PMU its capabilities (name, value), then its name. */
static int
pmu_caps(const struct perfdata *pd, struct perf_features *f)
{
	struct cursor c;
	struct feat_pmu x;
	uint32_t npmu, i;

	if (!section(pd, HEADER_PMU_CAPS, &c, &f->pmu_caps.sec))
		return 0;
	npmu = cursor_u32(&c);
	f->pmu_caps.v = entries(&c, npmu, 4 + STR, sizeof(*f->pmu_caps.v));
	/* the capabilities of all PMUs */
	f->pmu_caps.caps = entries(&c, UINT64_MAX, 2 * STR,
				   sizeof(*f->pmu_caps.caps));
	if (f->pmu_caps.v == NULL || f->pmu_caps.caps == NULL)
		return -1;
	for (i = 0; i < npmu && cursor_ok(&c); i++) {
		x.cap = f->pmu_caps.ncaps;
		pairs(&c, cursor_u32(&c), f->pmu_caps.caps,
		      &f->pmu_caps.ncaps);
		x.ncaps = f->pmu_caps.ncaps - x.cap;
		x.name = string(&c);
		if (x.name == NULL)
			break;
		f->pmu_caps.v[f->pmu_caps.n++] = x;
	}
	if (!cursor_ok(&c))
		stop(&f->pmu_caps.sec, &c);
	return 0;
}

int
feature_read(const struct perfdata *pd, struct perf_features *f)
{
	const uint64_t *has = perfdata_header(pd)->features;
	struct cursor c;
	struct feat_section dir;
	unsigned bit;

	memset(f, 0, sizeof(*f));
	f->big_endian = perfdata_format(pd)->big_endian;
#define HAS(b) ((has[(b) / 64] >> ((b) % 64)) & 1)
	f->nrcpus = HAS(HEADER_NRCPUS);
	f->branch_stack = HAS(HEADER_BRANCH_STACK);
	f->auxtrace = HAS(HEADER_AUXTRACE);
	f->stat = HAS(HEADER_STAT);
	f->compressed = HAS(HEADER_COMPRESSED);
	for (bit = 1; bit < HEADER_LAST_FEATURE; bit++)
		if (!HAS(bit))
			f->missing |= 1ULL << bit;
#undef HAS
	if (section(pd, HEADER_DIR_FORMAT, &c, &dir)) {
		f->dir_version = cursor_u64(&c);
		f->have_dir_version = cursor_ok(&c);
	}
	if (cpu_topology(pd, f) < 0 || numa_topology(pd, f) < 0 ||
	    pmu_mappings(pd, f) < 0 || group_desc(pd, f) < 0 ||
	    cache(pd, f) < 0 || mem_topology(pd, f) < 0 ||
	    bpf_btf(pd, f) < 0 || cpu_pmu_caps(pd, f) < 0 ||
	    hybrid_topology(pd, f) < 0 || pmu_caps(pd, f) < 0)
		return -1;
	return 0;
}

void
feature_release(struct perf_features *f)
{
	free(f->cpu.sockets);
	free(f->cpu.dies);
	free(f->cpu.threads);
	free(f->cpu.core);
	free(f->cpu.socket);
	free(f->cpu.die);
	free(f->numa.v);
	free(f->pmu_mappings.v);
	free(f->groups.v);
	free(f->cache.v);
	free(f->mem.v);
	free(f->btf.ids);
	free(f->cpu_pmu_caps.v);
	free(f->hybrid.v);
	free(f->pmu_caps.v);
	free(f->pmu_caps.caps);
	memset(f, 0, sizeof(*f));
}
