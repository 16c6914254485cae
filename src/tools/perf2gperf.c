/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf: convert a Linux perf.data file into a gperftools CPU
 * profile.  This file is the front end only: options, messages, the
 * temporary output file and exit codes.  The work is done in the core
 * library (perfdata, convert, fixup, cpuprof).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "convert.h"
#include "cpuprof.h"
#include "featinfo.h"
#include "message.h"
#include "perf_abi.h"
#include "perfdata.h"

static const char *input_name;
static char *const *input_names;	/* all of them, as given */

/* What on_sigbus() says, made by set_input(). */
static char bus_msg[PATH_MAX + 100];

/* Messages name input N from now on. */
static void
set_input(size_t n)
{
	input_name = input_names[n];
	if (strcmp(input_name, "-") == 0)
		input_name = "(standard input)";
	snprintf(bus_msg, sizeof(bus_msg),
		 "%s: %s: the file shrank while it was read\n", progname,
		 input_name);
}

/* The temporary output file, removed on failure and on SIGINT/SIGTERM. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;

static void
remove_tmp(void)
{
	if (tmp_live) {
		unlink(tmp_path);
		tmp_live = 0;
	}
}

static void
on_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A regular input is mapped (input.c): if another process truncates it
 * while it is read, the next access to a page past its new end raises
 * SIGBUS.  Say so, in words made beforehand (only async-signal-safe calls
 * here), leave no output behind, and exit as for any I/O trouble. */
static void
on_sigbus(int sig)
{
	ssize_t r;

	(void)sig;
	if (tmp_live)
		unlink(tmp_path);
	r = write(STDERR_FILENO, bus_msg, strlen(bus_msg));
	(void)r;
	_exit(2);
}

static void
usage(void)
{
	printf("Usage: %s [OPTIONS] INPUT OUTPUT\n"
"       %s [OPTIONS] -o OUTPUT INPUT...\n"
"       %s --info INPUT\n"
"Convert a perf.data file (perf record, perf inject; file or pipe mode,\n"
"either byte order, zstd-compressed with -z, gzip-compressed, or a\n"
"perf.data directory of perf record --threads) into a gperftools CPU\n"
"profile that pprof reads.  INPUT '-' reads standard input; OUTPUT '-'\n"
"writes standard output.  With -o, every INPUT goes into OUTPUT: their\n"
"processes kept apart, their events matched by name with the first's.\n"
"\n"
"Selection:\n"
"  -e, --event NAME     convert samples of event NAME as perf prints it\n"
"                       (e.g. cpu-clock or cpu-clock:ppp); default: the\n"
"                       first sampling event\n"
"  -p, --pid LIST       keep samples of these processes (comma-separated)\n"
"  -t, --tid LIST       keep samples of these threads (comma-separated)\n"
"  -c, --comm NAME      keep samples of threads whose command is NAME\n"
"      --user-only      leave out kernel frames (and kernel-only samples)\n"
"      --kernel-only    leave out user frames (and user-only samples)\n"
"\n"
"  -o, --output OUTPUT  write OUTPUT from every INPUT given\n"
"\n"
"Output (the processes left are merged into one profile, each mapped\n"
"file at one place; a lone process keeps its own addresses):\n"
"      --split          write one profile per process; OUTPUT is then a\n"
"                       pattern: %%p the pid, %%c the command, %%%% a %%\n"
"      --weight samples|period\n"
"                       count samples (default), or their periods in\n"
"                       units of the header period\n"
"      --slot-width 32|64|auto\n"
"                       slot size; auto (default): 32 for recordings of\n"
"                       32-bit machines, else 64\n"
"      --period-us N    write N as the sampling period in microseconds\n"
"                       (default: from the event, see the man page)\n"
"      --no-fixup       write every stack exactly as recorded, without the\n"
"                       leaf copies that stop Go pprof from dropping\n"
"                       frames (for google-pprof --no-auto-signal-frm)\n"
"      --byte-order little|big|native\n"
"                       byte order of the profile (default: that of the\n"
"                       machine that recorded INPUT)\n"
"      --max-stack N    write at most N frames per stack (default: the\n"
"                       whole recorded callchain; 127 when unwinding)\n"
"\n"
"Unwinding (perf record --call-graph dwarf):\n"
"      --symfs DIR      look for the binaries under DIR, as perf does\n"
"      --debuginfod     for code whose CFI is not in its binary, let\n"
"                       libdw read separate debug files (/usr/lib/debug,\n"
"                       and the servers in DEBUGINFOD_URLS); off by\n"
"                       default, as in perf\n"
"      --no-unwind      do not unwind: user stacks hold the sampled IP\n"
"\n"
"Information:\n"
"  -i, --info           print the header summary, the events and the\n"
"                       processes with their sample counts; no OUTPUT\n"
"  -s, --stats          print conversion statistics on stderr\n"
"  -q, --quiet          print no warnings or notes, only errors\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n"
"\n"
"Exit status: 0 success, 1 invalid or unsupported input, 2 trouble\n"
"(usage, I/O, memory).\n"
"\n"
"Report bugs to: %s\n", progname, progname, progname, PACKAGE_BUGREPORT);
	message_exit(0);
}

static void
version(void)
{
	printf("%s (%s) %s\n", progname, PACKAGE_NAME, PACKAGE_VERSION);
	message_library_versions();
	message_exit(0);
}

/* Parse "1,2,3" into a malloc'd array. */
static int32_t *
parse_list(const char *opt, const char *arg, size_t *n)
{
	int32_t *v = NULL, *nv;
	const char *p = arg;
	char *end;
	long x;

	*n = 0;
	for (;;) {
		errno = 0;
		x = strtol(p, &end, 10);
		if (end == p || errno != 0 || x < -1 || x > INT32_MAX ||
		    (*end != ',' && *end != '\0'))
			message_usage("%s: '%s' is not a comma-separated list "
				      "of ids", opt, arg);
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (nv == NULL) {
			fprintf(stderr, "%s: out of memory\n", progname);
			exit(2);
		}
		v = nv;
		v[(*n)++] = (int32_t)x;
		if (*end == '\0')
			return v;
		p = end + 1;
	}
}

/* The file that messages about the input name: the input, or in a
 * perf.data directory the file of it that offset *OFF is in (*OFF then
 * becomes the offset in that file). */
static struct perfdata *the_pd;

static const char *
data_name(uint64_t *off)
{
	static char name[4096];
	const char *part;

	if (the_pd == NULL || the_pd->dir == NULL || *off == P2G_NO_OFFSET)
		return input_name;
	part = perfdata_where(the_pd, *off, off);
	snprintf(name, sizeof(name), "%s/%s", input_name, part);
	return name;
}

static struct perfdata *const *all_pds;

static void
on_input_start(void *ctx, size_t n)
{
	(void)ctx;
	set_input(n);
	if (all_pds != NULL)
		the_pd = all_pds[n];
}

static void
on_warn(void *ctx, uint64_t off, const char *msg)
{
	const char *name = data_name(&off);

	(void)ctx;
	message_warning(name, off, "%s", msg);
}

static void
on_progress(void *ctx, uint64_t done, uint64_t total)
{
	static time_t start;
	time_t now = time(NULL);

	(void)ctx;
	if (start == 0)
		start = now;
	if (message_quiet || !isatty(STDERR_FILENO) || now - start < 2)
		return;
	if (total != UINT64_MAX && total > 0)
		fprintf(stderr, "\r%s: %s: %3d%% (%llu MiB)", progname,
			input_name, (int)(done * 100 / total),
			(unsigned long long)(done >> 20));
	else
		fprintf(stderr, "\r%s: %s: %llu MiB", progname, input_name,
			(unsigned long long)(done >> 20));
}

/* ---- --info ------------------------------------------------------------- */

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

static int
cmp_proc(const void *a, const void *b)
{
	const struct process *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int
do_info(struct perfdata *pd)
{
	const struct perf_header_info *hi = &pd->info;
	struct addrspace as;
	struct p2g_error err;
	unsigned bit;
	size_t i, k;
	int ret = 0;

	p2g_error_clear(&err);
	addrspace_init(&as);
	if (convert_scan(pd, &as, &err) < 0) {
		const char *name = data_name(&err.offset);

		message_error(name, &err);
		ret = p2g_exit_status(err.status);
	}

	printf("# ========\n");
	printf("# format         : %s, %s-endian\n",
	       pd->pipe_mode ? "pipe" : "file (PERFILE2)",
	       pd->big_endian ? "big" : "little");
	/* (perf says 0 for a pipe-mode file) */
	printf("# data offset    : %" PRIu64 "\n",
	       pd->pipe_mode ? 0 : pd->data_offset);
	printf("# data size      : %" PRIu64 "\n",
	       pd->pipe_mode ? 0 : pd->data_size);
	printf("# feat offset    : %" PRIu64 "\n",
	       pd->pipe_mode ? 0 : pd->data_offset + pd->data_size);
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
	for (i = 0; i < pd->nr_attrs; i++) {
		const struct perf_attr *a = &pd->attrs[i];

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
	{
		char *ft = NULL;
		size_t flen = 0;

		if (featinfo_text(pd, &ft, &flen) == 0 && ft != NULL)
			message_put_safe_text(stdout, ft);
		free(ft);
	}
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

	printf("# events (samples):\n");
	for (i = 0; i < pd->nr_attrs; i++) {
		printf("%12" PRIu64 "  ", pd->attrs[i].nr_samples);
		message_put_safe(stdout, pd->attrs[i].name);
		putchar('\n');
	}
	printf("#\n# processes (samples, all events):\n");
	if (as.nprocs > 1)
		qsort(as.procs, as.nprocs, sizeof(*as.procs), cmp_proc);
	for (i = 0; i < as.nprocs; i++)
		if (as.procs[i].samples > 0) {
			printf("%12" PRIu64 "  %d ", as.procs[i].samples,
			       as.procs[i].pid);
			message_put_safe(stdout, as.procs[i].comm);
			putchar('\n');
		}
	/* The table was reordered: its slots no longer apply. */
	free(as.proc_slots);
	as.proc_slots = NULL;
	as.proc_nslots = 0;
	addrspace_release(&as);
	return ret;
}

/* ---- conversion --------------------------------------------------------- */

static void
print_stats(const struct convert_stats *st)
{
	fprintf(stderr,
		"%s: %s: statistics:\n"
		"  records                  %12" PRIu64 "\n"
		"  samples                  %12" PRIu64 "\n"
		"  samples of %-13s %12" PRIu64 "\n"
		"  samples filtered out     %12" PRIu64 "\n"
		"  samples with no frame    %12" PRIu64 "\n"
		"  samples written          %12" PRIu64 "\n"
		"  processes written        %12zu\n"
		"  kernel frames            %12" PRIu64 "\n"
		"  frames left out          %12" PRIu64 "\n"
		"  context markers removed  %12" PRIu64 "\n"
		"  zero addresses dropped   %12" PRIu64 "\n"
		"  events lost by kernel    %12" PRIu64 "\n"
		"  samples of unknown id    %12" PRIu64 "\n"
		"  period (us)              %12" PRIu64 "\n"
		"  slot width (bits)        %12u\n",
		progname, input_name, st->records, st->samples,
		st->event ? st->event->name : "?", st->samples_event,
		st->samples_filtered, st->samples_empty, st->samples_used,
		st->processes, st->kernel_frames, st->frames_dropped,
		st->markers, st->zero_frames, st->lost, st->unknown_id,
		st->period_us, st->slot_bits);
	if (st->undecodable)
		fprintf(stderr, "  samples not decodable    %12" PRIu64 "\n",
			st->undecodable);
	if (st->other_events)
		fprintf(stderr, "  samples of other events  %12" PRIu64 "\n",
			st->other_events);
	if (st->late)
		fprintf(stderr, "  records out of order     %12" PRIu64 "\n",
			st->late);
	if (st->frames_capped)
		fprintf(stderr, "  stacks cut at max-stack  %12" PRIu64 "\n",
			st->frames_capped);
	if (st->dwarf_samples)
		fprintf(stderr,
			"  dwarf samples            %12" PRIu64 "\n"
			"  dwarf unwound            %12" PRIu64 "\n"
			"  dwarf stopped early      %12" PRIu64 "\n"
			"  dwarf without binary     %12" PRIu64 "\n",
			st->dwarf_samples, st->dwarf_done, st->dwarf_partial,
			st->dwarf_no_binary);
	if (st->dwarf_unsupported)
		fprintf(stderr, "  dwarf not unwindable     %12" PRIu64 "\n",
			st->dwarf_unsupported);
	if (st->read_unchanged || st->read_unknown_id)
		fprintf(stderr,
			"  counter reads unchanged  %12" PRIu64 "\n"
			"  counter reads, no event  %12" PRIu64 "\n",
			st->read_unchanged, st->read_unknown_id);
}

/* Per written profile. */
static void
print_result_stats(const char *output, const struct convert_result *r)
{
	fprintf(stderr,
		"%s: %s: profile statistics:\n"
		"  samples                  %12" PRIu64 "\n"
		"  processes                %12zu\n"
		"  distinct stacks          %12" PRIu64 "\n"
		"  deepest stack            %12" PRIu64 "\n"
		"  mapped places            %12zu\n"
		"  places relocated         %12zu\n"
		"  places overlapping       %12zu\n"
		"  frames in no mapping     %12" PRIu64 "\n"
		"  records with leaf copies %12zu\n"
		"  leaf copies added        %12" PRIu64 "\n",
		progname, output, r->samples, r->processes, r->stacks,
		r->max_depth, r->places, r->relocated, r->collisions,
		r->unmapped,
		r->fixup_records, r->fixup_copies);
}

/* Create the temporary file beside OUTPUT. */
static int
open_tmp(const char *output)
{
	mode_t mask;
	int fd;

	if (snprintf(tmp_path, sizeof(tmp_path), "%s.tmpXXXXXX", output) >=
	    (int)sizeof(tmp_path)) {
		fprintf(stderr, "%s: %s: name too long\n", progname, output);
		return -1;
	}
	fd = mkstemp(tmp_path);
	if (fd < 0) {
		fprintf(stderr, "%s: %s: cannot create: %s\n", progname,
			output, strerror(errno));
		return -1;
	}
	tmp_live = 1;
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	return fd;
}

/* What the sink needs from main(). */
struct sink_ctx {
	const char *output;	/* OUTPUT, or with --split its pattern */
	bool split, stats;
	dev_t *idev;		/* of every input file */
	ino_t *iino;
	size_t nids;
	bool reported;		/* the error was printed already */
	size_t written;
};

/* Remember the files of PD (each of a directory's), which the output must
 * not replace.  0, or -1 when out of memory. */
static int
add_identities(struct sink_ctx *ctx, const struct perfdata *pd)
{
	size_t i;

	for (i = 0; i < pd->nparts; i++) {
		dev_t *nd = realloc(ctx->idev, (ctx->nids + 1) * sizeof(*nd));
		ino_t *ni;

		if (nd == NULL)
			return -1;
		ctx->idev = nd;
		ni = realloc(ctx->iino, (ctx->nids + 1) * sizeof(*ni));
		if (ni == NULL)
			return -1;
		ctx->iino = ni;
		if (input_identity(pd->parts[i].in, &ctx->idev[ctx->nids],
				   &ctx->iino[ctx->nids]))
			ctx->nids++;
	}
	return 0;
}

/* OUTPUT with --split: %p the pid, %c the command (with '/' as '_'), %%
 * a percent sign.  False if the name would be too long. */
static bool
expand_pattern(const char *pat, const struct convert_result *r, char *out,
	       size_t size)
{
	size_t n = 0;
	const char *c;
	char pid[16];

	for (; *pat != '\0'; pat++) {
		const char *add = NULL;
		char one[2] = { *pat, '\0' };

		if (*pat == '%' && pat[1] == 'p') {
			snprintf(pid, sizeof(pid), "%d", r->pid);
			add = pid;
			pat++;
		} else if (*pat == '%' && pat[1] == 'c') {
			for (c = r->comm[0] ? r->comm : "unknown"; *c; c++) {
				if (n + 1 >= size)
					return false;
				out[n++] = *c == '/' ? '_' : *c;
			}
			pat++;
			continue;
		} else if (*pat == '%' && pat[1] == '%') {
			add = "%";
			pat++;
		} else {
			add = one;
		}
		if (n + strlen(add) >= size)
			return false;
		memcpy(out + n, add, strlen(add));
		n += strlen(add);
	}
	out[n] = '\0';
	return true;
}

/* Write R's profile to its file (through a temporary file renamed into
 * place) or to standard output. */
static int
write_result(void *vctx, const struct convert_result *r,
	     struct p2g_error *err)
{
	struct sink_ctx *ctx = vctx;
	char name[PATH_MAX];
	const char *output = ctx->output;
	struct stat ost;
	size_t i;
	int fd;

	set_input(0);	/* all read: notes name the first input */
	if (ctx->split) {
		if (!expand_pattern(ctx->output, r, name, sizeof(name)))
			return p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
					"output name for pid %d is too long",
					r->pid);
		output = name;
	}
	if (ctx->stats)
		print_result_stats(strcmp(output, "-") ? output
						       : "(standard output)",
				   r);
	if (r->perl_strips)
		message_warning(output, P2G_NO_OFFSET,
				"every stack has the same second frame; "
				"google-pprof removes it unless run with "
				"--no-auto-signal-frm");
	if (r->collisions)
		message_warning(output, P2G_NO_OFFSET,
				"%zu mapped files found no free place and "
				"overlap others", r->collisions);
	if (!r->fixup_converged)
		message_warning(output, P2G_NO_OFFSET,
				"could not protect every stack from Go "
				"pprof's frame removal");
	if (strcmp(output, "-") == 0) {
		if (cpuprof_write(r->profile, STDOUT_FILENO, err) < 0) {
			message_error("(standard output)", err);
			ctx->reported = true;
			return -1;
		}
		ctx->written++;
		return 0;
	}
	/* Never write over the input. */
	for (i = 0; i < ctx->nids && stat(output, &ost) == 0; i++)
		if (ost.st_dev == ctx->idev[i] && ost.st_ino == ctx->iino[i]) {
			fprintf(stderr, "%s: %s: output is an input file\n",
				progname, output);
			ctx->reported = true;
			return p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
					"reported");
		}
	fd = open_tmp(output);
	if (fd < 0) {
		ctx->reported = true;
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "reported");
	}
	if (cpuprof_write(r->profile, fd, err) < 0) {
		close(fd);
		remove_tmp();
		message_error(output, err);
		ctx->reported = true;
		return -1;
	}
	if (close(fd) != 0) {
		fprintf(stderr, "%s: %s: %s\n", progname, output,
			strerror(errno));
		remove_tmp();
		ctx->reported = true;
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "reported");
	}
	if (rename(tmp_path, output) != 0) {
		fprintf(stderr, "%s: %s: cannot rename %s: %s\n", progname,
			output, tmp_path, strerror(errno));
		remove_tmp();
		ctx->reported = true;
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "reported");
	}
	tmp_live = 0;
	if (ctx->split)
		message_note(output, "pid %d (%s): %" PRIu64 " samples",
			     r->pid, r->comm, r->samples);
	else if (r->processes > 1)
		message_note(input_name, "%zu processes merged into one "
			     "profile%s (--split writes one per process)",
			     r->processes,
			     r->relocated ? ", some mappings relocated" : "");
	ctx->written++;
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "comm", required_argument, NULL, 'c' },
		{ "period-us", required_argument, NULL, 'P' },
		{ "no-fixup", no_argument, NULL, 'F' },
		{ "byte-order", required_argument, NULL, 'B' },
		{ "user-only", no_argument, NULL, 'U' },
		{ "kernel-only", no_argument, NULL, 'K' },
		{ "split", no_argument, NULL, 'S' },
		{ "slot-width", required_argument, NULL, 'W' },
		{ "weight", required_argument, NULL, 'w' },
		{ "info", no_argument, NULL, 'i' },
		{ "stats", no_argument, NULL, 's' },
		{ "max-stack", required_argument, NULL, 'M' },
		{ "symfs", required_argument, NULL, 'Y' },
		{ "debuginfod", no_argument, NULL, 'D' },
		{ "no-unwind", no_argument, NULL, 'N' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct convert_opts o;
	struct convert_stats st;
	struct p2g_error err;
	struct perfdata *pd = NULL, **pds = NULL;
	size_t k, ninputs = 0;
	struct sink_ctx sink;
	struct rlimit nofile;
	const char *output = NULL;
	bool info = false, stats = false, debuginfod = false;
	int32_t *pids = NULL, *tids = NULL;
	int c, ret = 2;

	progname = "perf2gperf";
	memset(&o, 0, sizeof(o));
	memset(&sink, 0, sizeof(sink));
	/* A perf.data directory has one file per CPU of the recording, all
	 * open at once: allow as many open files as the system lets us. */
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
	    nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &nofile);
	}
	p2g_error_clear(&err);
	opterr = 0;	/* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":o:e:p:t:c:isqhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case 'e':
			o.event = optarg;
			break;
		case 'p':
			free(pids);
			pids = parse_list("--pid", optarg, &o.npids);
			o.pids = pids;
			break;
		case 't':
			free(tids);
			tids = parse_list("--tid", optarg, &o.ntids);
			o.tids = tids;
			break;
		case 'c':
			o.comm = optarg;
			break;
		case 'P':
			o.period_us = message_parse_uint("--period-us", optarg,
							 1, CPUPROF_MAX_PERIOD);
			break;
		case 'F':
			o.no_fixup = true;
			break;
		case 'M':
			o.max_stack = (unsigned)message_parse_uint(
				"--max-stack", optarg, 1, 65535);
			break;
		case 'Y':
			o.symfs = optarg;
			break;
		case 'D':
			debuginfod = true;
			break;
		case 'N':
			o.no_unwind = true;
			break;
		case 'U':
			o.user_only = true;
			break;
		case 'K':
			o.kernel_only = true;
			break;
		case 'S':
			o.split = true;
			break;
		case 'W':
			if (strcmp(optarg, "32") == 0)
				o.slot_bits = 32;
			else if (strcmp(optarg, "64") == 0)
				o.slot_bits = 64;
			else if (strcmp(optarg, "auto") == 0)
				o.slot_bits = 0;
			else
				message_usage("--slot-width: '%s' is not 32, "
					      "64 or auto", optarg);
			break;
		case 'w':
			if (strcmp(optarg, "samples") == 0)
				o.weight = CONVERT_WEIGHT_SAMPLES;
			else if (strcmp(optarg, "period") == 0)
				o.weight = CONVERT_WEIGHT_PERIOD;
			else
				message_usage("--weight: '%s' is not samples "
					      "or period", optarg);
			break;
		case 'B':
			if (strcmp(optarg, "little") == 0)
				o.byte_order = CONVERT_ORDER_LITTLE;
			else if (strcmp(optarg, "big") == 0)
				o.byte_order = CONVERT_ORDER_BIG;
			else if (strcmp(optarg, "native") == 0)
				o.byte_order = CONVERT_ORDER_NATIVE;
			else
				message_usage("--byte-order: '%s' is not "
					      "little, big or native", optarg);
			break;
		case 'i':
			info = true;
			break;
		case 's':
			stats = true;
			break;
		case 'q':
			message_quiet = true;
			break;
		case 'h':
			usage();
			break;
		case 'V':
			version();
			break;
		case ':':
			message_usage("option '%s' needs an argument",
				      argv[optind - 1]);
			break;
		default:
			message_bad_option(argv[optind - 1], optopt);
		}
	}
	/* libdw asks the servers in DEBUGINFOD_URLS for what it cannot find
	 * on disk; a converter should not reach the network unasked. */
	if (!debuginfod)
		unsetenv("DEBUGINFOD_URLS");
	o.debuginfo = debuginfod;
	/* For the tests: the rule cache must unwind as libdw does. */
	o.unwind_libdw_only = getenv("P2G_UNWIND_LIBDW_ONLY") != NULL &&
			      *getenv("P2G_UNWIND_LIBDW_ONLY") != '\0';
	/* For the tests: one thread must convert as two do. */
	o.no_threads = getenv("P2G_NO_THREADS") != NULL &&
		       *getenv("P2G_NO_THREADS") != '\0';
	/* For the tests: a small time order shows what a large input
	 * would. */
	if (getenv("P2G_ORDER_BYTES") != NULL)
		o.order_bytes = (size_t)strtoull(getenv("P2G_ORDER_BYTES"),
						 NULL, 10);
	if (o.symfs != NULL) {
		struct stat sb;

		if (stat(o.symfs, &sb) != 0 || !S_ISDIR(sb.st_mode))
			message_usage("--symfs: '%s' is not a directory",
				      o.symfs);
	}
	o.home = getenv("HOME");
	if (o.user_only && o.kernel_only)
		message_usage("--user-only and --kernel-only exclude each "
			      "other");
	if (info) {
		if (argc - optind != 1 || output != NULL)
			message_usage("--info takes exactly one INPUT");
	} else if (output != NULL) {
		if (argc - optind < 1)
			message_usage("missing INPUT");
	} else if (argc - optind != 2) {
		message_usage(argc - optind < 2 ? "missing INPUT or OUTPUT"
						: "too many arguments");
	} else {
		output = argv[argc - 1];
		argc--;
	}
	ninputs = (size_t)(argc - optind);
	if (ninputs > 1 && o.split)
		message_usage("--split takes one INPUT");
	for (k = 0; k < ninputs; k++)
		if (strcmp(argv[optind + k], "-") == 0 && ninputs > 1)
			message_usage("standard input ('-') can only be the one "
				      "INPUT");
	input_names = argv + optind;
	pds = calloc(ninputs, sizeof(*pds));
	if (pds == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto out;
	}
	for (k = 0; k < ninputs; k++) {
		set_input(k);
		pds[k] = perfdata_open(argv[optind + k], on_warn, NULL, &err);
		if (pds[k] == NULL) {
			message_error(input_name, &err);
			ret = p2g_exit_status(err.status);
			goto out;
		}
		if (add_identities(&sink, pds[k]) < 0) {
			fprintf(stderr, "%s: out of memory\n", progname);
			goto out;
		}
	}
	pd = pds[0];
	set_input(0);
	the_pd = pd;
	if (info) {
		ret = do_info(pd);
		goto out;
	}

	if (o.split && (strcmp(output, "-") == 0 || strstr(output, "%p") == NULL))
		message_usage("with --split, OUTPUT must be a file name "
			      "pattern with %%p (the pid) in it");
	sink.output = output;
	sink.split = o.split;
	sink.stats = stats;

	o.input_start = on_input_start;
	all_pds = pds;
	o.progress = on_progress;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGBUS, on_sigbus);
	if (convert_run(pds, ninputs, &o, write_result, &sink, &st, &err) < 0) {
		if (isatty(STDERR_FILENO) && !message_quiet)
			fputc('\n', stderr);
		if (!sink.reported) {
			const char *name = data_name(&err.offset);

			message_error(name, &err);
		}
		ret = p2g_exit_status(err.status);
		goto out;
	}
	set_input(0);
	if (st.other_events)
		message_warning(input_name, P2G_NO_OFFSET,
				"%" PRIu64 " samples of the other inputs are "
				"of events the first input does not have; "
				"left out", st.other_events);
	if (st.nr_sampling_events > 1 && o.event == NULL)
		message_note(input_name, "%zu sampling events; converting %s "
			     "(choose with --event)", st.nr_sampling_events,
			     st.event->name);
	if (st.dwarf_unsupported)
		message_warning(input_name, P2G_NO_OFFSET,
				"%" PRIu64 " samples with user stacks of a "
				"machine or ABI this version cannot unwind "
				"(%s): they hold only the sampled IP",
				st.dwarf_unsupported,
				pd->info.arch ? pd->info.arch : "unknown");
	if (st.dwarf_no_binary + st.dwarf_partial > 0 &&
	    st.dwarf_samples > 0)
		message_note(input_name,
			     "%" PRIu64 " of %" PRIu64 " user stacks "
			     "unwound only in part (%" PRIu64 " without a "
			     "binary%s); --stats tells more",
			     st.dwarf_no_binary + st.dwarf_partial,
			     st.dwarf_samples, st.dwarf_no_binary,
			     o.symfs ? "" : "; see --symfs");
	if (st.late)
		message_warning(input_name, P2G_NO_OFFSET,
				"%" PRIu64 " record%s came after later ones "
				"had been used, and %s used out of time "
				"order", st.late, st.late == 1 ? "" : "s",
				st.late == 1 ? "was" : "were");
	if (st.period_guessed)
		message_warning(input_name, P2G_NO_OFFSET,
				"event %s has a fixed period of %" PRIu64
				" that is not time; the profile says 1 us per "
				"sample (set it with --period-us)",
				st.event->name, st.event->sample_period);
	if (stats)
		print_stats(&st);
	ret = 0;
out:
	remove_tmp();
	for (k = 0; pds != NULL && k < ninputs; k++)
		perfdata_close(pds[k]);
	free(pds);
	free(sink.idev);
	free(sink.iino);
	free(pids);
	free(tids);
	message_exit(ret);
}
