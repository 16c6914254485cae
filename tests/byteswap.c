/* SPDX-License-Identifier: MIT */
/*
 * byteswap IN OUT: write the little-endian perf.data IN as a big-endian
 * machine's perf would have written it, for tests/run-big-endian.sh.  A
 * test tool, independent of the library (its own field tables), so that
 * perf's reading of OUT can vouch for both.
 *
 * Swapped: the file header (file mode) or pipe header; each attr, field
 * by field, with the flag bit-field word written as a big-endian compiler
 * lays it out (the bits of each byte reversed, the bytes in place); the
 * ids; the records MMAP, MMAP2 (device form), COMM, FORK, EXIT, LOST,
 * THROTTLE, UNTHROTTLE, SAMPLE (sample_type IDENTIFIER IP TID TIME ADDR ID
 * STREAM_ID CPU PERIOD CALLCHAIN only) with their sample_id_all
 * trailers, FINISHED_ROUND, FINISHED_INIT and, in pipe mode,
 * HEADER_ATTR.  Left out: the feature sections (flags cleared) and every
 * other record, which say nothing about the stacks.  A sample_type this
 * tool cannot lay out is an error (exit 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S_IDENTIFIER (1u << 16)
#define S_IP (1u << 0)
#define S_TID (1u << 1)
#define S_TIME (1u << 2)
#define S_ADDR (1u << 3)
#define S_READ (1u << 4)
#define S_CALLCHAIN (1u << 5)
#define S_ID (1u << 6)
#define S_CPU (1u << 7)
#define S_PERIOD (1u << 8)
#define S_STREAM_ID (1u << 9)
#define S_KNOWN (S_IDENTIFIER | S_IP | S_TID | S_TIME | S_ADDR | S_CALLCHAIN | \
		 S_ID | S_CPU | S_PERIOD | S_STREAM_ID)

struct ev {
	uint64_t sample_type;
	int sample_id_all;
	uint64_t ids[64];
	size_t nids;
};

static struct ev evs[64];
static size_t nevs;

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t
get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint16_t
get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static void
sw16(unsigned char *p)
{
	unsigned char t = p[0];

	p[0] = p[1];
	p[1] = t;
}

static void
sw32(unsigned char *p)
{
	uint32_t v = get32(p);

	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static void
sw64(unsigned char *p)
{
	uint64_t v = get64(p);

	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

static void
die(const char *msg, size_t off)
{
	fprintf(stderr, "byteswap: %s at 0x%zx\n", msg, off);
	exit(1);
}

/* Swap an attr of SIZE bytes at P in place (fields past SIZE absent). */
static void
swap_attr(unsigned char *p, size_t size)
{
	static const struct {
		unsigned off, width;
	} f[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
		{ 40, 0 },	/* flags: bit-field */
		{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 },
		{ 80, 8 }, { 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 },
		{ 108, 2 }, { 110, 2 }, { 112, 4 }, { 116, 4 }, { 120, 8 },
		{ 128, 8 },
	};
	size_t i;
	unsigned b, k;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].off + (f[i].width ? f[i].width : 8) > size)
			break;
		switch (f[i].width) {
		case 0:
			for (k = 0; k < 8; k++) {
				unsigned char x = p[40 + k], y = 0;

				for (b = 0; b < 8; b++)
					if (x & (1u << b))
						y |= (unsigned char)(0x80u >> b);
				p[40 + k] = y;
			}
			break;
		case 2: sw16(p + f[i].off); break;
		case 4: sw32(p + f[i].off); break;
		case 8: sw64(p + f[i].off); break;
		}
	}
}

static void
add_ev(const unsigned char *attr, size_t size, const unsigned char *ids,
       size_t nids)
{
	struct ev *e;
	size_t i;

	if (nevs == 64 || size < 48)
		die("too many or too small attrs", 0);
	e = &evs[nevs++];
	e->sample_type = get64(attr + 24);
	e->sample_id_all = (get64(attr + 40) >> 18) & 1;
	if (e->sample_type & ~(uint64_t)S_KNOWN)
		die("sample_type this tool cannot swap", 0);
	for (i = 0; i < nids && i < 64; i++)
		e->ids[i] = get64(ids + 8 * i);
	e->nids = i;
}

/* The event of a record (by the id in it, or the only one). */
static const struct ev *
ev_of(const unsigned char *rec, size_t size, int sample)
{
	const struct ev *e0 = &evs[0];
	uint64_t id = 0;
	size_t i, k, pos;

	if (nevs == 1)
		return e0;
	if (nevs == 0)
		return NULL;
	if (sample) {
		if (e0->sample_type & S_IDENTIFIER) {
			pos = 8;
		} else if (e0->sample_type & S_ID) {
			pos = 8 + 8 * (!!(e0->sample_type & S_IP) +
				       !!(e0->sample_type & S_TID) +
				       !!(e0->sample_type & S_TIME) +
				       !!(e0->sample_type & S_ADDR));
		} else {
			return e0;
		}
	} else {
		if (!e0->sample_id_all)
			return NULL;
		if (e0->sample_type & S_IDENTIFIER)
			pos = size - 8;
		else if (e0->sample_type & S_ID)
			pos = size - 8 * (1 + !!(e0->sample_type & S_STREAM_ID) +
					  !!(e0->sample_type & S_CPU));
		else
			return e0;
	}
	if (pos + 8 > size)
		return NULL;
	id = get64(rec + pos);
	for (i = 0; i < nevs; i++)
		for (k = 0; k < evs[i].nids; k++)
			if (evs[i].ids[k] == id)
				return &evs[i];
	return NULL;
}

/* Swap the sample_id_all trailer at the end of REC (SIZE bytes). */
static void
swap_trailer(unsigned char *rec, size_t size, const struct ev *e)
{
	uint64_t st;
	size_t n, pos;

	if (e == NULL || !e->sample_id_all)
		return;
	st = e->sample_type;
	n = !!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) +
	    !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_IDENTIFIER);
	if (n * 8 > size - 8)
		die("trailer larger than its record", 0);
	pos = size - n * 8;
	if (st & S_TID) {
		sw32(rec + pos);
		sw32(rec + pos + 4);
		pos += 8;
	}
	if (st & S_TIME) { sw64(rec + pos); pos += 8; }
	if (st & S_ID) { sw64(rec + pos); pos += 8; }
	if (st & S_STREAM_ID) { sw64(rec + pos); pos += 8; }
	if (st & S_CPU) {
		sw32(rec + pos);
		sw32(rec + pos + 4);
		pos += 8;
	}
	if (st & S_IDENTIFIER)
		sw64(rec + pos);
}

static void
swap_sample(unsigned char *r, size_t size, const struct ev *e, size_t off)
{
	uint64_t st = e->sample_type, nr, i;
	size_t pos = 8;

#define NEED(n) do { if (pos + (n) > size) die("short sample", off); } while (0)
	if (st & S_IDENTIFIER) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_IP) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_TID) { NEED(8); sw32(r + pos); sw32(r + pos + 4); pos += 8; }
	if (st & S_TIME) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_ADDR) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_ID) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_STREAM_ID) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_CPU) { NEED(8); sw32(r + pos); sw32(r + pos + 4); pos += 8; }
	if (st & S_PERIOD) { NEED(8); sw64(r + pos); pos += 8; }
	if (st & S_CALLCHAIN) {
		NEED(8);
		nr = get64(r + pos);
		sw64(r + pos);
		pos += 8;
		if (nr > (size - pos) / 8)
			die("callchain longer than its sample", off);
		for (i = 0; i < nr; i++, pos += 8)
			sw64(r + pos);
	}
#undef NEED
}

/* Swap record R (SIZE bytes, at OFF) in place; 0 to drop it. */
static int
swap_record(unsigned char *r, size_t size, size_t off)
{
	uint32_t type = get32(r);
	uint16_t misc = get16(r + 4);
	const struct ev *e;

	switch (type) {
	case 9:		/* SAMPLE */
		e = ev_of(r, size, 1);
		if (e == NULL)
			return 0;
		swap_sample(r, size, e, off);
		break;
	case 1:		/* MMAP */
		if (size < 40)
			die("short mmap", off);
		e = ev_of(r, size, 0);
		sw32(r + 8);
		sw32(r + 12);
		sw64(r + 16);
		sw64(r + 24);
		sw64(r + 32);
		swap_trailer(r, size, e);
		break;
	case 10:	/* MMAP2 */
		if (size < 72 || (misc & (1u << 14)))
			return 0;
		e = ev_of(r, size, 0);
		sw32(r + 8);
		sw32(r + 12);
		sw64(r + 16);
		sw64(r + 24);
		sw64(r + 32);
		sw32(r + 40);
		sw32(r + 44);
		sw64(r + 48);
		sw64(r + 56);
		sw32(r + 64);
		sw32(r + 68);
		swap_trailer(r, size, e);
		break;
	case 3:		/* COMM */
		if (size < 16)
			die("short comm", off);
		e = ev_of(r, size, 0);
		sw32(r + 8);
		sw32(r + 12);
		swap_trailer(r, size, e);
		break;
	case 4:		/* EXIT */
	case 7:		/* FORK */
		if (size < 32)
			die("short fork/exit", off);
		e = ev_of(r, size, 0);
		sw32(r + 8);
		sw32(r + 12);
		sw32(r + 16);
		sw32(r + 20);
		sw64(r + 24);
		swap_trailer(r, size, e);
		break;
	case 2:		/* LOST */
		if (size < 24)
			die("short lost", off);
		e = ev_of(r, size, 0);
		sw64(r + 8);
		sw64(r + 16);
		swap_trailer(r, size, e);
		break;
	case 5:		/* THROTTLE */
	case 6:		/* UNTHROTTLE */
		if (size < 32)
			die("short throttle", off);
		e = ev_of(r, size, 0);
		sw64(r + 8);
		sw64(r + 16);
		sw64(r + 24);
		swap_trailer(r, size, e);
		break;
	case 68:	/* FINISHED_ROUND */
	case 82:	/* FINISHED_INIT */
		break;
	case 64: {	/* HEADER_ATTR (pipe mode) */
		uint32_t asz = get32(r + 12);
		size_t nids, k;

		if (asz == 0)
			asz = 64;
		if (8 + asz > size)
			die("bad attr record", off);
		nids = (size - 8 - asz) / 8;
		add_ev(r + 8, asz, r + 8 + asz, nids);
		swap_attr(r + 8, asz);
		for (k = 0; k < nids; k++)
			sw64(r + 8 + asz + 8 * k);
		break;
	}
	default:
		return 0;
	}
	sw32(r);
	sw16(r + 4);
	sw16(r + 6);
	return 1;
}

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL, *nb;
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			nb = realloc(b, cap);
			if (nb == NULL)
				exit(2);
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	*len = n;
	return b;
}

/* Swap the records in IN[pos..end) into OUT at *OLEN. */
static void
records(const unsigned char *in, size_t pos, size_t end, unsigned char *out,
	size_t *olen)
{
	while (pos + 8 <= end) {
		uint16_t size = get16(in + pos + 6);

		if (size < 8 || pos + size > end)
			die("bad record", pos);
		memcpy(out + *olen, in + pos, size);
		if (swap_record(out + *olen, size, pos))
			*olen += size;
		pos += size;
	}
}

int
main(int argc, char **argv)
{
	unsigned char *in, *out;
	size_t len, olen = 0, k;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: byteswap IN OUT\n");
		return 2;
	}
	in = slurp(argv[1], &len);
	if (in == NULL || len < 16 || memcmp(in, "PERFILE2", 8) != 0) {
		fprintf(stderr, "byteswap: %s: not a little-endian perf.data\n",
			argv[1]);
		return 2;
	}
	out = malloc(len + 16);
	if (out == NULL)
		return 2;
	if (get64(in + 8) == 16) {
		memcpy(out, in, 16);
		sw64(out);
		sw64(out + 8);
		olen = 16;
		records(in, 16, len, out, &olen);
	} else {
		uint64_t asz = get64(in + 16), aoff = get64(in + 24);
		uint64_t asec = get64(in + 32), doff = get64(in + 40);
		uint64_t dsize = get64(in + 48), i, n;

		if (len < 104 || asz < 80 || asec % asz || aoff + asec > len ||
		    doff + dsize > len || doff < 104)
			die("bad file header", 0);
		/* everything before the data as it is, then swapped */
		memcpy(out, in, doff);
		n = asec / asz;
		for (i = 0; i < n; i++) {
			unsigned char *a = out + aoff + i * asz;
			uint64_t idoff = get64(a + asz - 16);
			uint64_t idsize = get64(a + asz - 8);

			if (idoff + idsize > doff)
				die("ids after the data section", aoff);
			add_ev(a, asz - 16, in + idoff, idsize / 8);
			swap_attr(a, asz - 16);
			sw64(a + asz - 16);
			sw64(a + asz - 8);
			for (k = 0; k < idsize / 8; k++)
				sw64(out + idoff + 8 * k);
		}
		olen = doff;
		records(in, doff, doff + dsize, out, &olen);
		/* header: sizes and sections; no features */
		memset(out + 72, 0, 32);
		for (k = 8; k < 72; k += 8)
			sw64(out + k);
		{
			uint64_t ds = __builtin_bswap64(olen - doff);

			memcpy(out + 48, &ds, 8);
		}
		memcpy(out, "2ELIFREP", 8);
	}
	if (get64(in + 8) == 16)
		memcpy(out, "2ELIFREP", 8);
	f = fopen(argv[2], "wb");
	if (f == NULL || fwrite(out, 1, olen, f) != olen || fclose(f) != 0) {
		perror(argv[2]);
		return 2;
	}
	free(in);
	free(out);
	return 0;
}
