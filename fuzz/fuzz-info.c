/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: perf2gperf --info (src/tools/info.c): the header
 * summary, every feature section printer and the sample counts, over a
 * perf.data input served from a memory file.
 */
#include "config.h"

#include <stdint.h>

#include "fuzz-subr.h"
#include "info.h"
#include "perfdata.h"
#include "report.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char *names[] = { "fuzz-info", NULL };
	char path[64];
	struct p2g_error err;
	struct perfdata *pd;
	struct report rp;

	p2g_error_clear(&err);
	if (fuzz_file(&fd, "fuzz-info", data, size, path,
		      sizeof(path)) == NULL)
		return 0;
	report_init(&rp, names);
	rp.name = names[0];
	pd = perfdata_open(path, report_warn, &rp, &err);
	if (pd == NULL)
		return 0;
	(void)info_print(pd, &rp);
	fflush(stdout);
	perfdata_close(pd);
	return 0;
}
