/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf --info: the header summary of a perf.data file, its feature
 * sections (as feature.h decodes them) in the words and order of perf
 * report --header-only -I (perf's util/header.c print functions), then
 * its events and processes with their sample counts (convert_count()).
 * Strings from the input are printed escaped.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "feature.h"
#include "info.h"
#include "message.h"
#include "offcpu.h"
#include "perf_abi.h"

/* ---- the feature sections, as text ------------------------------------- */

/*
 * Where the text goes: a stream, a line at a time, with its non-printable
 * bytes escaped, and only the first LINE_MAX - 1 bytes of a line.  A line
 * longer than that could come only from crafted input (say an event group
 * naming every event of the file, for each of thousands of groups): the
 * stream keeps what --info prints and the memory it takes linear in the
 * input.
 */
#define LINE_MAX_ 4096

struct out {
	int failed;
	FILE *f;
	char line[LINE_MAX_];
	size_t n;		/* bytes in LINE */
};

static void
put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The text of O's current line, escaped, and a newline. */
static void
end_line(struct out *o)
{
	o->line[o->n] = '\0';
	message_put_safe(o->f, o->line);
	putc('\n', o->f);
	o->n = 0;
}

/* Whether O's current line takes no more bytes. */
static bool
line_full(const struct out *o)
{
	return o->n == LINE_MAX_ - 1;
}

static void
put(struct out *o, const char *fmt, ...)
{
	char small[256], *p = small, *s;
	va_list ap;
	int n;

	if (o->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->failed = 1;
		return;
	}
	if ((size_t)n >= sizeof(small) && (p = malloc((size_t)n + 1)) == NULL) {
		o->failed = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	for (s = p; *s != '\0'; s++) {
		if (*s == '\n')
			end_line(o);
		else if (o->n < LINE_MAX_ - 1)
			o->line[o->n++] = *s;
	}
	if (p != small)
		free(p);
}

/* The strings of the sections are printed up to these many bytes. */
#define STR_MAX 4095	/* lists of CPUs, names of PMUs and groups */
#define NAME_MAX_ 1023	/* capabilities, hybrid PMUs */
#define CACHE_MAX 255	/* a cache's type and size */

static void
bad(struct out *o, const char *name, const struct feat_section *s)
{
	if (s->bad)
		put(o, "# %s: malformed section at 0x%" PRIx64 "\n", name,
		    s->bad_at);
}

static void
cpu_topology(const struct perf_features *f, struct out *o)
{
	size_t i;

	if (!f->cpu.sec.present)
		return;
	if (f->cpu.sec.bad) {
		bad(o, "cpu topology", &f->cpu.sec);
		return;
	}
	for (i = 0; i < f->cpu.nsockets; i++)
		put(o, "# sibling sockets : %.*s\n", STR_MAX,
		    f->cpu.sockets[i]);
	for (i = 0; i < f->cpu.ndies; i++)
		put(o, "# sibling dies    : %.*s\n", STR_MAX, f->cpu.dies[i]);
	for (i = 0; i < f->cpu.nthreads; i++)
		put(o, "# sibling threads : %.*s\n", STR_MAX,
		    f->cpu.threads[i]);
	for (i = 0; f->cpu.core != NULL && i < f->cpu.ncpus; i++) {
		if (f->cpu.die != NULL)
			put(o, "# CPU %zu: Core ID %d, Die ID %d, "
			    "Socket ID %d\n", i, (int32_t)f->cpu.core[i],
			    (int32_t)f->cpu.die[i], (int32_t)f->cpu.socket[i]);
		else
			put(o, "# CPU %zu: Core ID %d, Socket ID %d\n", i,
			    (int32_t)f->cpu.core[i],
			    (int32_t)f->cpu.socket[i]);
	}
	if (f->cpu.core == NULL)
		put(o, "# Core ID and Socket ID information is not "
		    "available\n");
}

static void
numa_topology(const struct perf_features *f, struct out *o)
{
	const struct feat_numa_node *v = f->numa.v;
	size_t i;

	for (i = 0; i < f->numa.n; i++) {
		put(o, "# node%u meminfo  : total = %" PRIu64 " kB, free = %"
		    PRIu64 " kB\n", v[i].node, v[i].total_kb, v[i].free_kb);
		put(o, "# node%u cpu list : %.*s\n", v[i].node, STR_MAX,
		    v[i].cpus);
	}
	bad(o, "numa topology", &f->numa.sec);
}

static void
pmu_mappings(const struct perf_features *f, struct out *o)
{
	size_t i;

	if (!f->pmu_mappings.sec.present)
		return;
	if (f->pmu_mappings.nr == 0) {
		put(o, "# pmu mappings: not available\n");
		return;
	}
	put(o, "# pmu mappings: ");
	for (i = 0; i < f->pmu_mappings.n; i++)
		put(o, "%s%.*s = %u", i ? ", " : "", STR_MAX,
		    f->pmu_mappings.v[i].name, f->pmu_mappings.v[i].type);
	put(o, "\n");
	bad(o, "pmu mappings", &f->pmu_mappings.sec);
}

static void
group_desc(const struct perfdata *pd, const struct perf_features *f,
	   struct out *o)
{
	const struct feat_group *g;
	size_t i, k;

	for (i = 0; i < f->groups.n; i++) {
		g = &f->groups.v[i];
		put(o, "# group: %.*s{", STR_MAX,
		    strcmp(g->name, "{anon_group}") ? g->name : "");
		for (k = 0; k < g->members &&
			    g->leader + k < perfdata_nattrs(pd) &&
			    !line_full(o);
		     k++)
			put(o, "%s%s", k ? "," : "",
			    perfdata_attr(pd, g->leader + k)->name);
		put(o, "}\n");
	}
	bad(o, "group desc", &f->groups.sec);
}

static void
cache(const struct perf_features *f, struct out *o)
{
	const struct feat_cache *v = f->cache.v;
	size_t i;

	if (!f->cache.sec.present)
		return;
	put(o, "# CPU cache info:\n");
	for (i = 0; i < f->cache.n; i++)
		put(o, "#  L%d %-15.*s %8.*s [%.*s]\n", (int)v[i].level,
		    CACHE_MAX, v[i].type, CACHE_MAX, v[i].size, STR_MAX,
		    v[i].map);
	bad(o, "cache", &f->cache.sec);
}

/* perf's unit_number__scnprintf: 1024-based, "24G". */
static void
unit(char *buf, size_t size, uint64_t n)
{
	static const char units[] = "BKMGTPE";
	int i = 0;

	while (n / 1024 > 1 && i < 6) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, units[i]);
}

/* Append to LIST (SIZE bytes, LL used) the run of bits FROM to TO as
 * perf's bitmap_scnprintf writes it, "3" or "0-23", after a comma unless
 * FIRST; a full list is left as it is.  The new length. */
static size_t
append_run(char *list, size_t size, size_t ll, int first, uint64_t from,
	   uint64_t to)
{
	if (ll >= size - 64)
		return ll;
	if (from == to)
		return ll + (size_t)snprintf(list + ll, size - ll,
					     "%s%" PRIu64, first ? "" : ",",
					     from);
	return ll + (size_t)snprintf(list + ll, size - ll,
				     "%s%" PRIu64 "-%" PRIu64,
				     first ? "" : ",", from, to);
}

static void
mem_topology(const struct perf_features *f, struct out *o)
{
	const struct feat_mem_node *v = f->mem.v;
	uint64_t pos, from, to;
	size_t i, ll;
	char sz[32], list[4096];

	if (f->mem.have_nodes)
		put(o, "# memory nodes (nr %d, block size 0x%llx):\n",
		    (int)f->mem.nr, (unsigned long long)f->mem.block_size);
	for (i = 0; i < f->mem.n; i++) {
		/* the bitmap as perf's bitmap_scnprintf: "0-23,32-199" */
		list[0] = '\0';
		ll = 0;
		pos = 0;
		while (feature_mem_run(f, &v[i], &pos, &from, &to))
			ll = append_run(list, sizeof(list), ll, ll == 0, from,
					to);
		unit(sz, sizeof(sz), v[i].size);
		put(o, "#  %3" PRIu64 " [%s]: %s\n", v[i].node, sz, list);
	}
	bad(o, "memory topology", &f->mem.sec);
}

/* Capabilities V[0..N) as "name=value, ...". */
static void
pairs(struct out *o, const struct feat_pair *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		put(o, "%s%.*s=%.*s", i ? ", " : "", NAME_MAX_, v[i].name,
		    NAME_MAX_, v[i].value);
}

static void
cpu_pmu_caps(const struct perf_features *f, struct out *o)
{
	if (!f->cpu_pmu_caps.sec.present)
		return;
	if (f->cpu_pmu_caps.nr == 0) {
		put(o, "# cpu pmu capabilities: not available\n");
		return;
	}
	put(o, "# cpu pmu capabilities: ");
	pairs(o, f->cpu_pmu_caps.v, f->cpu_pmu_caps.n);
	put(o, "\n");
	bad(o, "cpu pmu caps", &f->cpu_pmu_caps.sec);
}

static void
hybrid_topology(const struct perf_features *f, struct out *o)
{
	size_t i;

	if (!f->hybrid.sec.present)
		return;
	put(o, "# hybrid cpu system:\n");
	for (i = 0; i < f->hybrid.n; i++)
		put(o, "# %.*s cpu list : %.*s\n", NAME_MAX_,
		    f->hybrid.v[i].name, STR_MAX, f->hybrid.v[i].value);
	bad(o, "hybrid topology", &f->hybrid.sec);
}

/* PMU_CAPS: per PMU its name and capabilities. */
static void
pmu_caps(const struct perf_features *f, struct out *o)
{
	const struct feat_pmu *p;
	char caps[8192];
	size_t i, k, cl;

	for (i = 0; i < f->pmu_caps.n; i++) {
		p = &f->pmu_caps.v[i];
		cl = 0;
		caps[0] = '\0';
		for (k = 0; k < p->ncaps && cl < sizeof(caps) - 1; k++)
			cl += (size_t)snprintf(caps + cl, sizeof(caps) - cl,
					       "%s%.*s=%.*s", k ? ", " : "",
					       NAME_MAX_,
					       f->pmu_caps.caps[p->cap + k].name,
					       NAME_MAX_,
					       f->pmu_caps.caps[p->cap + k].value);
		put(o, "# %.*s pmu capabilities: %s\n", NAME_MAX_, p->name,
		    caps);
	}
	bad(o, "pmu caps", &f->pmu_caps.sec);
}

/*
 * Print to TO, escaped, the lines perf prints for the topology, NUMA, PMU,
 * cache, memory, group, directory, compression and capability features
 * F of PD, and the missing features.  A section that does not parse
 * gives one line saying so.  Returns 0, or -1 when out of memory (then
 * the lines may stop anywhere).
 */
static int
features_text(const struct perfdata *pd, const struct perf_features *f,
	      FILE *to)
{
	struct out o = { .f = to };
	const char *name;
	unsigned bit;

	put(&o, "# header version : 1\n");
	cpu_topology(f, &o);
	numa_topology(f, &o);
	if (f->branch_stack)
		put(&o, "# contains samples with branch stack\n");
	pmu_mappings(f, &o);
	group_desc(pd, f, &o);
	if (f->auxtrace)
		put(&o, "# contains AUX area data (e.g. instruction trace)\n");
	if (f->stat)
		put(&o, "# contains stat data\n");
	cache(f, &o);
	mem_topology(f, &o);
	if (f->have_dir_version)
		put(&o, "# directory data version : %" PRIu64 "\n",
		    f->dir_version);
	for (bit = 0; bit < f->btf.n; bit++)
		put(&o, "# btf info of id %u\n", f->btf.ids[bit]);
	bad(&o, "bpf btf", &f->btf.sec);
	cpu_pmu_caps(f, &o);
	hybrid_topology(f, &o);
	pmu_caps(f, &o);
	/* in perf's words: the names in capitals */
	put(&o, "# missing features: ");
	for (bit = 1; bit < 64; bit++) {
		char upper[32];
		size_t k;

		if (!((f->missing >> bit) & 1) ||
		    (name = perfdata_feature_name(bit)) == NULL)
			continue;
		for (k = 0; name[k] != '\0' && k < sizeof(upper) - 1; k++)
			upper[k] = (char)toupper((unsigned char)name[k]);
		upper[k] = '\0';
		put(&o, "%s ", upper);
	}
	put(&o, "\n");
	if (o.n > 0) {
		o.line[o.n] = '\0';
		message_put_safe(to, o.line);
	}
	return o.failed ? -1 : 0;
}

/* ---- the header summary, the events and the processes ------------------ */

static void
print_sample_type(uint64_t st)
{
	static const char *const names[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
		"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
		"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER",
		"TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP",
		"DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	unsigned i;
	bool first = true;

	for (i = 0; i < 64; i++) {
		if (!(st & (1ULL << i)))
			continue;
		if (i < sizeof(names) / sizeof(names[0]))
			printf("%s%s", first ? "" : "|", names[i]);
		else
			printf("%sbit%u", first ? "" : "|", i);
		first = false;
	}
	if (first)
		printf("0");
}

static void
print_field(const char *label, const char *value)
{
	printf("# %s : ", label);
	message_put_safe(stdout, value);
	putchar('\n');
}

/* The file's layout and the strings of its header, as perf prints them. */
static void
print_header(const struct perfdata *pd, const struct perf_features *ft)
{
	const struct perf_header_info *hi = perfdata_header(pd);
	const struct perfdata_format *f = perfdata_format(pd);

	printf("# ========\n");
	printf("# format         : %s, %s-endian\n",
	       f->pipe_mode ? "pipe" : "file (PERFILE2)",
	       f->big_endian ? "big" : "little");
	/* (perf says 0 for a pipe-mode file) */
	printf("# data offset    : %" PRIu64 "\n",
	       f->pipe_mode ? 0 : f->data_offset);
	printf("# data size      : %" PRIu64 "\n",
	       f->pipe_mode ? 0 : f->data_size);
	printf("# feat offset    : %" PRIu64 "\n",
	       f->pipe_mode ? 0 : f->data_offset + f->data_size);
	if (hi->hostname)
		print_field("hostname", hi->hostname);
	if (hi->osrelease)
		print_field("os release", hi->osrelease);
	if (hi->version)
		print_field("perf version", hi->version);
	if (hi->arch)
		print_field("arch", hi->arch);
	if (ft->nrcpus) {
		printf("# nrcpus online : %u\n", hi->nr_cpus_online);
		printf("# nrcpus avail : %u\n", hi->nr_cpus_avail);
	}
	if (hi->cpudesc)
		print_field("cpudesc", hi->cpudesc);
	if (hi->cpuid)
		print_field("cpuid", hi->cpuid);
	if (hi->total_mem_kb)
		printf("# total memory : %" PRIu64 " kB\n", hi->total_mem_kb);
	if (hi->cmdline)
		print_field("cmdline", hi->cmdline);
}

/* One "# event : ..." line per attr. */
static void
print_events(const struct perfdata *pd)
{
	size_t i, k;

	for (i = 0; i < perfdata_nattrs(pd); i++) {
		const struct perf_attr *a = perfdata_attr(pd, i);

		printf("# event : name = ");
		message_put_safe(stdout, a->name);
		printf(", type = %u, config = 0x%" PRIx64
		       ", size = %u, { sample_period, sample_freq } = %" PRIu64
		       ", sample_type = ", a->type, a->config, a->size,
		       a->sample_period);
		print_sample_type(a->sample_type);
		printf(", read_format = 0x%" PRIx64 "%s", a->read_format,
		       a->freq ? ", freq = 1" : "");
		if (a->nr_ids > 0) {
			printf(", id = {");
			for (k = 0; k < a->nr_ids && k < 16; k++)
				printf("%s %" PRIu64, k ? "," : "", a->ids[k]);
			printf("%s }", k < a->nr_ids ? ", ..." : "");
		}
		printf("\n");
	}
}

/* The feature sections, the sample times, the compression, the build ids
 * and the list of features present. */
static void
print_features(const struct perfdata *pd, const struct perf_features *ft)
{
	const struct perf_header_info *hi = perfdata_header(pd);
	unsigned bit;

	features_text(pd, ft, stdout);
	if (hi->have_sample_time)
		printf("# time of first sample : %" PRIu64 ".%06" PRIu64
		       "\n# time of last sample : %" PRIu64 ".%06" PRIu64
		       "\n# sample duration : %10.3f ms\n",
		       hi->first_sample_time / 1000000000,
		       hi->first_sample_time % 1000000000 / 1000,
		       hi->last_sample_time / 1000000000,
		       hi->last_sample_time % 1000000000 / 1000,
		       (double)(hi->last_sample_time - hi->first_sample_time) /
			       1e6);
	if (hi->clockid_res_ns)
		printf("# clockid frequency: %" PRIu64 " MHz\n",
		       1000 / hi->clockid_res_ns);
	if (ft->compressed)
		printf("# compressed : %s, level = %u, ratio = %u\n",
		       hi->compression_type == 1 ? "Zstd" : "Unknown",
		       hi->compression_level, hi->compression_ratio);
	if (hi->nr_build_ids > 0)
		printf("# build ids : %zu\n", hi->nr_build_ids);
	printf("# features :");
	for (bit = 1; bit < 256; bit++)
		if (hi->features[bit / 64] & (1ULL << (bit % 64))) {
			const char *n = perfdata_feature_name(bit);

			if (n)
				printf(" %s", n);
			else
				printf(" feature%u", bit);
		}
	printf("\n# ========\n#\n");
}

/* The samples of each event, then of each process that has some. */
static void
print_counts(const struct perfdata *pd, const struct convert_counts *c)
{
	size_t i;

	printf("# events (samples):\n");
	for (i = 0; i < perfdata_nattrs(pd); i++) {
		printf("%12" PRIu64 "  ", i < c->nevents ? c->samples[i] : 0);
		message_put_safe(stdout, perfdata_attr(pd, i)->name);
		putchar('\n');
	}
	printf("#\n# processes (samples, all events):\n");
	for (i = 0; i < c->nprocs; i++) {
		printf("%12" PRIu64 "  %d ", c->procs[i].samples,
		       c->procs[i].pid);
		message_put_safe(stdout, c->procs[i].comm);
		putchar('\n');
	}
}

/* Whether PD can give off-CPU time (--off-cpu), and why not: said of
 * the recordings that have some of what it takes (sched:sched_switch,
 * switch records). */
static void
print_offcpu(const struct perfdata *pd)
{
	const struct perfdata_counts *c = perfdata_counts(pd);
	const char *missing;
	size_t i;
	bool some = c->by_type[PERF_RECORD_SWITCH] +
			    c->by_type[PERF_RECORD_SWITCH_CPU_WIDE] > 0;

	for (i = 0; i < perfdata_nattrs(pd); i++)
		some = some || offcpu_is_switch(perfdata_attr(pd, i));
	if (!some)
		return;
	printf("#\n# off-CPU time: ");
	if (offcpu_possible(pd, &missing))
		printf("yes (%" PRIu64 " switch records, sched:sched_switch "
		       "with callchains)\n",
		       c->by_type[PERF_RECORD_SWITCH] +
			       c->by_type[PERF_RECORD_SWITCH_CPU_WIDE]);
	else
		printf("no (perf record %s is missing)\n", missing);
}

int
info_print(struct perfdata *pd, struct report *rp)
{
	struct convert_opts o;
	struct convert_counts counts;
	struct perf_features ft;
	struct p2g_error err;
	int ret = 0;

	p2g_error_clear(&err);
	memset(&o, 0, sizeof(o));
	o.no_unwind = true;
	o.warn = report_warn;
	o.progress_ctx = rp;
	if (convert_count(pd, &o, &counts, &err) < 0) {
		message_error(report_where(rp, err.part), &err);
		ret = p2g_exit_status(err.status);
	}
	/* after the data: a pipe-mode file's events come with it */
	if (feature_read(pd, &ft) < 0 && ret == 0) {
		p2g_fail(&err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		message_error(rp->name, &err);
		ret = p2g_exit_status(err.status);
	}
	print_header(pd, &ft);
	print_events(pd);
	print_features(pd, &ft);
	print_counts(pd, &counts);
	print_offcpu(pd);
	feature_release(&ft);
	convert_counts_release(&counts);
	return ret;
}
