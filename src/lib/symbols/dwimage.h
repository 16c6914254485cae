/* SPDX-License-Identifier: MIT */
/*
 * An ELF file's DWARF, inflated before libdw opens it.  libdw inflates
 * every DWARF section it knows of, whole, when it opens a file, and
 * checks each one's Adler-32 as it goes: a distribution's debug file is
 * compressed, and inflating it is most of the work of opening it.  The
 * copy, in memory, holds the file's headers (program headers left out),
 * the section names and the sections the lookups read (dwlines.c),
 * inflated without the checksum (the lengths are checked); the other
 * sections are there without contents, as libdw skips a section
 * without contents: among them the DWARF never read (locations, call
 * frames, macros, public names).  Only for a 64-bit file of this
 * machine's byte order, an executable or shared object, whose DWARF
 * is compressed with zlib (ELF's way, not the older .zdebug sections)
 * and not partly in another file (.gnu_debugaltlink, .debug_sup: found
 * next to the file, which a copy in memory is not).
 */
#ifndef P2G_DWIMAGE_H
#define P2G_DWIMAGE_H

#include <gelf.h>

struct dwimage;

/* The copy of ELF, or NULL when there is nothing to inflate, the file
 * is not of the kind above, a section does not inflate to its stated
 * size (libdw is then left to read ELF as it is), or memory runs out. */
struct dwimage *dwimage_open(Elf *elf);

/* The copy's ELF handle, valid until dwimage_close(). */
Elf *dwimage_elf(struct dwimage *im);

/* Accepts NULL. */
void dwimage_close(struct dwimage *im);

#endif
