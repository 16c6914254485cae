/* SPDX-License-Identifier: MIT */
/*
 * The descriptors a tool may hold: a perf.data directory has one file per
 * CPU of the recording, all open at once, and a profile's binaries stay
 * open while their DWARF is read (one descriptor each), where a
 * system-wide recording maps a thousand of them, over the usual soft
 * limit of 1024.
 */
#ifndef P2G_FDLIMIT_H
#define P2G_FDLIMIT_H

/* Raise the soft limit on open files (RLIMIT_NOFILE) to the hard one;
 * quietly leave it as it is if that fails.  A file that still cannot be
 * opened for want of descriptors is an error, not a missing file. */
void fdlimit_raise(void);

#endif
