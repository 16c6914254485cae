/* SPDX-License-Identifier: MIT */
/*
 * attrsize IN OUT SIZE: rewrite the perf_event_attrs of a little-endian
 * perf.data as if perf had written them SIZE bytes long (SIZE 0: 64 bytes
 * with a size field of 0, as the oldest perf wrote).  Fields past SIZE
 * are dropped (they must be 0, else exit 3: the file cannot be written
 * at that size without changing its meaning); a SIZE past the fields the
 * file has adds zero bytes, as a perf with a larger struct would.
 *
 * File mode: the attrs section (each attr followed by its ids section) is
 * rewritten at the end of the file and the header's attr_size and attrs
 * section point at it; nothing else moves.  Pipe mode: every HEADER_ATTR
 * record is rewritten in place, changing its size.
 *
 * A test tool (tests/run-attr-sizes.sh), independent of the library.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VER0 64
#define HEADER_ATTR 64

static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	size_t cap = 0, n = 0, got;

	if (f == NULL)
		return NULL;
	for (;;) {
		if (n == cap) {
			unsigned char *nb;

			cap = cap ? cap * 2 : 1 << 16;
			nb = realloc(b, cap);
			if (nb == NULL) {
				free(b);
				fclose(f);
				return NULL;
			}
			b = nb;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	fclose(f);
	*len = n;
	return b;
}

static uint64_t
get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void
set64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* Write the attr at SRC (OLD bytes) as NEW bytes at DST with size field
 * FIELD; 0, or -1 if a dropped byte is not 0. */
static int
resize_attr(unsigned char *dst, const unsigned char *src, size_t old,
	    size_t new, uint32_t field)
{
	size_t i;

	for (i = new; i < old; i++)
		if (src[i] != 0)
			return -1;
	memset(dst, 0, new);
	memcpy(dst, src, old < new ? old : new);
	memcpy(dst + 4, &field, 4);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned char *in, *out;
	size_t len, olen = 0, newsz;
	uint32_t field;
	FILE *f;
	int zero_field;

	if (argc != 4) {
		fprintf(stderr, "usage: attrsize IN OUT SIZE\n");
		return 2;
	}
	newsz = strtoul(argv[3], NULL, 10);
	zero_field = newsz == 0;
	if (zero_field)
		newsz = VER0;
	if (newsz < VER0 || newsz % 8 != 0 || newsz > 4096) {
		fprintf(stderr, "attrsize: bad size %s\n", argv[3]);
		return 2;
	}
	field = zero_field ? 0 : (uint32_t)newsz;
	in = slurp(argv[1], &len);
	if (in == NULL || len < 16 || memcmp(in, "PERFILE2", 8) != 0) {
		fprintf(stderr, "attrsize: %s: not a little-endian perf.data\n",
			argv[1]);
		return 2;
	}
	out = malloc(len * 2 + 65536);
	if (out == NULL)
		return 2;

	if (get64(in + 8) == 16) {
		/* pipe mode */
		size_t pos = 16;

		memcpy(out, in, 16);
		olen = 16;
		while (pos + 8 <= len) {
			uint32_t type;
			uint16_t size, nsize;

			memcpy(&type, in + pos, 4);
			memcpy(&size, in + pos + 6, 2);
			if (size < 8 || pos + size > len)
				break;
			if (type == HEADER_ATTR) {
				uint32_t asz;
				size_t ids;

				memcpy(&asz, in + pos + 12, 4);
				if (asz == 0)
					asz = VER0;
				if (8 + asz > size) {
					fprintf(stderr, "attrsize: bad attr "
						"record at 0x%zx\n", pos);
					return 2;
				}
				ids = size - 8 - asz;
				nsize = (uint16_t)(8 + newsz + ids);
				memcpy(out + olen, in + pos, 8);
				memcpy(out + olen + 6, &nsize, 2);
				if (resize_attr(out + olen + 8, in + pos + 8,
						asz, newsz, field) < 0)
					return 3;
				memcpy(out + olen + 8 + newsz,
				       in + pos + 8 + asz, ids);
				olen += nsize;
			} else {
				memcpy(out + olen, in + pos, size);
				olen += size;
			}
			pos += size;
		}
		memcpy(out + olen, in + pos, len - pos);
		olen += len - pos;
	} else {
		uint64_t asz = get64(in + 16), aoff = get64(in + 24);
		uint64_t asec = get64(in + 32), n, k;
		size_t at;

		if (asz < VER0 + 16 || asec % asz != 0 || aoff > len ||
		    asec > len - aoff) {
			fprintf(stderr, "attrsize: bad attrs section\n");
			return 2;
		}
		n = asec / asz;
		memcpy(out, in, len);
		at = (len + 7) & ~(size_t)7;
		memset(out + len, 0, at - len);
		for (k = 0; k < n; k++) {
			const unsigned char *src = in + aoff + k * asz;

			if (resize_attr(out + at + k * (newsz + 16), src,
					asz - 16, newsz, field) < 0)
				return 3;
			/* the ids section descriptor */
			memcpy(out + at + k * (newsz + 16) + newsz,
			       src + asz - 16, 16);
		}
		set64(out + 16, newsz + 16);
		set64(out + 24, at);
		set64(out + 32, n * (newsz + 16));
		olen = at + n * (newsz + 16);
	}

	f = fopen(argv[2], "wb");
	if (f == NULL || fwrite(out, 1, olen, f) != olen || fclose(f) != 0) {
		perror(argv[2]);
		return 2;
	}
	free(in);
	free(out);
	return 0;
}
