/* SPDX-License-Identifier: MIT */
/* ELF files with their DWARF inflated for libdw: see dwimage.h. */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "dwimage.h"

/* deflate's best ratio is about 1032 to 1; a stated size past that (or
 * past 1 GiB) is not believed */
#define DWIMAGE_MAX_RATIO 1032
#define DWIMAGE_MAX_SIZE ((uint64_t)1 << 30)

struct dwimage {
	Elf *elf;
	char *buf;
};

/* What becomes of a section of the copy. */
enum plan {
	PLAN_NONE,	/* not read by libdw: no contents */
	PLAN_COPY,	/* copied as it is */
	PLAN_INFLATE,	/* compressed, read by lookups: inflated */
};

/* The DWARF sections that name lookups (dwlines.c) never read. */
static bool
unread(const char *name)
{
	static const char *const v[] = {
		".debug_loc", ".debug_loclists", ".debug_frame",
		".debug_macinfo", ".debug_macro", ".debug_pubnames",
		".debug_pubtypes",
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (strcmp(name, v[i]) == 0)
			return true;
	return false;
}

/* Inflate the zlib stream IN (N bytes) into OUT, exactly SIZE bytes,
 * without checking its Adler-32.  True if it does. */
static bool
inflate_exact(const unsigned char *in, size_t n, unsigned char *out,
	      size_t size)
{
	z_stream z;
	int r;

	memset(&z, 0, sizeof(z));
	if (n > UINT_MAX || size > UINT_MAX || inflateInit(&z) != Z_OK)
		return false;
#if ZLIB_VERNUM >= 0x1290
	(void)inflateValidate(&z, 0);
#endif
	z.next_in = (unsigned char *)in;
	z.avail_in = (unsigned)n;
	z.next_out = out;
	z.avail_out = (unsigned)size;
	r = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	return r == Z_STREAM_END && z.total_out == size;
}

/*
 * The plan for section I (SCN, header SH, named NAME; SHSTRNDX is the
 * names' section), its contents' raw data into *RAW, and the bytes it
 * takes in the copy into *SIZE; false if no copy can be made.
 */
static bool
plan_section(size_t i, size_t shstrndx, Elf_Scn *scn, const GElf_Shdr *sh,
	     const char *name, enum plan *p, Elf_Data **raw, uint64_t *size)
{
	GElf_Chdr ch;

	*p = PLAN_NONE;
	*raw = NULL;
	*size = 0;
	/* DWARF in another file, or compressed the older GNU way (which
	 * libdw reads, but this copy would leave out) */
	if (strcmp(name, ".gnu_debugaltlink") == 0 ||
	    strcmp(name, ".debug_sup") == 0 ||
	    strncmp(name, ".zdebug", 7) == 0)
		return false;
	if (sh->sh_type == SHT_NOBITS ||
	    (i != shstrndx && (strncmp(name, ".debug_", 7) != 0 ||
			       unread(name))))
		return true;
	*raw = elf_rawdata(scn, NULL);
	if (*raw == NULL || (*raw)->d_size != sh->sh_size)
		return false;
	if ((sh->sh_flags & SHF_COMPRESSED) == 0) {
		*p = PLAN_COPY;
		*size = sh->sh_size;
		return true;
	}
	if (gelf_getchdr(scn, &ch) == NULL || ch.ch_type != ELFCOMPRESS_ZLIB ||
	    (*raw)->d_size < sizeof(Elf64_Chdr) ||
	    ch.ch_size > DWIMAGE_MAX_SIZE ||
	    ch.ch_size / DWIMAGE_MAX_RATIO > (*raw)->d_size)
		return false;
	*p = PLAN_INFLATE;
	*size = ch.ch_size;
	return true;
}

static uint64_t
align8(uint64_t n)
{
	return (n + 7) & ~(uint64_t)7;
}

/*
 * The copy: ELF's header (without program headers), its section
 * headers, then the contents of the sections libdw reads: the names of
 * the sections and the DWARF ones, inflated.  The other sections keep
 * their headers, as sections without contents.  Everything in this
 * machine's byte order, which is the file's.
 */
struct dwimage *
dwimage_open(Elf *elf)
{
	struct dwimage *im = NULL;
	Elf64_Ehdr *eh = elf64_getehdr(elf);
	Elf64_Shdr *shdrs = NULL;
	Elf_Data **raws = NULL;
	enum plan *plan = NULL;
	size_t nscn, shstrndx, i;
	uint64_t total, size, off;
	bool any = false;
	char *buf = NULL;

	if (eh == NULL || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
					     ? ELFDATA2MSB : ELFDATA2LSB) ||
	    (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) ||
	    elf_getshdrnum(elf, &nscn) != 0 || nscn == 0 ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 || shstrndx >= nscn ||
	    nscn > DWIMAGE_MAX_SIZE / sizeof(Elf64_Shdr))
		return NULL;
	plan = calloc(nscn, sizeof(*plan));
	raws = calloc(nscn, sizeof(*raws));
	shdrs = calloc(nscn, sizeof(*shdrs));
	if (plan == NULL || raws == NULL || shdrs == NULL)
		goto fail;
	/* first the headers and what the copy needs */
	total = align8(sizeof(*eh)) + nscn * sizeof(*shdrs);
	for (i = 0; i < nscn; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		Elf64_Shdr *sh = scn != NULL ? elf64_getshdr(scn) : NULL;
		GElf_Shdr gs;
		const char *name;

		if (sh == NULL)
			goto fail;
		shdrs[i] = *sh;
		if (i == 0)
			continue;
		if (gelf_getshdr(scn, &gs) == NULL ||
		    (name = elf_strptr(elf, shstrndx, gs.sh_name)) == NULL)
			name = "";
		if (!plan_section(i, shstrndx, scn, &gs, name, &plan[i],
				  &raws[i], &size) ||
		    align8(size) > DWIMAGE_MAX_SIZE - total)
			goto fail;
		total += align8(size);
		any |= plan[i] == PLAN_INFLATE;
	}
	if (!any)
		goto fail;
	im = calloc(1, sizeof(*im));
	buf = calloc(1, total);
	if (im == NULL || buf == NULL)
		goto fail;
	off = align8(sizeof(*eh)) + nscn * sizeof(*shdrs);
	for (i = 1; i < nscn; i++) {
		const unsigned char *in;
		GElf_Chdr ch;

		switch (plan[i]) {
		case PLAN_NONE:
			shdrs[i].sh_type = SHT_NOBITS;
			shdrs[i].sh_offset = 0;
			continue;
		case PLAN_COPY:
			/* an empty section's data may have no buffer */
			if (raws[i]->d_size > 0)
				memcpy(buf + off, raws[i]->d_buf,
				       raws[i]->d_size);
			shdrs[i].sh_offset = off;
			off += align8(raws[i]->d_size);
			continue;
		case PLAN_INFLATE:
			break;
		}
		in = raws[i]->d_buf;
		if (gelf_getchdr(elf_getscn(elf, i), &ch) == NULL ||
		    align8(ch.ch_size) > total - off ||
		    !inflate_exact(in + sizeof(Elf64_Chdr),
				   raws[i]->d_size - sizeof(Elf64_Chdr),
				   (unsigned char *)buf + off, ch.ch_size))
			goto fail;
		shdrs[i].sh_offset = off;
		shdrs[i].sh_size = ch.ch_size;
		shdrs[i].sh_flags &= ~(uint64_t)SHF_COMPRESSED;
		shdrs[i].sh_addralign = ch.ch_addralign;
		off += align8(ch.ch_size);
	}
	memcpy(buf, eh, sizeof(*eh));
	((Elf64_Ehdr *)(void *)buf)->e_phoff = 0;
	((Elf64_Ehdr *)(void *)buf)->e_phnum = 0;
	((Elf64_Ehdr *)(void *)buf)->e_phentsize = 0;
	((Elf64_Ehdr *)(void *)buf)->e_shoff = align8(sizeof(*eh));
	((Elf64_Ehdr *)(void *)buf)->e_shentsize = sizeof(*shdrs);
	memcpy(buf + align8(sizeof(*eh)), shdrs, nscn * sizeof(*shdrs));
	im->elf = elf_memory(buf, off);
	if (im->elf == NULL)
		goto fail;
	im->buf = buf;
	free(plan);
	free(raws);
	free(shdrs);
	return im;
fail:
	free(plan);
	free(raws);
	free(shdrs);
	free(buf);
	free(im);
	return NULL;
}

Elf *
dwimage_elf(struct dwimage *im)
{
	return im->elf;
}

void
dwimage_close(struct dwimage *im)
{
	if (im == NULL)
		return;
	elf_end(im->elf);
	free(im->buf);
	free(im);
}
