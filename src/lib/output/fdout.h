/* SPDX-License-Identifier: MIT */
/*
 * Buffered writing to a file descriptor for the writers of the text and
 * protobuf formats: the first failure is kept in the caller's error, and
 * later writes do nothing.  And the loop that writes a whole buffer out,
 * which the gperftools writer (with its own buffer) uses too.
 */
#ifndef P2G_FDOUT_H
#define P2G_FDOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

struct fdout {
	int fd;
	bool failed;
	struct p2g_error *err;
	size_t len;
	unsigned char buf[64 * 1024];
};

/* Write all N bytes at P to FD, again after an interrupted write():
 * 0, or -1 with ERR set ("write: " and the system's reason).  For the
 * writers that keep their own buffer. */
int fdout_write_all(int fd, const void *p, size_t n, struct p2g_error *err);

/* Start writing to FD, failures reported in ERR. */
void fdout_init(struct fdout *w, int fd, struct p2g_error *err);

/* Append N bytes at P. */
void fdout_bytes(struct fdout *w, const void *p, size_t n);

/* Write out what is buffered: 0, or -1 (ERR set) if any write failed. */
int fdout_flush(struct fdout *w);

#endif
