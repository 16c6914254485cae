/* SPDX-License-Identifier: MIT */
/*
 * The symbols of an ELF file as perf reads them (tools/perf/util/
 * symbol-elf.c): its .symtab, else its .dynsym; functions, objects and
 * labels (untyped symbols in a section whose name holds "text" or
 * "data"), never undefined, absolute or unallocated ones; ARM mapping
 * symbols left out.  The addresses stay the ELF's virtual addresses: a
 * mapped address is turned into one through the program headers of the
 * file that was mapped (elfsyms_vaddr()), which is what perf's
 * adjustment of each symbol to a file offset amounts to.
 */
#ifndef P2G_ELFSYMS_H
#define P2G_ELFSYMS_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "symtab.h"

/* The loadable segments of an ELF file. */
struct elfsyms_loads {
	struct elfsyms_load {
		uint64_t offset, vaddr, filesz;
	} *v;
	size_t n;
};

/* Read ELF's PT_LOAD headers into *L.  0, or -1 when out of memory or
 * ELF has none that can be read. */
int elfsyms_loads(Elf *elf, struct elfsyms_loads *l);

void elfsyms_loads_free(struct elfsyms_loads *l);

/* The virtual address of file offset OFF (the segment whose file bytes
 * hold it), in *VA; false if none holds it. */
bool elfsyms_vaddr(const struct elfsyms_loads *l, uint64_t off,
		   uint64_t *va);

/* True if ELF has a .symtab. */
bool elfsyms_has_symtab(Elf *elf);

/*
 * Add the symbols of ELF to T: its .symtab, or its .dynsym if it has no
 * .symtab and DYNSYM is true; C++ names shown demangled if DEMANGLE is
 * true (perf demangles user-space names, not the kernel's): T shows them
 * so (SYMTAB_DEMANGLE), each demangled when first shown.  Returns how many
 * were added, or -1 when out of memory.  A malformed table gives what
 * could be read.
 */
long elfsyms_read(Elf *elf, bool dynsym, bool demangle, struct symtab *t);

/*
 * Add to T the PLT entries perf 6.1 makes up for ELF (the mapped file,
 * not a debug file): one per .rela.plt (or .rel.plt) relocation, in
 * their order, each .plt entry after the first (the header), named
 * "NAME@plt" after the .dynsym symbol the relocation names (just "@plt"
 * for an IFUNC's relocation, which names none), C++ names demangled if
 * DEMANGLE: T holds the names and shows them so (SYMTAB_PLT and
 * SYMTAB_DEMANGLE).  The entry size is .plt's sh_entsize (ARM's, AArch64's and
 * SPARC's are fixed).  Returns how many were added, or -1 when out of
 * memory.  Finish T as a SYMTAB_PERFMAP table: perf fixes none of them
 * up, and looks them up before the other symbols (see symbols.c).
 */
long elfsyms_plt(Elf *elf, bool demangle, struct symtab *t);

/* The build ID of ELF into BUF (SIZE bytes at most); its length, or 0
 * if it has none. */
size_t elfsyms_build_id(Elf *elf, uint8_t *buf, size_t size);

#endif
