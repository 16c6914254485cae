/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf: convert a Linux perf.data file into a gperftools CPU
 * profile (or pprof's format, or folded stacks); run as perf_to_profile,
 * the converter pprof runs on a perf.data file.  This file is the front end's command line only: the usage,
 * the options and main().  What it says about the inputs is in report.c,
 * --info in info.c, the output file and its signals in output.c; the
 * work is done in the core library (perfdata, convert, fixup, cpuprof).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "convert.h"
#include "cpuprof.h"
#include "fdlimit.h"
#include "fetch.h"
#include "grow.h"
#include "info.h"
#include "input.h"
#include "message.h"
#include "output.h"
#include "offcpu.h"
#include "perfdata.h"
#include "record.h"
#include "report.h"
#include "signals.h"
#include "zstream.h"

static void
usage(void)
{
	printf("Usage: %s [OPTIONS] INPUT OUTPUT\n"
"       %s [OPTIONS] -o OUTPUT INPUT...\n"
"       %s --info INPUT\n"
"       %s record [-o OUTPUT] [--off-cpu] [PERF-RECORD-OPTIONS] -- CMD\n"
"             [ARGS]\n"
"Convert a perf.data file (perf record, perf inject; file or pipe mode,\n"
"either byte order, zstd-compressed with -z, gzip-compressed, or a\n"
"perf.data directory of perf record --threads) into a gperftools CPU\n"
"profile that pprof reads, a pprof profile with names or folded stacks\n"
"(--format).  INPUT '-' reads standard input; OUTPUT '-'\n"
"writes standard output.  With -o, every INPUT goes into OUTPUT: their\n"
"processes kept apart, their events matched by name with the first's.\n"
"With no arguments, converts ./perf.data (if there is one) into\n"
"./perf.prof.  'record' runs perf record -o - (-g -F 999 unless the\n"
"options choose a call graph or a rate; $PERF names perf) and converts\n"
"its stream as it comes into OUTPUT, by default CMD's name + .prof;\n"
"with --off-cpu, it records what --off-cpu needs (-g -e cpu-clock -e\n"
"sched:sched_switch --switch-events) and converts the time off the CPU.\n"
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
"      --off-cpu[=all|blocked]\n"
"                       profile the time threads wait off the CPU, on\n"
"                       the stacks of sched:sched_switch, in microseconds\n"
"                       (pprof: nanoseconds, with the on-CPU samples as\n"
"                       -sample_index=cpu); blocked: leave out the\n"
"                       preempted (the recording needs -g, -e\n"
"                       sched:sched_switch and --switch-events)\n"
"\n"
"  -o, --output OUTPUT  write OUTPUT from every INPUT given\n"
"\n"
"Output format:\n"
"  -f, --format gperftools|pprof|folded\n"
"                       gperftools: a CPU profile of addresses (pprof\n"
"                       finds the names in the binaries); pprof: a gzipped\n"
"                       profile.proto with the names in it; folded: one\n"
"                       line per stack, as perf script report\n"
"                       stackcollapse prints them (default: by OUTPUT's\n"
"                       suffix: .pb.gz or .pb pprof, .folded folded, else\n"
"                       gperftools)\n"
"      --folded-style flamegraph|perf\n"
"                       folded: the names of FlameGraph's\n"
"                       stackcollapse-perf.pl (flamegraph, the default:\n"
"                       a frame without one named [BINARY]) or of perf's\n"
"                       stackcollapse.py (perf: [unknown])\n"
"      --include-pid    folded: the first frame is comm-PID\n"
"      --include-tid    folded: the first frame is comm-PID/TID (perf\n"
"                       style without --include-pid: comm-TID)\n"
"      --no-comm        folded: no first frame with the command\n"
"      --tidy-java      folded, perf style: shorten Java signatures\n"
"      --annotate-kernel\n"
"                       folded: kernel functions end in _[k]\n"
"      --vmlinux FILE   pprof, folded: kernel names from this ELF image\n"
"                       only (none when its build ID is not the\n"
"                       recorded kernel's); under --symfs if relative\n"
"      --kallsyms FILE  pprof, folded: kernel names from this copy of\n"
"                       /proc/kallsyms only, before --vmlinux (default:\n"
"                       a vmlinux where perf looks, perf's cached copy, or\n"
"                       /proc/kallsyms if it is the recorded kernel)\n"
"\n"
"Output (the processes left are merged into one profile, each mapped\n"
"file at one place; a lone process keeps its own addresses):\n"
"      --split[=pid|tid|comm]\n"
"                       write one profile per process (pid, the default),\n"
"                       thread (tid) or command (comm: every process of\n"
"                       one command together); OUTPUT is then a pattern\n"
"                       that must hold %%p, %%t or %%c respectively:\n"
"                       %%p the pid, %%t the thread id, %%c the command,\n"
"                       %%%% a %%\n"
"      --min-samples N  leave out the profiles (with --split) or the\n"
"                       processes that have fewer than N samples\n"
"      --weight samples|period\n"
"                       count samples (default), or their periods in\n"
"                       units of the header period (folded: the periods\n"
"                       themselves)\n"
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
"      --max-inflate RATIO\n"
"                       let compressed input (a .gz file, perf record -z)\n"
"                       inflate to RATIO times its size; 0: no bound\n"
"                       (default: 1000, far above real recordings)\n"
"      --queue-size BYTES\n"
"                       hold at most BYTES of records back to put them in\n"
"                       time order (default: 16 MiB)\n"
"\n"
"Binaries (for unwinding --call-graph dwarf, and for names):\n"
"      --symfs DIR      look for the binaries, and a relative --vmlinux,\n"
"                       under DIR, as perf does\n"
"      --binaries DIR   look for the binaries in DIR too (repeatable): by\n"
"                       file name, by build ID, and in the build-ID tree\n"
"                       of an unpacked perf archive\n"
"      --debuginfod     fetch the binaries and debug files not found on\n"
"                       disk by build ID from the servers in\n"
"                       DEBUGINFOD_URLS, and let libdw read separate\n"
"                       debug files for CFI; off by default: no server\n"
"                       is asked without it\n"
"      --no-unwind      do not unwind: user stacks hold the sampled IP\n"
"\n"
"Information:\n"
"  -i, --info           print the header summary, the events and the\n"
"                       processes with their sample counts; no OUTPUT\n"
"  -s, --stats          print conversion statistics on stderr\n"
"      --progress       show the progress line (bytes, share, time left,\n"
"                       samples) from the start, even when stderr is not\n"
"                       a terminal; without it, a terminal gets it after\n"
"                       two seconds\n"
"  -v, --verbose        with --split, a note for every profile written\n"
"                       and its warnings (without, one summary); where\n"
"                       a binary that was not found was looked for\n"
"  -q, --quiet          print no warnings or notes, only errors\n"
"  -h, --help           print this help and exit\n"
"  -V, --version        print the version and exit\n"
"\n"
"Exit status: 0 success, 1 invalid or unsupported input, 2 trouble\n"
"(usage, I/O, memory).\n"
"\n"
"Report bugs to: %s\n", progname, progname, progname, progname,
	       PACKAGE_BUGREPORT);
	message_exit(0);
}

static void
version(void)
{
	printf("%s (%s) %s\n", progname, PACKAGE_NAME, PACKAGE_VERSION);
	message_library_versions();
	message_exit(0);
}

static int
cmp_id(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

/* Parse "1,2,3" into a malloc'd array, sorted. */
static int32_t *
parse_list(const char *opt, const char *arg, size_t *n)
{
	int32_t *v = NULL, *nv;
	const char *p = arg;
	size_t cap = 0;
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
		if (*n == cap) {
			nv = grow(v, &cap, *n + 1, sizeof(*v), 16);
			if (nv == NULL) {
				fprintf(stderr, "%s: out of memory\n",
					progname);
				exit(2);
			}
			v = nv;
		}
		v[(*n)++] = (int32_t)x;
		if (*end == '\0')
			break;
		p = end + 1;
	}
	/* the converter looks each sample's ids up by binary search */
	qsort(v, *n, sizeof(*v), cmp_id);
	return v;
}

/* What the command line asks for. */
struct options {
	struct convert_opts conv;	/* its pids and tids are those below */
	int32_t *pids, *tids;		/* --pid, --tid (malloc'd) */
	const char *output;		/* -o OUTPUT, or the last argument */
	char **inputs;			/* INPUT... */
	size_t ninputs;
	bool info, stats, debuginfod, progress, verbose;
	bool format_set;		/* --format given */
	bool recording;		/* perf2gperf record: the input is perf's */
	uint64_t max_inflate;		/* --max-inflate */
	const char **binaries;		/* --binaries (malloc'd) */
	char *vmlinux;			/* --vmlinux under --symfs (malloc'd) */
};

/* The words that --slot-width, --weight, --format, --split (pid when it
 * has none) and --byte-order take, in the order their messages name
 * them. */
static const struct message_word slot_widths[] = {
	{ "32", 32 }, { "64", 64 }, { "auto", 0 }, { NULL, 0 },
};
static const struct message_word weights[] = {
	{ "samples", CONVERT_WEIGHT_SAMPLES },
	{ "period", CONVERT_WEIGHT_PERIOD },
	{ NULL, 0 },
};
static const struct message_word off_cpu_kinds[] = {
	{ "all", 0 }, { "blocked", 1 }, { NULL, 0 },
};
static const struct message_word formats[] = {
	{ "gperftools", CONVERT_FORMAT_GPERFTOOLS },
	{ "pprof", CONVERT_FORMAT_PPROF },
	{ "folded", CONVERT_FORMAT_FOLDED },
	{ NULL, 0 },
};
static const struct message_word folded_styles[] = {
	{ "flamegraph", 0 },
	{ "perf", 1 },
	{ NULL, 0 },
};
static const struct message_word splits[] = {
	{ "pid", CONVERT_SPLIT_PID },
	{ "tid", CONVERT_SPLIT_TID },
	{ "comm", CONVERT_SPLIT_COMM },
	{ NULL, 0 },
};
static const struct message_word byte_orders[] = {
	{ "little", CONVERT_ORDER_LITTLE },
	{ "big", CONVERT_ORDER_BIG },
	{ "native", CONVERT_ORDER_NATIVE },
	{ NULL, 0 },
};

/* The format OUTPUT's name asks for: .pb.gz or .pb pprof, .folded
 * folded, else gperftools. */
static enum convert_format
format_of(const char *output)
{
	static const struct {
		const char *suffix;
		enum convert_format f;
	} by[] = {
		{ ".pb.gz", CONVERT_FORMAT_PPROF },
		{ ".pb", CONVERT_FORMAT_PPROF },
		{ ".folded", CONVERT_FORMAT_FOLDED },
	};
	size_t i, n = strlen(output), k;

	for (i = 0; i < sizeof(by) / sizeof(by[0]); i++) {
		k = strlen(by[i].suffix);
		if (n > k && strcmp(output + n - k, by[i].suffix) == 0)
			return by[i].f;
	}
	return CONVERT_FORMAT_GPERFTOOLS;
}

/* Take option C (as getopt_long() returned it, with optarg) into OP. */
static void
parse_option(int c, char **argv, struct options *op)
{
	struct convert_opts *o = &op->conv;

	switch (c) {
	case 'o':
		op->output = optarg;
		break;
	case 'e':
		o->event = optarg;
		break;
	case 'p':
		free(op->pids);
		op->pids = parse_list("--pid", optarg, &o->npids);
		o->pids = op->pids;
		break;
	case 't':
		free(op->tids);
		op->tids = parse_list("--tid", optarg, &o->ntids);
		o->tids = op->tids;
		break;
	case 'c':
		o->comm = optarg;
		break;
	case 'P':
		o->period_us = message_parse_uint("--period-us", optarg, 1,
						  CPUPROF_MAX_PERIOD);
		break;
	case 'F':
		o->no_fixup = true;
		break;
	case 'M':
		o->max_stack = (unsigned)message_parse_uint("--max-stack",
							    optarg, 1, 65535);
		break;
	case 'Y':
		o->symfs = optarg;
		break;
	case 'b': {
		const char **nb = realloc(op->binaries,
					  (o->nbinaries + 1) * sizeof(*nb));

		if (nb == NULL)
			message_usage("out of memory");
		nb[o->nbinaries++] = optarg;
		op->binaries = nb;
		o->binaries = nb;
		break;
	}
	case 'k':
		o->vmlinux = optarg;
		break;
	case 'a':
		o->kallsyms = optarg;
		break;
	case 'Z':
		op->max_inflate = message_parse_uint("--max-inflate", optarg,
						     0, UINT64_MAX);
		break;
	case 'Q':
		o->order_bytes = (size_t)message_parse_uint("--queue-size",
							    optarg, 1,
							    SIZE_MAX);
		break;
	case 'D':
		op->debuginfod = true;
		break;
	case 'N':
		o->no_unwind = true;
		break;
	case 'O':
		o->off_cpu = true;
		o->off_cpu_blocked = optarg != NULL &&
				     message_parse_word("--off-cpu", optarg,
							off_cpu_kinds) == 1;
		break;
	case 'U':
		o->user_only = true;
		break;
	case 'K':
		o->kernel_only = true;
		break;
	case 'S':
		o->split = optarg == NULL
				   ? CONVERT_SPLIT_PID
				   : (enum convert_split)message_parse_word(
					     "--split", optarg, splits);
		break;
	case 'm':
		o->min_samples = message_parse_uint("--min-samples", optarg, 0,
						    UINT64_MAX);
		break;
	case 'v':
		op->verbose = true;
		break;
	case 'W':
		o->slot_bits = (unsigned)message_parse_word(
			"--slot-width", optarg, slot_widths);
		break;
	case 'w':
		o->weight = (enum convert_weight)message_parse_word(
			"--weight", optarg, weights);
		break;
	case 'B':
		o->byte_order = (enum convert_order)message_parse_word(
			"--byte-order", optarg, byte_orders);
		break;
	case 'f':
		o->format = (enum convert_format)message_parse_word(
			"--format", optarg, formats);
		op->format_set = true;
		break;
	case '1':
		o->folded.include_pid = true;
		break;
	case '2':
		o->folded.include_tid = true;
		break;
	case '3':
		o->folded.no_comm = true;
		break;
	case '4':
		o->folded.tidy_java = true;
		break;
	case '5':
		o->folded.annotate_kernel = true;
		break;
	case '6':
		o->folded.perf_style = message_parse_word(
			"--folded-style", optarg, folded_styles) != 0;
		break;
	case 'i':
		op->info = true;
		break;
	case 's':
		op->stats = true;
		break;
	case 'G':
		op->progress = true;
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

/* True if PATH starts as an ELF file does. */
static bool
is_elf(const char *path)
{
	unsigned char magic[4];
	FILE *f = fopen(path, "rb");
	bool elf;

	if (f == NULL)
		return false;
	elf = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
	      memcmp(magic, "\177ELF", sizeof(magic)) == 0;
	fclose(f);
	return elf;
}

/* The checks of the options together and of the arguments ARGV[optind]
 * on (ARGC in all), which become OP's output and inputs. */
static void
check_arguments(int argc, char **argv, struct options *op)
{
	const struct convert_opts *o = &op->conv;
	size_t k;

	if (o->symfs != NULL) {
		struct stat sb;

		if (stat(o->symfs, &sb) != 0 || !S_ISDIR(sb.st_mode))
			message_usage("--symfs: '%s' is not a directory",
				      o->symfs);
	}
	for (k = 0; k < o->nbinaries; k++) {
		struct stat sb;

		if (stat(o->binaries[k], &sb) != 0 || !S_ISDIR(sb.st_mode))
			message_usage("--binaries: '%s' is not a directory",
				      o->binaries[k]);
	}
	/* as perf's dso__load_vmlinux: a relative --vmlinux is under the
	 * --symfs directory, an absolute one is not */
	if (o->vmlinux != NULL && o->symfs != NULL && o->vmlinux[0] != '/') {
		size_t n = strlen(o->symfs) + strlen(o->vmlinux) + 2;

		op->vmlinux = malloc(n);
		if (op->vmlinux == NULL)
			message_usage("out of memory");
		snprintf(op->vmlinux, n, "%s/%s", o->symfs, o->vmlinux);
		op->conv.vmlinux = op->vmlinux;
	}
	if (o->vmlinux != NULL && access(o->vmlinux, R_OK) != 0)
		message_usage("--vmlinux: cannot read '%s'", o->vmlinux);
	if (o->vmlinux != NULL && !is_elf(o->vmlinux))
		message_usage("--vmlinux: '%s' is not an ELF file", o->vmlinux);
	if (o->kallsyms != NULL && access(o->kallsyms, R_OK) != 0)
		message_usage("--kallsyms: cannot read '%s'", o->kallsyms);
	if (o->user_only && o->kernel_only)
		message_usage("--user-only and --kernel-only exclude each "
			      "other");
	if (op->info) {
		if (argc - optind != 1 || op->output != NULL)
			message_usage("--info takes exactly one INPUT");
	} else if (op->output != NULL) {
		if (argc - optind < 1)
			message_usage("missing INPUT");
	} else if (argc - optind != 2) {
		message_usage(argc - optind < 2 ? "missing INPUT or OUTPUT"
						: "too many arguments");
	} else {
		op->output = argv[argc - 1];
		argc--;
	}
	if (op->output != NULL && op->output[0] == '\0')
		message_usage("OUTPUT is an empty name");
	op->inputs = argv + optind;
	op->ninputs = (size_t)(argc - optind);
	if (op->ninputs > 1 && o->split)
		message_usage("--split takes one INPUT");
	if (o->split && op->output != NULL)
		output_check_pattern(op->output, o->split);
	if (!op->format_set && op->output != NULL)
		op->conv.format = format_of(op->output);
	if (o->off_cpu) {
		if (o->event != NULL)
			message_usage("--off-cpu profiles sched:sched_switch "
				      "(not --event)");
		op->conv.event = "sched:sched_switch";
		op->conv.weight = CONVERT_WEIGHT_PERIOD;
	}
	/* stackcollapse.py refuses these too: the ids follow the comm */
	if (o->folded.no_comm &&
	    (o->folded.include_pid || o->folded.include_tid))
		message_usage("--include-pid and --include-tid need the comm "
			      "(not --no-comm)");
	for (k = 0; k < op->ninputs; k++)
		if (strcmp(op->inputs[k], "-") == 0 && op->ninputs > 1)
			message_usage("standard input ('-') can only be the "
				      "one INPUT");
}

/* Fill OP from the command line, or exit with a usage error. */
static void
parse_options(int argc, char **argv, struct options *op)
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
		{ "split", optional_argument, NULL, 'S' },
		{ "min-samples", required_argument, NULL, 'm' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "slot-width", required_argument, NULL, 'W' },
		{ "weight", required_argument, NULL, 'w' },
		{ "format", required_argument, NULL, 'f' },
		{ "include-pid", no_argument, NULL, '1' },
		{ "include-tid", no_argument, NULL, '2' },
		{ "no-comm", no_argument, NULL, '3' },
		{ "tidy-java", no_argument, NULL, '4' },
		{ "annotate-kernel", no_argument, NULL, '5' },
		{ "folded-style", required_argument, NULL, '6' },
		{ "info", no_argument, NULL, 'i' },
		{ "stats", no_argument, NULL, 's' },
		{ "progress", no_argument, NULL, 'G' },
		{ "max-stack", required_argument, NULL, 'M' },
		{ "max-inflate", required_argument, NULL, 'Z' },
		{ "queue-size", required_argument, NULL, 'Q' },
		{ "symfs", required_argument, NULL, 'Y' },
		{ "binaries", required_argument, NULL, 'b' },
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "kallsyms", required_argument, NULL, 'a' },
		{ "debuginfod", no_argument, NULL, 'D' },
		{ "no-unwind", no_argument, NULL, 'N' },
		{ "off-cpu", optional_argument, NULL, 'O' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(op, 0, sizeof(*op));
	op->max_inflate = INFLATE_RATIO_DEFAULT;
	opterr = 0;	/* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":o:e:p:t:c:f:isvqhV", longopts,
				NULL)) != -1)
		parse_option(c, argv, op);
	/* pprof passes perf_to_profile no options: there DEBUGINFOD_URLS
	 * set is the request */
	if (strcmp(progname, "perf_to_profile") == 0) {
		const char *urls = getenv("DEBUGINFOD_URLS");

		op->debuginfod = urls != NULL && *urls != '\0';
	}
	/* libdw asks the servers in DEBUGINFOD_URLS for what it cannot find
	 * on disk; a converter should not reach the network unasked. */
	if (!op->debuginfod)
		unsetenv("DEBUGINFOD_URLS");
	op->conv.debuginfo = op->debuginfod;
	op->conv.home = getenv("HOME");
	check_arguments(argc, argv, op);
}

/*
 * Run as perf_to_profile, the program pprof (Go's and the standalone
 * one) runs on a perf.data file it is given (internal/driver/fetch.go:
 * "perf_to_profile -i IN -o OUT -f"): take its options, as Google's
 * perf_data_converter does (-f: replace an existing OUTPUT), into AV
 * (room for 6), as perf2gperf's own for a pprof profile.  Returns the
 * number of arguments in AV.
 */
static int
perf_to_profile_args(int argc, char **argv, char **av)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	const char *in = NULL, *out = NULL;
	bool force = false;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:o:fhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'i':
			in = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			printf("Usage: %s -i INPUT -o OUTPUT [-f]\n"
			       "Convert a perf.data file into a pprof profile "
			       "(perf2gperf --format=pprof).\n\n"
			       "  -i INPUT       the perf.data file\n"
			       "  -o OUTPUT      the profile to write\n"
			       "  -f             replace an existing OUTPUT\n"
			       "  -h, --help     print this help and exit\n"
			       "  -V, --version  print the version and exit\n"
			       "\nThis is perf2gperf under the name pprof runs "
			       "on a perf.data file; see perf2gperf(1).\n",
			       progname);
			message_exit(0);
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
	if (in == NULL || out == NULL || optind != argc)
		message_usage("usage: %s -i INPUT -o OUTPUT [-f]", progname);
	if (!force && access(out, F_OK) == 0)
		message_usage("%s exists (-f replaces it)", out);
	optind = 1;
	av[0] = argv[0];
	av[1] = (char *)"--format=pprof";
	av[2] = (char *)"--";
	av[3] = (char *)in;
	av[4] = (char *)out;
	av[5] = NULL;
	return 5;
}

/* Name the input NAME, opened as PD, as the user did in what SIGBUS
 * prints: NAME itself (before it is opened) or, in a perf.data directory,
 * NAME/data.N (once it is).  Out of memory, the kernel's names do. */
static void
name_input(const char *name, const struct perfdata *pd)
{
	struct stat st;
	size_t i;
	dev_t dev;
	ino_t ino;
	char *s;

	if (pd == NULL) {
		if (strcmp(name, "-") != 0)
			signals_name_path(name, name);
		else if (fstat(STDIN_FILENO, &st) == 0)
			signals_name_file(st.st_dev, st.st_ino,
					  "(standard input)");
		return;
	}
	for (i = 0; i < perfdata_nparts(pd); i++) {
		const char *part = perfdata_part_name(pd, i);

		if (part == NULL ||
		    !input_identity(perfdata_part_input(pd, i), &dev, &ino))
			continue;
		s = malloc(strlen(name) + strlen(part) + 2);
		if (s == NULL)
			return;
		sprintf(s, "%s/%s", name, part);
		/* kept in the table of signals.c until the end */
		signals_name_file(dev, ino, s);
	}
}

/* Whether input PD, named NAME, can give off-CPU time; if not, say what
 * perf record needs, with ERR. */
static bool
off_cpu_possible(const struct perfdata *pd, const char *name,
		 struct p2g_error *err)
{
	const char *missing;

	if (offcpu_possible(pd, &missing))
		return true;
	p2g_fail(err, P2G_INVALID, P2G_NO_OFFSET, "no off-CPU time here: "
		 "record it with perf record %s", missing);
	message_error(name, err);
	return false;
}

/* Convert the open inputs PDS as OP asks, each profile to SINK, naming
 * the inputs through RP; ERR as main() made it.  The exit status. */
static int
convert(struct options *op, struct perfdata **pds, struct report *rp,
	struct output_sink *sink, struct p2g_error *err)
{
	struct convert_opts *o = &op->conv;
	struct convert_stats st;
	size_t k;

	/* (in pipe mode the events come with the data: see below) */
	for (k = 0; o->off_cpu && k < op->ninputs; k++)
		if (!perfdata_format(pds[k])->pipe_mode &&
		    !off_cpu_possible(pds[k], rp->names[k], err))
			return p2g_exit_status(err->status);
	sink->output = op->output;
	sink->split = o->split;
	sink->verbose = op->verbose;
	sink->stats = op->stats;
	sink->rp = rp;
	o->input_start = report_input_start;
	o->progress = report_progress;
	o->warn = report_warn;
	o->missing = report_missing;
	o->progress_ctx = rp;
	rp->o = o;
	rp->verbose = op->verbose || op->stats;
	/* without a handle, nothing is fetched: libdw's own client not
	 * either */
	if (op->debuginfod &&
	    (o->fetch = fetch_open(rp->name, report_fetch, rp)) == NULL)
		unsetenv("DEBUGINFOD_URLS");
	if (convert_run(pds, op->ninputs, o, output_write, sink, &st,
			err) < 0) {
		/* a pipe that lacked what off-CPU time needs */
		for (k = 0; o->off_cpu && k < op->ninputs; k++)
			if (perfdata_format(pds[k])->pipe_mode &&
			    !off_cpu_possible(pds[k], rp->names[k], err))
				return p2g_exit_status(err->status);
		message_error(sink->failed[0] != '\0'
				      ? sink->failed
				      : report_where(rp, err->part),
			      err);
		dbgfetch_free(o->fetch);
		o->fetch = NULL;
		return p2g_exit_status(err->status);
	}
	report_progress_end(rp, &st.samples);
	report_input(rp, 0);
	fetch_warn(rp->name, o->fetch);
	if (o->split)
		output_summary(sink, rp->name, &st, o);
	report_notes(rp, &st, o, pds[0]);
	if (op->recording)
		message_note(op->output, "%" PRIu64 " samples written",
			     st.samples_used);
	if (op->stats) {
		report_stats(rp, &st);
		fetch_stats(o->fetch);
	}
	dbgfetch_free(o->fetch);
	o->fetch = NULL;
	return 0;
}

int
main(int argc, char **argv)
{
	struct options op;
	struct report rp;
	struct perfdata_open_opts oo;
	struct output_sink sink;
	struct p2g_error err;
	struct perfdata **pds = NULL;
	struct record rec;
	static char *rec_names[] = { (char *)"(perf record)" };
	static char *rec_av[6];	/* the arguments of perf2gperf record, of
				   no arguments or of perf_to_profile; op
				   keeps pointers into them */
	const char *base = strrchr(argv[0], '/');
	size_t k;
	int ret = 2;

	base = base != NULL ? base + 1 : argv[0];
	progname = strcmp(base, "perf_to_profile") == 0 ? "perf_to_profile"
							 : "perf2gperf";
	/* before any input is mapped: see signals.h */
	signals_init(output_cleanup);
	fdlimit_raise();
	memset(&sink, 0, sizeof(sink));
	p2g_error_clear(&err);
	rec.pid = 0;
	if (strcmp(progname, "perf_to_profile") == 0) {
		int n = perf_to_profile_args(argc, argv, rec_av);

		parse_options(n, rec_av, &op);
		sink.in_place = true;
	} else if (argc > 1 && strcmp(argv[1], "record") == 0) {
		/* Ctrl-C is perf's: it ends the stream, and the profile of
		 * what was recorded is still written. */
		if (record_start(argc - 1, argv + 1, &rec) < 0)
			message_exit(2);
		rec_av[0] = argv[0];
		rec_av[1] = (char *)"-o";
		rec_av[2] = rec.output;
		rec_av[3] = rec.input;
		rec_av[4] = rec.off_cpu ? (char *)"--off-cpu" : NULL;
		parse_options(rec.off_cpu ? 5 : 4, rec_av, &op);
		op.recording = true;
	} else if (argc == 1 && access("perf.data", F_OK) == 0) {
		/* As perf report reads ./perf.data. */
		rec_av[0] = argv[0];
		rec_av[1] = (char *)"perf.data";
		rec_av[2] = (char *)"perf.prof";
		parse_options(3, rec_av, &op);
		message_note("perf.data", "no arguments: converting "
			     "./perf.data into ./perf.prof");
	} else {
		parse_options(argc, argv, &op);
	}
	report_init(&rp, op.recording ? rec_names : op.inputs);
	rp.hints = strcmp(progname, "perf_to_profile") != 0;
	if (!message_quiet && (op.progress || isatty(STDERR_FILENO)))
		rp.progress = op.progress ? 2 : 1;
	memset(&oo, 0, sizeof(oo));
	oo.max_inflate = op.max_inflate;
	oo.warn = report_warn;
	oo.warn_ctx = &rp;
	oo.spool_progress = report_spool;
	oo.progress_ctx = &rp;
	pds = calloc(op.ninputs, sizeof(*pds));
	if (pds == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto out;
	}
	for (k = 0; k < op.ninputs; k++) {
		report_input(&rp, k);
		name_input(op.inputs[k], NULL);
		pds[k] = perfdata_open_with(op.inputs[k], &oo, &err);
		if (pds[k] == NULL) {
			message_error(report_where(&rp, err.part), &err);
			ret = p2g_exit_status(err.status);
			goto out;
		}
		name_input(op.inputs[k], pds[k]);
		if (output_add_identities(&sink, pds[k]) < 0) {
			fprintf(stderr, "%s: out of memory\n", progname);
			goto out;
		}
	}
	report_progress_end(&rp, NULL);
	report_input(&rp, 0);
	if (op.info)
		ret = info_print(pds[0], &rp);
	else
		ret = convert(&op, pds, &rp, &sink, &err);
out:
	output_remove_tmp();
	for (k = 0; pds != NULL && k < op.ninputs; k++)
		perfdata_close(pds[k]);
	free(pds);
	if (op.recording)
		ret = record_finish(&rec, ret);
	output_sink_release(&sink);
	report_free(&rp);
	free(op.pids);
	free(op.tids);
	free(op.binaries);
	free(op.vmlinux);
	message_exit(ret);
}
