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

int
fdout_write_all(int fd, const void *p, size_t n, struct p2g_error *err)
{
	const unsigned char *s = p;
	ssize_t k;

	while (n > 0) {
		k = write(fd, s, n);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
					"write: %s", strerror(errno));
		}
		s += k;
		n -= (size_t)k;
	}
	return 0;
}

static void
drain(struct fdout *w, const unsigned char *p, size_t n)
{
	if (!w->failed && fdout_write_all(w->fd, p, n, w->err) < 0)
		w->failed = true;
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
