/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf --info: the header summary of a perf.data file, its feature
 * sections in the words and order of perf report --header-only -I (perf's
 * util/header.c print functions), then its events and processes with
 * their sample counts.  Strings from the input are printed escaped.
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrspace.h"
#include "convert.h"
#include "cursor.h"
#include "info.h"
#include "message.h"
#include "offcpu.h"
#include "perf_abi.h"

/* ---- the feature sections, as text ------------------------------------- */

/*
 * Where the text goes: a buffer (BUF, *LEN bytes), or, with F, a stream,
 * a line at a time, with its non-printable bytes escaped, and only the
 * first LINE_MAX - 1 bytes of a line.  A line longer than that could come
 * only from crafted input (say an event group naming every event of the
 * file, for each of thousands of groups): the stream keeps what --info
 * prints and the memory it takes linear in the input.
 */
#define LINE_MAX_ 4096

struct out {
	char **buf;
	size_t *len;
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
	return o->f != NULL && o->n == LINE_MAX_ - 1;
}

/* FMT, N bytes with the arguments from AP, to O's stream. */
static void put_stream(struct out *o, const char *fmt, int n, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void
put_stream(struct out *o, const char *fmt, int n, va_list ap)
{
	char small[256], *p = small, *s;

	if (n < 0) {
		o->failed = 1;
		return;
	}
	if ((size_t)n >= sizeof(small) && (p = malloc((size_t)n + 1)) == NULL) {
		o->failed = 1;
		return;
	}
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	for (s = p; *s != '\0'; s++) {
		if (*s == '\n')
			end_line(o);
		else if (o->n < LINE_MAX_ - 1)
			o->line[o->n++] = *s;
	}
	if (p != small)
		free(p);
}

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *nb;

	if (o->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (o->f != NULL) {
		va_start(ap, fmt);
		put_stream(o, fmt, n, ap);
		va_end(ap);
		return;
	}
	nb = n < 0 ? NULL : realloc(*o->buf, *o->len + (size_t)n + 1);
	if (nb == NULL) {
		o->failed = 1;
		return;
	}
	*o->buf = nb;
	va_start(ap, fmt);
	vsnprintf(nb + *o->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*o->len += (size_t)n;
}

/* A perf string (u32 length, bytes with a NUL) as a C string in TMP. */
static const char *
str(struct cursor *c, char *tmp, size_t size)
{
	size_t n;
	const char *s = cursor_string(c, &n);

	if (s == NULL)
		return NULL;
	if (n >= size)
		n = size - 1;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	return tmp;
}

static int
section(const struct perfdata *pd, unsigned bit, struct cursor *c)
{
	const struct perf_feature_raw *r = &perfdata_header(pd)->raw[bit];

	if (!(perfdata_header(pd)->features[bit / 64] & (1ULL << (bit % 64))) ||
	    r->data == NULL)
		return 0;
	cursor_init(c, r->data, r->len, r->off,
		    perfdata_format(pd)->big_endian);
	return 1;
}

static void
bad(struct out *o, const char *name, const struct cursor *c)
{
	put(o, "# %s: malformed section at 0x%" PRIx64 "\n", name,
	    cursor_err_offset(c));
}

static void
cpu_topology(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char t[4096];
	uint32_t ncores, nthreads, ndies = 0, i, ncpus;
	uint32_t *core = NULL, *socket = NULL, *die = NULL;
	const char *s;
	size_t mark;
	char *cores = NULL, *threads = NULL, *dies = NULL;
	size_t lc = 0, lt = 0, ld = 0;
	struct out oc = { .buf = &cores, .len = &lc };
	struct out ot = { .buf = &threads, .len = &lt };
	struct out od = { .buf = &dies, .len = &ld };

	if (!section(pd, HEADER_CPU_TOPOLOGY, &c))
		return;
	ncpus = perfdata_header(pd)->nr_cpus_avail;
	ncores = cursor_u32(&c);
	for (i = 0; i < ncores && (s = str(&c, t, sizeof(t))); i++)
		put(&oc, "# sibling sockets : %s\n", s);
	nthreads = cursor_u32(&c);
	for (i = 0; i < nthreads && (s = str(&c, t, sizeof(t))); i++)
		put(&ot, "# sibling threads : %s\n", s);
	if (!cursor_ok(&c) || ncpus > 65536) {
		bad(o, "cpu topology", &c);
		goto out;
	}
	/* then, when present, core and socket ids of each cpu, and the
	 * dies */
	if (cursor_left(&c) >= (size_t)ncpus * 8) {
		core = calloc(ncpus + 1, sizeof(*core));
		socket = calloc(ncpus + 1, sizeof(*socket));
		if (core == NULL || socket == NULL)
			goto out;
		for (i = 0; i < ncpus; i++) {
			core[i] = cursor_u32(&c);
			socket[i] = cursor_u32(&c);
		}
		if (cursor_left(&c) >= 4) {
			mark = c.pos;
			ndies = cursor_u32(&c);
			for (i = 0; i < ndies && (s = str(&c, t, sizeof(t)));
			     i++)
				put(&od, "# sibling dies    : %s\n", s);
			die = calloc(ncpus + 1, sizeof(*die));
			if (die == NULL)
				goto out;
			for (i = 0; i < ncpus; i++)
				die[i] = cursor_u32(&c);
			if (!cursor_ok(&c)) {
				c.pos = mark;
				ndies = 0;
			}
		}
	}
	put(o, "%s", cores ? cores : "");
	if (ndies)
		put(o, "%s", dies ? dies : "");
	put(o, "%s", threads ? threads : "");
	for (i = 0; core != NULL && i < ncpus; i++) {
		if (ndies)
			put(o, "# CPU %u: Core ID %d, Die ID %d, "
			    "Socket ID %d\n", i, (int32_t)core[i],
			    (int32_t)die[i], (int32_t)socket[i]);
		else
			put(o, "# CPU %u: Core ID %d, Socket ID %d\n", i,
			    (int32_t)core[i], (int32_t)socket[i]);
	}
	if (core == NULL)
		put(o, "# Core ID and Socket ID information is not "
		    "available\n");
out:
	free(core);
	free(socket);
	free(die);
	free(cores);
	free(threads);
	free(dies);
}

static void
numa_topology(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char t[4096];
	uint32_t nr, i, node;
	uint64_t total, freem;
	const char *s;

	if (!section(pd, HEADER_NUMA_TOPOLOGY, &c))
		return;
	nr = cursor_u32(&c);
	for (i = 0; i < nr && cursor_ok(&c); i++) {
		node = cursor_u32(&c);
		total = cursor_u64(&c);
		freem = cursor_u64(&c);
		s = str(&c, t, sizeof(t));
		if (s == NULL)
			break;
		put(o, "# node%u meminfo  : total = %" PRIu64 " kB, free = %"
		    PRIu64 " kB\n", node, total, freem);
		put(o, "# node%u cpu list : %s\n", node, s);
	}
	if (!cursor_ok(&c))
		bad(o, "numa topology", &c);
}

static void
pmu_mappings(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char t[4096];
	uint32_t nr, i, type;
	const char *s;

	if (!section(pd, HEADER_PMU_MAPPINGS, &c))
		return;
	nr = cursor_u32(&c);
	if (nr == 0) {
		put(o, "# pmu mappings: not available\n");
		return;
	}
	put(o, "# pmu mappings: ");
	for (i = 0; i < nr; i++) {
		type = cursor_u32(&c);
		s = str(&c, t, sizeof(t));
		if (s == NULL)
			break;
		put(o, "%s%s = %u", i ? ", " : "", s, type);
	}
	put(o, "\n");
	if (!cursor_ok(&c))
		bad(o, "pmu mappings", &c);
}

static void
group_desc(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char t[4096];
	uint32_t nr, i, leader, members, k;
	const char *s;

	if (!section(pd, HEADER_GROUP_DESC, &c))
		return;
	nr = cursor_u32(&c);
	for (i = 0; i < nr; i++) {
		s = str(&c, t, sizeof(t));
		leader = cursor_u32(&c);
		members = cursor_u32(&c);
		if (s == NULL || !cursor_ok(&c))
			break;
		if (members < 2 || leader >= perfdata_nattrs(pd))
			continue;
		put(o, "# group: %s{", strcmp(s, "{anon_group}") ? s : "");
		for (k = 0; k < members &&
			    leader + k < perfdata_nattrs(pd) && !line_full(o);
		     k++)
			put(o, "%s%s", k ? "," : "",
			    perfdata_attr(pd, leader + k)->name);
		put(o, "}\n");
	}
	if (!cursor_ok(&c))
		bad(o, "group desc", &c);
}

static void
cache(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char ty[256], sz[256], map[4096];
	uint32_t cnt, i, level;
	const char *a, *b, *m;

	if (!section(pd, HEADER_CACHE, &c))
		return;
	(void)cursor_u32(&c);	/* version */
	cnt = cursor_u32(&c);
	put(o, "# CPU cache info:\n");
	for (i = 0; i < cnt; i++) {
		level = cursor_u32(&c);
		(void)cursor_u32(&c);	/* line size */
		(void)cursor_u32(&c);	/* sets */
		(void)cursor_u32(&c);	/* ways */
		a = str(&c, ty, sizeof(ty));
		b = str(&c, sz, sizeof(sz));
		m = str(&c, map, sizeof(map));
		if (a == NULL || b == NULL || m == NULL)
			break;
		put(o, "#  L%d %-15s %8s [%s]\n", (int)level, a, b, m);
	}
	if (!cursor_ok(&c))
		bad(o, "cache", &c);
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
mem_topology(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	uint64_t bsize, nr, i, node, bits, w, k, set, size;
	char sz[32];

	if (!section(pd, HEADER_MEM_TOPOLOGY, &c))
		return;
	(void)cursor_u64(&c);	/* version */
	bsize = cursor_u64(&c);
	nr = cursor_u64(&c);
	if (!cursor_ok(&c))
		goto bad;
	put(o, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr,
	    (unsigned long long)bsize);
	for (i = 0; i < nr && cursor_ok(&c); i++) {
		uint64_t words, run_start = 0, prev = 0;
		int in_run = 0, first = 1;
		const unsigned char *bm;
		char list[4096];
		size_t ll = 0;

		node = cursor_u64(&c);
		(void)cursor_u64(&c);	/* the node's size... */
		bits = cursor_u64(&c);	/* ...and its bitmap's, in bits */
		/* rounded up without bits + 63, which wraps near 2^64 */
		words = bits / 64 + (bits % 64 != 0);
		if (!cursor_ok(&c) || words > cursor_left(&c) / 8)
			goto bad;
		bm = c.base + c.pos;
		set = 0;
		list[0] = '\0';
		/* the bitmap as perf's bitmap_scnprintf: "0-23,32-199" */
		for (k = 0; k <= bits; k++) {
			int on = 0;

			if (k < bits) {
				w = load64(bm + (k / 64) * 8,
					   perfdata_format(pd)->big_endian);
				on = (w >> (k % 64)) & 1;
			}
			if (on) {
				set++;
				if (!in_run) {
					run_start = k;
					in_run = 1;
				}
				prev = k;
			} else if (in_run) {
				in_run = 0;
				ll = append_run(list, sizeof(list), ll, first,
						run_start, prev);
				first = 0;
			}
		}
		cursor_skip(&c, (size_t)words * 8);
		if (__builtin_mul_overflow(bsize, set, &size))
			goto bad;
		unit(sz, sizeof(sz), size);
		put(o, "#  %3" PRIu64 " [%s]: %s\n", node, sz, list);
	}
	if (cursor_ok(&c))
		return;
bad:
	bad(o, "memory topology", &c);
}

static void
cpu_pmu_caps(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char n[1024], v[1024];
	uint32_t nr, i;
	const char *a, *b;

	if (!section(pd, HEADER_CPU_PMU_CAPS, &c))
		return;
	nr = cursor_u32(&c);
	if (nr == 0) {
		put(o, "# cpu pmu capabilities: not available\n");
		return;
	}
	put(o, "# cpu pmu capabilities: ");
	for (i = 0; i < nr; i++) {
		a = str(&c, n, sizeof(n));
		b = str(&c, v, sizeof(v));
		if (a == NULL || b == NULL)
			break;
		put(o, "%s%s=%s", i ? ", " : "", a, b);
	}
	put(o, "\n");
	if (!cursor_ok(&c))
		bad(o, "cpu pmu caps", &c);
}

static void
hybrid_topology(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char n[1024], cpus[4096];
	uint32_t nr, i;
	const char *a, *b;

	if (!section(pd, HEADER_HYBRID_TOPOLOGY, &c))
		return;
	nr = cursor_u32(&c);
	put(o, "# hybrid cpu system:\n");
	for (i = 0; i < nr; i++) {
		a = str(&c, n, sizeof(n));
		b = str(&c, cpus, sizeof(cpus));
		if (a == NULL || b == NULL)
			break;
		put(o, "# %s cpu list : %s\n", a, b);
	}
	if (!cursor_ok(&c))
		bad(o, "hybrid topology", &c);
}

/* PMU_CAPS: per PMU its capabilities (name, value), then its name. */
static void
pmu_caps(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	char n[1024], v[1024], caps[8192];
	uint32_t npmu, ncaps, i, k;
	const char *a, *b;
	size_t cl;

	if (!section(pd, HEADER_PMU_CAPS, &c))
		return;
	npmu = cursor_u32(&c);
	for (i = 0; i < npmu && cursor_ok(&c); i++) {
		ncaps = cursor_u32(&c);
		cl = 0;
		caps[0] = '\0';
		for (k = 0; k < ncaps; k++) {
			a = str(&c, n, sizeof(n));
			b = str(&c, v, sizeof(v));
			if (a == NULL || b == NULL)
				break;
			if (cl < sizeof(caps) - 1)
				cl += (size_t)snprintf(caps + cl,
						       sizeof(caps) - cl,
						       "%s%s=%s",
						       k ? ", " : "", a, b);
		}
		a = str(&c, n, sizeof(n));
		if (a == NULL)
			break;
		put(o, "# %s pmu capabilities: %s\n", a, caps);
	}
	if (!cursor_ok(&c))
		bad(o, "pmu caps", &c);
}

/* BPF_BTF: count, then per BTF object its id, size and data. */
static void
bpf_btf(const struct perfdata *pd, struct out *o)
{
	struct cursor c;
	uint32_t nr, i, id, size;

	if (!section(pd, HEADER_BPF_BTF, &c))
		return;
	nr = cursor_u32(&c);
	for (i = 0; i < nr && cursor_ok(&c); i++) {
		id = cursor_u32(&c);
		size = cursor_u32(&c);
		if (!cursor_ok(&c) || !cursor_skip(&c, size))
			break;
		put(o, "# btf info of id %u\n", id);
	}
	if (!cursor_ok(&c))
		bad(o, "bpf btf", &c);
}

static const char *const upper_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = "TRACING_DATA",
	[HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_HOSTNAME] = "HOSTNAME",
	[HEADER_OSRELEASE] = "OSRELEASE",
	[HEADER_VERSION] = "VERSION",
	[HEADER_ARCH] = "ARCH",
	[HEADER_NRCPUS] = "NRCPUS",
	[HEADER_CPUDESC] = "CPUDESC",
	[HEADER_CPUID] = "CPUID",
	[HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE",
	[HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK] = "BRANCH_STACK",
	[HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC] = "GROUP_DESC",
	[HEADER_AUXTRACE] = "AUXTRACE",
	[HEADER_STAT] = "STAT",
	[HEADER_CACHE] = "CACHE",
	[HEADER_SAMPLE_TIME] = "SAMPLE_TIME",
	[HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[HEADER_CLOCKID] = "CLOCKID",
	[HEADER_DIR_FORMAT] = "DIR_FORMAT",
	[HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[HEADER_BPF_BTF] = "BPF_BTF",
	[HEADER_COMPRESSED] = "COMPRESSED",
	[HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[HEADER_CLOCK_DATA] = "CLOCK_DATA",
	[HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HEADER_PMU_CAPS] = "PMU_CAPS",
};

/*
 * Print to TO, escaped, the lines perf prints for the topology, NUMA, PMU,
 * cache, memory, group, directory, compression and capability features
 * of PD, and the missing features.  A section that does not parse gives
 * one line saying so.  Returns 0, or -1 when out of memory (then the
 * lines may stop anywhere).
 */
static int
features_text(const struct perfdata *pd, FILE *to)
{
	struct out o = { .f = to };
	const uint64_t *f = perfdata_header(pd)->features;
	struct cursor c;
	unsigned bit;

#define HAS(b) ((f[(b) / 64] >> ((b) % 64)) & 1)
	put(&o, "# header version : 1\n");
	cpu_topology(pd, &o);
	numa_topology(pd, &o);
	if (HAS(HEADER_BRANCH_STACK))
		put(&o, "# contains samples with branch stack\n");
	pmu_mappings(pd, &o);
	group_desc(pd, &o);
	if (HAS(HEADER_AUXTRACE))
		put(&o, "# contains AUX area data (e.g. instruction trace)\n");
	if (HAS(HEADER_STAT))
		put(&o, "# contains stat data\n");
	cache(pd, &o);
	mem_topology(pd, &o);
	if (section(pd, HEADER_DIR_FORMAT, &c)) {
		uint64_t v = cursor_u64(&c);

		if (cursor_ok(&c))
			put(&o, "# directory data version : %" PRIu64 "\n", v);
	}
	bpf_btf(pd, &o);
	cpu_pmu_caps(pd, &o);
	hybrid_topology(pd, &o);
	pmu_caps(pd, &o);
	put(&o, "# missing features: ");
	for (bit = 1; bit < HEADER_LAST_FEATURE; bit++)
		if (!HAS(bit) && upper_names[bit] != NULL)
			put(&o, "%s ", upper_names[bit]);
	put(&o, "\n");
#undef HAS
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
print_header(const struct perfdata *pd)
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
	if (hi->features[0] & (1ULL << HEADER_NRCPUS)) {
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
print_features(const struct perfdata *pd)
{
	const struct perf_header_info *hi = perfdata_header(pd);
	unsigned bit;

	features_text(pd, stdout);
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
	if (hi->features[0] & (1ULL << HEADER_COMPRESSED))
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

/* The samples of each event (SAMPLES, one count per attr of PD, or
 * NULL), then of each process that has some. */
static int
print_counts(const struct perfdata *pd, const uint64_t *samples,
	     const struct addrspace *as)
{
	struct process **procs;
	size_t i, np = 0;

	printf("# events (samples):\n");
	for (i = 0; i < perfdata_nattrs(pd); i++) {
		printf("%12" PRIu64 "  ", samples != NULL ? samples[i] : 0);
		message_put_safe(stdout, perfdata_attr(pd, i)->name);
		putchar('\n');
	}
	printf("#\n# processes (samples, all events):\n");
	procs = addrspace_by_samples(as, &np);
	if (procs == NULL)
		return -1;
	for (i = 0; i < np; i++) {
		printf("%12" PRIu64 "  %d ", procs[i]->samples, procs[i]->pid);
		message_put_safe(stdout, procs[i]->comm);
		putchar('\n');
	}
	free(procs);
	return 0;
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
	struct addrspace *as;
	struct p2g_error err;
	uint64_t *samples = NULL;
	int ret = 0;

	p2g_error_clear(&err);
	as = addrspace_new();
	if (as == NULL) {
		p2g_fail(&err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		message_error(rp->name, &err);
		return p2g_exit_status(err.status);
	}
	if (convert_scan(pd, as, &samples, &err) < 0) {
		message_error(report_where(rp, err.part), &err);
		ret = p2g_exit_status(err.status);
	}
	print_header(pd);
	print_events(pd);
	print_features(pd);
	if (print_counts(pd, samples, as) < 0 && ret == 0) {
		p2g_fail(&err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		message_error(rp->name, &err);
		ret = p2g_exit_status(err.status);
	}
	print_offcpu(pd);
	free(samples);
	addrspace_free(as);
	return ret;
}
