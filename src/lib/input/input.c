/* SPDX-License-Identifier: MIT */
/* Input files: see input.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"

#define INPUT_BUFSIZE (1u << 20)

/* Pages already read are given back to the kernel in steps of this many
 * bytes: few enough madvise() calls, and a bounded RSS. */
#define INPUT_RELEASE_STEP (2u << 20)

struct input {
	int fd;
	bool close_fd;
	bool seekable;
	uint64_t size;		/* of a seekable input */
	dev_t dev;
	ino_t ino;
	bool have_identity;

	unsigned char *buf;
	size_t cap;
	size_t start;		/* first unconsumed byte in buf */
	size_t end;		/* one past the last valid byte */
	uint64_t buf_off;	/* stream offset of buf[start] */
	uint64_t fd_off;	/* where the next read() of fd lands */
	bool eof;

	/* A regular file is mapped whole instead (then buf is unused and
	 * buf_off is the stream position): no copy into a buffer, and the
	 * bytes of a record stay where they are until input_close(). */
	const unsigned char *map;
	uint64_t released;	/* pages below this were given back */
};

/* Map a regular file whole, if it can be; otherwise it is read into the
 * buffer.  A file too large for the address space simply is not mapped. */
static void
map_file(struct input *in)
{
	void *m;

	if (!in->seekable || in->size == 0 || in->size > SIZE_MAX)
		return;
	m = mmap(NULL, (size_t)in->size, PROT_READ, MAP_PRIVATE, in->fd, 0);
	if (m == MAP_FAILED)
		return;
#ifdef MADV_SEQUENTIAL
	(void)madvise(m, (size_t)in->size, MADV_SEQUENTIAL);
#endif
	in->map = m;
}

static void
unmap_file(struct input *in)
{
	if (in->map != NULL)
		munmap((void *)in->map, (size_t)in->size);
	in->map = NULL;
	in->released = 0;
}

struct input *
input_open(const char *path, struct p2g_error *err)
{
	struct input *in;
	struct stat st;

	in = calloc(1, sizeof(*in));
	if (in == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		return NULL;
	}
	if (strcmp(path, "-") == 0) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0) {
			p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				 strerror(errno));
			free(in);
			return NULL;
		}
		in->close_fd = true;
	}
	if (fstat(in->fd, &st) != 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s", strerror(errno));
		input_close(in);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
			 "is a directory (a perf.data directory must be "
			 "named, not given on standard input)");
		input_close(in);
		return NULL;
	}
	in->dev = st.st_dev;
	in->ino = st.st_ino;
	in->have_identity = true;
	in->seekable = S_ISREG(st.st_mode) &&
		       lseek(in->fd, 0, SEEK_CUR) == 0;
	in->size = in->seekable ? (uint64_t)st.st_size : UINT64_MAX;
#ifdef POSIX_FADV_SEQUENTIAL
	if (in->seekable)
		(void)posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	map_file(in);
	in->cap = INPUT_BUFSIZE;
	in->buf = malloc(in->cap);
	if (in->buf == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		input_close(in);
		return NULL;
	}
	return in;
}

void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	unmap_file(in);
	if (in->close_fd)
		close(in->fd);
	free(in->buf);
	free(in);
}

bool
input_mapped(const struct input *in)
{
	return in->map != NULL;
}

const unsigned char *
input_map(const struct input *in, uint64_t *size)
{
	*size = in->map != NULL ? in->size : 0;
	return in->map;
}

void
input_release(struct input *in, uint64_t off)
{
#ifdef MADV_DONTNEED
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t end;

	if (in->map == NULL || pg <= 0)
		return;
	if (off > in->size)
		off = in->size;
	end = off / (uint64_t)pg * (uint64_t)pg;
	if (end < in->released + INPUT_RELEASE_STEP)
		return;
	/* The pages stay readable: touched again, they come back from the
	 * page cache.  This only keeps them out of our resident set. */
	(void)madvise((void *)(in->map + in->released),
		      (size_t)(end - in->released), MADV_DONTNEED);
	in->released = end;
#else
	(void)in;
	(void)off;
#endif
}

bool
input_seekable(const struct input *in)
{
	return in->seekable;
}

uint64_t
input_size(const struct input *in)
{
	return in->size;
}

bool
input_identity(const struct input *in, dev_t *dev, ino_t *ino)
{
	*dev = in->dev;
	*ino = in->ino;
	return in->have_identity;
}

/* read() until LEN bytes or end of file; returns the count or -1. */
static ssize_t
read_full(int fd, unsigned char *dst, size_t len)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = read(fd, dst + done, len - done);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* An unlinked temporary file in $TMPDIR for a spooled input; -1 with ERR
 * set on failure.  DIR gets the directory used. */
static int
spool_file(const char **dir, struct p2g_error *err)
{
	char path[4096];
	int fd;

	*dir = getenv("TMPDIR");
	if (*dir == NULL || **dir == '\0')
		*dir = "/tmp";
	snprintf(path, sizeof(path), "%s/perf2gperf-spool-XXXXXX", *dir);
	fd = mkstemp(path);
	if (fd < 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
			 "cannot make a temporary file in %s: %s", *dir,
			 strerror(errno));
		return -1;
	}
	unlink(path);
	return fd;
}

/* write() all of LEN bytes; false on failure. */
static bool
write_full(int fd, const unsigned char *src, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(fd, src, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		src += n;
		len -= (size_t)n;
	}
	return true;
}

/* Make the spool file FD the input, read from its start. */
static void
use_spool(struct input *in, int fd)
{
	unmap_file(in);
	if (in->close_fd)
		close(in->fd);
	in->fd = fd;
	in->close_fd = true;
	in->seekable = true;
	in->size = (uint64_t)lseek(fd, 0, SEEK_END);
	in->start = in->end = 0;
	in->buf_off = 0;
	in->fd_off = UINT64_MAX;	/* force a seek on the next read */
	in->eof = false;
}

int
input_is_gzip(struct input *in, struct p2g_error *err)
{
	size_t avail;
	const unsigned char *p = input_peek(in, 2, &avail, err);

	if (p == NULL)
		return -1;
	return avail == 2 && p[0] == 0x1f && p[1] == 0x8b;
}

int
input_gunzip(struct input *in, struct p2g_error *err)
{
	const char *dir;
	unsigned char *out = NULL;
	uint64_t total = 0, room, in_off = 0;
	struct statvfs sv;
	z_stream zs;
	int fd, zr = Z_OK;
	bool zinit = false;

	fd = spool_file(&dir, err);
	if (fd < 0)
		return -1;
	/* A decompression bomb must not fill the disk: leave 64 MiB and a
	 * twentieth of the space that was free. */
	room = UINT64_MAX;
	if (fstatvfs(fd, &sv) == 0) {
		uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		uint64_t keep = (64u << 20) + avail / 20;

		room = avail > keep ? avail - keep : 0;
	}
	out = malloc(INPUT_BUFSIZE);
	if (out == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto fail;
	}
	memset(&zs, 0, sizeof(zs));
	/* 32 + 15: gzip (or zlib) header, largest window. */
	if (inflateInit2(&zs, 32 + 15) != Z_OK) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		goto fail;
	}
	zinit = true;
	for (;;) {
		size_t avail;
		const unsigned char *p;

		if (zs.avail_in == 0) {
			p = input_peek(in, INPUT_BUFSIZE, &avail, err);
			if (p == NULL)
				goto fail;
			if (avail == 0) {
				if (zr == Z_STREAM_END)
					break;
				p2g_fail(err, P2G_INVALID, in_off,
					 "gzip data ends early");
				goto fail;
			}
			if (zr == Z_STREAM_END) {
				/* Another member follows, as gzip allows;
				 * trailing zeros are ignored as gzip does. */
				size_t k;

				for (k = 0; k < avail && p[k] == 0; k++)
					;
				if (k == avail) {
					input_consume(in, avail);
					in_off += avail;
					continue;
				}
				if (inflateReset(&zs) != Z_OK)
					goto zfail;
			}
			zs.next_in = (unsigned char *)p;
			zs.avail_in = (uInt)avail;
		} else if (zr == Z_STREAM_END) {
			if (inflateReset(&zs) != Z_OK)
				goto zfail;
		}
		zs.next_out = out;
		zs.avail_out = INPUT_BUFSIZE;
		{
			uInt before = zs.avail_in;

			zr = inflate(&zs, Z_NO_FLUSH);
			input_consume(in, before - zs.avail_in);
			in_off += before - zs.avail_in;
		}
		if (zr != Z_OK && zr != Z_STREAM_END &&
		    !(zr == Z_BUF_ERROR && zs.avail_in == 0))
			goto zfail;
		if (INPUT_BUFSIZE - zs.avail_out > 0) {
			size_t n = INPUT_BUFSIZE - zs.avail_out;

			total += n;
			if (total > room) {
				p2g_fail(err, P2G_UNSUPPORTED, in_off,
					 "decompressed, the input would fill "
					 "%s (over %llu MiB so far); set "
					 "TMPDIR to a larger file system",
					 dir,
					 (unsigned long long)(total >> 20));
				goto fail;
			}
			if (!write_full(fd, out, n)) {
				p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
					 "cannot write the decompressed input "
					 "to %s: %s", dir, strerror(errno));
				goto fail;
			}
		}
	}
	inflateEnd(&zs);
	free(out);
	use_spool(in, fd);
	return 0;
zfail:
	p2g_fail(err, P2G_INVALID, in_off, "gzip data is corrupt: %s",
		 zs.msg ? zs.msg : "inflate failed");
fail:
	if (zinit)
		inflateEnd(&zs);
	free(out);
	close(fd);
	return -1;
}

int
input_make_seekable(struct input *in, struct p2g_error *err)
{
	const char *dir;
	ssize_t n;
	int fd;

	if (in->seekable)
		return 0;
	fd = spool_file(&dir, err);
	if (fd < 0)
		return -1;
	/* What is buffered sits at stream offset buf_off; the stream
	 * started at 0 and nothing was consumed before the header, so
	 * writing the buffer then the rest of the pipe rebuilds the file. */
	if (in->buf_off != 0 ||
	    !write_full(fd, in->buf + in->start, in->end - in->start))
		goto fail;
	for (;;) {
		n = read_full(in->fd, in->buf, in->cap);
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (!write_full(fd, in->buf, (size_t)n))
			goto fail;
	}
	use_spool(in, fd);
	return 0;
fail:
	p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
		 "cannot spool standard input to %s: %s", dir,
		 strerror(errno));
	close(fd);
	return -1;
}
int
input_pread(struct input *in, uint64_t off, void *dst, size_t len,
	    struct p2g_error *err)
{
	size_t done = 0;
	ssize_t n;

	if (!in->seekable)
		return p2g_fail(err, P2G_IO, off, "input is not seekable");
	if (off > in->size || len > in->size - off)
		return p2g_fail(err, P2G_INVALID, off,
				"needs %zu bytes but the file ends at 0x%llx",
				len, (unsigned long long)in->size);
	while (done < len) {
		n = pread(in->fd, (unsigned char *)dst + done, len - done,
			  (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return p2g_fail(err, P2G_IO, off + done, "read: %s",
					strerror(errno));
		}
		if (n == 0)
			return p2g_fail(err, P2G_INVALID, off + done,
					"unexpected end of file");
		done += (size_t)n;
	}
	return 0;
}

int
input_seek(struct input *in, uint64_t off, struct p2g_error *err)
{
	uint64_t cur = in->buf_off;

	if (in->map != NULL) {
		in->buf_off = off;
		return 0;
	}
	if (off >= cur && off - cur <= in->end - in->start) {
		in->start += (size_t)(off - cur);
		in->buf_off = off;
		return 0;
	}
	if (!in->seekable) {
		if (off < cur)
			return p2g_fail(err, P2G_IO, off,
					"cannot seek backwards in a pipe");
		return input_skip(in, off - cur, err);
	}
	in->start = in->end = 0;
	in->buf_off = off;
	in->fd_off = UINT64_MAX;
	in->eof = false;
	return 0;
}

uint64_t
input_tell(const struct input *in)
{
	return in->buf_off;
}

const unsigned char *
input_peek(struct input *in, size_t n, size_t *avail, struct p2g_error *err)
{
	size_t have = in->end - in->start;
	unsigned char *nb;
	ssize_t got;
	uint64_t want_off;

	if (in->map != NULL) {
		have = in->buf_off < in->size
			       ? (size_t)(in->size - in->buf_off) : 0;
		*avail = have < n ? have : n;
		return in->map + (in->buf_off < in->size ? in->buf_off
							   : in->size);
	}
	if (have >= n || in->eof) {
		*avail = have < n ? have : n;
		return in->buf + in->start;
	}
	if (n > in->cap) {
		size_t cap = in->cap;

		while (cap < n)
			cap *= 2;
		nb = realloc(in->buf, cap);
		if (nb == NULL) {
			p2g_fail(err, P2G_NOMEM, in->buf_off,
				 "out of memory for a %zu-byte record", n);
			return NULL;
		}
		in->buf = nb;
		in->cap = cap;
	}
	/* Move the unconsumed tail to the front, then fill. */
	if (in->start > 0) {
		memmove(in->buf, in->buf + in->start, have);
		in->start = 0;
		in->end = have;
	}
	want_off = in->buf_off + have;
	if (in->seekable && in->fd_off != want_off) {
		if (lseek(in->fd, (off_t)want_off, SEEK_SET) < 0) {
			p2g_fail(err, P2G_IO, want_off, "seek: %s",
				 strerror(errno));
			return NULL;
		}
		in->fd_off = want_off;
	}
	while (in->end < n) {
		got = read_full(in->fd, in->buf + in->end, in->cap - in->end);
		if (got < 0) {
			p2g_fail(err, P2G_IO, in->buf_off + in->end,
				 "read: %s", strerror(errno));
			return NULL;
		}
		in->end += (size_t)got;
		in->fd_off += (uint64_t)got;
		if ((size_t)got < in->cap - in->end + (size_t)got) {
			/* read_full stops short only at end of file */
			in->eof = true;
			break;
		}
	}
	have = in->end - in->start;
	*avail = have < n ? have : n;
	return in->buf + in->start;
}

void
input_consume(struct input *in, size_t n)
{
	if (in->map == NULL)
		in->start += n;
	in->buf_off += n;
}

int
input_skip(struct input *in, uint64_t n, struct p2g_error *err)
{
	size_t have = in->end - in->start;
	const unsigned char *p;
	size_t avail;

	if (n <= have) {
		input_consume(in, (size_t)n);
		return 0;
	}
	if (in->seekable) {
		if (in->buf_off + n > in->size || in->buf_off + n < n)
			return p2g_fail(err, P2G_INVALID, in->buf_off,
					"skipping 0x%llx bytes runs past the "
					"end of the file",
					(unsigned long long)n);
		return input_seek(in, in->buf_off + n, err);
	}
	while (n > 0) {
		size_t step = n < in->cap ? (size_t)n : in->cap;

		p = input_peek(in, step, &avail, err);
		if (p == NULL)
			return -1;
		if (avail == 0)
			return p2g_fail(err, P2G_INVALID, in->buf_off,
					"unexpected end of file");
		input_consume(in, avail);
		n -= avail;
	}
	return 0;
}
