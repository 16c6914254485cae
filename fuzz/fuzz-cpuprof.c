/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the gperftools CPU profile reader behind gperfcheck,
 * and a write of whatever it accepted (reader and writer must agree).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuprof.h"
#include "fuzz-subr.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct p2g_error err;
	struct profile p;
	off_t len;
	unsigned char *back;

	p2g_error_clear(&err);
	profile_init(&p);
	if (cpuprof_read(data, size, &p, &err) == 0) {
		/* A valid profile written again must be the same bytes. */
		if (fuzz_sink(&fd, "fuzz-cpuprof") >= 0 &&
		    cpuprof_write(&p, fd, &err) == 0) {
			len = lseek(fd, 0, SEEK_END);
			back = malloc(len > 0 ? (size_t)len : 1);
			if (back != NULL &&
			    pread(fd, back, (size_t)len, 0) == len &&
			    ((size_t)len != size ||
			     memcmp(back, data, size) != 0))
				abort();
			free(back);
		}
	}
	profile_release(&p);
	return 0;
}
