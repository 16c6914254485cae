/* SPDX-License-Identifier: MIT */
/* The byte cursor: see cursor.h. */
#include "config.h"

#include "cursor.h"

bool
cursor_sub(struct cursor *c, uint64_t n, struct cursor *sub)
{
	uint64_t origin = cursor_offset(c);
	const unsigned char *p;

	if (n > SIZE_MAX) {
		cursor_fail(c);
		p = NULL;
	} else {
		p = cursor_bytes(c, (size_t)n);
	}
	if (p == NULL) {
		cursor_init(sub, c->base, 0, origin, c->big_endian);
		cursor_fail(sub);
		return false;
	}
	cursor_init(sub, p, (size_t)n, origin, c->big_endian);
	return true;
}

static unsigned char
reverse_bits(unsigned char b)
{
	b = (unsigned char)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (unsigned char)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	b = (unsigned char)((b & 0xaa) >> 1 | (b & 0x55) << 1);
	return b;
}

uint64_t
cursor_bitfield64(struct cursor *c)
{
	const unsigned char *p = cursor_bytes(c, 8);
	unsigned char tmp[8];
	int i;

	if (p == NULL)
		return 0;
	if (!c->big_endian)
		return load64(p, false);
	for (i = 0; i < 8; i++)
		tmp[i] = reverse_bits(p[i]);
	return load64(tmp, false);
}

const char *
cursor_string(struct cursor *c, size_t *len)
{
	uint64_t start = c->pos;
	uint32_t n = cursor_u32(c);
	const unsigned char *p = cursor_bytes(c, n);
	const unsigned char *nul;

	if (p == NULL)
		return NULL;
	nul = memchr(p, '\0', n);
	if (nul == NULL) {
		c->pos = start;
		cursor_fail(c);
		return NULL;
	}
	*len = (size_t)(nul - p);
	return (const char *)p;
}
