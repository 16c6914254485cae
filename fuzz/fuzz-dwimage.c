/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the inflated copy of an ELF file's DWARF
 * (dwimage.c) and the lookups made in it (dwlines.c).  Each input is
 * opened as an ELF file in memory; its DWARF is opened as the
 * symbolizer opens it (the copy when there is one, else the file
 * itself) and looked up at a spread of addresses of each executable
 * section.
 */
#include "config.h"

#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dwlines.h"
#include "fuzz-subr.h"

/* Lookups per executable section, and sections looked into. */
#define FUZZ_DWIMAGE_ADDRS 64
#define FUZZ_DWIMAGE_SECTIONS 8

/* Room for as many frames as dwlines_frames() gives: its 64 inlined
 * functions and the symbol's. */
static struct sym_frame frames[65];

static struct sym_frame *
frames_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return n <= sizeof(frames) / sizeof(frames[0]) ? frames : NULL;
}

/* DWARF lookups at addresses of the executable sections of ELF. */
static void
lookups(Elf *elf, struct dwlines *d)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	struct sym_frame *f;
	int nsec = 0, i;

	while ((scn = elf_nextscn(elf, scn)) != NULL &&
	       nsec < FUZZ_DWIMAGE_SECTIONS) {
		uint64_t step;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    !(sh.sh_flags & SHF_EXECINSTR) || sh.sh_size == 0)
			continue;
		nsec++;
		step = sh.sh_size / FUZZ_DWIMAGE_ADDRS + 1;
		for (i = 0; i < FUZZ_DWIMAGE_ADDRS; i++)
			(void)dwlines_frames(d, sh.sh_addr + step * (uint64_t)i,
					     "fuzz", NULL, frames_alloc, &f);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dwlines *d;
	char *copy;
	Elf *elf;

	if (size == 0)
		return 0;
	(void)elf_version(EV_CURRENT);
	/* elf_memory() may write to the bytes (libelf converts in place) */
	copy = malloc(size);
	if (copy == NULL)
		return 0;
	memcpy(copy, data, size);
	elf = elf_memory(copy, size);
	if (elf != NULL) {
		/* dwimage_open(), then libdw on the copy (or on ELF) */
		d = dwlines_open(elf);
		if (d != NULL)
			lookups(elf, d);
		dwlines_free(d);
		elf_end(elf);
	}
	free(copy);
	return 0;
}
