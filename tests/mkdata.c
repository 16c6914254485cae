/* SPDX-License-Identifier: MIT */
/*
 * mkdata: write to standard output a little-endian file-mode perf.data
 * (one cpu-clock event, samples of IP, TID, PERIOD and CALLCHAIN) with the records
 * that standard input lists, one a line, strings with \xHH escapes (\\
 * for a backslash), numbers in C syntax:
 *
 *   event NAME                 the event's name (HEADER_EVENT_DESC)
 *   comm PID NAME              a COMM record (exec) of process PID
 *   mmap PID START LEN PGOFF PATH   an executable MMAP record
 *   sample PID IP...           a user-space sample, its callchain
 *                              these addresses, the leaf first
 *
 * A test tool for hostile names and counts, independent of the library.
 * Exit status 2 for usage and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkbuf.h"

#define FILE_HEADER 104
#define ATTR_SIZE 64
#define FEAT_EVENT_DESC 12

static void
attr(struct buf *b)
{
	put32(b, 1);			/* PERF_TYPE_SOFTWARE */
	put32(b, ATTR_SIZE);
	put64(b, 0);			/* cpu-clock */
	put64(b, 1);			/* sample_period */
	put64(b, 1 | 2 | 32 | 256);	/* IP, TID, CALLCHAIN, PERIOD */
	put64(b, 0);
	put64(b, 1ULL << 8 | 1ULL << 9);	/* mmap, comm */
	put32(b, 0);
	put32(b, 0);
	put64(b, 0);
}

int
main(void)
{
	struct buf data = { NULL, 0, 0 }, feat = { NULL, 0, 0 };
	struct buf out = { NULL, 0, 0 };
	static char line[1 << 20], esc[1 << 20], s[1 << 20];
	unsigned long long a, b, c;
	unsigned pid;
	uint64_t features = 0;

	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (sscanf(line, "event %s", esc) == 1) {
			unescape(s, esc);
			put32(&feat, 1);
			put32(&feat, ATTR_SIZE);
			attr(&feat);
			put32(&feat, 0);	/* ids */
			put32(&feat, (uint32_t)name_size(s, 8));
			put_name(&feat, s, 8);
			features |= 1ULL << FEAT_EVENT_DESC;
		} else if (sscanf(line, "comm %u %s", &pid, esc) == 2) {
			unescape(s, esc);
			put_header(&data, 3, 2 | 1 << 13, 16 + name_size(s, 8));
			put32(&data, pid);
			put32(&data, pid);
			put_name(&data, s, 8);
		} else if (sscanf(line, "mmap %u %lli %lli %lli %s", &pid, &a,
				  &b, &c, esc) == 5) {
			unescape(s, esc);
			put_header(&data, 1, 2, 40 + name_size(s, 8));
			put32(&data, pid);
			put32(&data, pid);
			put64(&data, a);
			put64(&data, b);
			put64(&data, c);
			put_name(&data, s, 8);
		} else if (sscanf(line, "sample %u %lli", &pid, &a) == 2) {
			uint64_t ips[64];
			size_t n = 0, i;
			char *p = line + strlen("sample "), *end;

			strtoul(p, &p, 0);
			while (n < 64 && (ips[n] = strtoull(p, &end, 0),
					  end != p)) {
				p = end;
				n++;
			}
			put_header(&data, 9, 2, 48 + 8 * n);
			put64(&data, a);
			put32(&data, pid);
			put32(&data, pid);
			put64(&data, 1);
			put64(&data, n + 1);
			put64(&data, (uint64_t)-512);	/* PERF_CONTEXT_USER */
			for (i = 0; i < n; i++)
				put64(&data, ips[i]);
		} else {
			fprintf(stderr, "mkdata: bad line: %s", line);
			return 2;
		}
	}
	put(&out, "PERFILE2", 8);
	put64(&out, FILE_HEADER);
	put64(&out, ATTR_SIZE + 16);
	put64(&out, FILE_HEADER);
	put64(&out, ATTR_SIZE + 16);
	put64(&out, FILE_HEADER + ATTR_SIZE + 16);
	put64(&out, data.len);
	put64(&out, 0);
	put64(&out, 0);
	put64(&out, features);
	put64(&out, 0);
	put64(&out, 0);
	put64(&out, 0);
	attr(&out);
	put64(&out, 0);			/* no ids */
	put64(&out, 0);
	put(&out, data.p, data.len);
	if (features != 0) {
		put64(&out, out.len + 16);
		put64(&out, feat.len);
		put(&out, feat.p, feat.len);
	}
	if (put_stdout(&out, "mkdata") != 0)
		return 2;
	free(out.p);
	free(data.p);
	free(feat.p);
	return 0;
}
