/* SPDX-License-Identifier: MIT */
/*
 * respell PATH SPELLINGS: read a little-endian file-mode perf.data of
 * one event on standard input and write to standard output the same
 * recording with its process made N processes, the N lines of the file
 * SPELLINGS, each of which maps PATH under its own spelling of it: the
 * samples of a recording made with perf record --call-graph dwarf, with
 * their registers and stack copies as perf wrote them, then reach one
 * binary through N paths (tests/run-dwarf-spellings.sh).
 *
 * The process is the one whose MMAP or MMAP2 record first names PATH
 * (P).  Process i (0 <= i < N) has the pid and tid 1000000 + i.  In the
 * data section:
 *   - each COMM, MMAP, MMAP2, FORK and EXIT record of P's main thread
 *     (pid and tid P) is written N times, once for each process, its pid
 *     and tid (also in the sample_id_all trailer) those of the process,
 *     and in an MMAP or MMAP2 of PATH the path its spelling;
 *   - the same records of P's other threads are left out;
 *   - P's k-th sample (of any thread) is process k mod N's, pid and tid;
 *     nothing else in it changes;
 *   - every other record is copied.
 * The file header and everything before the data section are copied; the
 * feature sections after it too, their offsets moved by the change of
 * the data section's size.
 *
 * A test tool, independent of the library.  Exit status 1 for input it
 * cannot read, 2 for usage and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkbuf.h"

#define FIRST_PID 1000000
#define MAX_SPELLINGS 100000
#define FILE_HEADER 104

enum {
	RECORD_MMAP = 1, RECORD_COMM = 3, RECORD_EXIT = 4, RECORD_FORK = 7,
	RECORD_SAMPLE = 9, RECORD_MMAP2 = 10
};

/* The W-byte little-endian number at P. */
static uint64_t
le(const unsigned char *p, unsigned w)
{
	uint64_t v = 0;

	while (w-- > 0)
		v = v << 8 | p[w];
	return v;
}

/* V as a W-byte little-endian number at P. */
static void
set_le(unsigned char *p, uint64_t v, unsigned w)
{
	for (; w > 0; w--, v >>= 8)
		*p++ = (unsigned char)v;
}

static void
bad(size_t off, const char *what)
{
	fprintf(stderr, "respell: standard input: offset 0x%zx: %s\n", off,
		what);
	exit(1);
}

/* The size of the record at OFF of IN's data section, which ends at
 * END. */
static size_t
record_size(const struct buf *in, size_t off, size_t end)
{
	size_t size;

	if (end - off < 8 || (size = le(in->p + off + 6, 2)) < 8 ||
	    size > end - off)
		bad(off, "bad record size");
	return size;
}

/* The offset of a path in an MMAP or MMAP2 record. */
static size_t
path_at(uint32_t type)
{
	return 8 + (type == RECORD_MMAP ? 32 : 64);
}

/* Whether the MMAP or MMAP2 record R, of BODY bytes without its
 * trailer, maps PATH. */
static int
maps(const unsigned char *r, uint32_t type, size_t body, const char *path)
{
	size_t at = path_at(type);

	return body > at && memchr(r + at, '\0', body - at) != NULL &&
	       strcmp((const char *)r + at, path) == 0;
}

int
main(int argc, char **argv)
{
	struct buf in = { NULL, 0, 0 }, out = { NULL, 0, 0 };
	struct buf data = { NULL, 0, 0 };
	static char line[1 << 16];
	char **spell = NULL;
	size_t nspell = 0, data_off, data_size, off, end, trailer = 0;
	size_t tid_at, tid, k = 0, i, nfeat = 0;
	uint64_t sample_type, attrs_off, features_off;
	int64_t delta;
	uint32_t proc = 0;
	int have_proc = 0;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: respell PATH SPELLINGS < IN > OUT\n");
		return 2;
	}
	f = fopen(argv[2], "r");
	if (f == NULL) {
		perror(argv[2]);
		return 2;
	}
	spell = calloc(MAX_SPELLINGS, sizeof(*spell));
	if (spell == NULL)
		return 2;
	while (nspell < MAX_SPELLINGS && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		spell[nspell] = strdup(line);
		if (spell[nspell++] == NULL)
			return 2;
	}
	fclose(f);
	if (nspell == 0) {
		fprintf(stderr, "respell: %s: no spellings\n", argv[2]);
		return 2;
	}
	for (;;) {
		unsigned char chunk[1 << 16];
		size_t got = fread(chunk, 1, sizeof(chunk), stdin);

		put(&in, chunk, got);
		if (got < sizeof(chunk))
			break;
	}
	if (ferror(stdin)) {
		perror("respell: standard input");
		return 2;
	}

	if (in.len < FILE_HEADER || memcmp(in.p, "PERFILE2", 8) != 0 ||
	    le(in.p + 8, 8) != FILE_HEADER)
		bad(0, "not a little-endian file-mode perf.data");
	/* one attr: its sample_type says where a sample's pid is and how
	 * long the sample_id_all trailer of the other records is */
	attrs_off = le(in.p + 24, 8);
	if (le(in.p + 32, 8) != le(in.p + 16, 8) ||
	    attrs_off > in.len || in.len - attrs_off < 48)
		bad(24, "not one attr");
	sample_type = le(in.p + attrs_off + 24, 8);
	if (!(sample_type & 2))
		bad(attrs_off + 24, "samples without PERF_SAMPLE_TID");
	tid_at = (sample_type & (1 << 16) ? 8 : 0) + (sample_type & 1 ? 8 : 0);
	if (le(in.p + attrs_off + 40, 8) & (1ULL << 18)) {
		/* TID TIME ID STREAM_ID CPU IDENTIFIER, TID first */
		static const uint64_t bits[] = { 2, 4, 64, 512, 128, 1 << 16 };

		for (i = 0; i < 6; i++)
			trailer += sample_type & bits[i] ? 8 : 0;
		if (sample_type & (1 << 16))
			bad(attrs_off + 24, "PERF_SAMPLE_IDENTIFIER");
	}
	data_off = le(in.p + 40, 8);
	data_size = le(in.p + 48, 8);
	if (data_off > in.len || data_size > in.len - data_off)
		bad(40, "data section past the end");
	end = data_off + data_size;

	/* P: the process that maps PATH first */
	for (off = data_off; off < end; off += record_size(&in, off, end)) {
		uint32_t type = le(in.p + off, 4);
		size_t size = record_size(&in, off, end);

		if ((type == RECORD_MMAP || type == RECORD_MMAP2) &&
		    size >= trailer &&
		    maps(in.p + off, type, size - trailer, argv[1])) {
			proc = le(in.p + off + 8, 4);
			have_proc = 1;
			break;
		}
	}
	if (!have_proc) {
		fprintf(stderr, "respell: no mapping of %s\n", argv[1]);
		return 1;
	}

	for (off = data_off; off < end; off += record_size(&in, off, end)) {
		const unsigned char *r = in.p + off;
		uint32_t type = le(r, 4);
		size_t size = record_size(&in, off, end);
		int is_map = type == RECORD_MMAP || type == RECORD_MMAP2;
		static unsigned char rec[1 << 16];

		if (type == RECORD_SAMPLE && size >= 8 + tid_at + 8 &&
		    le(r + 8 + tid_at, 4) == proc) {
			memcpy(rec, r, size);
			set_le(rec + 8 + tid_at, FIRST_PID + k % nspell, 4);
			set_le(rec + 12 + tid_at, FIRST_PID + k % nspell, 4);
			put(&data, rec, size);
			k++;
			continue;
		}
		if ((!is_map && type != RECORD_COMM && type != RECORD_EXIT &&
		     type != RECORD_FORK) || size < 16 + trailer ||
		    le(r + 8, 4) != proc) {
			put(&data, r, size);
			continue;
		}
		/* FORK and EXIT: pid ppid tid ptid; the others: pid tid */
		tid = is_map || type == RECORD_COMM ? 12 : 16;
		if (size < tid + 4 + trailer || le(r + tid, 4) != proc)
			continue;	/* another thread's */
		for (i = 0; i < nspell; i++) {
			size_t body = size - trailer, n = body;

			memcpy(rec, r, body);
			if (is_map && maps(r, type, body, argv[1])) {
				size_t len = strlen(spell[i]);

				n = path_at(type) + ((len + 8) & ~(size_t)7);
				if (n + trailer > 0xffff)
					bad(off, "spelling too long");
				memset(rec + path_at(type), 0,
				       n - path_at(type));
				memcpy(rec + path_at(type), spell[i], len);
			}
			memcpy(rec + n, r + body, trailer);
			set_le(rec + 6, n + trailer, 2);
			set_le(rec + 8, FIRST_PID + i, 4);
			set_le(rec + tid, FIRST_PID + i, 4);
			if (trailer > 0) {
				set_le(rec + n, FIRST_PID + i, 4);
				set_le(rec + n + 4, FIRST_PID + i, 4);
			}
			put(&data, rec, n + trailer);
		}
	}

	/* the header with the new data size, what lies before the data,
	 * the data, and the feature table moved */
	put(&out, in.p, data_off);
	set_le(out.p + 48, data.len, 8);
	put(&out, data.p, data.len);
	delta = (int64_t)data.len - (int64_t)data_size;
	features_off = out.len;
	put(&out, in.p + end, in.len - end);
	/* the table: an (offset, size) for each feature bit set */
	for (i = 0; i < 4; i++)
		nfeat += (size_t)__builtin_popcountll(le(in.p + 72 + 8 * i, 8));
	if (in.len - end < 16 * nfeat)
		bad(end, "feature table past the end");
	for (i = 0; i < nfeat; i++) {
		unsigned char *p = out.p + features_off + 16 * i;

		set_le(p, le(p, 8) + (uint64_t)delta, 8);
	}
	if (put_stdout(&out, "respell") != 0)
		return 2;
	for (i = 0; i < nspell; i++)
		free(spell[i]);
	free(spell);
	free(in.p);
	free(out.p);
	free(data.p);
	return 0;
}
