/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the whole perf.data path (file or pipe mode, decided
 * by the input's own header) through perfdata_open() and convert_run(),
 * each profile written to /dev/null, as the tool runs it.  The input is served from a memory file so that
 * the reader's own I/O code is exercised too.
 */
#include "config.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "convert.h"
#include "cpuprof.h"
#include "perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	static int null = -1;

	(void)ctx;
	if (null < 0)
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	return cpuprof_write(r->profile, null, err);
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

	if (fd < 0)
		fd = memfd_create("fuzz-perfdata", 0);
	if (fd < 0 || ftruncate(fd, 0) != 0 ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	pd = perfdata_open(path, ignore, NULL, &err);
	if (pd == NULL)
		return 0;
	(void)convert_run(&pd, 1, &o, sink, NULL, &st, &err);
	perfdata_close(pd);
	return 0;
}
