/* SPDX-License-Identifier: MIT */
/* ELF symbols as perf reads them: see elfsyms.h. */
#include "config.h"

#include <elfutils/libdwelf.h>
#include <stdlib.h>
#include <string.h>

#include "elfsyms.h"

int
elfsyms_loads(Elf *elf, struct elfsyms_loads *l)
{
	size_t i, n;

	l->v = NULL;
	l->n = 0;
	if (elf_getphdrnum(elf, &n) != 0 || n == 0)
		return -1;
	l->v = calloc(n, sizeof(*l->v));
	if (l->v == NULL)
		return -1;
	for (i = 0; i < n && i <= INT32_MAX; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_LOAD)
			continue;
		l->v[l->n].offset = ph.p_offset;
		l->v[l->n].vaddr = ph.p_vaddr;
		l->v[l->n].filesz = ph.p_filesz;
		l->n++;
	}
	return l->n > 0 ? 0 : -1;
}

void
elfsyms_loads_free(struct elfsyms_loads *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

bool
elfsyms_vaddr(const struct elfsyms_loads *l, uint64_t off, uint64_t *va)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (off >= l->v[i].offset &&
		    off - l->v[i].offset < l->v[i].filesz) {
			*va = off - l->v[i].offset + l->v[i].vaddr;
			return true;
		}
	return false;
}

/* The first section of TYPE, with its header in *SH. */
static Elf_Scn *
section_of_type(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, sh) != NULL && sh->sh_type == type)
			return scn;
	return NULL;
}

bool
elfsyms_has_symtab(Elf *elf)
{
	GElf_Shdr sh;

	return section_of_type(elf, SHT_SYMTAB, &sh) != NULL;
}

/* perf's test for a section that may hold labels: its name has "text"
 * or "data" in it. */
static bool
label_section(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(elf, shstrndx, sh->sh_name);

	return name != NULL &&
	       (strstr(name, "text") != NULL || strstr(name, "data") != NULL);
}

/*
 * Add a symbol named NAME to T.  A name in the string table STRS is
 * pointed to there, the table copied into T once (*HAVE_BASE, at
 * *BASE): many symbols may name one long string (or parts of it).
 * 0, or -1 when out of memory.
 */
static int
add_name(struct symtab *t, Elf_Data *strs, bool *have_base, size_t *base,
	 uint64_t start, uint64_t size, int binding, int type,
	 const char *name)
{
	const char *p = strs != NULL ? strs->d_buf : NULL;

	if (p == NULL || name < p || name >= p + strs->d_size)
		return symtab_add(t, start, size, binding, type, name,
				  strlen(name));
	if (!*have_base && symtab_add_block(t, p, strs->d_size, base) < 0)
		return -1;
	*have_base = true;
	return symtab_add_ref(t, start, size, binding, type,
			      *base + (size_t)(name - p));
}

long
elfsyms_read(Elf *elf, bool dynsym, bool demangle, struct symtab *t)
{
	GElf_Ehdr eh;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *d, *strs;
	size_t i, count, shstrndx, nscns, base = 0;
	bool have_base = false;
	long added = 0;

	if (gelf_getehdr(elf, &eh) == NULL ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    elf_getshdrnum(elf, &nscns) != 0)
		return 0;
	scn = section_of_type(elf, SHT_SYMTAB, &sh);
	if (scn == NULL && dynsym)
		scn = section_of_type(elf, SHT_DYNSYM, &sh);
	if (scn == NULL || sh.sh_entsize == 0)
		return 0;
	d = elf_getdata(scn, NULL);
	if (d == NULL)
		return 0;
	strs = elf_getdata(elf_getscn(elf, sh.sh_link), NULL);
	if (demangle)
		t->show |= SYMTAB_DEMANGLE;
	count = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < count && i <= INT32_MAX; i++) {
		GElf_Sym sym;
		GElf_Shdr ssh;
		Elf_Scn *sscn;
		const char *name;
		int type, vis, r;
		bool label;

		if (gelf_getsym(d, (int)i, &sym) == NULL)
			break;
		type = GELF_ST_TYPE(sym.st_info);
		vis = GELF_ST_VISIBILITY(sym.st_other);
		if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF ||
		    sym.st_shndx == SHN_ABS || sym.st_shndx >= nscns)
			continue;
		label = type == STT_NOTYPE && vis != STV_HIDDEN &&
			vis != STV_INTERNAL;
		if (!label && type != STT_FUNC && type != STT_GNU_IFUNC &&
		    type != STT_OBJECT)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name == NULL)
			continue;
		if ((eh.e_machine == EM_ARM || eh.e_machine == EM_AARCH64) &&
		    name[0] == '$' && name[1] != '\0' &&
		    strchr("adtx", name[1]) != NULL &&
		    (name[2] == '\0' || name[2] == '.'))
			continue;
		sscn = elf_getscn(elf, sym.st_shndx);
		if (sscn == NULL || gelf_getshdr(sscn, &ssh) == NULL ||
		    !(ssh.sh_flags & SHF_ALLOC))
			continue;
		if (label && !label_section(elf, shstrndx, &ssh))
			continue;
		/* thumb functions have the low bit set */
		if (eh.e_machine == EM_ARM && type == STT_FUNC &&
		    (sym.st_value & 1))
			sym.st_value--;
		r = add_name(t, strs, &have_base, &base, sym.st_value,
			     sym.st_size, GELF_ST_BIND(sym.st_info), type,
			     name);
		if (r < 0)
			return -1;
		added++;
	}
	return added;
}

/* The section named NAME, with its header in *SH and its index in *NDX. */
static Elf_Scn *
section_named(Elf *elf, size_t shstrndx, const char *name, GElf_Shdr *sh,
	      size_t *ndx)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (gelf_getshdr(scn, sh) == NULL)
			continue;
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n != NULL && strcmp(n, name) == 0) {
			if (ndx != NULL)
				*ndx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

long
elfsyms_plt(Elf *elf, bool demangle, struct symtab *t)
{
	GElf_Shdr rsh, psh, dsh;
	GElf_Ehdr eh;
	Elf_Scn *rscn, *dscn;
	Elf_Data *rel, *syms, *strs;
	size_t shstrndx, dndx, i, count, base = 0;
	bool have_base = false;
	uint64_t head, entry, addr;
	long added = 0;

	if (gelf_getehdr(elf, &eh) == NULL ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	dscn = section_of_type(elf, SHT_DYNSYM, &dsh);
	if (dscn == NULL)
		return 0;
	dndx = elf_ndxscn(dscn);
	rscn = section_named(elf, shstrndx, ".rela.plt", &rsh, NULL);
	if (rscn == NULL)
		rscn = section_named(elf, shstrndx, ".rel.plt", &rsh, NULL);
	if (rscn == NULL || rsh.sh_link != dndx || rsh.sh_entsize == 0 ||
	    (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL) ||
	    section_named(elf, shstrndx, ".plt", &psh, NULL) == NULL)
		return 0;
	switch (eh.e_machine) {
	case EM_ARM:
		head = 20;
		entry = 12;
		break;
	case EM_AARCH64:
		head = 32;
		entry = 16;
		break;
	case EM_SPARC:
		head = 48;
		entry = 12;
		break;
	case EM_SPARCV9:
		head = 128;
		entry = 32;
		break;
	default:
		head = entry = psh.sh_entsize;
		break;
	}
	rel = elf_getdata(rscn, NULL);
	syms = elf_getdata(dscn, NULL);
	if (rel == NULL || syms == NULL || entry == 0)
		return 0;
	strs = elf_getdata(elf_getscn(elf, dsh.sh_link), NULL);
	t->show |= SYMTAB_PLT | (demangle ? SYMTAB_DEMANGLE : 0);
	count = rsh.sh_size / rsh.sh_entsize;
	addr = psh.sh_addr + head;
	for (i = 0; i < count && i <= INT32_MAX; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		const char *name = NULL;
		size_t symidx;
		int ok;

		if (rsh.sh_type == SHT_RELA) {
			if (gelf_getrela(rel, (int)i, &ra) == NULL)
				break;
			symidx = GELF_R_SYM(ra.r_info);
		} else {
			if (gelf_getrel(rel, (int)i, &r) == NULL)
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (symidx <= INT32_MAX &&
		    gelf_getsym(syms, (int)symidx, &sym) != NULL)
			name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		if (name == NULL)
			name = "";
		ok = add_name(t, strs, &have_base, &base, addr, entry,
			      STB_GLOBAL, STT_FUNC, name);
		if (ok < 0)
			return -1;
		added++;
		if (addr > UINT64_MAX - entry)
			break;
		addr += entry;
	}
	return added;
}

size_t
elfsyms_build_id(Elf *elf, uint8_t *buf, size_t size)
{
	const void *bid;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &bid);

	if (n <= 0)
		return 0;
	if ((size_t)n > size)
		n = (ssize_t)size;
	memcpy(buf, bid, (size_t)n);
	return (size_t)n;
}
