/* SPDX-License-Identifier: MIT */
/* gzip data in memory, inflated with zlib (every member, as gzip and
 * pprof read them), up to a bound. */
#ifndef P2G_GZBUF_H
#define P2G_GZBUF_H

#include <stddef.h>

#include "error.h"

/*
 * Inflate the LEN bytes of gzip data at IN into a new buffer *OUT of
 * *OUTLEN bytes.  More than MAX bytes out is refused (P2G_UNSUPPORTED,
 * "a decompression bomb?"); corrupt or cut data is P2G_INVALID at the
 * offset in IN where it was found.  Returns 0 or -1.
 */
int gzbuf_inflate(const unsigned char *in, size_t len, size_t max,
		  unsigned char **out, size_t *outlen, struct p2g_error *err);

#endif
