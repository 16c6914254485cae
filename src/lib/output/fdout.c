/* SPDX-License-Identifier: MIT */
/* Buffered writing to a file descriptor: see fdout.h. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fdout.h"

void
fdout_init(struct fdout *w, int fd, struct p2g_error *err)
{
	w->fd = fd;
	w->failed = false;
	w->err = err;
	w->len = 0;
}

static void
drain(struct fdout *w, const unsigned char *p, size_t n)
{
	ssize_t k;

	while (!w->failed && n > 0) {
		k = write(w->fd, p, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			p2g_fail(w->err, P2G_IO, P2G_NO_OFFSET, "write: %s",
				 strerror(errno));
			w->failed = true;
			break;
		}
		p += k;
		n -= (size_t)k;
	}
}

void
fdout_bytes(struct fdout *w, const void *p, size_t n)
{
	if (w->failed)
		return;
	if (w->len + n > sizeof(w->buf)) {
		drain(w, w->buf, w->len);
		w->len = 0;
		if (n > sizeof(w->buf)) {
			drain(w, p, n);
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

int
fdout_flush(struct fdout *w)
{
	drain(w, w->buf, w->len);
	w->len = 0;
	return w->failed ? -1 : 0;
}
