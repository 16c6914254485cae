/* SPDX-License-Identifier: MIT */
/*
 * The gperftools CPU profile format (docs/cpuprofile-fileformat.html):
 * a header of five slots 0,3,0,period,0, records {count, n, pc[n]}, the
 * trailer 0,1,0, then the text of the mapped objects.  Slots are 4 or 8
 * bytes in the profiled machine's byte order.  This file writes a struct
 * profile in that format and reads one back, checking the rules that both
 * pprof implementations need (see doc/gperfcheck-rules.md).
 */
#ifndef P2G_CPUPROF_H
#define P2G_CPUPROF_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "profile.h"

/* Largest period perl pprof reads (ReadCPUProfile rejects more). */
#define CPUPROF_MAX_PERIOD (1ULL << 32)

/* Longest maps line Go pprof reads (bufio's default token size). */
#define CPUPROF_MAX_LINE (64 * 1024)

/*
 * Write P to FD: 64- or 32-bit slots as p->slot_bytes says, in
 * p->big_endian order.  An address or count that does not fit a 32-bit
 * slot is P2G_UNSUPPORTED naming it; a failed write is P2G_IO.
 */
int cpuprof_write(const struct profile *p, int fd, struct p2g_error *err);

/*
 * Parse the LEN bytes at BUF as a CPU profile into P (which must be
 * initialised and empty), detecting slot width and byte order from the
 * header.  Returns 0 when the file follows the default rules, or -1 with
 * ERR naming the first defect and its offset (P keeps what was read
 * before it).
 */
int cpuprof_read(const unsigned char *buf, size_t len, struct profile *p,
		 struct p2g_error *err);

/* Which rules to check (doc/gperfcheck-rules.md). */
enum cpuprof_mode {
	CPUPROF_DEFAULT,	/* what both pprofs need: cpuprof_read() */
	CPUPROF_STRICT,		/* and the gperftools maintainers' maps rules */
	CPUPROF_LENIENT,	/* only what the format document requires */
};

/* cpuprof_read() with the rules of MODE. */
int cpuprof_read_mode(const unsigned char *buf, size_t len, struct profile *p,
		      enum cpuprof_mode mode, struct p2g_error *err);

/* Bytes of a file that cpuprof_check_start() needs: a 64-bit header. */
#define CPUPROF_START_BYTES 40

/*
 * Check the first LEN bytes of a file (CPUPROF_START_BYTES, or all of a
 * shorter file) before the rest is read: 0 if they can start a profile
 * of MODE, or a neighbouring format (cpuprof_neighbour()); else -1 with
 * ERR as cpuprof_read_mode() would report the whole file.
 */
int cpuprof_check_start(const unsigned char *buf, size_t len,
			enum cpuprof_mode mode, struct p2g_error *err);

/* What cpuprof_neighbour() says of a perf.data file (the pointer). */
#define CPUPROF_PERFDATA "this is a perf.data file"

/*
 * What the LEN bytes at BUF are if they are a neighbouring format rather
 * than a legacy CPU profile (gzip data, a perf.data file in either byte
 * order, file or pipe mode, a heap or contention profile, perl pprof's
 * raw form, a protobuf profile), or NULL.
 */
const char *cpuprof_neighbour(const unsigned char *buf, size_t len);

/*
 * Check one maps line (without its newline) as Go and perl pprof read it.
 * NULL for a line they read as meant: blank, a mapping line that starts
 * with an address range (/proc/maps or the brief form), or a key=value
 * line such as build=; otherwise what is wrong with it.
 */
const char *cpuprof_check_maps_line(const char *line, size_t len);

/* The slot width, 32 or 64 bits, that libprofiler writes on a machine of
 * architecture ARCH (as uname -m and perf's header name it; NULL:
 * unknown, 64). */
unsigned cpuprof_slot_bits(const char *arch);

#endif
