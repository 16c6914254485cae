/* SPDX-License-Identifier: MIT */
/*
 * Input files: a regular file or standard input, read either at given
 * offsets (the perf.data header and feature sections) or as a stream
 * through one large buffer (the data section, pipe-mode files).  The whole
 * file is never held in memory: the buffer holds at most the largest
 * record plus one read.  A regular file is mapped instead of read; its
 * pages are given back as the reader moves on (input_release()).
 */
#ifndef P2G_INPUT_H
#define P2G_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "error.h"

struct input;

/* Open PATH for reading; "-" is standard input.  NULL on failure. */
struct input *input_open(const char *path, struct p2g_error *err);

/* Open PATH for reading as input_open() does, but only if it is a
 * regular file (as a file of a perf.data directory must be): a FIFO is
 * never waited on, a device never opened.  NULL on failure, with ERR
 * saying what PATH is instead. */
struct input *input_open_regular(const char *path, struct p2g_error *err);

/*
 * A descriptor open for reading on PATH if it is a regular file, else -1
 * (with errno set; EINVAL when PATH is something else, whose file type
 * then goes into *MODE if MODE is not NULL).  For every path taken from
 * input data or a directory listing: opening a FIFO would wait for a
 * writer, and opening a device can have effects of its own.
 */
int input_regular_fd(const char *path, mode_t *mode);

/* What a file of type MODE (st_mode) is, in words: "a directory", "a
 * FIFO", ... */
const char *input_file_kind(mode_t mode);

/* Close IN and free it; NULL is accepted. */
void input_close(struct input *in);

/* True if IN can be read at any offset. */
bool input_seekable(const struct input *in);

/* Size in bytes of a seekable input, or UINT64_MAX. */
uint64_t input_size(const struct input *in);

/* Device and inode of the input (for "output is the input" checks);
 * false if unknown. */
bool input_identity(const struct input *in, dev_t *dev, ino_t *ino);

/*
 * How many bytes of a spooled input its reader will use, judged from the
 * first HAVE bytes, which FD holds from offset 0: the spool stops once it
 * holds that many (perfdata_extent() for a perf.data file).
 */
typedef uint64_t (*input_extent_fn)(int fd, uint64_t have);

/*
 * Called while a spool is written (input_make_seekable(), of standard
 * input or of a gzip input):
 * DONE bytes in it so far, of TOTAL, what its extent function expects
 * (UINT64_MAX when not known).
 */
typedef void (*input_progress_fn)(void *ctx, uint64_t done, uint64_t total);

/* Have FN (with CTX) hear how a spool of IN goes; NULL: nothing. */
void input_set_progress(struct input *in, input_progress_fn fn, void *ctx);

/*
 * Copy standard input into an unlinked temporary file so that it can be
 * read at any offset (a file-mode perf.data on a pipe): as far as EXTENT
 * says the reader will read (NULL: all of it), and never so far as to
 * nearly fill the file system.  The bytes already buffered are kept.
 * No-op for a seekable input.
 */
int input_make_seekable(struct input *in, input_extent_fn extent,
			struct p2g_error *err);

/* 1 if the input starts with the gzip magic, 0 if not (peeks 2 bytes),
 * -1 with ERR set on a read error. */
int input_is_gzip(struct input *in, struct p2g_error *err);

/*
 * Read a gzip input as the stream of its decompressed bytes: it is not
 * seekable then (input_make_seekable() spools it, as far as its reader
 * needs, for a reader that must seek), and offsets are those of the
 * decompressed bytes.  Concatenated members are read as gzip reads them.
 * A decompression bomb is stopped: more than MAX_RATIO times the
 * compressed bytes (inflate_too_much(), zstream.h) is P2G_UNSUPPORTED.
 * Call before consuming anything.  0, or -1 with ERR set.
 */
int input_gunzip(struct input *in, uint64_t max_ratio, struct p2g_error *err);

/* Read exactly LEN bytes at OFF of a seekable input.  A short file is
 * P2G_INVALID ("ends at"), a failed read P2G_IO. */
int input_pread(struct input *in, uint64_t off, void *dst, size_t len,
		struct p2g_error *err);

/* Position the stream at OFF (forward only for a pipe). */
int input_seek(struct input *in, uint64_t off, struct p2g_error *err);

/* Offset of the next stream byte. */
uint64_t input_tell(const struct input *in);

/*
 * Make up to N bytes at the stream position available in one piece.
 * *AVAIL gets how many are (fewer than N only at end of file).  Returns a
 * pointer valid until the next call on IN, or NULL on a read error.
 */
const unsigned char *input_peek(struct input *in, size_t n, size_t *avail,
				struct p2g_error *err);

/* The bytes of a mapped input, all *SIZE of them, or NULL when IN is
 * not mapped.  They stay valid until input_close(); the position within
 * them is input_tell()'s, moved on by input_consume(). */
const unsigned char *input_map(const struct input *in, uint64_t *size);

/* A mapped input will not be read again below offset OFF (so far as the
 * caller knows): its pages may leave the process's resident set.  They
 * remain readable.  No-op for other inputs. */
void input_release(struct input *in, uint64_t off);

/* Step over N bytes that input_peek() made available. */
void input_consume(struct input *in, size_t n);

/* Step over N bytes of the stream (which need not be buffered).  Running
 * into end of file is P2G_INVALID. */
int input_skip(struct input *in, uint64_t n, struct p2g_error *err);

#endif
