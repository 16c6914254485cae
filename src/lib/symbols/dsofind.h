/* SPDX-License-Identifier: MIT */
/*
 * Finding the file of a recorded mapping where perf finds it, and its
 * separate debug file.  A binary is looked for, in this order:
 *
 *  1. at its recorded path (under the symfs when one is given);
 *  2. in perf's build-ID cache: HOME/.debug/.build-id/XX/REST/elf (XX
 *     the build ID's first byte, REST the others, in hex), the older
 *     HOME/.debug/.build-id/XX/REST (a link to the file),
 *     HOME/.debug/PATH/BUILDID/elf and HOME/.debug/PATH/BUILDID;
 *  3. as its debug file /usr/lib/debug/.build-id/XX/REST.debug (where
 *     objcopy --only-keep-debug leaves program headers that place no
 *     file offset: then nothing is named, as perf names nothing);
 *  4. in each --binaries directory: a file of the same base name, the
 *     build-ID tree that perf archive unpacks there (DIR/.build-id/XX/
 *     REST/elf, DIR/.build-id/XX/REST), then any regular file of the
 *     directory (not its subdirectories) with that build ID;
 *  5. with a debuginfod handle (sym_opts.fetch) and a recorded build ID,
 *     from the debuginfod servers (dbgfetch.h), for a file
 *     dsofind_reportable() takes.
 *
 * A file whose build ID differs from the recording's is never taken.
 * Only regular files are opened (input_regular_fd()).  Files are read
 * with libelf's ELF_C_READ, never mapped, so that one truncated meanwhile
 * gives read errors rather than SIGBUS.
 */
#ifndef P2G_DSOFIND_H
#define P2G_DSOFIND_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

#define DSOFIND_MAX_BUILD_ID 64

/* An ELF file open for reading. */
struct dsofind_file {
	char *path;
	int fd;			/* -1: none */
	Elf *elf;
	uint8_t build_id[DSOFIND_MAX_BUILD_ID];
	size_t build_id_size;	/* 0: the file has none */
};

/* Why no file was found. */
enum dsofind_why {
	DSOFIND_FOUND,
	DSOFIND_NOT_FOUND,
	DSOFIND_BUILD_ID_DIFFERS,	/* a file was there, but another */
	DSOFIND_NOMEM,
	DSOFIND_NO_FDS,			/* EMFILE or ENFILE: the file may
					   be there */
};

struct dsofind;

/* A finder with the symfs, HOME and binaries directories of O (which
 * must outlive it); HOME is O's or $HOME's.  NULL when out of memory. */
struct dsofind *dsofind_new(const struct sym_opts *o);

/* Accepts NULL. */
void dsofind_free(struct dsofind *f);

/* The home whose .debug is perf's cache, or NULL. */
const char *dsofind_home(const struct dsofind *f);

/*
 * Open the binary recorded at PATH with build ID BID (NBID bytes; NULL:
 * none recorded, then the file at the path is taken as it is) into
 * *OUT.  Returns DSOFIND_FOUND, or why not.
 */
enum dsofind_why dsofind_binary(struct dsofind *f, const char *path,
				const uint8_t *bid, size_t nbid,
				struct dsofind_file *out);

/*
 * Open the separate debug file (one with a .symtab) of BIN, recorded at
 * PATH, into *OUT: /usr/lib/debug/.build-id/XX/REST.debug, the build-ID
 * cache's HOME/.debug/.build-id/XX/REST/debug, then BIN's
 * .gnu_debuglink name beside PATH, in PATH's .debug directory and under
 * /usr/lib/debug (all but the cache under the symfs), then from the
 * debuginfod servers (as dsofind_binary() asks them).  The debug file
 * must have BIN's build ID, or if BIN has none, the CRC its debug link
 * gives.  True if one was found.
 */
bool dsofind_debug(struct dsofind *f, const char *path,
		   const struct dsofind_file *bin, struct dsofind_file *out);

/* True once a file could not be opened through F for want of
 * descriptors (EMFILE, ENFILE): what was looked for since may be there,
 * and must not be told "not found". */
bool dsofind_no_fds(const struct dsofind *f);

/* Open PATH as an ELF file, checking its build ID against BID if BID is
 * not NULL.  DSOFIND_FOUND, or why not. */
enum dsofind_why dsofind_open(const char *path, const uint8_t *bid,
			      size_t nbid, struct dsofind_file *out);

/* Close what *FILE holds (a zeroed one or one with fd -1 is fine). */
void dsofind_close(struct dsofind_file *file);

/* Close *FILE's descriptor and keep its ELF handle, for what has been
 * read of it (libdw reads every DWARF section when it begins: a file
 * kept for its lines then needs no descriptor). */
void dsofind_drop_fd(struct dsofind_file *file);

/* True if a file's build ID FB (NFB bytes) is the recorded REC (NREC
 * bytes, which may be padded with zero bytes). */
bool dsofind_same_build_id(const uint8_t *fb, size_t nfb,
			   const uint8_t *rec, size_t nrec);

/* W (not DSOFIND_FOUND) in words: "not found", "build ID differs". */
const char *dsofind_why_text(enum dsofind_why w);

/* True if PATH names a file worth a warning when it is not found: an
 * absolute path, not a deleted file, nor memory that mapping_kind()
 * says has no file (a memfd, SysV or shared anonymous memory, a
 * device, the kernel's "/[aio]"). */
bool dsofind_reportable(const char *path);

/* BID (N bytes) in lower-case hex into BUF (2 N + 1 bytes). */
void dsofind_hex(const uint8_t *bid, size_t n, char *buf);

#endif
