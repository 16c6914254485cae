/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the whole perf.data path (file or pipe mode, decided
 * by the input's own header) through perfdata_open() and convert_run(),
 * each profile made written into a memory file, as the tool writes it.
 * The size of the input picks some of the options (one profile per
 * process, the period as weight, 32-bit slots), so that the corpus
 * reaches them; the reading runs on one thread, so that an input covers
 * the same code on every run.  Binaries for DWARF unwinding are looked
 * for under $P2G_FUZZ_SYMFS only (fuzz/run-fuzzers.sh puts
 * testdata/dwarfprog there), never at the paths the input names.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "convert.h"
#include "cpuprof.h"
#include "fuzz-subr.h"
#include "perfdata.h"

static const char *symfs = "/nonexistent";

int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *s = getenv("P2G_FUZZ_SYMFS");

	(void)argc;
	(void)argv;
	if (s != NULL && *s != '\0')
		symfs = s;
	return 0;
}

/* Warnings are made (their text formatted) and dropped. */
static void
ignore(void *ctx, const char *part, uint64_t off, const char *msg)
{
	(void)ctx;
	(void)part;
	(void)off;
	(void)msg;
}

static int
sink(void *ctx, const struct convert_result *r, struct p2g_error *err)
{
	static int out = -1;

	(void)ctx;
	if (fuzz_sink(&out, "fuzz-perfdata-out") < 0)
		return 0;
	return cpuprof_write(r->profile, out, err);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	struct p2g_error err;
	struct perfdata *pd;
	struct convert_opts o = { 0 };
	struct convert_stats st;

	p2g_error_clear(&err);
	if (fuzz_file(&fd, "fuzz-perfdata", data, size, path,
		      sizeof(path)) == NULL)
		return 0;
	pd = perfdata_open(path, ignore, NULL, &err);
	if (pd == NULL)
		return 0;
	o.warn = ignore;
	o.symfs = symfs;
	/* odd sizes split, by process, thread or command */
	o.split = size & 1 ? (enum convert_split)(CONVERT_SPLIT_PID +
						  (size >> 3) % 3)
			   : CONVERT_SPLIT_NONE;
	o.weight = size & 2 ? CONVERT_WEIGHT_PERIOD : CONVERT_WEIGHT_SAMPLES;
	o.slot_bits = size & 4 ? 32 : 0;
	(void)convert_run(&pd, 1, &o, sink, NULL, &st, &err);
	perfdata_close(pd);
	return 0;
}
