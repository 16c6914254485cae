/* SPDX-License-Identifier: MIT */
/* gzip data in memory: see gzbuf.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "grow.h"
#include "gzbuf.h"

int
gzbuf_inflate(const unsigned char *in, size_t len, size_t max,
	      unsigned char **out, size_t *outlen, struct p2g_error *err)
{
	z_stream zs;
	unsigned char *b = NULL, *nb;
	size_t cap = 1 << 16, n = 0, pos = 0;
	int zr = Z_OK;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 32 + 15) != Z_OK)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
	for (;;) {
		if (zr == Z_STREAM_END) {
			/* another member, or trailing zeros as gzip allows */
			while (pos < len && in[pos] == 0)
				pos++;
			if (pos == len)
				break;
			if (inflateReset(&zs) != Z_OK)
				goto corrupt;
		}
		if (b == NULL || n == cap) {
			if (b != NULL)
				cap = grow_cap(cap, grow_add(n, 1), 1, cap);
			if (cap > max + 1)
				cap = max + 1;
			if (b != NULL && n == cap) {
				inflateEnd(&zs);
				free(b);
				return p2g_fail(err, P2G_UNSUPPORTED,
						P2G_NO_OFFSET,
						"decompresses to more than %zu "
						"bytes (a decompression bomb?)",
						max);
			}
			nb = realloc(b, cap);
			if (nb == NULL) {
				inflateEnd(&zs);
				free(b);
				return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
						"out of memory");
			}
			b = nb;
		}
		zs.next_in = (unsigned char *)in + pos;
		zs.avail_in = (uInt)(len - pos > 1u << 30 ? 1u << 30
							  : len - pos);
		zs.next_out = b + n;
		zs.avail_out = (uInt)(cap - n);
		zr = inflate(&zs, Z_NO_FLUSH);
		pos = (size_t)(zs.next_in - in);
		n = (size_t)(zs.next_out - b);
		if (zr == Z_STREAM_END)
			continue;
		if (zr == Z_BUF_ERROR && pos == len) {
			inflateEnd(&zs);
			free(b);
			return p2g_fail(err, P2G_INVALID, pos,
					"gzip data ends early");
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR)
			goto corrupt;
	}
	inflateEnd(&zs);
	*out = b;
	*outlen = n;
	return 0;
corrupt:
	p2g_fail(err, P2G_INVALID, pos, "gzip data is corrupt: %s",
		 zs.msg ? zs.msg : "inflate failed");
	inflateEnd(&zs);
	free(b);
	return -1;
}
