/* SPDX-License-Identifier: MIT */
/*
 * perfswap IN OUT: write the little-endian perf.data IN (file mode, pipe
 * mode, or a perf record --threads directory) as a big-endian machine's
 * perf would have written it, for tests/run-cross-endian.sh.  A test
 * tool with its own tables of every layout, written from the perf.data
 * format document and perf_event.h and sharing no code with the library,
 * so that perf's reading of OUT can vouch for this tool and this tool's
 * output can then vouch for perf2gperf's reader.
 *
 * Every field is written in big-endian order at its real width: the u32
 * pairs (pid/tid, cpu/res) as two u32s, u16s as u16s, byte arrays and
 * strings as they are.  Bit-fields are laid out as a big-endian compiler
 * lays them out: the first field at the most significant end of its
 * storage unit (see be_bitfield).
 *
 * Swapped:
 *   - the file header with its section descriptors and feature bits, or
 *     the pipe-mode header;
 *   - the attrs (every field of perf_event_attr up to config3, 136
 *     bytes), their id arrays, the event_types section;
 *   - the feature sections tracing_data (the endianness byte set, the
 *     sizes swapped; the event formats are read to swap the tracepoint
 *     fields of RAW samples), build_id, hostname, osrelease, version,
 *     arch, nrcpus, cpudesc, cpuid, total_mem, cmdline, event_desc,
 *     cpu_topology, numa_topology, branch_stack, pmu_mappings,
 *     group_desc, stat, cache, sample_time, mem_topology, clockid,
 *     dir_format, bpf_prog_info and bpf_btf when they hold no entries,
 *     compressed, cpu_pmu_caps, clock_data, hybrid_topology, pmu_caps;
 *     in pipe mode the same bodies in HEADER_FEATURE records;
 *   - the records MMAP, LOST, COMM, EXIT, THROTTLE, UNTHROTTLE, FORK,
 *     READ, SAMPLE, MMAP2 (inode and build-id forms), AUX, ITRACE_START,
 *     LOST_SAMPLES, SWITCH, SWITCH_CPU_WIDE, NAMESPACES, KSYMBOL,
 *     BPF_EVENT, CGROUP, TEXT_POKE, AUX_OUTPUT_HW_ID, CALLCHAIN_DEFERRED,
 *     each with its sample_id_all trailer; and HEADER_ATTR,
 *     HEADER_EVENT_TYPE, HEADER_TRACING_DATA (with its payload),
 *     HEADER_BUILD_ID, FINISHED_ROUND, ID_INDEX, AUXTRACE_INFO,
 *     AUXTRACE_ERROR, THREAD_MAP, CPU_MAP, STAT_CONFIG, STAT, STAT_ROUND,
 *     EVENT_UPDATE, TIME_CONV, HEADER_FEATURE, FINISHED_INIT;
 *   - SAMPLE fields by sample_type: IDENTIFIER, IP, TID, TIME, ADDR, ID,
 *     STREAM_ID, CPU, PERIOD, READ (by read_format), CALLCHAIN, RAW (a
 *     u32 size, then a tracepoint's fields each at its own width, as the
 *     kernel of a big-endian machine writes them), BRANCH_STACK (hw_idx,
 *     the flags bit-field, counters), REGS_USER, STACK_USER (the stack
 *     bytes as they are), WEIGHT(_STRUCT), DATA_SRC, TRANSACTION,
 *     REGS_INTR, PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX
 *     (the bytes as they are);
 *   - COMPRESSED and COMPRESSED2 records, when the zstd program is
 *     there: their stream is decompressed with it, the records in it
 *     swapped, and each record's share written back as a zstd frame of
 *     its own (same records in the same places; only the framing of the
 *     compressed bytes differs from perf's).
 *
 * Dropped, counted and reported on stderr:
 *   - the auxtrace feature (file offsets of AUXTRACE data) and AUXTRACE
 *     records (hardware trace bytes of a layout only their decoder
 *     knows), bpf_prog_info and bpf_btf entries (struct bpf_prog_info
 *     and BTF blobs), feature bits this tool does not know;
 *   - samples whose event cannot be found by their id, RAW samples of
 *     events that are not tracepoints or whose format has a field that
 *     is neither a scalar, an array of scalars nor a __data_loc/__rel_loc
 *     array, records of types this tool does not know, and COMPRESSED
 *     records when there is no zstd program.
 * Input that it does not understand (bad sizes, sample_type bits past
 * WEIGHT_STRUCT, records or sections that overrun) stops it with exit
 * status 1; usage, I/O and memory trouble with exit status 2.
 *
 * The zstd program is taken from $PERFSWAP_ZSTD (default "zstd"; "none"
 * turns it off).  Its temporary files go to $TMPDIR (default /tmp).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- numbers from perf_event.h and the perf.data format */

#define S_IP		(1ULL << 0)
#define S_TID		(1ULL << 1)
#define S_TIME		(1ULL << 2)
#define S_ADDR		(1ULL << 3)
#define S_READ		(1ULL << 4)
#define S_CALLCHAIN	(1ULL << 5)
#define S_ID		(1ULL << 6)
#define S_CPU		(1ULL << 7)
#define S_PERIOD	(1ULL << 8)
#define S_STREAM_ID	(1ULL << 9)
#define S_RAW		(1ULL << 10)
#define S_BRANCH_STACK	(1ULL << 11)
#define S_REGS_USER	(1ULL << 12)
#define S_STACK_USER	(1ULL << 13)
#define S_WEIGHT	(1ULL << 14)
#define S_DATA_SRC	(1ULL << 15)
#define S_IDENTIFIER	(1ULL << 16)
#define S_TRANSACTION	(1ULL << 17)
#define S_REGS_INTR	(1ULL << 18)
#define S_PHYS_ADDR	(1ULL << 19)
#define S_AUX		(1ULL << 20)
#define S_CGROUP	(1ULL << 21)
#define S_DATA_PAGE_SIZE (1ULL << 22)
#define S_CODE_PAGE_SIZE (1ULL << 23)
#define S_WEIGHT_STRUCT	(1ULL << 24)
#define S_KNOWN		((1ULL << 25) - 1)
/* the sample_id_all trailer of the other records */
#define S_TRAILER	(S_TID | S_TIME | S_ID | S_STREAM_ID | S_CPU | \
			 S_IDENTIFIER)

#define F_TOTAL_TIME_ENABLED	(1ULL << 0)
#define F_TOTAL_TIME_RUNNING	(1ULL << 1)
#define F_ID			(1ULL << 2)
#define F_GROUP			(1ULL << 3)
#define F_LOST			(1ULL << 4)

#define BRANCH_HW_INDEX		(1ULL << 17)
#define BRANCH_COUNTERS		(1ULL << 19)

#define ATTR_SAMPLE_ID_ALL	(1ULL << 18)
#define ATTR_VER0		64
#define ATTR_KNOWN		136	/* up to config3 */

#define TYPE_TRACEPOINT		2

#define MISC_MMAP_BUILD_ID	(1u << 14)

enum {
	R_MMAP = 1, R_LOST, R_COMM, R_EXIT, R_THROTTLE, R_UNTHROTTLE, R_FORK,
	R_READ, R_SAMPLE, R_MMAP2, R_AUX, R_ITRACE_START, R_LOST_SAMPLES,
	R_SWITCH, R_SWITCH_CPU_WIDE, R_NAMESPACES, R_KSYMBOL, R_BPF_EVENT,
	R_CGROUP, R_TEXT_POKE, R_AUX_OUTPUT_HW_ID, R_CALLCHAIN_DEFERRED,
	R_HEADER_ATTR = 64, R_HEADER_EVENT_TYPE, R_HEADER_TRACING_DATA,
	R_HEADER_BUILD_ID, R_FINISHED_ROUND, R_ID_INDEX, R_AUXTRACE_INFO,
	R_AUXTRACE, R_AUXTRACE_ERROR, R_THREAD_MAP, R_CPU_MAP,
	R_STAT_CONFIG, R_STAT, R_STAT_ROUND, R_EVENT_UPDATE, R_TIME_CONV,
	R_HEADER_FEATURE, R_COMPRESSED, R_FINISHED_INIT, R_COMPRESSED2,
};

static const char *const record_names[] = {
	[R_MMAP] = "MMAP", [R_LOST] = "LOST", [R_COMM] = "COMM",
	[R_EXIT] = "EXIT", [R_THROTTLE] = "THROTTLE",
	[R_UNTHROTTLE] = "UNTHROTTLE", [R_FORK] = "FORK", [R_READ] = "READ",
	[R_SAMPLE] = "SAMPLE", [R_MMAP2] = "MMAP2", [R_AUX] = "AUX",
	[R_ITRACE_START] = "ITRACE_START", [R_LOST_SAMPLES] = "LOST_SAMPLES",
	[R_SWITCH] = "SWITCH", [R_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[R_NAMESPACES] = "NAMESPACES", [R_KSYMBOL] = "KSYMBOL",
	[R_BPF_EVENT] = "BPF_EVENT", [R_CGROUP] = "CGROUP",
	[R_TEXT_POKE] = "TEXT_POKE", [R_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[R_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
	[R_HEADER_ATTR] = "HEADER_ATTR",
	[R_HEADER_EVENT_TYPE] = "HEADER_EVENT_TYPE",
	[R_HEADER_TRACING_DATA] = "HEADER_TRACING_DATA",
	[R_HEADER_BUILD_ID] = "HEADER_BUILD_ID",
	[R_FINISHED_ROUND] = "FINISHED_ROUND", [R_ID_INDEX] = "ID_INDEX",
	[R_AUXTRACE_INFO] = "AUXTRACE_INFO", [R_AUXTRACE] = "AUXTRACE",
	[R_AUXTRACE_ERROR] = "AUXTRACE_ERROR", [R_THREAD_MAP] = "THREAD_MAP",
	[R_CPU_MAP] = "CPU_MAP", [R_STAT_CONFIG] = "STAT_CONFIG",
	[R_STAT] = "STAT", [R_STAT_ROUND] = "STAT_ROUND",
	[R_EVENT_UPDATE] = "EVENT_UPDATE", [R_TIME_CONV] = "TIME_CONV",
	[R_HEADER_FEATURE] = "HEADER_FEATURE", [R_COMPRESSED] = "COMPRESSED",
	[R_FINISHED_INIT] = "FINISHED_INIT", [R_COMPRESSED2] = "COMPRESSED2",
};

static const char *const feature_names[] = {
	"reserved", "tracing_data", "build_id", "hostname", "osrelease",
	"version", "arch", "nrcpus", "cpudesc", "cpuid", "total_mem",
	"cmdline", "event_desc", "cpu_topology", "numa_topology",
	"branch_stack", "pmu_mappings", "group_desc", "auxtrace", "stat",
	"cache", "sample_time", "mem_topology", "clockid", "dir_format",
	"bpf_prog_info", "bpf_btf", "compressed", "cpu_pmu_caps",
	"clock_data", "hybrid_topology", "pmu_caps",
};
#define NR_FEATURE_NAMES (sizeof(feature_names) / sizeof(feature_names[0]))

#define FILE_HEADER	104
#define PIPE_HEADER	16
#define NTYPES		256	/* record types counted; larger ones in 0 */

/* ---- messages and memory */

static const char *in_name = "-";	/* the input, for messages */
static const char *where = "";		/* "", or " (decompressed)" */

static void die_at(uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
static void trouble(const char *what, const char *name)
	__attribute__((noreturn));

/* Input this tool does not understand: exit 1. */
static void
die_at(uint64_t off, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfswap: %s: offset 0x%llx%s: ", in_name,
		(unsigned long long)off, where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* I/O or memory trouble: exit 2. */
static void
trouble(const char *what, const char *name)
{
	fprintf(stderr, "perfswap: %s: %s: %s\n", name, what,
		errno ? strerror(errno) : "failed");
	exit(2);
}

static void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		trouble("out of memory", in_name);
	return p;
}

/* A growing byte buffer. */
struct buf {
	unsigned char *p;
	size_t len, cap;
};

/* Make room for N more bytes at the end and return them (unset). */
static unsigned char *
buf_add(struct buf *b, size_t n)
{
	if (n > SIZE_MAX - b->len)
		trouble("out of memory", in_name);
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;

		while (cap < b->len + n)
			cap = cap > SIZE_MAX / 2 ? b->len + n : cap * 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

static void
buf_put(struct buf *b, const void *p, size_t n)
{
	if (n > 0)
		memcpy(buf_add(b, n), p, n);
}

/* ---- byte order */

/* Values of the input, little-endian whatever the host. */
static uint16_t
le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t
le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void
put_be(unsigned char *p, uint64_t v, unsigned n)
{
	while (n-- > 0) {
		p[n] = (unsigned char)v;
		v >>= 8;
	}
}

/* Turn the N-byte little-endian value at P into big-endian. */
static void
rev(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		unsigned char t = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = t;
	}
}

/*
 * A bit-field word as a big-endian compiler lays it out.  Both the
 * little-endian and the big-endian ABIs allocate the fields of a storage
 * unit in declaration order, the former from the least significant bit,
 * the latter from the most significant one (a field keeps its own bit
 * order: its most significant bit is the one nearer the top).  V is the
 * little-endian word (WIDTH bits); MULTI lists the fields wider than one
 * bit as {first bit, width} pairs in V, ending with {0, 0}; every other
 * bit is a field of its own.  Returns the value the big-endian machine
 * stores, which the caller writes in big-endian byte order.
 *
 * For one-bit fields this is perf's swap_bitfield (util/session.c: each
 * byte's bits reversed, bytes in place).  For a wider field it is not:
 * perf's reader reverses the bits of attr.precise_ip (it reads 1 as 2),
 * while its branch-flags reader (evsel__bitfield_swap_branch_flags) moves
 * whole fields, as here.
 */
struct bf {
	unsigned char at, width;
};

static uint64_t
be_bitfield(uint64_t v, unsigned width, const struct bf *multi)
{
	uint64_t r = 0;
	unsigned at = 0, w, k;

	while (at < width) {
		w = 1;
		for (k = 0; multi[k].width != 0; k++)
			if (multi[k].at == at)
				w = multi[k].width;
		r |= ((v >> at) & ((w == 64 ? 0 : 1ULL << w) - 1))
		     << (width - at - w);
		at += w;
	}
	return r;
}

/* perf_event_attr's flag word: precise_ip:2 at bit 15, all else 1 bit. */
static const struct bf attr_flag_fields[] = { { 15, 2 }, { 0, 0 } };
/* perf_branch_entry's flags (after from, to): mispred, predicted, in_tx,
 * abort, cycles:16, type:4, spec:2, new_type:4, priv:3, reserved. */
static const struct bf branch_flag_fields[] = {
	{ 4, 16 }, { 20, 4 }, { 24, 2 }, { 26, 4 }, { 30, 3 }, { 0, 0 }
};

/* ---- a cursor that swaps as it goes
 * Over a copy of the input being turned big-endian in place: each read
 * returns the field's (little-endian) value and leaves it big-endian.  A
 * read past the end returns 0 and marks the cursor bad; the caller checks
 * once. */

struct cur {
	unsigned char *p;
	size_t len, pos;
	bool bad;
};

static void
cur_init(struct cur *c, unsigned char *p, size_t len, size_t pos)
{
	c->p = p;
	c->len = len;
	c->pos = pos;
	c->bad = pos > len;
}

static bool
cur_need(struct cur *c, uint64_t n)
{
	if (c->bad || n > c->len - c->pos) {
		c->bad = true;
		c->pos = c->len;
		return false;
	}
	return true;
}

static uint16_t
cur16(struct cur *c)
{
	uint16_t v;

	if (!cur_need(c, 2))
		return 0;
	v = le16(c->p + c->pos);
	rev(c->p + c->pos, 2);
	c->pos += 2;
	return v;
}

static uint32_t
cur32(struct cur *c)
{
	uint32_t v;

	if (!cur_need(c, 4))
		return 0;
	v = le32(c->p + c->pos);
	rev(c->p + c->pos, 4);
	c->pos += 4;
	return v;
}

static uint64_t
cur64(struct cur *c)
{
	uint64_t v;

	if (!cur_need(c, 8))
		return 0;
	v = le64(c->p + c->pos);
	rev(c->p + c->pos, 8);
	c->pos += 8;
	return v;
}

/* N u64s, the count checked before it is multiplied. */
static void
cur64s(struct cur *c, uint64_t n)
{
	if (n > (c->len - c->pos) / 8) {
		cur_need(c, c->len - c->pos + 1);
		return;
	}
	while (n-- > 0)
		(void)cur64(c);
}

/* N bytes that keep their order (strings, byte arrays). */
static unsigned char *
cur_skip(struct cur *c, uint64_t n)
{
	unsigned char *p = c->p + c->pos;

	if (!cur_need(c, n))
		return NULL;
	c->pos += (size_t)n;
	return p;
}

/* A perf_header_string: u32 length, then that many bytes. */
static void
cur_str(struct cur *c)
{
	(void)cur_skip(c, cur32(c));
}

static void
cur_strs(struct cur *c, uint64_t n)
{
	while (n-- > 0 && !c->bad)
		cur_str(c);
}

/* A bit-field word of 64 bits. */
static void
cur_bitfield64(struct cur *c, const struct bf *multi)
{
	uint64_t v;

	if (!cur_need(c, 8))
		return;
	v = le64(c->p + c->pos);
	put_be(c->p + c->pos, be_bitfield(v, 64, multi), 8);
	c->pos += 8;
}

static bool
all_zero(const unsigned char *p, size_t n)
{
	while (n-- > 0)
		if (*p++ != 0)
			return false;
	return true;
}

/* ---- state */

struct attr {
	uint32_t type;
	uint64_t config, sample_type, read_format, flags;
	uint64_t branch_sample_type, regs_user, regs_intr;
	uint64_t *ids;
	size_t nids;
};

/* A field of a tracepoint's format: how to swap it in a RAW sample. */
enum { TF_FIXED, TF_DATA_LOC, TF_REL_LOC, TF_UNKNOWN };
struct tp_field {
	unsigned off, size;
	unsigned elem;		/* element size; 0 when not known */
	int kind;
	char name[48];
};

struct tp_event {
	unsigned id;
	char name[64];
	struct tp_field *f;
	size_t nf;
};

static struct attr *attrs;
static size_t nattrs;
static struct tp_event *tps;
static size_t ntps;
static unsigned long_size = 8;		/* from the tracing data */
static uint64_t nr_cpus_avail;		/* from the nrcpus feature */
static bool have_nrcpus;

static unsigned long kept[NTYPES], dropped[NTYPES];
static const char *drop_why[NTYPES];
static unsigned long features_kept, features_dropped;

static unsigned
type_slot(uint32_t type)
{
	return type < NTYPES ? type : 0;
}

/* Count a dropped record and why; returns false for the callers. */
static bool
drop(uint32_t type, const char *why)
{
	unsigned t = type_slot(type);

	dropped[t]++;
	if (drop_why[t] == NULL)
		drop_why[t] = why;
	return false;
}

static const char *
record_name(uint32_t type)
{
	static char buf[32];

	if (type < sizeof(record_names) / sizeof(record_names[0]) &&
	    record_names[type] != NULL)
		return record_names[type];
	snprintf(buf, sizeof(buf), "type %u", type);
	return buf;
}

static const char *
feature_name(unsigned bit)
{
	static char buf[32];

	if (bit < NR_FEATURE_NAMES)
		return feature_names[bit];
	snprintf(buf, sizeof(buf), "feature %u", bit);
	return buf;
}

/* ---- attrs */

/*
 * Swap the perf_event_attr of SIZE bytes at P (at file offset OFF) in
 * place.  Offsets from perf_event.h: 0 type, 4 size, 8 config, 16
 * sample_period, 24 sample_type, 32 read_format, 40 the flag bit-field,
 * 48 wakeup_events, 52 bp_type, 56 config1, 64 config2, 72
 * branch_sample_type, 80 sample_regs_user, 88 sample_stack_user, 92
 * clockid, 96 sample_regs_intr, 104 aux_watermark, 108 sample_max_stack,
 * 110 reserved, 112 aux_sample_size, 116 aux_action (a u32 of one-bit
 * fields; reserved before 6.13), 120 sig_data, 128 config3.
 */
static void
swap_attr(unsigned char *p, size_t size, uint64_t off)
{
	static const struct {
		unsigned char at, width;	/* width 0: bit-field */
	} f[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 40, 0 }, { 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 },
		{ 72, 8 }, { 80, 8 }, { 88, 4 }, { 92, 4 }, { 96, 8 },
		{ 104, 4 }, { 108, 2 }, { 110, 2 }, { 112, 4 }, { 116, 5 },
		{ 120, 8 }, { 128, 8 },
	};
	static const struct bf none[] = { { 0, 0 } };
	size_t i, w;

	if (size < ATTR_VER0)
		die_at(off, "attr of %zu bytes is smaller than %u", size,
		       ATTR_VER0);
	if (size > ATTR_KNOWN && !all_zero(p + ATTR_KNOWN, size - ATTR_KNOWN))
		die_at(off + ATTR_KNOWN, "attr of %zu bytes has fields past "
		       "byte %u that this tool does not know", size,
		       ATTR_KNOWN);
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		w = f[i].width == 0 ? 8 : f[i].width == 5 ? 4 : f[i].width;
		if (f[i].at + w > size) {
			if (f[i].at < size)
				die_at(off + f[i].at, "attr of %zu bytes ends "
				       "inside a field", size);
			break;
		}
		if (f[i].width == 0)
			put_be(p + f[i].at, be_bitfield(le64(p + f[i].at), 64,
							attr_flag_fields), 8);
		else if (f[i].width == 5)
			put_be(p + f[i].at, be_bitfield(le32(p + f[i].at), 32,
							none), 4);
		else
			rev(p + f[i].at, w);
	}
}

/* Remember the attr of SIZE bytes at P (still little-endian). */
static struct attr *
add_attr(const unsigned char *p, size_t size, uint64_t off)
{
	unsigned char a[ATTR_KNOWN];
	struct attr *n;

	memset(a, 0, sizeof(a));
	memcpy(a, p, size < sizeof(a) ? size : sizeof(a));
	attrs = xrealloc(attrs, (nattrs + 1) * sizeof(*attrs));
	n = &attrs[nattrs++];
	memset(n, 0, sizeof(*n));
	n->type = le32(a);
	n->config = le64(a + 8);
	n->sample_type = le64(a + 24);
	n->read_format = le64(a + 32);
	n->flags = le64(a + 40);
	n->branch_sample_type = le64(a + 72);
	n->regs_user = le64(a + 80);
	n->regs_intr = le64(a + 96);
	if (n->sample_type & ~S_KNOWN)
		die_at(off + 24, "sample_type 0x%llx has bits this tool cannot "
		       "lay out", (unsigned long long)n->sample_type);
	return n;
}

static void
attr_add_id(struct attr *a, uint64_t id)
{
	a->ids = xrealloc(a->ids, (a->nids + 1) * sizeof(*a->ids));
	a->ids[a->nids++] = id;
}

static struct attr *
attr_by_id(uint64_t id)
{
	size_t i, k;

	for (i = 0; i < nattrs; i++)
		for (k = 0; k < attrs[i].nids; k++)
			if (attrs[i].ids[k] == id)
				return &attrs[i];
	return NULL;
}

static unsigned
popcount64(uint64_t v)
{
	unsigned n = 0;

	for (; v != 0; v &= v - 1)
		n++;
	return n;
}

/* The attr of a sample: by its id, found where the first attr says (perf
 * wants every event of a file to put it at the same place). */
static struct attr *
sample_attr(const unsigned char *r, size_t size)
{
	uint64_t st;
	size_t pos;

	if (nattrs == 1)
		return &attrs[0];
	if (nattrs == 0)
		return NULL;
	st = attrs[0].sample_type;
	if (st & S_IDENTIFIER)
		pos = 8;
	else if (st & S_ID)
		pos = 8 + 8 * popcount64(st & (S_IP | S_TID | S_TIME | S_ADDR));
	else
		return &attrs[0];
	if (pos + 8 > size)
		return NULL;
	return attr_by_id(le64(r + pos));
}

/* The attr whose sample_id_all trailer a record of SIZE bytes carries;
 * synthesized records have id 0 and the first attr's layout (as perf's
 * evlist__event2evsel decides). */
static struct attr *
trailer_attr(const unsigned char *r, size_t size)
{
	uint64_t st = attrs[0].sample_type, id;
	struct attr *a;
	size_t pos, i;

	if (nattrs == 1)
		return &attrs[0];
	if (st & S_IDENTIFIER)
		pos = 8;
	else if (st & S_ID)
		pos = 8 * (1 + popcount64(st & (S_STREAM_ID | S_CPU)));
	else
		goto same;
	if (pos + 8 > size)
		return NULL;
	id = le64(r + size - pos);
	if (id == 0)
		return &attrs[0];
	a = attr_by_id(id);
	if (a != NULL)
		return a;
same:
	for (i = 1; i < nattrs; i++)
		if ((attrs[i].sample_type & S_TRAILER) != (st & S_TRAILER))
			return NULL;
	return &attrs[0];
}

/* ---- tracepoint formats (from the tracing data) */

/* Size of a C type named in a format, 0 if not known. */
static unsigned
ctype_size(const char *t)
{
	static const struct {
		const char *name;
		unsigned size;	/* 0: a long */
	} types[] = {
		{ "char", 1 }, { "u8", 1 }, { "s8", 1 }, { "__u8", 1 },
		{ "__s8", 1 }, { "bool", 1 }, { "_Bool", 1 }, { "uint8_t", 1 },
		{ "int8_t", 1 }, { "short", 2 }, { "short int", 2 },
		{ "u16", 2 }, { "s16", 2 }, { "__u16", 2 }, { "__s16", 2 },
		{ "uint16_t", 2 }, { "int16_t", 2 }, { "__le16", 2 },
		{ "__be16", 2 }, { "int", 4 }, { "", 4 }, { "u32", 4 },
		{ "s32", 4 }, { "__u32", 4 }, { "__s32", 4 }, { "pid_t", 4 },
		{ "uid_t", 4 }, { "gid_t", 4 }, { "uint32_t", 4 },
		{ "int32_t", 4 }, { "long", 0 }, { "long int", 0 },
		{ "size_t", 0 }, { "ssize_t", 0 }, { "long long", 8 },
		{ "long long int", 8 }, { "u64", 8 }, { "s64", 8 },
		{ "__u64", 8 }, { "__s64", 8 }, { "uint64_t", 8 },
		{ "int64_t", 8 },
	};
	char buf[64];
	size_t i, n;

	if (strchr(t, '*') != NULL)
		return long_size;
	/* qualifiers do not change the size */
	for (;;) {
		if (strncmp(t, "const ", 6) == 0)
			t += 6;
		else if (strncmp(t, "volatile ", 9) == 0)
			t += 9;
		else if (strncmp(t, "unsigned", 8) == 0)
			t += 8;
		else if (strncmp(t, "signed", 6) == 0)
			t += 6;
		else if (*t == ' ')
			t++;
		else
			break;
	}
	n = strlen(t);
	while (n > 0 && t[n - 1] == ' ')
		n--;
	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, t, n);
	buf[n] = '\0';
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(buf, types[i].name) == 0)
			return types[i].size ? types[i].size : long_size;
	return 0;
}

/* One "field:DECL;\toffset:O;\tsize:S;..." line into F. */
static bool
parse_field(const char *line, struct tp_field *f)
{
	char decl[256], type[256];
	const char *semi, *o, *s, *name, *lb;
	size_t n;
	unsigned long count;
	char *end;

	semi = strchr(line, ';');
	o = strstr(line, "offset:");
	s = strstr(line, "size:");
	if (semi == NULL || o == NULL || s == NULL)
		return false;
	n = (size_t)(semi - line);
	if (n >= sizeof(decl))
		return false;
	memcpy(decl, line, n);
	decl[n] = '\0';
	while (n > 0 && decl[n - 1] == ' ')
		decl[--n] = '\0';
	f->off = (unsigned)strtoul(o + 7, NULL, 10);
	f->size = (unsigned)strtoul(s + 5, NULL, 10);
	f->kind = TF_FIXED;
	f->elem = 0;

	/* the name: the last word, before any [N] */
	lb = n > 0 && decl[n - 1] == ']' ? strrchr(decl, '[') : NULL;
	end = lb != NULL ? (char *)lb : decl + n;
	name = end;
	while (name > decl && name[-1] != ' ' && name[-1] != '*')
		name--;
	snprintf(f->name, sizeof(f->name), "%.*s", (int)(end - name), name);
	snprintf(type, sizeof(type), "%.*s", (int)(name - decl), decl);

	if (strncmp(decl, "__data_loc ", 11) == 0 ||
	    strncmp(decl, "__rel_loc ", 10) == 0) {
		/* a u32 (length << 16 | offset), the array elsewhere */
		char *t = type + (decl[2] == 'd' ? 11 : 10);
		char *br = strchr(t, '[');

		f->kind = decl[2] == 'd' ? TF_DATA_LOC : TF_REL_LOC;
		if (br != NULL)
			*br = '\0';
		f->elem = ctype_size(t);
		if (f->size != 4)
			f->kind = TF_UNKNOWN;
		return true;
	}
	if (lb != NULL) {
		count = strtoul(lb + 1, &end, 10);
		if (*end == ']' && count > 0 && f->size % count == 0)
			f->elem = f->size / (unsigned)count;
		else
			f->elem = ctype_size(type);
		if (f->elem == 0 || f->size % f->elem != 0)
			f->kind = TF_UNKNOWN;
	} else {
		f->elem = f->size;
	}
	if (f->elem != 1 && f->elem != 2 && f->elem != 4 && f->elem != 8)
		f->kind = TF_UNKNOWN;
	return true;
}

/* The text of one event format file (N bytes at P). */
static void
parse_format(const char *p, size_t n)
{
	struct tp_event e;
	const char *end = p + n, *nl;
	char line[512];
	size_t i;

	memset(&e, 0, sizeof(e));
	e.id = (unsigned)-1;
	for (; p < end; p = nl + 1) {
		size_t len;
		const char *l;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		len = (size_t)(nl - p);
		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		for (l = line; *l == ' ' || *l == '\t'; l++)
			;
		if (strncmp(l, "name: ", 6) == 0) {
			snprintf(e.name, sizeof(e.name), "%s", l + 6);
		} else if (strncmp(l, "ID: ", 4) == 0) {
			e.id = (unsigned)strtoul(l + 4, NULL, 10);
		} else if (strncmp(l, "field:", 6) == 0) {
			struct tp_field f;

			if (!parse_field(l + 6, &f))
				continue;
			e.f = xrealloc(e.f, (e.nf + 1) * sizeof(*e.f));
			e.f[e.nf++] = f;
		}
		if (nl == end)
			break;
	}
	if (e.id == (unsigned)-1) {
		free(e.f);
		return;
	}
	for (i = 0; i < ntps; i++)
		if (tps[i].id == e.id) {
			free(tps[i].f);
			tps[i] = e;
			return;
		}
	tps = xrealloc(tps, (ntps + 1) * sizeof(*tps));
	tps[ntps++] = e;
}

/*
 * Swap a tracing data blob (perf's util/trace-event-info.c writes it,
 * trace-event-read.c reads it): "\027\010\104tracing", a version string,
 * one byte endianness (set here to 1, big), one byte sizeof(long), u32
 * page size, "header_page\0" u64 size and text, "header_event\0" u64 size
 * and text, u32 count of ftrace formats each u64 size and text, u32
 * count of systems each a NUL-terminated name, u32 count of formats each
 * u64 size and text, u32 size and kallsyms text, u32 size and printk
 * text, and from version 0.6 u64 size and saved cmdlines text.  Formats
 * are remembered for the RAW samples.  Returns NULL or what is wrong.
 */
static const char *
swap_tracing(unsigned char *p, size_t n)
{
	static const unsigned char magic[10] = {
		23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g'
	};
	struct cur c;
	unsigned char *s, *nul;
	double version;
	uint32_t i, k, count, nsys;
	uint64_t size;

	cur_init(&c, p, n, 0);
	s = cur_skip(&c, sizeof(magic));
	if (s == NULL || memcmp(s, magic, sizeof(magic)) != 0)
		return "no tracing data magic";
	nul = memchr(p + c.pos, '\0', n - c.pos);
	if (nul == NULL)
		return "tracing data version is not terminated";
	version = strtod((const char *)p + c.pos, NULL);
	c.pos = (size_t)(nul - p) + 1;
	s = cur_skip(&c, 2);
	if (s == NULL)
		return "tracing data is truncated";
	if (s[0] != 0)
		return "tracing data is not little-endian";
	s[0] = 1;
	if (s[1] != 4 && s[1] != 8)
		return "tracing data has a long size that is not 4 or 8";
	long_size = s[1];
	(void)cur32(&c);			/* page size */
	s = cur_skip(&c, 12);
	if (s == NULL || memcmp(s, "header_page", 12) != 0)
		return "tracing data has no header_page";
	(void)cur_skip(&c, cur64(&c));
	s = cur_skip(&c, 13);
	if (s == NULL || memcmp(s, "header_event", 13) != 0)
		return "tracing data has no header_event";
	(void)cur_skip(&c, cur64(&c));
	count = cur32(&c);			/* ftrace formats */
	for (i = 0; i < count && !c.bad; i++)
		(void)cur_skip(&c, cur64(&c));
	nsys = cur32(&c);
	for (i = 0; i < nsys && !c.bad; i++) {
		nul = memchr(p + c.pos, '\0', n - c.pos);
		if (nul == NULL)
			return "tracing data system name is not terminated";
		c.pos = (size_t)(nul - p) + 1;
		count = cur32(&c);
		for (k = 0; k < count && !c.bad; k++) {
			size = cur64(&c);
			s = cur_skip(&c, size);
			if (s != NULL)
				parse_format((const char *)s, (size_t)size);
		}
	}
	(void)cur_skip(&c, cur32(&c));		/* kallsyms */
	(void)cur_skip(&c, cur32(&c));		/* ftrace printk */
	if (version >= 0.6)
		(void)cur_skip(&c, cur64(&c));	/* saved cmdlines */
	if (c.bad)
		return "tracing data is truncated";
	/* what follows is padding */
	return NULL;
}

/* Swap the RAW data of a tracepoint sample, field by field as its format
 * says.  Returns NULL or why the sample cannot be swapped. */
static const char *
swap_tp_raw(unsigned char *d, size_t n)
{
	const struct tp_event *e = NULL;
	size_t i, k;
	unsigned id;

	if (n < 2)
		return "tracepoint RAW data without a common_type";
	id = le16(d);
	for (i = 0; i < ntps; i++)
		if (tps[i].id == id)
			e = &tps[i];
	if (e == NULL)
		return "tracepoint RAW data of an event without a format";
	/* check every field first: a dropped sample needs no swapping */
	for (i = 0; i < e->nf; i++) {
		const struct tp_field *f = &e->f[i];

		if (f->kind == TF_UNKNOWN)
			return "tracepoint field of a type this tool cannot "
			       "swap";
		if (f->off > n || f->size > n - f->off)
			return "tracepoint RAW data shorter than its format";
	}
	for (i = 0; i < e->nf; i++) {
		const struct tp_field *f = &e->f[i];
		unsigned char *p = d + f->off;

		if (f->kind == TF_FIXED) {
			if (f->elem > 1)
				for (k = 0; k < f->size; k += f->elem)
					rev(p + k, f->elem);
			continue;
		}
		/* __data_loc: u32 length << 16 | offset from the start of
		 * the data; __rel_loc: offset from the end of the field */
		{
			uint32_t v = le32(p);
			size_t at = (v & 0xffff) +
				    (f->kind == TF_REL_LOC ? f->off + 4u : 0);
			size_t len = v >> 16;

			rev(p, 4);
			if (len == 0)
				continue;
			if (at > n || len > n - at)
				return "tracepoint dynamic array outside the "
				       "RAW data";
			if (f->elem == 0 || len % f->elem != 0)
				return "tracepoint dynamic array of a type "
				       "this tool cannot swap";
			if (f->elem > 1)
				for (k = 0; k < len; k += f->elem)
					rev(d + at + k, f->elem);
		}
	}
	return NULL;
}

/* ---- feature sections */

/* A perf_record_cpu_map_data (util/cpumap / lib/perf event.h, packed):
 * u16 type; CPUS: u16 nr, u16 cpu[nr]; MASK: u16 nr, u16 long_size, then
 * u32 mask[nr] (long_size 4) or 4 bytes of padding and u64 mask[nr]
 * (long_size 8); RANGE_CPUS: u8 any_cpu, u8 pad, u16 start, u16 end. */
static bool
swap_cpu_map(struct cur *c)
{
	uint16_t type = cur16(c), nr, ls, i;

	switch (type) {
	case 0:
		nr = cur16(c);
		for (i = 0; i < nr; i++)
			(void)cur16(c);
		break;
	case 1:
		nr = cur16(c);
		ls = cur16(c);
		if (ls == 4) {
			for (i = 0; i < nr; i++)
				(void)cur32(c);
		} else if (ls == 8) {
			(void)cur_skip(c, 4);
			cur64s(c, nr);
		} else {
			return false;
		}
		break;
	case 2:
		(void)cur_skip(c, 2);
		(void)cur16(c);
		(void)cur16(c);
		break;
	default:
		return false;
	}
	return !c->bad;
}

/* HEADER_EVENT_DESC: u32 nr, u32 attr_size, then per event the attr,
 * u32 nr_ids, a string (the name) and u64 ids[nr_ids]. */
static bool
swap_event_desc(struct cur *c, uint64_t off)
{
	uint32_t nr = cur32(c), asz = cur32(c), i, nids;
	unsigned char *a;

	for (i = 0; i < nr && !c->bad; i++) {
		a = cur_skip(c, asz);
		if (a == NULL)
			break;
		swap_attr(a, asz, off + (uint64_t)(a - c->p));
		nids = cur32(c);
		cur_str(c);
		cur64s(c, nids);
	}
	return !c->bad;
}

/* HEADER_BUILD_ID and HEADER_BUILD_ID records: build_id_event entries,
 * each a perf_event_header, s32 pid, 24 bytes of build id, a name. */
static bool
swap_build_ids(struct cur *c)
{
	while (c->len - c->pos >= 8 && !c->bad) {
		size_t start = c->pos;
		uint16_t size;

		(void)cur32(c);
		(void)cur16(c);
		size = cur16(c);
		if (size < 8 + 4 + 24 || !cur_need(c, size - 8u))
			return false;
		(void)cur32(c);
		c->pos = start + size;
	}
	return !c->bad;
}

/*
 * Swap the body of feature BIT (N bytes at P, at file offset OFF; the
 * same in a file's section and a pipe's HEADER_FEATURE record).  Layouts
 * from perf's util/header.c (write_* and process_*) and the perf.data
 * format document.  Returns NULL, or why the feature is left out.
 */
static const char *
swap_feature(unsigned bit, unsigned char *p, size_t n, uint64_t off)
{
	struct cur c;
	uint64_t nr, i, k, m;

	cur_init(&c, p, n, 0);
	switch (bit) {
	case 1:		/* tracing_data */
		return swap_tracing(p, n);
	case 2:		/* build_id */
		if (!swap_build_ids(&c))
			return "malformed build id table";
		return NULL;
	case 3: case 4: case 5: case 6: case 8: case 9:
		cur_str(&c);	/* hostname ... cpuid: one string */
		break;
	case 7:		/* nrcpus: u32 available, u32 online */
		nr_cpus_avail = cur32(&c);
		(void)cur32(&c);
		have_nrcpus = !c.bad;
		break;
	case 10: case 23: case 24:	/* total_mem, clockid, dir_format */
		(void)cur64(&c);
		break;
	case 11:	/* cmdline: u32 nr, strings */
		cur_strs(&c, cur32(&c));
		break;
	case 12:
		if (!swap_event_desc(&c, off))
			return "malformed event_desc";
		break;
	case 13:
		/* cpu_topology: u32 + package (core sibling) strings, u32 +
		 * core (thread sibling) strings; then, for nr_cpus_avail
		 * CPUs, u32 core_id and u32 socket_id; then u32 + die
		 * strings and u32 die_id per CPU */
		cur_strs(&c, cur32(&c));
		cur_strs(&c, cur32(&c));
		if (c.len - c.pos > 0 && !have_nrcpus)
			return "cpu_topology without nrcpus";
		if (c.len - c.pos >= nr_cpus_avail * 8) {
			for (i = 0; i < nr_cpus_avail * 2; i++)
				(void)cur32(&c);
			if (c.len - c.pos > 0) {
				cur_strs(&c, cur32(&c));
				for (i = 0; i < nr_cpus_avail; i++)
					(void)cur32(&c);
			}
		}
		break;
	case 14:	/* numa_topology: u32 nr; u32 node, u64 total,
			 * u64 free, string cpus */
		nr = cur32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			(void)cur32(&c);
			(void)cur64(&c);
			(void)cur64(&c);
			cur_str(&c);
		}
		break;
	case 15: case 19:	/* branch_stack, stat: no body */
		break;
	case 16:	/* pmu_mappings: u32 nr; u32 type, string name */
		nr = cur32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			(void)cur32(&c);
			cur_str(&c);
		}
		break;
	case 17:	/* group_desc: u32 nr; string, u32 leader, u32 nr */
		nr = cur32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			cur_str(&c);
			(void)cur32(&c);
			(void)cur32(&c);
		}
		break;
	case 18:
		return "auxtrace index: offsets of AUXTRACE data, which is "
		       "not swapped";
	case 20:	/* cache: u32 version, u32 nr; 4 u32 and 3 strings */
		(void)cur32(&c);
		nr = cur32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			for (k = 0; k < 4; k++)
				(void)cur32(&c);
			cur_strs(&c, 3);
		}
		break;
	case 21:	/* sample_time: two u64 */
		(void)cur64(&c);
		(void)cur64(&c);
		break;
	case 22:	/* mem_topology: u64 version, block size, nr; per
			 * node u64 node, u64 size, and a bitmap: u64 number
			 * of bits, then the u64 words that hold them */
		(void)cur64(&c);
		(void)cur64(&c);
		nr = cur64(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			(void)cur64(&c);
			(void)cur64(&c);
			m = cur64(&c);
			cur64s(&c, m / 64 + (m % 64 != 0));
		}
		break;
	case 25: case 26:	/* bpf_prog_info, bpf_btf: u32 count, ... */
		if (cur32(&c) != 0)
			return bit == 25 ? "struct bpf_prog_info entries are "
					   "not swapped by this tool"
					 : "BTF blobs are not swapped by this "
					   "tool";
		break;
	case 27:	/* compressed: five u32 */
		for (k = 0; k < 5; k++)
			(void)cur32(&c);
		break;
	case 28:	/* cpu_pmu_caps: u32 nr, nr (name, value) strings */
		cur_strs(&c, 2 * (uint64_t)cur32(&c));
		break;
	case 29:	/* clock_data: u32 version, u32 clockid, 2 u64 */
		(void)cur32(&c);
		(void)cur32(&c);
		(void)cur64(&c);
		(void)cur64(&c);
		break;
	case 30:	/* hybrid_topology: u32 nr; strings pmu, cpus */
		cur_strs(&c, 2 * (uint64_t)cur32(&c));
		break;
	case 31:	/* pmu_caps: u32 nr; per PMU u32 nr_caps, the
			 * (name, value) strings, the PMU name */
		nr = cur32(&c);
		for (i = 0; i < nr && !c.bad; i++) {
			m = cur32(&c);
			cur_strs(&c, 2 * m + 1);
		}
		break;
	default:
		return "a feature this tool does not know";
	}
	if (c.bad)
		return "malformed (shorter than its layout)";
	if (!all_zero(p + c.pos, n - c.pos))
		return "has bytes past its layout that this tool does not "
		       "know";
	return NULL;
}

/* ---- records */

/* The sample_id_all trailer of A, swapped in R (SIZE bytes); returns the
 * trailer's size. */
static size_t
swap_trailer(unsigned char *r, size_t size, const struct attr *a,
	     uint64_t off)
{
	uint64_t st = a->sample_type;
	size_t n = 8 * popcount64(st & S_TRAILER);
	struct cur c;

	if (n > size - 8)
		die_at(off, "%s record of %zu bytes is shorter than its "
		       "sample_id_all trailer", record_name(le32(r)), size);
	cur_init(&c, r, size, size - n);
	if (st & S_TID) {
		(void)cur32(&c);
		(void)cur32(&c);
	}
	if (st & S_TIME)
		(void)cur64(&c);
	if (st & S_ID)
		(void)cur64(&c);
	if (st & S_STREAM_ID)
		(void)cur64(&c);
	if (st & S_CPU) {
		(void)cur32(&c);
		(void)cur32(&c);
	}
	if (st & S_IDENTIFIER)
		(void)cur64(&c);
	return n;
}

/* The values of a READ (sample field or record), by read_format. */
static void
swap_read_values(struct cur *c, uint64_t rf)
{
	uint64_t nr = 1, i;
	unsigned per = 1u + (rf & F_ID ? 1u : 0u) + (rf & F_LOST ? 1u : 0u);

	if (rf & F_GROUP) {
		nr = cur64(c);
		if (rf & F_TOTAL_TIME_ENABLED)
			(void)cur64(c);
		if (rf & F_TOTAL_TIME_RUNNING)
			(void)cur64(c);
		if (nr > (c->len - c->pos) / 8 / per) {
			cur_need(c, c->len - c->pos + 1);
			return;
		}
		for (i = 0; i < nr; i++)
			cur64s(c, per);
		return;
	}
	(void)cur64(c);		/* value */
	if (rf & F_TOTAL_TIME_ENABLED)
		(void)cur64(c);
	if (rf & F_TOTAL_TIME_RUNNING)
		(void)cur64(c);
	if (rf & F_ID)
		(void)cur64(c);
	if (rf & F_LOST)
		(void)cur64(c);
}

/* A SAMPLE, field by field in perf_event.h's order. */
static bool
swap_sample(unsigned char *r, size_t size, uint64_t off)
{
	const struct attr *a = sample_attr(r, size);
	uint64_t st, nr, i, sz;
	const char *why;
	struct cur c;

	if (a == NULL)
		return drop(R_SAMPLE, "no event has the sample's id");
	st = a->sample_type;
	cur_init(&c, r, size, 8);
	if (st & S_IDENTIFIER)
		(void)cur64(&c);
	if (st & S_IP)
		(void)cur64(&c);
	if (st & S_TID) {
		(void)cur32(&c);
		(void)cur32(&c);
	}
	if (st & S_TIME)
		(void)cur64(&c);
	if (st & S_ADDR)
		(void)cur64(&c);
	if (st & S_ID)
		(void)cur64(&c);
	if (st & S_STREAM_ID)
		(void)cur64(&c);
	if (st & S_CPU) {
		(void)cur32(&c);
		(void)cur32(&c);
	}
	if (st & S_PERIOD)
		(void)cur64(&c);
	if (st & S_READ)
		swap_read_values(&c, a->read_format);
	if (st & S_CALLCHAIN)
		cur64s(&c, cur64(&c));
	if (st & S_RAW) {
		/* u32 size, then the data; the kernel pads the pair to 8
		 * bytes and counts the padding in size */
		unsigned char *d;

		sz = cur32(&c);
		d = cur_skip(&c, sz);
		if (d != NULL) {
			if (a->type != TYPE_TRACEPOINT)
				return drop(R_SAMPLE, "RAW data of an event "
					    "that is not a tracepoint");
			why = swap_tp_raw(d, (size_t)sz);
			if (why != NULL)
				return drop(R_SAMPLE, why);
		}
	}
	if (st & S_BRANCH_STACK) {
		nr = cur64(&c);
		if (a->branch_sample_type & BRANCH_HW_INDEX)
			(void)cur64(&c);
		if (nr > (c.len - c.pos) / 24) {
			cur_need(&c, c.len - c.pos + 1);
		} else {
			for (i = 0; i < nr; i++) {
				(void)cur64(&c);	/* from */
				(void)cur64(&c);	/* to */
				cur_bitfield64(&c, branch_flag_fields);
			}
		}
		if (a->branch_sample_type & BRANCH_COUNTERS)
			cur64s(&c, nr);
	}
	if (st & S_REGS_USER) {
		if (cur64(&c) != 0)	/* abi */
			cur64s(&c, popcount64(a->regs_user));
	}
	if (st & S_STACK_USER) {
		sz = cur64(&c);
		(void)cur_skip(&c, sz);	/* memory: bytes as they are */
		if (sz != 0)
			(void)cur64(&c);	/* dyn_size */
	}
	/* WEIGHT_STRUCT and DATA_SRC are unions that perf_event.h declares
	 * in reverse order for big-endian bit-fields: the u64 keeps its
	 * value */
	if (st & (S_WEIGHT | S_WEIGHT_STRUCT))
		(void)cur64(&c);
	if (st & S_DATA_SRC)
		(void)cur64(&c);
	if (st & S_TRANSACTION)
		(void)cur64(&c);
	if (st & S_REGS_INTR) {
		if (cur64(&c) != 0)
			cur64s(&c, popcount64(a->regs_intr));
	}
	if (st & S_PHYS_ADDR)
		(void)cur64(&c);
	if (st & S_CGROUP)
		(void)cur64(&c);
	if (st & S_DATA_PAGE_SIZE)
		(void)cur64(&c);
	if (st & S_CODE_PAGE_SIZE)
		(void)cur64(&c);
	if (st & S_AUX)
		(void)cur_skip(&c, cur64(&c));
	if (c.bad)
		die_at(off, "sample of %zu bytes is shorter than its "
		       "sample_type 0x%llx lays out", size,
		       (unsigned long long)st);
	if (c.pos != size)
		die_at(off, "sample of %zu bytes has %zu bytes more than its "
		       "sample_type 0x%llx lays out", size, size - c.pos,
		       (unsigned long long)st);
	return true;
}

/* The body of a kernel record (types below 64 but SAMPLE): header at 0,
 * body in [8, end), the sample_id_all trailer after it. */
static bool
swap_kernel_record(uint32_t type, uint16_t misc, unsigned char *r,
		   size_t size, uint64_t off)
{
	const struct attr *a;
	size_t end, k;
	struct cur c;
	bool exact = true;	/* the body has no string or byte tail */
	uint64_t nr;

	if (type == 0 || type > R_CALLCHAIN_DEFERRED)
		return drop(type, "a record type this tool does not know");
	if (nattrs == 0)
		die_at(off, "%s record before any event attr",
		       record_name(type));
	end = size;
	if (attrs[0].flags & ATTR_SAMPLE_ID_ALL) {
		a = trailer_attr(r, size);
		if (a == NULL)
			return drop(type, "no event has the record's id");
		end -= swap_trailer(r, size, a, off);
	}
	cur_init(&c, r, end, 8);
	switch (type) {
	case R_MMAP:	/* u32 pid, tid; u64 start, len, pgoff; name */
	case R_MMAP2:	/* the same; then u32 maj, min; u64 ino, ino
			 * generation, or (misc bit 14) u8 build id size,
			 * 3 bytes, 20 bytes build id; u32 prot, flags;
			 * name */
		(void)cur32(&c);
		(void)cur32(&c);
		cur64s(&c, 3);
		if (type == R_MMAP2) {
			if (misc & MISC_MMAP_BUILD_ID) {
				(void)cur_skip(&c, 24);
			} else {
				(void)cur32(&c);
				(void)cur32(&c);
				cur64s(&c, 2);
			}
			(void)cur32(&c);
			(void)cur32(&c);
		}
		exact = false;
		break;
	case R_LOST:	/* u64 id, lost */
		cur64s(&c, 2);
		break;
	case R_COMM:	/* u32 pid, tid; comm */
		(void)cur32(&c);
		(void)cur32(&c);
		exact = false;
		break;
	case R_EXIT:
	case R_FORK:	/* u32 pid, ppid, tid, ptid; u64 time */
		for (k = 0; k < 4; k++)
			(void)cur32(&c);
		(void)cur64(&c);
		break;
	case R_THROTTLE:
	case R_UNTHROTTLE:	/* u64 time, id, stream_id */
		cur64s(&c, 3);
		break;
	case R_READ:	/* u32 pid, tid; the values (u64s, as many as the
			 * read_format of the event asks for) */
		(void)cur32(&c);
		(void)cur32(&c);
		if ((end - c.pos) % 8 != 0)
			die_at(off, "READ record values are not u64s");
		cur64s(&c, (end - c.pos) / 8);
		break;
	case R_AUX:	/* u64 aux_offset, aux_size, flags */
		cur64s(&c, 3);
		break;
	case R_ITRACE_START:
	case R_SWITCH_CPU_WIDE:	/* u32 pid, tid */
		(void)cur32(&c);
		(void)cur32(&c);
		break;
	case R_LOST_SAMPLES:
	case R_AUX_OUTPUT_HW_ID:	/* one u64 */
		(void)cur64(&c);
		break;
	case R_SWITCH:
		break;
	case R_NAMESPACES:	/* u32 pid, tid; u64 nr; nr x {dev, ino} */
		(void)cur32(&c);
		(void)cur32(&c);
		nr = cur64(&c);
		if (nr > (c.len - c.pos) / 16)
			cur_need(&c, c.len - c.pos + 1);
		else
			cur64s(&c, 2 * nr);
		break;
	case R_KSYMBOL:	/* u64 addr; u32 len; u16 type, flags; name */
		(void)cur64(&c);
		(void)cur32(&c);
		(void)cur16(&c);
		(void)cur16(&c);
		exact = false;
		break;
	case R_BPF_EVENT:	/* u16 type, flags; u32 id; u8 tag[8] */
		(void)cur16(&c);
		(void)cur16(&c);
		(void)cur32(&c);
		(void)cur_skip(&c, 8);
		break;
	case R_CGROUP:	/* u64 id; path */
		(void)cur64(&c);
		exact = false;
		break;
	case R_TEXT_POKE:	/* u64 addr; u16 old_len, new_len; bytes */
		(void)cur64(&c);
		(void)cur16(&c);
		(void)cur16(&c);
		exact = false;
		break;
	case R_CALLCHAIN_DEFERRED:	/* u64 cookie, nr, ips[nr] */
		(void)cur64(&c);
		cur64s(&c, cur64(&c));
		break;
	default:
		return drop(type, "a record type this tool does not know");
	}
	if (c.bad)
		die_at(off, "%s record of %zu bytes is shorter than its "
		       "layout", record_name(type), size);
	if (exact && c.pos != end)
		die_at(off, "%s record of %zu bytes has %zu bytes this tool "
		       "does not know", record_name(type), size, end - c.pos);
	return true;
}

/* The records perf makes itself (types from 64), but COMPRESSED and the
 * ones with a payload after them, which the stream handles. */
static bool
swap_user_record(uint32_t type, unsigned char *r, size_t size, uint64_t off)
{
	struct cur c;
	uint64_t nr, t, feat;
	uint32_t asz, fmt;
	struct attr *a;
	const char *why;
	size_t k;

	cur_init(&c, r, size, 8);
	switch (type) {
	case R_HEADER_ATTR:	/* the attr, then u64 ids */
		if (size < 8 + ATTR_VER0)
			die_at(off, "attr record of %zu bytes is too small",
			       size);
		asz = le32(r + 12);
		if (asz == 0)
			asz = ATTR_VER0;
		if (asz > size - 8)
			die_at(off + 12, "attr size %u does not fit its record "
			       "of %zu bytes", asz, size);
		a = add_attr(r + 8, asz, off + 8);
		swap_attr(r + 8, asz, off + 8);
		c.pos = 8 + asz;
		if ((size - c.pos) % 8 != 0)
			die_at(off, "attr record ids are not u64s");
		while (c.pos < size)
			attr_add_id(a, cur64(&c));
		break;
	case R_HEADER_EVENT_TYPE:	/* u64 event_id; char name[64] */
		(void)cur64(&c);
		c.pos = size;
		break;
	case R_HEADER_BUILD_ID:	/* s32 pid; 24 bytes; file name */
		(void)cur32(&c);
		(void)cur_skip(&c, 24);
		c.pos = size;
		break;
	case R_FINISHED_ROUND:
	case R_FINISHED_INIT:
		break;
	case R_ID_INDEX:	/* u64 nr; nr x {id, idx, cpu, tid}; newer
				 * perf adds nr x {machine_pid, vcpu}: all
				 * u64 */
		if ((size - 8) % 8 != 0)
			die_at(off, "ID_INDEX record is not made of u64s");
		cur64s(&c, (size - 8) / 8);
		break;
	case R_AUXTRACE_INFO:	/* u32 type, reserved; u64 priv[] */
		(void)cur32(&c);
		(void)cur32(&c);
		if ((size - c.pos) % 8 != 0)
			die_at(off, "AUXTRACE_INFO private data is not u64s");
		cur64s(&c, (size - c.pos) / 8);
		break;
	case R_AUXTRACE_ERROR:
		/* u32 type, code, cpu, pid, tid, fmt; u64 ip; from fmt 1
		 * u64 time; char msg[64]; from fmt 2 u32 machine_pid,
		 * vcpu */
		if (size < 32)
			die_at(off, "AUXTRACE_ERROR record of %zu bytes is "
			       "too small", size);
		fmt = le32(r + 28);
		for (k = 0; k < 6; k++)
			(void)cur32(&c);
		(void)cur64(&c);
		if (fmt >= 1)
			(void)cur64(&c);
		(void)cur_skip(&c, 64);
		if (fmt >= 2) {
			(void)cur32(&c);
			(void)cur32(&c);
		}
		c.pos = c.bad ? c.pos : size;
		break;
	case R_THREAD_MAP:	/* u64 nr; nr x {u64 pid; char comm[16]} */
		nr = cur64(&c);
		if (nr > (size - c.pos) / 24)
			cur_need(&c, size);
		for (k = 0; k < nr && !c.bad; k++) {
			(void)cur64(&c);
			(void)cur_skip(&c, 16);
		}
		break;
	case R_CPU_MAP:
		if (!swap_cpu_map(&c))
			die_at(off, "CPU_MAP record of a form this tool does "
			       "not know");
		c.pos = size;	/* padding */
		break;
	case R_STAT_CONFIG:	/* u64 nr; nr x {u64 tag, val} */
		nr = cur64(&c);
		if (nr > (size - c.pos) / 16)
			cur_need(&c, size);
		else
			cur64s(&c, 2 * nr);
		break;
	case R_STAT:	/* u64 id; u32 cpu, thread; u64 val, ena, run */
		(void)cur64(&c);
		(void)cur32(&c);
		(void)cur32(&c);
		cur64s(&c, 3);
		break;
	case R_STAT_ROUND:	/* u64 type, time */
		cur64s(&c, 2);
		break;
	case R_EVENT_UPDATE:
		/* u64 type, id; then by type: 0 unit, 2 name (strings),
		 * 1 scale (a double), 3 cpus (a cpu map) */
		t = cur64(&c);
		(void)cur64(&c);
		if (t == 1) {
			(void)cur64(&c);
		} else if (t == 3) {
			if (!swap_cpu_map(&c))
				die_at(off, "EVENT_UPDATE cpu map of a form "
				       "this tool does not know");
		} else if (t != 0 && t != 2) {
			return drop(type, "an EVENT_UPDATE type this tool "
				    "does not know");
		}
		c.pos = c.bad ? c.pos : size;
		break;
	case R_TIME_CONV:	/* u64 shift, mult, zero; then u64 cycles,
				 * mask and u8 flags */
		cur64s(&c, 3);
		if (size >= 48)
			cur64s(&c, 2);
		c.pos = c.bad ? c.pos : size;
		break;
	case R_HEADER_FEATURE:	/* u64 feature id; the feature's body */
		feat = cur64(&c);
		if (c.bad)
			break;
		if (size == 16) {
			/* no body: HEADER_LAST_FEATURE, the end mark */
			break;
		}
		why = swap_feature(feat < 256 ? (unsigned)feat : 256, r + 16,
				   size - 16, off + 16);
		if (why != NULL) {
			fprintf(stderr, "perfswap: %s: offset 0x%llx: "
				"feature %s left out: %s\n", in_name,
				(unsigned long long)off,
				feature_name((unsigned)feat), why);
			features_dropped++;
			return drop(type, "features that cannot be swapped");
		}
		features_kept++;
		c.pos = size;
		break;
	default:
		return drop(type, "a record type this tool does not know");
	}
	if (c.bad)
		die_at(off, "%s record of %zu bytes is shorter than its layout",
		       record_name(type), size);
	if (c.pos != size)
		die_at(off, "%s record of %zu bytes has %zu bytes this tool "
		       "does not know", record_name(type), size, size - c.pos);
	return true;
}

/* Swap record R (SIZE bytes at OFF, a copy of the input) in place.
 * Returns true to keep it, false when it is dropped (and counted). */
static bool
swap_record(unsigned char *r, size_t size, uint64_t off)
{
	uint32_t type = le32(r);
	uint16_t misc = le16(r + 4);
	bool keep;

	if (type == R_SAMPLE)
		keep = swap_sample(r, size, off);
	else if (type < 64)
		keep = swap_kernel_record(type, misc, r, size, off);
	else
		keep = swap_user_record(type, r, size, off);
	if (!keep)
		return false;
	rev(r, 4);
	rev(r + 4, 2);
	rev(r + 6, 2);
	kept[type_slot(type)]++;
	return true;
}

/* ---- COMPRESSED records, through the zstd program */

static int zstd_ok = -1;	/* -1 not yet known */

static const char *
zstd_prog(void)
{
	const char *z = getenv("PERFSWAP_ZSTD");

	return z != NULL && *z != '\0' ? z : "zstd";
}

static bool
have_zstd(void)
{
	char cmd[512];

	if (zstd_ok < 0) {
		if (strcmp(zstd_prog(), "none") == 0) {
			zstd_ok = 0;
		} else {
			snprintf(cmd, sizeof(cmd), "%s --version >/dev/null "
				 "2>&1", zstd_prog());
			zstd_ok = system(cmd) == 0;
		}
	}
	return zstd_ok == 1;
}

/*
 * Run "zstd ARGS" with the N bytes at P on its input; return what it
 * wrote (*OUTN bytes) and set *STATUS to its exit status.  zstd reads a
 * temporary file, so that nothing has to be written and read at once.
 */
static unsigned char *
zstd_run(const char *args, const unsigned char *p, size_t n, size_t *outn,
	 int *status)
{
	const char *dir = getenv("TMPDIR");
	char path[4096], cmd[8192];
	struct buf out = { NULL, 0, 0 };
	FILE *f, *pipe;
	size_t got;
	int fd;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if (strchr(dir, '\'') != NULL)
		trouble("cannot quote the temporary directory", dir);
	snprintf(path, sizeof(path), "%s/perfswap.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		trouble("cannot create a temporary file", path);
	f = fdopen(fd, "wb");
	if (f == NULL || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		unlink(path);
		trouble("cannot write", path);
	}
	snprintf(cmd, sizeof(cmd), "%s %s < '%s' 2>/dev/null", zstd_prog(),
		 args, path);
	pipe = popen(cmd, "r");
	if (pipe == NULL) {
		unlink(path);
		trouble("cannot run", zstd_prog());
	}
	for (;;) {
		unsigned char *b = buf_add(&out, 65536);

		got = fread(b, 1, 65536, pipe);
		out.len -= 65536 - got;
		if (got == 0)
			break;
	}
	if (ferror(pipe)) {
		unlink(path);
		trouble("cannot read the output of", zstd_prog());
	}
	*status = pclose(pipe);
	unlink(path);
	*outn = out.len;
	return out.p;
}

/* The compressed records of one record stream. */
struct zs {
	size_t n;		/* COMPRESSED(2) records */
	size_t k;		/* the next one to write */
	unsigned char *inner;	/* their decompressed stream, swapped in
				 * place */
	size_t inner_len;
	size_t *bound;		/* decompressed bytes after record k */
	size_t next;		/* next inner record not yet swapped */
	struct buf kept;	/* the inner records kept, swapped */
	size_t kept_at;		/* bytes of kept written so far */
	bool on;		/* false: drop them */
};

/* The payload of a COMPRESSED(2) record R of SIZE bytes. */
static const unsigned char *
z_payload(const unsigned char *r, size_t size, uint64_t off, size_t *n)
{
	uint64_t ds;

	if (le32(r) == R_COMPRESSED) {
		*n = size - 8;
		return r + 8;
	}
	/* COMPRESSED2: u64 data_size, the data, padding to 8 bytes */
	if (size < 16)
		die_at(off, "COMPRESSED2 record of %zu bytes is too small",
		       size);
	ds = le64(r + 8);
	if (ds > size - 16)
		die_at(off + 8, "compressed data size %llu does not fit its "
		       "record of %zu bytes", (unsigned long long)ds, size);
	*n = (size_t)ds;
	return r + 16;
}

/*
 * Find the COMPRESSED(2) records of the stream IN[0..LEN) (records at
 * POS[i]) and decompress them.  perf record -z compresses one zstd frame
 * across all of them, flushing at the end of each, so the frame is never
 * finished: zstd decodes it with a "premature end" error.  Decoding the
 * first k payloads tells how much of the stream record k completes.
 */
static void
z_prepare(struct zs *z, const unsigned char *in, const size_t *pos,
	  size_t n, uint64_t origin)
{
	struct buf cat = { NULL, 0, 0 };
	size_t i, len, plen, at;
	const unsigned char *pl;
	unsigned char *out;
	int status;

	memset(z, 0, sizeof(*z));
	z->n = n;
	if (n == 0)
		return;
	z->on = have_zstd();
	if (!z->on)
		return;
	z->bound = xrealloc(NULL, n * sizeof(*z->bound));
	for (i = 0; i < n; i++) {
		pl = z_payload(in + pos[i], le16(in + pos[i] + 6),
			       origin + pos[i], &plen);
		buf_put(&cat, pl, plen);
		out = zstd_run("-d -c -q", cat.p, cat.len, &len, &status);
		if (i + 1 < n) {
			free(out);
		} else {
			z->inner = out;
			z->inner_len = len;
		}
		if (i > 0 && len < z->bound[i - 1])
			die_at(origin + pos[i], "zstd decodes less of the "
			       "compressed records with this one added");
		z->bound[i] = len;
	}
	free(cat.p);
	/* the decompressed stream must be whole records */
	for (at = 0; at < z->inner_len;) {
		uint16_t size;

		if (z->inner_len - at < 8)
			die_at(origin + pos[n - 1], "the compressed records "
			       "end inside a record");
		size = le16(z->inner + at + 6);
		if (size < 8 || size > z->inner_len - at)
			die_at(origin + pos[n - 1], "the compressed records "
			       "hold a record of size %u at decompressed "
			       "offset 0x%zx that does not fit", size, at);
		at += size;
	}
}

/* Append a COMPRESSED(2) record of type TYPE (misc MISC) holding the
 * N bytes at P (zstd frames) to OUT, split as record sizes need. */
static void
z_emit(struct buf *out, uint32_t type, uint16_t misc, const unsigned char *p,
       size_t n)
{
	size_t max = type == R_COMPRESSED ? 65535 - 8 : 65528 - 16, k, rs;
	unsigned char *r;

	do {
		k = n < max ? n : max;
		rs = type == R_COMPRESSED ? 8 + k : (16 + k + 7) / 8 * 8;
		r = buf_add(out, rs);
		memset(r, 0, rs);
		put_be(r, type, 4);
		put_be(r + 4, misc, 2);
		put_be(r + 6, rs, 2);
		if (type == R_COMPRESSED2) {
			put_be(r + 8, k, 8);
			memcpy(r + 16, p, k);
		} else {
			memcpy(r + 8, p, k);
		}
		p += k;
		n -= k;
	} while (n > 0);
}

/* At compressed record R (the next one of Z): swap the inner records it
 * completes and write its share of them as a zstd frame. */
static void
z_record(struct zs *z, const unsigned char *r, struct buf *out)
{
	uint32_t type = le32(r);
	size_t bound = z->bound[z->k], cut, len;
	const char *saved = where;
	unsigned char *frame;
	int status;

	/* inner records starting before the bound; one may go past it */
	cut = (size_t)-1;
	where = " (decompressed)";
	while (z->next < bound) {
		unsigned char *ir = z->inner + z->next;
		uint16_t size = le16(ir + 6);
		uint32_t itype = le32(ir);
		size_t at = z->kept.len;
		bool keep;

		if (itype == R_COMPRESSED || itype == R_COMPRESSED2 ||
		    itype == R_HEADER_TRACING_DATA || itype == R_AUXTRACE)
			die_at(z->next, "%s record inside compressed data",
			       record_name(itype));
		keep = swap_record(ir, size, z->next);
		if (keep)
			buf_put(&z->kept, ir, size);
		if (z->next + size > bound)
			cut = keep ? at + (bound - z->next) : at;
		z->next += size;
	}
	where = saved;
	if (cut == (size_t)-1)
		cut = z->kept.len;
	frame = zstd_run("-q -c -3", z->kept.p + z->kept_at, cut - z->kept_at,
			 &len, &status);
	if (status != 0)
		trouble("cannot compress with", zstd_prog());
	z_emit(out, type, le16(r + 4), frame, len);
	free(frame);
	z->kept_at = cut;
	z->k++;
}

/* ---- record streams */

/* True if the N bytes at P are text (perf's messages after the records
 * of a captured pipe): no record header is, its type's upper bytes are 0.
 */
static bool
is_text(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((p[i] < 0x20 || p[i] > 0x7e) && p[i] != '\n' &&
		    p[i] != '\t' && p[i] != '\r')
			return false;
	return n > 0;
}

/* Swap the records IN[0..LEN) (at file offset ORIGIN) onto OUT.  PIPE:
 * the stream ends at the end of the input, and text may follow it. */
static void
swap_stream(const unsigned char *in, size_t len, uint64_t origin,
	    struct buf *out, bool pipe)
{
	size_t pos, *zpos = NULL, nz = 0;
	struct zs z;

	/* first find the compressed records (and the payloads outside
	 * records, to step over them) */
	for (pos = 0; len - pos >= 8;) {
		uint32_t type = le32(in + pos);
		uint16_t size = le16(in + pos + 6);
		uint64_t extra = 0;

		if (size < 8 || size > len - pos)
			break;
		if (type == R_HEADER_TRACING_DATA && size >= 12)
			extra = le32(in + pos + 8);
		else if (type == R_AUXTRACE && size >= 16)
			extra = le64(in + pos + 8);
		else if (type == R_COMPRESSED || type == R_COMPRESSED2) {
			zpos = xrealloc(zpos, (nz + 1) * sizeof(*zpos));
			zpos[nz++] = pos;
		}
		if (extra > len - pos - size)
			break;
		pos += size + (size_t)extra;
	}
	z_prepare(&z, in, zpos, nz, origin);
	free(zpos);

	for (pos = 0; pos < len;) {
		uint32_t type;
		uint16_t size;
		uint64_t off = origin + pos, extra;
		unsigned char *r;
		const char *why;

		if (len - pos < 8)
			goto short_record;
		type = le32(in + pos);
		size = le16(in + pos + 6);
		if (size < 8 || size > len - pos)
			goto short_record;
		switch (type) {
		case R_COMPRESSED:
		case R_COMPRESSED2:
			if (z.on)
				z_record(&z, in + pos, out);
			else
				drop(type, "no zstd program to decompress "
				     "them");
			pos += size;
			continue;
		case R_HEADER_TRACING_DATA:
			/* u32 size (of the payload after the record) */
			if (size < 12)
				die_at(off, "tracing data record of %u bytes is "
				       "too small", size);
			extra = le32(in + pos + 8);
			if (extra > len - pos - size)
				die_at(off + 8, "tracing data of %llu bytes "
				       "runs past the end of the input",
				       (unsigned long long)extra);
			r = buf_add(out, size + (size_t)extra);
			memcpy(r, in + pos, size + (size_t)extra);
			why = swap_tracing(r + size, (size_t)extra);
			if (why != NULL)
				die_at(off + size, "%s", why);
			rev(r + 8, 4);
			rev(r, 4);
			rev(r + 4, 2);
			rev(r + 6, 2);
			kept[type]++;
			pos += size + (size_t)extra;
			continue;
		case R_AUXTRACE:
			/* u64 size of the trace data after the record */
			if (size < 16)
				die_at(off, "auxtrace record of %u bytes is too "
				       "small", size);
			extra = le64(in + pos + 8);
			if (extra > len - pos - size)
				die_at(off + 8, "auxtrace data of %llu bytes "
				       "runs past the end of the input",
				       (unsigned long long)extra);
			drop(type, "hardware trace data, whose layout only "
			     "its decoder knows");
			pos += size + (size_t)extra;
			continue;
		default:
			r = buf_add(out, size);
			memcpy(r, in + pos, size);
			if (!swap_record(r, size, off))
				out->len -= size;
			pos += size;
			continue;
		}
short_record:
		if (pipe && is_text(in + pos, len - pos)) {
			fprintf(stderr, "perfswap: %s: offset 0x%llx: text "
				"after the last record, copied as it is\n",
				in_name, (unsigned long long)off);
			buf_put(out, in + pos, len - pos);
			break;
		}
		die_at(off, "record runs past the end of the %s",
		       pipe ? "input" : "data section");
	}
	if (z.on && z.k != z.n)
		die_at(origin, "compressed records went astray");
	if (z.on && z.next != z.inner_len)
		die_at(origin, "the compressed records hold more records than "
		       "they complete");
	free(z.inner);
	free(z.bound);
	free(z.kept.p);
}

/* ---- input and output files */

static unsigned char *
slurp(const char *path, size_t *len)
{
	struct buf b = { NULL, 0, 0 };
	FILE *f = fopen(path, "rb");
	size_t got;

	if (f == NULL)
		trouble("cannot open", path);
	for (;;) {
		unsigned char *p = buf_add(&b, 65536);

		got = fread(p, 1, 65536, f);
		b.len -= 65536 - got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		trouble("cannot read", path);
	fclose(f);
	*len = b.len;
	return b.p;
}

static void
spill(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");

	if (f == NULL)
		trouble("cannot create", path);
	if (fwrite(b->p, 1, b->len, f) != b->len || fflush(f) != 0 ||
	    ferror(f)) {
		fclose(f);
		unlink(path);
		trouble("cannot write", path);
	}
	if (fclose(f) != 0) {
		unlink(path);
		trouble("cannot write", path);
	}
}

/* ---- the two formats */

/* Section [OFF, OFF+SIZE) of the header: must lie between the header and
 * the data. */
static void
check_section(uint64_t off, uint64_t size, uint64_t data_off, uint64_t at,
	      const char *what)
{
	if (off < FILE_HEADER || off > data_off || size > data_off - off)
		die_at(at, "%s (0x%llx bytes at 0x%llx) do not lie between "
		       "the header and the data", what,
		       (unsigned long long)size, (unsigned long long)off);
}

/*
 * A file-mode perf.data: the header (u64 magic, size, attr_size; sections
 * attrs, data, event_types; 256 feature bits), the attrs and their ids,
 * the data, then a table of feature sections and their bodies.  What
 * lies before the data keeps its place (bytes no section covers become
 * 0); the data may shrink (dropped records); the feature bodies follow
 * the table in bit order, as perf writes them.
 */
static void
swap_file(const unsigned char *in, size_t len, struct buf *out)
{
	uint64_t hsize, asz, aoff, asec, doff, dsize, eoff, esize, flags[4];
	uint64_t i, k, nfeat, tab, kept_flags[4];
	struct fsec {
		unsigned bit;
		unsigned char *p;
		size_t n;
	} *fs = NULL;
	size_t nfs = 0, at;
	unsigned char *o;
	unsigned bit;

	if (len < FILE_HEADER)
		die_at(0, "file is too short for a perf.data header");
	hsize = le64(in + 8);
	asz = le64(in + 16);
	aoff = le64(in + 24);
	asec = le64(in + 32);
	doff = le64(in + 40);
	dsize = le64(in + 48);
	eoff = le64(in + 56);
	esize = le64(in + 64);
	for (i = 0; i < 4; i++)
		flags[i] = le64(in + 72 + 8 * i);
	if (hsize != FILE_HEADER)
		die_at(8, "header size %llu is not %u",
		       (unsigned long long)hsize, FILE_HEADER);
	if (asz < ATTR_VER0 + 16 || asz > 4096)
		die_at(16, "attr size %llu is not an attr and an ids section",
		       (unsigned long long)asz);
	if (doff > len || dsize > len - doff)
		die_at(40, "data section (0x%llx bytes at 0x%llx) lies outside "
		       "the file", (unsigned long long)dsize,
		       (unsigned long long)doff);
	if (dsize == 0)
		die_at(48, "data size is 0 (perf did not finish the file)");
	if (doff < FILE_HEADER)
		die_at(40, "data section overlaps the header");
	check_section(aoff, asec, doff, 24, "attrs");
	if (asec % asz != 0)
		die_at(32, "attrs section of %llu bytes is not a multiple of "
		       "the attr size %llu", (unsigned long long)asec,
		       (unsigned long long)asz);
	if (esize > 0) {
		check_section(eoff, esize, doff, 56, "event types");
		if (esize % 72 != 0)
			die_at(64, "event types section is not made of "
			       "72-byte entries");
	}

	o = buf_add(out, (size_t)doff);
	memset(o, 0, (size_t)doff);
	memcpy(o, in, FILE_HEADER);

	/* attrs: perf_event_attr, then the ids section {u64 off, size} */
	for (i = 0; i < asec / asz; i++) {
		uint64_t a = aoff + i * asz, idoff, idsize;
		struct attr *na;

		memcpy(o + a, in + a, (size_t)asz);
		na = add_attr(in + a, (size_t)asz - 16, a);
		swap_attr(o + a, (size_t)asz - 16, a);
		idoff = le64(in + a + asz - 16);
		idsize = le64(in + a + asz - 8);
		rev(o + a + asz - 16, 8);
		rev(o + a + asz - 8, 8);
		if (idsize % 8 != 0)
			die_at(a + asz - 8, "ids section size is not a multiple "
			       "of 8");
		if (idsize > 0)
			check_section(idoff, idsize, doff, a + asz - 16, "ids");
		for (k = 0; k < idsize / 8; k++) {
			attr_add_id(na, le64(in + idoff + 8 * k));
			memcpy(o + idoff + 8 * k, in + idoff + 8 * k, 8);
			rev(o + idoff + 8 * k, 8);
		}
	}
	/* event types: u64 event_id, char name[64] */
	for (k = 0; k < esize / 72; k++) {
		memcpy(o + eoff + 72 * k, in + eoff + 72 * k, 72);
		rev(o + eoff + 72 * k, 8);
	}

	/* features first: the tracing data tells how to swap RAW samples */
	nfeat = 0;
	for (bit = 0; bit < 256; bit++)
		if (flags[bit / 64] >> (bit % 64) & 1)
			nfeat++;
	tab = doff + dsize;
	if (nfeat > (len - tab) / 16)
		die_at(tab, "feature table of %llu sections runs past the end "
		       "of the file", (unsigned long long)nfeat);
	memset(kept_flags, 0, sizeof(kept_flags));
	for (bit = 0, k = 0; bit < 256; bit++) {
		uint64_t foff, fsize;
		const char *why;
		unsigned char *p;

		if (!(flags[bit / 64] >> (bit % 64) & 1))
			continue;
		foff = le64(in + tab + 16 * k);
		fsize = le64(in + tab + 16 * k + 8);
		k++;
		if (foff > len || fsize > len - foff)
			die_at(tab + 16 * (k - 1), "feature %s (0x%llx bytes at "
			       "0x%llx) lies outside the file",
			       feature_name(bit), (unsigned long long)fsize,
			       (unsigned long long)foff);
		p = xrealloc(NULL, (size_t)fsize);
		memcpy(p, in + foff, (size_t)fsize);
		why = bit == 0 ? "a reserved bit"
			       : swap_feature(bit, p, (size_t)fsize, foff);
		if (why != NULL) {
			fprintf(stderr, "perfswap: %s: offset 0x%llx: feature "
				"%s left out: %s\n", in_name,
				(unsigned long long)foff, feature_name(bit),
				why);
			features_dropped++;
			free(p);
			continue;
		}
		features_kept++;
		kept_flags[bit / 64] |= 1ULL << (bit % 64);
		fs = xrealloc(fs, (nfs + 1) * sizeof(*fs));
		fs[nfs].bit = bit;
		fs[nfs].p = p;
		fs[nfs].n = (size_t)fsize;
		nfs++;
	}

	swap_stream(in + doff, (size_t)dsize, doff, out, false);
	dsize = out->len - doff;

	/* the feature table, then the bodies */
	at = out->len;
	o = buf_add(out, nfs * 16);
	for (i = 0, k = at + nfs * 16; i < nfs; i++) {
		put_be(o + 16 * i, k, 8);
		put_be(o + 16 * i + 8, fs[i].n, 8);
		k += fs[i].n;
	}
	for (i = 0; i < nfs; i++) {
		buf_put(out, fs[i].p, fs[i].n);
		free(fs[i].p);
	}
	free(fs);

	/* the header: every field a u64 (the magic too: "PERFILE2" as a
	 * u64 is "2ELIFREP" in big-endian order) */
	o = out->p;
	put_be(o + 48, dsize, 8);
	for (i = 0; i < 4; i++)
		put_be(o + 72 + 8 * i, kept_flags[i], 8);
	for (i = 0; i < 6; i++)
		rev(o + 8 * i, 8);
	for (i = 7; i < 9; i++)
		rev(o + 8 * i, 8);
}

/* A pipe-mode perf.data: u64 magic, u64 size (16), then records. */
static void
swap_pipe(const unsigned char *in, size_t len, struct buf *out)
{
	unsigned char *o = buf_add(out, PIPE_HEADER);

	memcpy(o, in, PIPE_HEADER);
	rev(o, 8);
	rev(o + 8, 8);
	swap_stream(in + PIPE_HEADER, len - PIPE_HEADER, PIPE_HEADER, out,
		    true);
}

/* Check the magic of IN (LEN bytes); true for pipe mode. */
static bool
check_magic(const unsigned char *in, size_t len)
{
	if (len < PIPE_HEADER)
		die_at(0, "file is too short for a perf.data header");
	if (memcmp(in, "2ELIFREP", 8) == 0)
		die_at(0, "already big-endian");
	if (memcmp(in, "PERFFILE", 8) == 0)
		die_at(0, "perf.data version 1 (PERFFILE) is not supported");
	if (memcmp(in, "PERFILE2", 8) != 0)
		die_at(0, "not a perf.data file (no PERFILE2 magic)");
	return le64(in + 8) == PIPE_HEADER;
}

/* A perf record --threads directory: "data" has the header and the
 * synthesized records, data.N the records of one thread each (with the
 * header's attrs; each its own compressed stream). */
static void
swap_dir(const char *indir, const char *outdir)
{
	char ipath[4096], opath[4096];
	struct buf out = { NULL, 0, 0 };
	struct dirent *d;
	unsigned char *in;
	size_t len;
	DIR *dir;

	snprintf(ipath, sizeof(ipath), "%s/data", indir);
	in_name = ipath;
	in = slurp(ipath, &len);
	if (check_magic(in, len))
		die_at(0, "a pipe-mode file in a perf.data directory");
	swap_file(in, len, &out);
	free(in);
	if (mkdir(outdir, 0777) != 0 && errno != EEXIST)
		trouble("cannot create", outdir);
	snprintf(opath, sizeof(opath), "%s/data", outdir);
	spill(opath, &out);

	dir = opendir(indir);
	if (dir == NULL)
		trouble("cannot read the directory", indir);
	while ((d = readdir(dir)) != NULL) {
		const char *s = d->d_name;

		if (strncmp(s, "data.", 5) != 0 || s[5] == '\0' ||
		    strspn(s + 5, "0123456789") != strlen(s + 5))
			continue;
		snprintf(ipath, sizeof(ipath), "%s/%s", indir, s);
		snprintf(opath, sizeof(opath), "%s/%s", outdir, s);
		in = slurp(ipath, &len);
		out.len = 0;
		swap_stream(in, len, 0, &out, false);
		spill(opath, &out);
		free(in);
	}
	closedir(dir);
	free(out.p);
}

int
main(int argc, char **argv)
{
	struct buf out = { NULL, 0, 0 };
	unsigned long nkept = 0, ndropped = 0;
	unsigned char *in;
	struct stat st;
	size_t len, i;

	if (argc != 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: perfswap IN OUT\n"
			"Write the little-endian perf.data IN (a file or a "
			"perf.data directory)\nas a big-endian machine would "
			"have written it.\n");
		return 2;
	}
	in_name = argv[1];
	if (stat(argv[1], &st) != 0)
		trouble("cannot open", argv[1]);
	if (S_ISDIR(st.st_mode)) {
		swap_dir(argv[1], argv[2]);
	} else {
		in = slurp(argv[1], &len);
		if (check_magic(in, len))
			swap_pipe(in, len, &out);
		else
			swap_file(in, len, &out);
		spill(argv[2], &out);
		free(in);
		free(out.p);
	}

	in_name = argv[1];
	for (i = 0; i < NTYPES; i++) {
		nkept += kept[i];
		ndropped += dropped[i];
		if (dropped[i] > 0)
			fprintf(stderr, "perfswap: %s: dropped %lu %s "
				"record%s: %s\n", in_name, dropped[i],
				i ? record_name((uint32_t)i) : "other",
				dropped[i] > 1 ? "s" : "", drop_why[i]);
	}
	fprintf(stderr, "perfswap: %s: %lu records swapped, %lu dropped; %lu "
		"features swapped, %lu dropped\n", in_name, nkept, ndropped,
		features_kept, features_dropped);
	for (i = 0; i < nattrs; i++)
		free(attrs[i].ids);
	free(attrs);
	for (i = 0; i < ntps; i++)
		free(tps[i].f);
	free(tps);
	return 0;
}
