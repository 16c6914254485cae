/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: gperfcheck's modes over one profile served from a
 * memory file.  The modes live in src/tools/gperfcheck.c as static
 * functions of the front end, so that file is compiled into this one
 * (its main() renamed) and its own check_file() and do_compare() are
 * called: under each rule set (default, --strict, --lenient), with
 * --dump, --summary, --json, the warnings and every kind of assertion
 * at once, then again as TAP; then --compare (shares, as TAP and as
 * JSON) and --compare-stacks of the input with itself and with a small
 * valid profile, with and without --tolerance.
 */
#include "config.h"

int gperfcheck_main(int argc, char **argv);

#define main gperfcheck_main
#include "gperfcheck.c"
#undef main

#include "fuzz-subr.h"

/* A valid profile to compare with: 64-bit little-endian, period 1000
 * us, two records (1 x {0x401136, 0x401192}, 2 x {0x40117a}), the
 * trailer and one maps line. */
static const uint64_t ref_slots[] = {
	0, 3, 0, 1000, 0,
	1, 2, 0x401136, 0x401192,
	2, 1, 0x40117a,
	0, 1, 0,
};
static const char ref_maps[] =
	"00400000-00402000 r-xp 00000000 00:00 0 /nonexistent/hot\n";

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1, ref_fd = -1;
	static const enum cpuprof_mode modes[] = {
		CPUPROF_DEFAULT, CPUPROF_STRICT, CPUPROF_LENIENT,
	};
	static struct check checks[] = {
		{ .kind = CHECK_MIN_SAMPLES, .n = 2 },
		{ .kind = CHECK_MAX_SAMPLES, .n = 1000 },
		{ .kind = CHECK_PERIOD, .n = 1000 },
		{ .kind = CHECK_FUNCTION, .name = "main", .have_min = true,
		  .min_share = 10 },
		{ .kind = CHECK_FUNCTION, .name = "main", .flat = true,
		  .have_max = true, .max_share = 50 },
		{ .kind = CHECK_MAPPING, .name = "/nonexistent/hot",
		  .have_min = true, .min_share = 10 },
		{ .kind = CHECK_MAPPING, .name = "hot" },
		{ .kind = CHECK_MAPPING, .name = "hto", .have_max = true,
		  .max_share = 100 },
		{ .kind = CHECK_FUNCTION, .name = "mian", .have_max = true,
		  .max_share = 100 },
		{ .kind = CHECK_SYMBOLIZABLE, .percent = 50 },
	};
	char path[64], ref[64];
	uint8_t refbuf[sizeof(ref_slots) + sizeof(ref_maps) - 1];
	struct options op;
	size_t m;

	memcpy(refbuf, ref_slots, sizeof(ref_slots));
	memcpy(refbuf + sizeof(ref_slots), ref_maps, sizeof(ref_maps) - 1);
	if (fuzz_file(&fd, "fuzz-gperfcheck", data, size, path,
		      sizeof(path)) == NULL ||
	    fuzz_file(&ref_fd, "fuzz-gperfcheck-ref", refbuf, sizeof(refbuf),
		      ref, sizeof(ref)) == NULL)
		return 0;
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		memset(&op, 0, sizeof(op));
		op.mode = modes[m];
		op.dump = op.summary = op.json = true;
		op.checks = checks;
		op.nchecks = sizeof(checks) / sizeof(checks[0]);
		(void)check_file(path, &op, m == 0);
		op.json = false;
		op.report.tap = true;
		(void)check_file(path, &op, false);
		/* --compare (shares, then as JSON with a tolerance and a
		 * confidence), --compare-stacks */
		op.tolerance = -1;
		(void)do_compare(path, path, &op);
		(void)do_compare(path, ref, &op);
		op.tolerance = 25;
		op.confidence = 80;
		op.report.tap = false;
		op.json = true;
		(void)do_compare(ref, path, &op);
		op.json = false;
		op.compare_stacks = true;
		op.tolerance = 0;
		(void)do_compare(path, ref, &op);
		op.tolerance = 25;
		(void)do_compare(ref, path, &op);
	}
	fflush(stdout);
	return 0;
}
