/* SPDX-License-Identifier: MIT */
/*
 * blowup KIND N: write to standard output a little-endian file-mode
 * perf.data whose size grows linearly with N but which a reader that does
 * work quadratic in N (or in N times another count of the file) takes
 * long over.  KIND is one of:
 *
 *   mmaps     one process with N executable mappings, in a scattered
 *             order of addresses, every fourth one replacing (at the same
 *             start, or shifted by half a page) one mapped before, then
 *             samples in an eighth of them;
 *   datamaps  the same, but the mappings are of data (not executable)
 *             and there is one sample, in a program mapped after them:
 *             the work is the address space's, not the profile's;
 *   procs     N processes (FORK of pid 1, then COMM with the exec bit),
 *             each mapping its own program at 0x400000 and taking one
 *             sample there: N places, N - 1 of them relocated;
 *   places    one process mapping N programs in turn at 0x400000, with a
 *             sample after each: N address spaces, N places;
 *   buildids  one process with N libraries side by side, each with a
 *             sample, and a build id for each in the header (HEADER_BUILD_ID);
 *   forks     one process with N / 4 executable libraries side by side
 *             and a sample, then N processes forked from it, each
 *             mapping its own program over the first library, every
 *             sixteenth with a sample there: N address spaces that share
 *             the parent's mappings;
 *   remaps    one process with N / 2 executable libraries side by side,
 *             then N / 2 times a sample in one of them and a new library
 *             over it: N / 2 address spaces with samples, each a copy
 *             of the one before but for one mapping;
 *   groups    N events (software cpu-clock) and N event groups, each of
 *             all of them (HEADER_GROUP_DESC), a COMM record: what
 *             --info prints for the groups grows as N * N;
 *   unmapped  one process with N executable libraries side by side and
 *             N samples in none of them (beyond the last): a profile of
 *             N maps lines and N PCs that no line holds;
 *   samples   one process (pid 1000) with one program and N samples in
 *             it, for the filters (--pid, --tid);
 *   splitmaps one process with N executable libraries and no sample,
 *             then N / 64 processes, each with a program and a sample:
 *             N / 64 profiles with --split, among N mappings.
 *
 * A test tool (tests/run-blowup.sh), independent of the library.  Exit
 * status 2 for usage and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkbuf.h"

#define RECORD_MMAP 1
#define RECORD_COMM 3
#define RECORD_FORK 7
#define RECORD_SAMPLE 9
#define MISC_USER 2
#define MISC_COMM_EXEC (1 << 13)
#define MISC_MMAP_DATA (1 << 13)
#define MISC_BUILD_ID_SIZE (1 << 15)
#define FEAT_BUILD_ID 2
#define FEAT_GROUP_DESC 17

#define FILE_HEADER 104
#define ATTR_SIZE 64		/* perf_event_attr, PERF_ATTR_SIZE_VER0 */
#define SAMPLE_TYPE (1 | 2 | 256)	/* IP, TID, PERIOD */

static void
mmap_rec(struct buf *b, uint32_t pid, uint64_t start, uint64_t len,
	 const char *path, int data)
{
	put_header(b, RECORD_MMAP, MISC_USER | (data ? MISC_MMAP_DATA : 0),
	       8 + 8 + 24 + name_size(path, 8));
	put32(b, pid);
	put32(b, pid);
	put64(b, start);
	put64(b, len);
	put64(b, 0);
	put_name(b, path, 8);
}

static void
comm_rec(struct buf *b, uint32_t pid, const char *comm, int exec)
{
	put_header(b, RECORD_COMM, MISC_USER | (exec ? MISC_COMM_EXEC : 0),
	       8 + 8 + name_size(comm, 8));
	put32(b, pid);
	put32(b, pid);
	put_name(b, comm, 8);
}

static void
fork_rec(struct buf *b, uint32_t pid, uint32_t ppid)
{
	put_header(b, RECORD_FORK, 0, 8 + 16 + 8);
	put32(b, pid);
	put32(b, ppid);
	put32(b, pid);
	put32(b, ppid);
	put64(b, 0);
}

static void
sample_rec(struct buf *b, uint32_t pid, uint64_t ip)
{
	put_header(b, RECORD_SAMPLE, MISC_USER, 8 + 24);
	put64(b, ip);
	put32(b, pid);
	put32(b, pid);
	put64(b, 1);
}

static void
lib_name(char *s, size_t size, unsigned long i)
{
	snprintf(s, size, "/usr/lib/blowup/lib%lu.so", i);
}

int
main(int argc, char **argv)
{
	struct buf data = { NULL, 0, 0 }, feat = { NULL, 0, 0 };
	struct buf out = { NULL, 0, 0 };
	unsigned long n, i, k, nattrs = 1;
	uint64_t features = 0;
	const char *kind;
	char path[64], *end;
	size_t attrs_at, data_at, table_at, nfeat = 0;

	if (argc != 3 || (n = strtoul(argv[2], &end, 10)) == 0 ||
	    *end != '\0' || n > 10000000) {
		fprintf(stderr, "usage: blowup mmaps|datamaps|procs|places|"
			"buildids|forks|remaps|groups|unmapped|samples|"
			"splitmaps N\n"
			"  (1 <= N <= 10000000)\n");
		return 2;
	}
	kind = argv[1];
	if (strcmp(kind, "mmaps") == 0 || strcmp(kind, "datamaps") == 0) {
		/* Page I goes to slot I * P mod N: P prime to N scatters. */
		unsigned long p = 7919;
		int dm = kind[0] == 'd';

		while (n % p == 0)
			p += 2;
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n; i++) {
			uint64_t slot = (uint64_t)(i * p % n);
			uint64_t start = 0x10000000 + slot * 0x4000;

			if (i % 4 == 3) {
				/* over mapping I - 2: the same start, or half
				 * a page on */
				slot = (uint64_t)((i - 2) * p % n);
				start = 0x10000000 + slot * 0x4000 +
					(i % 8 == 7 ? 0x800 : 0);
			}
			lib_name(path, sizeof(path), i);
			mmap_rec(&data, 1000, start, 0x2000, path, dm);
		}
		if (dm) {
			mmap_rec(&data, 1000, 0x400000, 0x1000, "/usr/bin/blowup",
				 0);
			sample_rec(&data, 1000, 0x400100);
		}
		/* The samples after the mappings: a sample makes the next
		 * change of the space copy it. */
		for (i = 0; i < n && !dm; i++)
			if (i % 16 == 1 || i % 16 == 6)
				sample_rec(&data, 1000, 0x10000000 + 0x100 +
					   (uint64_t)(i * p % n) * 0x4000);
	} else if (strcmp(kind, "procs") == 0) {
		comm_rec(&data, 1, "init", 1);
		for (i = 0; i < n; i++) {
			uint32_t pid = (uint32_t)(2 + i);

			fork_rec(&data, pid, 1);
			comm_rec(&data, pid, "prog", 1);
			snprintf(path, sizeof(path), "/usr/bin/blowup%lu", i);
			mmap_rec(&data, pid, 0x400000, 0x1000, path, 0);
			sample_rec(&data, pid, 0x400100);
		}
	} else if (strcmp(kind, "forks") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n / 4 + 1; i++) {
			lib_name(path, sizeof(path), i);
			mmap_rec(&data, 1000, 0x10000000 + i * 0x2000, 0x2000,
				 path, 0);
		}
		sample_rec(&data, 1000, 0x10000000 + 8);
		for (i = 0; i < n; i++) {
			uint32_t pid = (uint32_t)(2000 + i);

			fork_rec(&data, pid, 1000);
			snprintf(path, sizeof(path), "/usr/bin/blowup%lu", i);
			mmap_rec(&data, pid, 0x10000000, 0x1000, path, 0);
			if (i % 16 == 0)
				sample_rec(&data, pid, 0x10000100);
		}
	} else if (strcmp(kind, "remaps") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n / 2; i++) {
			lib_name(path, sizeof(path), i);
			mmap_rec(&data, 1000, 0x10000000 + i * 0x2000, 0x2000,
				 path, 0);
		}
		for (i = 0; i < n / 2; i++) {
			uint64_t start = 0x10000000 + i * 0x2000;

			sample_rec(&data, 1000, start + 8);
			snprintf(path, sizeof(path), "/usr/bin/blowup%lu", i);
			mmap_rec(&data, 1000, start, 0x2000, path, 0);
		}
	} else if (strcmp(kind, "places") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "/usr/bin/blowup%lu", i);
			mmap_rec(&data, 1000, 0x400000, 0x1000, path, 0);
			sample_rec(&data, 1000, 0x400100);
		}
	} else if (strcmp(kind, "buildids") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n; i++) {
			lib_name(path, sizeof(path), i);
			mmap_rec(&data, 1000, 0x10000000 + i * 0x2000, 0x2000,
				 path, 0);
			sample_rec(&data, 1000, 0x10000000 + i * 0x2000 + 8);
		}
		/* perf's build_id_event: header, pid, 20 bytes of id and
		 * its size in a 24-byte field, the name padded to 64 */
		for (i = 0; i < n; i++) {
			lib_name(path, sizeof(path), i);
			put_header(&feat, 0, MISC_USER | MISC_BUILD_ID_SIZE,
			       8 + 4 + 24 + name_size(path, 64));
			put32(&feat, 1000);
			for (k = 0; k < 20; k++)
				put(&feat, &(unsigned char){
					(unsigned char)(i >> (8 * (k % 4)) ^ k) },
				    1);
			put32(&feat, 20);
			put_name(&feat, path, 64);
		}
		features |= 1ULL << FEAT_BUILD_ID;
		nfeat = 1;
	} else if (strcmp(kind, "unmapped") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n; i++) {
			lib_name(path, sizeof(path), i);
			mmap_rec(&data, 1000, 0x10000000 + i * 0x2000, 0x2000,
				 path, 0);
		}
		for (i = 0; i < n; i++)
			sample_rec(&data, 1000, 0x10000000 + (n + i) * 0x2000);
	} else if (strcmp(kind, "samples") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		mmap_rec(&data, 1000, 0x400000, 0x1000, "/usr/bin/blowup", 0);
		for (i = 0; i < n; i++)
			sample_rec(&data, 1000, 0x400100 + i % 64);
	} else if (strcmp(kind, "splitmaps") == 0) {
		comm_rec(&data, 1000, "blowup", 1);
		for (i = 0; i < n; i++) {
			lib_name(path, sizeof(path), i);
			mmap_rec(&data, 1000, 0x10000000 + i * 0x2000, 0x2000,
				 path, 0);
		}
		for (i = 0; i < n / 64; i++) {
			uint32_t pid = (uint32_t)(2000 + i);

			comm_rec(&data, pid, "prog", 1);
			snprintf(path, sizeof(path), "/usr/bin/blowup%lu", i);
			mmap_rec(&data, pid, 0x400000, 0x1000, path, 0);
			sample_rec(&data, pid, 0x400100);
		}
	} else if (strcmp(kind, "groups") == 0) {
		nattrs = n;
		comm_rec(&data, 1000, "blowup", 1);
		put32(&feat, (uint32_t)n);
		for (i = 0; i < n; i++) {
			put32(&feat, 16);
			put_name(&feat, "{anon_group}", 8);
			put32(&feat, 0);
			put32(&feat, (uint32_t)n);
		}
		features |= 1ULL << FEAT_GROUP_DESC;
		nfeat = 1;
	} else {
		fprintf(stderr, "blowup: unknown kind %s\n", kind);
		return 2;
	}

	attrs_at = FILE_HEADER;
	data_at = attrs_at + nattrs * (ATTR_SIZE + 16);
	table_at = data_at + data.len;
	put(&out, "PERFILE2", 8);
	put64(&out, FILE_HEADER);
	put64(&out, ATTR_SIZE + 16);
	put64(&out, attrs_at);
	put64(&out, nattrs * (ATTR_SIZE + 16));
	put64(&out, data_at);
	put64(&out, data.len);
	put64(&out, 0);
	put64(&out, 0);
	put64(&out, features);
	put64(&out, 0);
	put64(&out, 0);
	put64(&out, 0);
	for (i = 0; i < nattrs; i++) {
		put32(&out, 1);		/* PERF_TYPE_SOFTWARE */
		put32(&out, ATTR_SIZE);
		put64(&out, 0);		/* cpu-clock */
		put64(&out, 1);		/* sample_period */
		put64(&out, SAMPLE_TYPE);
		put64(&out, 0);		/* read_format */
		put64(&out, 1ULL << 8 | 1ULL << 9);	/* mmap, comm */
		put32(&out, 0);
		put32(&out, 0);
		put64(&out, 0);
		put64(&out, 0);		/* no ids */
		put64(&out, 0);
	}
	put(&out, data.p, data.len);
	if (nfeat > 0) {
		put64(&out, table_at + 16);
		put64(&out, feat.len);
		put(&out, feat.p, feat.len);
	}
	if (put_stdout(&out, "blowup") != 0)
		return 2;
	free(out.p);
	free(data.p);
	free(feat.p);
	return 0;
}
