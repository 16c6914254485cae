/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: what perf2gperf --info reads, over a perf.data input
 * served from a memory file: the sample counts of the reading pipeline
 * (convert_count()) and every feature section perfdata decodes
 * (feature.h), the runs of the memory nodes' bitmaps included.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "convert.h"
#include "feature.h"
#include "fuzz-subr.h"
#include "perfdata.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];
	struct p2g_error err;
	struct perfdata *pd;
	struct convert_opts o;
	struct convert_counts counts;
	struct perf_features ft;
	uint64_t pos, from, to;
	size_t i;

	p2g_error_clear(&err);
	if (fuzz_file(&fd, "fuzz-info", data, size, path,
		      sizeof(path)) == NULL)
		return 0;
	pd = perfdata_open(path, NULL, NULL, &err);
	if (pd == NULL)
		return 0;
	memset(&o, 0, sizeof(o));
	o.no_unwind = true;
	(void)convert_count(pd, &o, &counts, &err);
	if (feature_read(pd, &ft) == 0)
		for (i = 0; i < ft.mem.n; i++)
			for (pos = 0; feature_mem_run(&ft, &ft.mem.v[i], &pos,
						      &from, &to);)
				;
	feature_release(&ft);
	convert_counts_release(&counts);
	perfdata_close(pd);
	return 0;
}
