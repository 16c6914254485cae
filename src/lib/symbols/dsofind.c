/* SPDX-License-Identifier: MIT */
/* Finding a mapping's file where perf finds it: see dsofind.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <elfutils/libdwelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "dbgfetch.h"
#include "dsofind.h"
#include "elfsyms.h"
#include "grow.h"
#include "input.h"
#include "mapkind.h"

/* A --binaries directory's regular files with their build IDs, read
 * once, when a build ID is first looked for there. */
struct dir_entry {
	char *path;
	uint8_t bid[DSOFIND_MAX_BUILD_ID];
	size_t nbid;
};

struct dir_scan {
	bool done;
	struct dir_entry *v;
	size_t n;
};

struct dsofind {
	const struct sym_opts *o;
	char *home;
	struct dir_scan *scans;	/* one per --binaries directory */
	bool no_fds;		/* an open failed with EMFILE or ENFILE */
};

struct dsofind *
dsofind_new(const struct sym_opts *o)
{
	struct dsofind *f = calloc(1, sizeof(*f));
	const char *home = o->home != NULL ? o->home : getenv("HOME");

	if (f == NULL)
		return NULL;
	f->o = o;
	if (home != NULL && *home != '\0') {
		f->home = strdup(home);
		if (f->home == NULL)
			goto fail;
	}
	if (o->nbinaries > 0) {
		f->scans = calloc(o->nbinaries, sizeof(*f->scans));
		if (f->scans == NULL)
			goto fail;
	}
	return f;
fail:
	dsofind_free(f);
	return NULL;
}

void
dsofind_free(struct dsofind *f)
{
	size_t i, k;

	if (f == NULL)
		return;
	for (i = 0; f->scans != NULL && i < f->o->nbinaries; i++) {
		for (k = 0; k < f->scans[i].n; k++)
			free(f->scans[i].v[k].path);
		free(f->scans[i].v);
	}
	free(f->scans);
	free(f->home);
	free(f);
}

const char *
dsofind_home(const struct dsofind *f)
{
	return f->home;
}

void
dsofind_hex(const uint8_t *bid, size_t n, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		buf[2 * i] = hex[bid[i] >> 4];
		buf[2 * i + 1] = hex[bid[i] & 15];
	}
	buf[2 * n] = '\0';
}

bool
dsofind_same_build_id(const uint8_t *fb, size_t nfb, const uint8_t *rec,
		      size_t nrec)
{
	size_t i;

	if (nfb == 0 || nfb > nrec || memcmp(fb, rec, nfb) != 0)
		return false;
	for (i = nfb; i < nrec; i++)
		if (rec[i] != 0)
			return false;
	return true;
}

void
dsofind_close(struct dsofind_file *file)
{
	if (file->elf != NULL)
		elf_end(file->elf);
	if (file->fd >= 0)
		close(file->fd);
	free(file->path);
	memset(file, 0, sizeof(*file));
	file->fd = -1;
}

void
dsofind_drop_fd(struct dsofind_file *file)
{
	if (file->fd < 0)
		return;
	if (file->elf != NULL)
		(void)elf_cntl(file->elf, ELF_C_FDDONE);
	close(file->fd);
	file->fd = -1;
}

enum dsofind_why
dsofind_open(const char *path, const uint8_t *bid, size_t nbid,
	     struct dsofind_file *out)
{
	memset(out, 0, sizeof(*out));
	out->fd = input_regular_fd(path, NULL);
	if (out->fd < 0)
		return errno == EMFILE || errno == ENFILE ? DSOFIND_NO_FDS
							  : DSOFIND_NOT_FOUND;
	out->elf = elf_begin(out->fd, ELF_C_READ, NULL);
	if (out->elf == NULL || elf_kind(out->elf) != ELF_K_ELF) {
		dsofind_close(out);
		return DSOFIND_NOT_FOUND;
	}
	out->build_id_size = elfsyms_build_id(out->elf, out->build_id,
					      sizeof(out->build_id));
	if (bid != NULL && !dsofind_same_build_id(out->build_id,
						  out->build_id_size, bid,
						  nbid)) {
		dsofind_close(out);
		return DSOFIND_BUILD_ID_DIFFERS;
	}
	out->path = strdup(path);
	if (out->path == NULL) {
		dsofind_close(out);
		return DSOFIND_NOMEM;
	}
	return DSOFIND_FOUND;
}

const char *
dsofind_why_text(enum dsofind_why w)
{
	switch (w) {
	case DSOFIND_BUILD_ID_DIFFERS:
		return "build ID differs";
	case DSOFIND_NOMEM:
		return "out of memory";
	case DSOFIND_NO_FDS:
		return "too many open files";
	default:
		return "not found";
	}
}

bool
dsofind_reportable(const char *path)
{
	enum mapkind k = mapping_kind(path);

	/* perf's "//anon" and the perf maps are looked for as files, and
	 * told missing, too */
	return path[0] == '/' && strstr(path, " (deleted)") == NULL &&
	       (k == MAPKIND_FILE || k == MAPKIND_ANON ||
		k == MAPKIND_PERFMAP);
}

/* Format a path into BUF (PATH_BUF bytes); false if it does not fit. */
#define PATH_BUF 4096
static bool __attribute__((format(printf, 2, 3)))
fmt(char *buf, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, PATH_BUF, f, ap);
	va_end(ap);
	return n >= 0 && n < PATH_BUF;
}

/* Try PATH: FOUND, or *WHY updated (a differing build ID is kept as the
 * reason over "not found", a want of memory or descriptors over
 * anything). */
static bool
try_path(const char *path, const uint8_t *bid, size_t nbid,
	 struct dsofind_file *out, enum dsofind_why *why)
{
	enum dsofind_why w = dsofind_open(path, bid, nbid, out);

	if (w == DSOFIND_FOUND)
		return true;
	if (*why == DSOFIND_NOMEM || *why == DSOFIND_NO_FDS)
		return false;
	if (w == DSOFIND_BUILD_ID_DIFFERS || w == DSOFIND_NOMEM ||
	    w == DSOFIND_NO_FDS || *why == DSOFIND_FOUND)
		*why = w;
	return false;
}

/* Read the regular files of --binaries directory I with their build
 * IDs. */
static void
scan_dir(struct dsofind *f, size_t i)
{
	struct dir_scan *sc = &f->scans[i];
	const char *dir = f->o->binaries[i];
	enum dsofind_why w;
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	sc->done = true;
	d = opendir(dir);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[PATH_BUF];
		struct dsofind_file file;
		struct dir_entry *e;

		if (de->d_name[0] == '.' ||
		    (de->d_type != DT_REG && de->d_type != DT_UNKNOWN &&
		     de->d_type != DT_LNK) ||
		    !fmt(path, "%s/%s", dir, de->d_name))
			continue;
		w = dsofind_open(path, NULL, 0, &file);
		if (w != DSOFIND_FOUND) {
			f->no_fds |= w == DSOFIND_NO_FDS;
			continue;
		}
		if (file.build_id_size == 0) {
			dsofind_close(&file);
			continue;
		}
		if (sc->n == cap) {
			e = grow(sc->v, &cap, sc->n + 1, sizeof(*e), 16);
			if (e == NULL) {
				dsofind_close(&file);
				break;
			}
			sc->v = e;
		}
		e = &sc->v[sc->n++];
		e->path = file.path;
		file.path = NULL;
		memcpy(e->bid, file.build_id, file.build_id_size);
		e->nbid = file.build_id_size;
		dsofind_close(&file);
	}
	closedir(d);
}

/* The --binaries directories, in order. */
static bool
find_in_binaries(struct dsofind *f, const char *path, const uint8_t *bid,
		 size_t nbid, const char *hex, struct dsofind_file *out,
		 enum dsofind_why *why)
{
	const char *base = strrchr(path, '/');
	char p[PATH_BUF];
	size_t i, k;

	base = base != NULL ? base + 1 : path;
	for (i = 0; i < f->o->nbinaries; i++) {
		const char *dir = f->o->binaries[i];

		if (*base != '\0' && fmt(p, "%s/%s", dir, base) &&
		    try_path(p, bid, nbid, out, why))
			return true;
		if (bid == NULL)
			continue;
		if (fmt(p, "%s/.build-id/%.2s/%s/elf", dir, hex, hex + 2) &&
		    try_path(p, bid, nbid, out, why))
			return true;
		if (fmt(p, "%s/.build-id/%.2s/%s", dir, hex, hex + 2) &&
		    try_path(p, bid, nbid, out, why))
			return true;
		if (!f->scans[i].done)
			scan_dir(f, i);
		for (k = 0; k < f->scans[i].n; k++)
			if (dsofind_same_build_id(f->scans[i].v[k].bid,
						  f->scans[i].v[k].nbid, bid,
						  nbid) &&
			    try_path(f->scans[i].v[k].path, bid, nbid, out,
				     why))
				return true;
	}
	return false;
}

enum dsofind_why
dsofind_binary(struct dsofind *f, const char *path, const uint8_t *bid,
	       size_t nbid, struct dsofind_file *out)
{
	const char *symfs = f->o->symfs != NULL ? f->o->symfs : "";
	enum dsofind_why why = DSOFIND_NOT_FOUND;
	char hex[2 * DSOFIND_MAX_BUILD_ID + 1];
	char p[PATH_BUF];

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (bid != NULL && (nbid < 2 || nbid > DSOFIND_MAX_BUILD_ID))
		bid = NULL;
	/* the recorded path (a relative one is the current directory's,
	 * or the symfs's) */
	if (path[0] != '[' &&
	    fmt(p, "%s%s%s", symfs, *symfs && path[0] != '/' ? "/" : "",
		path) &&
	    try_path(p, bid, nbid, out, &why))
		return DSOFIND_FOUND;
	if (bid != NULL) {
		dsofind_hex(bid, nbid, hex);
		if (f->home != NULL) {
			static const char *const names[] = { "elf", "vdso" };
			size_t k;

			for (k = 0; k < 2; k++)
				if (fmt(p, "%s/.debug/.build-id/%.2s/%s/%s",
					f->home, hex, hex + 2, names[k]) &&
				    try_path(p, bid, nbid, out, &why))
					return DSOFIND_FOUND;
			if (fmt(p, "%s/.debug/.build-id/%.2s/%s", f->home,
				hex, hex + 2) &&
			    try_path(p, bid, nbid, out, &why))
				return DSOFIND_FOUND;
			if (fmt(p, "%s/.debug/%s/%s/elf", f->home,
				path[0] == '/' ? path + 1 : path, hex) &&
			    try_path(p, bid, nbid, out, &why))
				return DSOFIND_FOUND;
			if (fmt(p, "%s/.debug/%s/%s", f->home,
				path[0] == '/' ? path + 1 : path, hex) &&
			    try_path(p, bid, nbid, out, &why))
				return DSOFIND_FOUND;
		}
		if (fmt(p, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs,
			hex, hex + 2) &&
		    try_path(p, bid, nbid, out, &why))
			return DSOFIND_FOUND;
	}
	if (find_in_binaries(f, path, bid, nbid, hex, out, &why))
		return DSOFIND_FOUND;
	/* last, and only for real files: the debuginfod servers */
	if (bid != NULL && f->o->fetch != NULL && dsofind_reportable(path)) {
		enum dsofind_why w = dbgfetch_open(f->o->fetch,
						   DBGFETCH_EXECUTABLE, bid,
						   nbid, out);

		if (w == DSOFIND_FOUND || w == DSOFIND_NOMEM ||
		    w == DSOFIND_BUILD_ID_DIFFERS)
			return w;
	}
	f->no_fds |= why == DSOFIND_NO_FDS;
	return why;
}

bool
dsofind_no_fds(const struct dsofind *f)
{
	return f->no_fds;
}

/* The CRC-32 of the whole file FD (as .gnu_debuglink gives it), in *CRC;
 * false if it cannot be read. */
static bool
file_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t got;
	off_t off = 0;

	while ((got = pread(fd, buf, sizeof(buf), off)) > 0) {
		c = crc32(c, buf, (uInt)got);
		off += got;
	}
	*crc = (uint32_t)c;
	return got == 0;
}

/* Whether the ELF file ELF, open as FD, holds nothing past its headers
 * and sections: a CRC reads the whole file, and a candidate debug file
 * may be a sparse file of gigabytes with a small ELF at its start.  A
 * debug file objcopy or eu-strip made ends with its section headers or
 * its last section. */
static bool
elf_fills_file(Elf *elf, int fd)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	struct stat st;
	uint64_t end, e;

	if (fstat(fd, &st) != 0 || gelf_getehdr(elf, &eh) == NULL)
		return false;
	end = eh.e_ehsize;
	e = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
	if (e > end)
		end = e;
	e = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
	if (e > end)
		end = e;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset + sh.sh_size >= sh.sh_offset &&
		    sh.sh_offset + sh.sh_size > end)
			end = sh.sh_offset + sh.sh_size;
	/* a page of slack for padding after the last part */
	return (uint64_t)st.st_size <= end + 4096;
}

/* Open PATH as BIN's debug file: with a .symtab, and BIN's build ID (or
 * the CRC CRC if BIN has none and CRC is not NULL). */
static bool
try_debug(struct dsofind *f, const char *path,
	  const struct dsofind_file *bin, const GElf_Word *crc,
	  struct dsofind_file *out)
{
	enum dsofind_why w;
	uint32_t c;

	w = dsofind_open(path, bin->build_id_size ? bin->build_id : NULL,
			 bin->build_id_size, out);
	if (w != DSOFIND_FOUND) {
		f->no_fds |= w == DSOFIND_NO_FDS;
		return false;
	}
	if (elfsyms_has_symtab(out->elf) &&
	    (bin->build_id_size > 0 || crc == NULL ||
	     (elf_fills_file(out->elf, out->fd) &&
	      file_crc(out->fd, &c) && c == *crc)))
		return true;
	dsofind_close(out);
	return false;
}

/* dsofind_debug() on disk. */
static bool
debug_on_disk(struct dsofind *f, const char *path,
	      const struct dsofind_file *bin, struct dsofind_file *out)
{
	const char *symfs = f->o->symfs != NULL ? f->o->symfs : "";
	char hex[2 * DSOFIND_MAX_BUILD_ID + 1];
	const char *link, *slash;
	char p[PATH_BUF];
	GElf_Word crc;
	int dir;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (bin->build_id_size >= 2) {
		dsofind_hex(bin->build_id, bin->build_id_size, hex);
		if (fmt(p, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs,
			hex, hex + 2) &&
		    try_debug(f, p, bin, NULL, out))
			return true;
		if (f->home != NULL &&
		    fmt(p, "%s/.debug/.build-id/%.2s/%s/debug", f->home, hex,
			hex + 2) &&
		    try_debug(f, p, bin, NULL, out))
			return true;
	}
	link = dwelf_elf_gnu_debuglink(bin->elf, &crc);
	if (link == NULL || strchr(link, '/') != NULL || path[0] == '[')
		return false;
	/* the directory of PATH: "." for a bare name; /usr/lib/debug
	 * mirrors only absolute paths */
	slash = strrchr(path, '/');
	dir = slash != NULL ? (int)(slash - path) : 1;
	if (slash == NULL)
		path = ".";
	if (fmt(p, "%s%s%.*s/%s", symfs, *symfs && path[0] != '/' ? "/" : "",
		dir, path, link) &&
	    try_debug(f, p, bin, &crc, out))
		return true;
	if (fmt(p, "%s%s%.*s/.debug/%s", symfs,
		*symfs && path[0] != '/' ? "/" : "", dir, path, link) &&
	    try_debug(f, p, bin, &crc, out))
		return true;
	if (path[0] == '/' &&
	    fmt(p, "%s/usr/lib/debug%.*s/%s", symfs, dir, path, link) &&
	    try_debug(f, p, bin, &crc, out))
		return true;
	return false;
}

bool
dsofind_debug(struct dsofind *f, const char *path,
	      const struct dsofind_file *bin, struct dsofind_file *out)
{
	if (debug_on_disk(f, path, bin, out))
		return true;
	/* last, and only for real files: the debuginfod servers */
	if (bin->build_id_size < 2 || f->o->fetch == NULL ||
	    !dsofind_reportable(path) ||
	    dbgfetch_open(f->o->fetch, DBGFETCH_DEBUGINFO, bin->build_id,
			  bin->build_id_size, out) != DSOFIND_FOUND)
		return false;
	if (elfsyms_has_symtab(out->elf))
		return true;
	dsofind_close(out);
	return false;
}
