/* SPDX-License-Identifier: MIT */
/*
 * How much of a perf.data file its reader needs, judged from its first
 * bytes: what a spooled input (standard input, an inflated .gz) must hold
 * before perfdata_open() reads it, so that a file cannot make the spool
 * grow past what its own header declares.
 */
#ifndef P2G_EXTENT_H
#define P2G_EXTENT_H

#include <stdint.h>

/*
 * The bytes of a perf.data file that perfdata_open() and the reading of
 * its data section can use, judged from the first HAVE bytes, which FD
 * holds from offset 0: the end of the header, of the attrs and their ids,
 * of the data section and the feature table, and of the feature sections
 * (tracing data aside: it is never read).  Each is known once the bytes
 * before it are in, so the answer grows as HAVE does; it is at most HAVE
 * for a file that is not a perf.data file (whose header perfdata_open()
 * then refuses), and UINT64_MAX when all of the file may be read (pipe
 * mode, or a data size of 0: a file perf did not finish).
 */
uint64_t perfdata_extent(int fd, uint64_t have);

#endif
