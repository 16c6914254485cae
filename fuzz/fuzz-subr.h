/* SPDX-License-Identifier: MIT */
/*
 * What the libFuzzer targets share: each input is served as a file, from
 * a memory file (memfd) reached by its /proc/self/fd path, so that the
 * code under test opens and reads it as it does a real file and nothing
 * is left behind on disk.  The targets print nothing of their own; what
 * the tools' code prints goes where standard output and standard error
 * go (fuzz/run-fuzzers.sh runs them with -close_fd_mask=3).
 */
#ifndef P2G_FUZZ_SUBR_H
#define P2G_FUZZ_SUBR_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A memory file (created on first use in *FD) that holds the SIZE bytes
 * at DATA and nothing else; its path in PATH (PATHSIZE bytes), or NULL
 * when it cannot be made. */
static inline const char *
fuzz_file(int *fd, const char *name, const uint8_t *data, size_t size,
	  char *path, size_t pathsize)
{
	if (*fd < 0)
		*fd = memfd_create(name, 0);
	if (*fd < 0 || ftruncate(*fd, 0) != 0 ||
	    (size > 0 && pwrite(*fd, data, size, 0) != (ssize_t)size))
		return NULL;
	snprintf(path, pathsize, "/proc/self/fd/%d", *fd);
	return path;
}

/* An empty memory file (created on first use in *FD) to write into:
 * its descriptor, or -1. */
static inline int
fuzz_sink(int *fd, const char *name)
{
	if (*fd < 0)
		*fd = memfd_create(name, 0);
	if (*fd < 0 || ftruncate(*fd, 0) != 0 || lseek(*fd, 0, SEEK_SET) != 0)
		return -1;
	return *fd;
}

#endif
