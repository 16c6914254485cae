/* SPDX-License-Identifier: MIT */
/* Symbols for profile PCs: see symbolize.h. */
#include "config.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "input.h"
#include "symbolize.h"

struct sym {
	uint64_t addr, size;
	const char *name;	/* in the ELF's string table; NULL for a
				   symbol that only ends the one before */
	int rank;		/* among symbols at one address, the highest
				   names it */
};

struct load {
	uint64_t offset, vaddr, filesz;
};

struct file {
	char *path;
	int tried;		/* 0 not yet, 1 loaded, -1 unusable */
	int fd, dfd;		/* the file, its separate debug file */
	Elf *elf, *delf;
	struct load *loads;
	size_t nloads;
	struct sym *syms;
	size_t nsyms;
};

struct map {
	uint64_t start, end, offset;
	size_t file;
};

struct symbolizer {
	struct map *maps;
	size_t nmaps;
	struct file *files;
	size_t nfiles;
};

static size_t
file_index(struct symbolizer *s, const char *path, size_t len)
{
	size_t i;
	struct file *nf;

	for (i = 0; i < s->nfiles; i++)
		if (strlen(s->files[i].path) == len &&
		    memcmp(s->files[i].path, path, len) == 0)
			return i;
	nf = realloc(s->files, (s->nfiles + 1) * sizeof(*nf));
	if (nf == NULL)
		return SIZE_MAX;
	s->files = nf;
	memset(&nf[s->nfiles], 0, sizeof(*nf));
	nf[s->nfiles].fd = -1;
	nf[s->nfiles].dfd = -1;
	nf[s->nfiles].path = malloc(len + 1);
	if (nf[s->nfiles].path == NULL)
		return SIZE_MAX;
	memcpy(nf[s->nfiles].path, path, len);
	nf[s->nfiles].path[len] = '\0';
	return s->nfiles++;
}

/* One maps line: "start-end perms offset dev inode path", "start-end
 * perms path (@offset) id" or "start-end: path". */
static int
add_line(struct symbolizer *s, const char *line)
{
	unsigned long long a, b, off = 0;
	char perms[16], dev[32];
	unsigned long long ino;
	int n = 0, k;
	const char *path = NULL, *end;
	struct map *nm;
	size_t fi;

	k = sscanf(line, "%llx-%llx %15s %llx %31s %llu %n", &a, &b, perms,
		   &off, dev, &ino, &n);
	if (k == 6 && n > 0 && strchr(dev, ':') != NULL) {
		path = line + n;
	} else if (sscanf(line, "%llx-%llx: %n", &a, &b, &n) == 2 && n > 0 &&
		   strchr(line, ':') != NULL && line[n] != '\0') {
		path = line + n;
		off = 0;
	} else if (sscanf(line, "%llx-%llx %15s %n", &a, &b, perms, &n) == 3 &&
		   n > 0) {
		const char *at = strstr(line + n, " (@");

		if (at == NULL)
			return 0;
		path = line + n;
		end = at;
		if (sscanf(at, " (@%llx)", &off) != 1)
			return 0;
		goto have_end;
	} else {
		return 0;
	}
	end = path + strlen(path);
have_end:
	while (end > path && (end[-1] == ' ' || end[-1] == '\n'))
		end--;
	if (end == path || path[0] == '[' || b <= a)
		return 0;
	fi = file_index(s, path, (size_t)(end - path));
	if (fi == SIZE_MAX)
		return -1;
	nm = realloc(s->maps, (s->nmaps + 1) * sizeof(*nm));
	if (nm == NULL)
		return -1;
	s->maps = nm;
	nm[s->nmaps].start = a;
	nm[s->nmaps].end = b;
	nm[s->nmaps].offset = off;
	nm[s->nmaps].file = fi;
	s->nmaps++;
	return 0;
}

struct symbolizer *
symbolizer_new(const char *maps, size_t len)
{
	struct symbolizer *s = calloc(1, sizeof(*s));
	char line[4096];
	size_t i = 0;

	if (s == NULL)
		return NULL;
	(void)elf_version(EV_CURRENT);
	while (maps != NULL && i < len) {
		const char *nl = memchr(maps + i, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - (maps + i)) : len - i;

		if (ll < sizeof(line)) {
			memcpy(line, maps + i, ll);
			line[ll] = '\0';
			if (add_line(s, line) < 0) {
				symbolizer_free(s);
				return NULL;
			}
		}
		i += ll + 1;
	}
	return s;
}

void
symbolizer_free(struct symbolizer *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nfiles; i++) {
		struct file *f = &s->files[i];

		free(f->syms);
		free(f->loads);
		if (f->elf != NULL)
			elf_end(f->elf);
		if (f->fd >= 0)
			close(f->fd);
		if (f->delf != NULL)
			elf_end(f->delf);
		if (f->dfd >= 0)
			close(f->dfd);
		free(f->path);
	}
	free(s->files);
	free(s->maps);
	free(s);
}

static int
cmp_sym(const void *x, const void *y)
{
	const struct sym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->name == NULL || b->name == NULL)
		return (a->name != NULL) - (b->name != NULL);
	return -strcmp(a->name, b->name);
}

/* The symbol table of ELF: .symtab, else .dynsym if DYN; NULL if none. */
static Elf_Scn *
symbol_table(Elf *elf, bool dyn, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL, *best = NULL;
	GElf_Shdr one;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &one) == NULL)
			continue;
		if (one.sh_type == SHT_SYMTAB ||
		    (dyn && one.sh_type == SHT_DYNSYM && best == NULL)) {
			best = scn;
			*sh = one;
			if (one.sh_type == SHT_SYMTAB)
				break;
		}
	}
	return best;
}

/* The CRC-32 of the whole file FD (as .gnu_debuglink gives it), in *CRC;
 * false if it cannot be read. */
static bool
file_crc(int fd, GElf_Word *crc)
{
	unsigned char buf[65536];
	uLong c = crc32(0L, Z_NULL, 0);
	ssize_t got;
	off_t off = 0;

	while ((got = pread(fd, buf, sizeof(buf), off)) > 0) {
		c = crc32(c, buf, (uInt)got);
		off += got;
	}
	*crc = (GElf_Word)c;
	return got == 0;
}

/* Open PATH as the debug file of F if it is an ELF file with a .symtab
 * and, when F has a build id, the same build id, else the CRC its
 * .gnu_debuglink gives (CRC, if not NULL), as addr2line checks. */
static bool
try_debug(struct file *f, const char *path, const void *bid, ssize_t nbid,
	  const GElf_Word *crc)
{
	const void *dbid;
	GElf_Word dcrc;
	GElf_Shdr sh;
	int fd;
	Elf *elf;

	fd = input_regular_fd(path, NULL);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF &&
	    symbol_table(elf, false, &sh) != NULL &&
	    (nbid > 0 ? dwelf_elf_gnu_build_id(elf, &dbid) == nbid &&
				memcmp(dbid, bid, (size_t)nbid) == 0
		      : crc == NULL ||
				(file_crc(fd, &dcrc) && dcrc == *crc))) {
		f->dfd = fd;
		f->delf = elf;
		return true;
	}
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return false;
}

/*
 * F's separate debug file, where the distribution's debug packages put it
 * and addr2line (which both pprofs run) looks: by build id under
 * /usr/lib/debug/.build-id, else by the .gnu_debuglink name beside the
 * file, in its .debug directory and under /usr/lib/debug.
 */
static void
find_debug(struct file *f)
{
	/* DIR/LINK, DIR/.debug/LINK, /usr/lib/debug/DIR/LINK */
	static const char *const where[3][2] = {
		{ "", "/" }, { "", "/.debug/" }, { "/usr/lib/debug", "/" },
	};
	const unsigned char *bid;
	const char *link, *slash, *base;
	char path[4096];
	GElf_Word crc;
	ssize_t nbid, i;
	int n, dir, k;

	nbid = dwelf_elf_gnu_build_id(f->elf, (const void **)&bid);
	if (nbid > 1) {
		n = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/",
			     bid[0]);
		for (i = 1; i < nbid && n > 0 && (size_t)n + 3 < sizeof(path);
		     i++)
			n += snprintf(path + n, sizeof(path) - (size_t)n,
				      "%02x", bid[i]);
		if ((size_t)n + sizeof(".debug") <= sizeof(path)) {
			memcpy(path + n, ".debug", sizeof(".debug"));
			if (try_debug(f, path, bid, nbid, NULL))
				return;
		}
	}
	link = dwelf_elf_gnu_debuglink(f->elf, &crc);
	if (link == NULL || strchr(link, '/') != NULL)
		return;
	/* the directory of the file: "." for a bare name, "" for "/x";
	 * /usr/lib/debug mirrors only absolute paths */
	slash = strrchr(f->path, '/');
	dir = slash ? (int)(slash - f->path) : 1;
	base = slash ? f->path : ".";
	for (k = 0; k < 3 && (k < 2 || f->path[0] == '/'); k++)
		if ((size_t)snprintf(path, sizeof(path), "%s%.*s%s%s",
				     where[k][0], dir, base, where[k][1],
				     link) < sizeof(path) &&
		    try_debug(f, path, bid, nbid, &crc))
			return;
}

/*
 * Read F's loadable segments and symbols: from its .symtab, else from its
 * separate debug file's, else from its .dynsym (the symbols addr2line and
 * nm give pprof).
 */
static void
load_file(struct file *f)
{
	Elf_Scn *best;
	Elf *syms;
	GElf_Shdr bsh;
	GElf_Ehdr eh;
	size_t i, n, cap = 0;

	f->tried = -1;
	/* A maps line may name anything: only a regular file is opened (a
	 * FIFO would be waited on).  It is read, not mapped, so that one
	 * another process truncates meanwhile gives read errors, not
	 * SIGBUS. */
	f->fd = input_regular_fd(f->path, NULL);
	if (f->fd < 0)
		return;
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	if (f->elf == NULL || elf_kind(f->elf) != ELF_K_ELF ||
	    gelf_getehdr(f->elf, &eh) == NULL || elf_getphdrnum(f->elf, &n))
		return;
	f->loads = calloc(n + 1, sizeof(*f->loads));
	if (f->loads == NULL)
		return;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(f->elf, (int)i, &ph) != NULL &&
		    ph.p_type == PT_LOAD) {
			f->loads[f->nloads].offset = ph.p_offset;
			f->loads[f->nloads].vaddr = ph.p_vaddr;
			f->loads[f->nloads].filesz = ph.p_filesz;
			f->nloads++;
		}
	}
	syms = f->elf;
	best = symbol_table(f->elf, false, &bsh);
	if (best == NULL) {
		find_debug(f);
		if (f->delf != NULL) {
			syms = f->delf;
			best = symbol_table(f->delf, false, &bsh);
		} else {
			best = symbol_table(f->elf, true, &bsh);
		}
	}
	if (best != NULL) {
		Elf_Data *d = elf_getdata(best, NULL);
		size_t count = bsh.sh_entsize ? bsh.sh_size / bsh.sh_entsize : 0;

		for (i = 0; d != NULL && i < count; i++) {
			GElf_Sym sym;
			const char *name;
			struct sym *ns;

			int type, rank;

			if (gelf_getsym(d, (int)i, &sym) == NULL ||
			    sym.st_value == 0 || sym.st_shndx == SHN_UNDEF)
				continue;
			/* Functions name PCs; the other symbols nm lists end
			 * the function before them, as in pprof's table. */
			type = GELF_ST_TYPE(sym.st_info);
			if (type == STT_SECTION || type == STT_FILE ||
			    type == STT_TLS)
				continue;
			name = elf_strptr(syms, bsh.sh_link, sym.st_name);
			if (name == NULL || *name == '\0')
				continue;
			switch (GELF_ST_BIND(sym.st_info)) {
			case STB_GLOBAL: rank = 3; break;
			case STB_WEAK: rank = 2; break;
			default: rank = 1; break;
			}
			if (type != STT_FUNC && type != STT_GNU_IFUNC) {
				name = NULL;
				rank = 0;
			}
			if (f->nsyms == cap) {
				cap = cap ? cap * 2 : 256;
				ns = realloc(f->syms, cap * sizeof(*ns));
				if (ns == NULL)
					return;
				f->syms = ns;
			}
			f->syms[f->nsyms].addr = sym.st_value;
			f->syms[f->nsyms].size = sym.st_size;
			f->syms[f->nsyms].name = name;
			f->syms[f->nsyms].rank = rank;
			f->nsyms++;
		}
	}
	if (f->nsyms > 1)
		qsort(f->syms, f->nsyms, sizeof(*f->syms), cmp_sym);
	f->tried = 1;
}

const char *
symbolizer_lookup(struct symbolizer *s, uint64_t addr, const char **path)
{
	size_t i, lo, hi;
	const struct map *m = NULL;
	struct file *f;
	uint64_t fo, va = 0;
	int found = 0;

	if (path != NULL)
		*path = NULL;
	for (i = 0; i < s->nmaps && m == NULL; i++)
		if (addr >= s->maps[i].start && addr < s->maps[i].end)
			m = &s->maps[i];
	if (m == NULL)
		return NULL;
	f = &s->files[m->file];
	if (path != NULL)
		*path = f->path;
	if (f->tried == 0)
		load_file(f);
	if (f->tried < 0 || f->nsyms == 0)
		return NULL;
	/* the file offset, then the address of the segment holding it */
	fo = addr - m->start + m->offset;
	for (i = 0; i < f->nloads && !found; i++)
		if (fo >= f->loads[i].offset &&
		    fo < f->loads[i].offset + f->loads[i].filesz) {
			va = fo - f->loads[i].offset + f->loads[i].vaddr;
			found = 1;
		}
	if (!found)
		return NULL;
	lo = 0;
	hi = f->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* As google-pprof names it (addr2line and nm's table): after the
	 * nearest function at or before it, whatever its size, up to the
	 * next symbol of any kind.  Of symbols at one address, a global
	 * function names it before a weak one, a weak one before a local
	 * one. */
	if (lo == 0 || f->syms[lo - 1].name == NULL)
		return NULL;
	return f->syms[lo - 1].name;
}
