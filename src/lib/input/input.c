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

#include "grow.h"
#include "input.h"
#include "zstream.h"

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

	/* A gzip input is read through this (input_gunzip()): then FD
	 * gives compressed bytes, and the buffer and offsets are of the
	 * inflated ones. */
	struct gzin *gz;

	input_progress_fn progress;	/* hears how a spool goes */
	void *progress_ctx;
};

struct gzin {
	z_stream zs;
	unsigned char *in;	/* compressed bytes read, from zs.next_in */
	uint64_t in_off;	/* compressed bytes inflated */
	uint64_t out;		/* bytes inflated */
	uint64_t max_ratio;
	int zr;			/* the last inflate()'s answer */
	bool eof;		/* FD has no more */
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

const char *
input_file_kind(mode_t mode)
{
	if (S_ISREG(mode))
		return "a regular file";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int
input_regular_fd(const char *path, mode_t *mode)
{
	struct stat st;
	int fd, fl;

	if (mode != NULL)
		*mode = 0;
	/* Look first, then open without waiting and look again at what was
	 * opened: the file may have been replaced in between. */
	if (stat(path, &st) != 0)
		return -1;
	if (!S_ISREG(st.st_mode))
		goto not_regular;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		goto not_regular;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl != -1)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
not_regular:
	if (mode != NULL)
		*mode = st.st_mode;
	errno = EINVAL;
	return -1;
}

/* The input of the open descriptor FD (closed with it if CLOSE_FD), from
 * PATH; NULL with ERR set on failure, FD then closed if CLOSE_FD. */
static struct input *
input_of_fd(int fd, bool close_fd, const char *path, struct p2g_error *err)
{
	struct input *in;
	struct stat st;

	in = calloc(1, sizeof(*in));
	if (in == NULL) {
		p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET, "out of memory");
		if (close_fd)
			close(fd);
		return NULL;
	}
	in->fd = fd;
	in->close_fd = close_fd;
	if (fstat(in->fd, &st) != 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s", strerror(errno));
		input_close(in);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
			 strcmp(path, "-") == 0
				 ? "is a directory (a perf.data directory "
				   "must be named, not given on standard "
				   "input)"
				 : "is a directory");
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

struct input *
input_open(const char *path, struct p2g_error *err)
{
	int fd;

	if (strcmp(path, "-") == 0)
		return input_of_fd(STDIN_FILENO, false, path, err);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s", strerror(errno));
		return NULL;
	}
	return input_of_fd(fd, true, path, err);
}

struct input *
input_open_regular(const char *path, struct p2g_error *err)
{
	mode_t mode;
	int fd;

	fd = input_regular_fd(path, &mode);
	if (fd < 0) {
		if (mode != 0)
			p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
				 "is %s, not a regular file",
				 input_file_kind(mode));
		else
			p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				 strerror(errno));
		return NULL;
	}
	return input_of_fd(fd, true, path, err);
}

static void
gz_free(struct input *in)
{
	if (in->gz == NULL)
		return;
	inflateEnd(&in->gz->zs);
	free(in->gz->in);
	free(in->gz);
	in->gz = NULL;
}

void
input_close(struct input *in)
{
	if (in == NULL)
		return;
	gz_free(in);
	unmap_file(in);
	if (in->close_fd)
		close(in->fd);
	free(in->buf);
	free(in);
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

void
input_set_progress(struct input *in, input_progress_fn fn, void *ctx)
{
	in->progress = fn;
	in->progress_ctx = ctx;
}

/* A spool being written: its file, the bytes in it, how many the file
 * system can take, how many the reader needs so far, and who hears how
 * it goes. */
struct spool {
	int fd;
	const char *dir;
	uint64_t total, room, need;
	input_extent_fn extent;
	input_progress_fn progress;
	void *progress_ctx;
};

/* Open S in $TMPDIR, for input IN.  0, or -1 with ERR set. */
static int
spool_open(struct spool *s, const struct input *in, input_extent_fn extent,
	   struct p2g_error *err)
{
	struct statvfs sv;

	memset(s, 0, sizeof(*s));
	s->extent = extent;
	s->progress = in->progress;
	s->progress_ctx = in->progress_ctx;
	s->fd = spool_file(&s->dir, err);
	if (s->fd < 0)
		return -1;
	/* A spool must not fill the disk: leave 64 MiB and a twentieth of
	 * the space that was free. */
	s->room = UINT64_MAX;
	if (fstatvfs(s->fd, &sv) == 0) {
		uint64_t avail = (uint64_t)sv.f_bavail * sv.f_frsize;
		uint64_t keep = (64u << 20) + avail / 20;

		s->room = avail > keep ? avail - keep : 0;
	}
	return 0;
}

/* Append the N bytes at P to S: 1 when S holds all the reader needs
 * (its extent function says so), 0 to go on, -1 with ERR set. */
static int
spool_put(struct spool *s, const unsigned char *p, size_t n,
	  struct p2g_error *err)
{
	if (n > s->room - s->total)
		return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET,
				"spooled, the input would fill %s (over "
				"%llu MiB so far); set TMPDIR to a larger "
				"file system", s->dir,
				(unsigned long long)(s->total >> 20));
	if (!write_full(s->fd, p, n))
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
				"cannot write the spooled input to %s: %s",
				s->dir, strerror(errno));
	s->total += n;
	if (s->extent != NULL && s->total >= s->need) {
		s->need = s->extent(s->fd, s->total);
		if (s->need <= s->total)
			return 1;
	}
	/* Once the header is in, what the extent function needs is about
	 * the whole file (the feature sections aside). */
	if (s->progress != NULL)
		s->progress(s->progress_ctx, s->total,
			    s->extent != NULL && s->need > s->total
				    ? s->need : UINT64_MAX);
	return 0;
}

/* Make the spool file FD the input, read from its start. */
static void
use_spool(struct input *in, int fd)
{
	gz_free(in);
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
input_gunzip(struct input *in, uint64_t max_ratio, struct p2g_error *err)
{
	struct gzin *g;
	size_t have = in->end - in->start;

	g = calloc(1, sizeof(*g));
	if (g == NULL || (g->in = malloc(INPUT_BUFSIZE)) == NULL ||
	    inflateInit2(&g->zs, 32 + 15) != Z_OK) {
		/* 32 + 15: gzip (or zlib) header, largest window. */
		if (g != NULL)
			free(g->in);
		free(g);
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	}
	g->max_ratio = max_ratio;
	g->zr = Z_OK;
	/* What was read to look at the magic is the first compressed
	 * input; a mapped file is read from its start (nothing was read
	 * from FD). */
	if (in->map != NULL) {
		unmap_file(in);
		have = 0;
	} else {
		memcpy(g->in, in->buf + in->start, have);
	}
	g->zs.next_in = g->in;
	g->zs.avail_in = (uInt)have;
	g->eof = in->eof;
	in->gz = g;
	in->start = in->end = 0;
	in->buf_off = 0;
	in->eof = false;
	in->seekable = false;
	in->size = UINT64_MAX;
	return 0;
}

/*
 * Up to LEN inflated bytes of IN's gzip stream into DST: how many, 0 at
 * its end, -1 with ERR set.  Concatenated members are read as gzip reads
 * them, and zeros after a member are ignored as gzip ignores them.
 */
static ssize_t
gz_read(struct input *in, unsigned char *dst, size_t len,
	struct p2g_error *err)
{
	struct gzin *g = in->gz;
	z_stream *zs = &g->zs;
	ssize_t n;
	uInt before;

	if (len > UINT32_MAX)
		len = UINT32_MAX;
	for (;;) {
		if (zs->avail_in == 0 && !g->eof) {
			n = read(in->fd, g->in, INPUT_BUFSIZE);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				p2g_fail(err, P2G_IO, g->in_off, "read: %s",
					 strerror(errno));
				return -1;
			}
			g->eof = n == 0;
			zs->next_in = g->in;
			zs->avail_in = (uInt)n;
		}
		if (g->zr == Z_STREAM_END) {
			while (zs->avail_in > 0 && *zs->next_in == 0) {
				zs->next_in++;
				zs->avail_in--;
				g->in_off++;
			}
			if (zs->avail_in == 0) {
				if (g->eof)
					return 0;
				continue;
			}
			/* Another member. */
			if (inflateReset(zs) != Z_OK)
				goto corrupt;
			g->zr = Z_OK;
		}
		if (zs->avail_in == 0) {
			p2g_fail(err, P2G_INVALID, g->in_off,
				 "gzip data ends early");
			return -1;
		}
		zs->next_out = dst;
		zs->avail_out = (uInt)len;
		before = zs->avail_in;
		g->zr = inflate(zs, Z_NO_FLUSH);
		g->in_off += before - zs->avail_in;
		if (g->zr == Z_BUF_ERROR && zs->avail_in == 0)
			g->zr = Z_OK;
		if (g->zr != Z_OK && g->zr != Z_STREAM_END)
			goto corrupt;
		n = (ssize_t)(zs->next_out - dst);
		if (n == 0)
			continue;
		g->out += (uint64_t)n;
		if (inflate_too_much(g->in_off, g->out, g->max_ratio)) {
			p2g_fail(err, P2G_UNSUPPORTED, g->in_off,
				 "gzip data inflates to over %llu times its "
				 "size, as a decompression bomb does "
				 "(--max-inflate lifts the bound)",
				 (unsigned long long)g->max_ratio);
			return -1;
		}
		return n;
	}
corrupt:
	p2g_fail(err, P2G_INVALID, g->in_off, "gzip data is corrupt: %s",
		 zs->msg ? zs->msg : "inflate failed");
	return -1;
}

/* Up to LEN bytes of IN's stream into DST (a gzip input's inflated
 * bytes): how many, 0 at its end, -1 with ERR set. */
static ssize_t
stream_read(struct input *in, unsigned char *dst, size_t len,
	    struct p2g_error *err)
{
	ssize_t n;

	if (in->gz != NULL)
		return gz_read(in, dst, len, err);
	do
		n = read(in->fd, dst, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		p2g_fail(err, P2G_IO, in->buf_off + (in->end - in->start),
			 "read: %s", strerror(errno));
	return n;
}

int
input_make_seekable(struct input *in, input_extent_fn extent,
		    struct p2g_error *err)
{
	struct spool sp;
	ssize_t n;
	int full;

	if (in->seekable)
		return 0;
	if (spool_open(&sp, in, extent, err) < 0)
		return -1;
	/* What is buffered sits at stream offset buf_off; the stream
	 * started at 0 and nothing was consumed before the header, so
	 * writing the buffer then the rest of the pipe rebuilds the file. */
	if (in->buf_off != 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
			 "cannot spool standard input after reading it");
		goto fail;
	}
	full = spool_put(&sp, in->buf + in->start, in->end - in->start, err);
	while (full == 0) {
		if (in->gz != NULL) {
			n = gz_read(in, in->buf, in->cap, err);
			if (n < 0)
				goto fail;
		} else {
			n = read_full(in->fd, in->buf, in->cap);
			if (n < 0) {
				p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
					 "cannot read standard input: %s",
					 strerror(errno));
				goto fail;
			}
		}
		if (n == 0)
			break;
		full = spool_put(&sp, in->buf, (size_t)n, err);
	}
	if (full < 0)
		goto fail;
	use_spool(in, sp.fd);
	return 0;
fail:
	close(sp.fd);
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
		nb = grow(in->buf, &in->cap, n, 1, n);
		if (nb == NULL) {
			p2g_fail(err, P2G_NOMEM, in->buf_off,
				 "out of memory for a %zu-byte record", n);
			return NULL;
		}
		in->buf = nb;
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
	/* As much as one read() gives, until there are N bytes: a stream
	 * is handed on as it comes, not when a buffer of it has arrived. */
	while (in->end < n) {
		got = stream_read(in, in->buf + in->end, in->cap - in->end,
				  err);
		if (got < 0)
			return NULL;
		if (got == 0) {
			in->eof = true;
			break;
		}
		in->end += (size_t)got;
		in->fd_off += (uint64_t)got;
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
