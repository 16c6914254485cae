/* SPDX-License-Identifier: MIT */
/*
 * mkelf OUT: write to OUT a small little-endian x86-64 ELF executable
 * with the functions that standard input lists, one a line:
 *
 *   sym NAME ADDR SIZE    a global function symbol NAME (with \xHH
 *                         escapes, \\ for a backslash) at ADDR, SIZE
 *                         bytes long (numbers in C syntax)
 *   alias ADDR SIZE       a function named by the string of the symbol
 *                         before (its name's offset shared, not copied)
 *   dwarf N               DWARF 4 (.debug_abbrev, .debug_info and
 *                         .debug_aranges): a C unit
 *                         over .text with one function "f" over all of
 *                         it, whose children are N one-byte DIEs
 *                         (lexical blocks without addresses)
 *   dwarf-ranges BLOCKS ENTRIES [SUBPROGRAMS]
 *                         DWARF 4 as for dwarf N, and .debug_ranges:
 *                         "f"'s children are BLOCKS lexical blocks,
 *                         then "g" inlined over 0x400100 to 0x400f00;
 *                         after "f", SUBPROGRAMS functions "s"; the
 *                         blocks and the functions "s" all have
 *                         DW_AT_ranges naming one list of ENTRIES
 *                         entries, the last over 0x400f00 to 0x401000,
 *                         those before it above .text (at 0x500100 on,
 *                         8 bytes each, 16 apart)
 *   dwarf-inlines N       DWARF 4 as for dwarf N, "f"'s children being
 *                         N one-byte inlined copies of "g", the Ith at
 *                         0x400100 + N - 1 - I (the last ones in DIE
 *                         order over .text)
 *   noaranges             no .debug_aranges section (as clang writes
 *                         DWARF): the units' ranges say what they cover
 *   stripped              no symbol table (.symtab, .strtab) at all
 *   debuglink NAME CRC    a .gnu_debuglink section: NAME, and the CRC
 *                         (a number) of the debug file
 *
 * Its one loadable segment maps the first 0x1000 bytes of the file at
 * 0x400000 (.text is 0x400100 to 0x401000); the symbol table, its
 * strings, the debug link and the section headers follow.  A test tool for hostile
 * symbol names, independent of the library.  Exit status 2 for usage
 * and I/O trouble.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mkbuf.h"

/* A section header. */
struct shdr {
	uint32_t name, type;
	uint64_t flags, addr, off, size;
	uint32_t link, info;
	uint64_t align, entsize;
};

/* Append section header H to B. */
static void
put_shdr(struct buf *b, const struct shdr *h)
{
	put32(b, h->name);
	put32(b, h->type);
	put64(b, h->flags);
	put64(b, h->addr);
	put64(b, h->off);
	put64(b, h->size);
	put32(b, h->link);
	put32(b, h->info);
	put64(b, h->align);
	put64(b, h->entsize);
}

/* The abbreviations every unit here starts with: 1: compile_unit,
 * children, low_pc addr, high_pc data8, language data1; 2: subprogram,
 * children, name string, low_pc, high_pc data8. */
static const unsigned char unit_abbrev[] = {
	1, 0x11, 1, 0x11, 0x01, 0x12, 0x07, 0x13, 0x0b, 0, 0,
	2, 0x2e, 1, 0x03, 0x08, 0x11, 0x01, 0x12, 0x07, 0, 0,
};

/* Set the unit_length of the unit whose header ends at START in INFO
 * to what follows it. */
static void
unit_length(struct buf *info, size_t start)
{
	info->p[start - 4] = (unsigned char)(info->len - start);
	info->p[start - 3] = (unsigned char)((info->len - start) >> 8);
	info->p[start - 2] = (unsigned char)((info->len - start) >> 16);
	info->p[start - 1] = (unsigned char)((info->len - start) >> 24);
}

/* The unit's one range, over .text, into ARANGES: header, padded to 16
 * bytes, then pairs. */
static void
unit_aranges(struct buf *aranges)
{
	put32(aranges, 44);
	put16(aranges, 2);
	put32(aranges, 0);
	put(aranges, "\x08\0\0\0\0\0", 6);
	put64(aranges, 0x400100);
	put64(aranges, 0xf00);
	put64(aranges, 0);
	put64(aranges, 0);
}

/* The header of a DWARF 4 unit into INFO, with its compile_unit DIE
 * (abbreviation 1 of unit_abbrev) over .text; where its length goes (see
 * unit_length()). */
static size_t
unit_start(struct buf *info)
{
	size_t start;

	put32(info, 0);			/* unit_length, set at the end */
	start = info->len;
	put16(info, 4);			/* version */
	put32(info, 0);			/* debug_abbrev_offset */
	put(info, "\x08", 1);		/* address_size */
	put(info, "\x01", 1);		/* compile_unit */
	put64(info, 0x400100);
	put64(info, 0xf00);
	put(info, "\x0c", 1);		/* DW_LANG_C99 */
	return start;
}

/* DWARF 4 for "dwarf-ranges BLOCKS ENTRIES SUBPROGRAMS" (see the top)
 * into ABBREV, INFO, ARANGES and RANGES. */
static void
dwarf_ranges(struct buf *abbrev, struct buf *info, struct buf *aranges,
	     struct buf *ranges, unsigned long blocks, unsigned long entries,
	     unsigned long subprograms)
{
	/* after unit_abbrev: 3: lexical_block, ranges sec_offset;
	 * 4: subprogram, name, inline data1; 5: inlined_subroutine,
	 * abstract_origin ref4, low_pc, high_pc data8; 6: subprogram,
	 * name, ranges */
	static const unsigned char ab[] = {
		3, 0x0b, 0, 0x55, 0x17, 0, 0,
		4, 0x2e, 0, 0x03, 0x08, 0x20, 0x0b, 0, 0,
		5, 0x1d, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x07, 0, 0,
		6, 0x2e, 0, 0x03, 0x08, 0x55, 0x17, 0, 0,
		0
	};
	unsigned long i;
	size_t start, g;

	put(abbrev, unit_abbrev, sizeof(unit_abbrev));
	put(abbrev, ab, sizeof(ab));
	start = unit_start(info);
	g = info->len - (start - 4);	/* "g", from the unit's start */
	put(info, "\x04" "g\0\x01", 4);	/* DW_INL_inlined */
	put(info, "\x02" "f", 3);
	put64(info, 0x400100);
	put64(info, 0xf00);
	for (i = 0; i < blocks; i++) {
		put(info, "\x03", 1);
		put32(info, 0);
	}
	put(info, "\x05", 1);
	put32(info, (uint32_t)g);
	put64(info, 0x400100);
	put64(info, 0xe00);
	put(info, "", 1);		/* ends "f" */
	for (i = 0; i < subprograms; i++) {
		put(info, "\x06" "s", 3);
		put32(info, 0);
	}
	put(info, "", 1);		/* ends the unit */
	unit_length(info, start);
	unit_aranges(aranges);
	/* offsets from the unit's base, its low_pc 0x400100 */
	for (i = 0; i + 1 < entries; i++) {
		put64(ranges, 0x100000 + 16 * (uint64_t)i);
		put64(ranges, 0x100008 + 16 * (uint64_t)i);
	}
	if (entries > 0) {
		put64(ranges, 0xe00);
		put64(ranges, 0xf00);
	}
	put64(ranges, 0);
	put64(ranges, 0);
}

/* DWARF 4 for "dwarf-inlines N" (see the top) into ABBREV, INFO and
 * ARANGES. */
static void
dwarf_inlines(struct buf *abbrev, struct buf *info, struct buf *aranges,
	      unsigned long n)
{
	/* after unit_abbrev: 3: subprogram, name, inline data1;
	 * 4: inlined_subroutine, abstract_origin ref4, low_pc, high_pc
	 * data1 */
	static const unsigned char ab[] = {
		3, 0x2e, 0, 0x03, 0x08, 0x20, 0x0b, 0, 0,
		4, 0x1d, 0, 0x31, 0x13, 0x11, 0x01, 0x12, 0x0b, 0, 0,
		0
	};
	unsigned long i;
	size_t start, g;

	put(abbrev, unit_abbrev, sizeof(unit_abbrev));
	put(abbrev, ab, sizeof(ab));
	start = unit_start(info);
	g = info->len - (start - 4);
	put(info, "\x03" "g\0\x01", 4);
	put(info, "\x02" "f", 3);
	put64(info, 0x400100);
	put64(info, 0xf00);
	for (i = 0; i < n; i++) {
		put(info, "\x04", 1);
		put32(info, (uint32_t)g);
		put64(info, 0x400100 + (uint64_t)(n - 1 - i));
		put(info, "\x01", 1);
	}
	put(info, "\0\0", 2);		/* ends "f", the unit */
	unit_length(info, start);
	unit_aranges(aranges);
}

/* DWARF 4 for "dwarf N" (see the top) into ABBREV, INFO and ARANGES. */
static void
dwarf(struct buf *abbrev, struct buf *info, struct buf *aranges,
      unsigned long n)
{
	/* after unit_abbrev: 3: lexical_block, no children, no
	 * attributes */
	static const unsigned char ab[] = {
		3, 0x0b, 0, 0, 0,
		0
	};
	unsigned long i;
	size_t start;

	put(abbrev, unit_abbrev, sizeof(unit_abbrev));
	put(abbrev, ab, sizeof(ab));
	start = unit_start(info);
	put(info, "\x02" "f", 3);	/* subprogram "f" */
	put64(info, 0x400100);
	put64(info, 0xf00);
	for (i = 0; i < n; i++)
		put(info, "\x03", 1);
	put(info, "\0\0", 2);		/* ends the function, the unit */
	unit_length(info, start);
	unit_aranges(aranges);
}

int
main(int argc, char **argv)
{
	struct buf syms = { NULL, 0, 0 }, str = { NULL, 0, 0 };
	struct buf out = { NULL, 0, 0 }, link = { NULL, 0, 0 };
	static const char shstr[] =
		"\0.text\0.symtab\0.strtab\0.shstrtab\0.gnu_debuglink"
		"\0.debug_abbrev\0.debug_info\0.debug_aranges\0.debug_ranges";
	struct buf abbrev = { NULL, 0, 0 }, info = { NULL, 0, 0 };
	struct buf aranges = { NULL, 0, 0 }, ranges = { NULL, 0, 0 };
	size_t abbrev_at, info_at, aranges_at, ranges_at;
	unsigned long ndies, nentries, nsubs;
	static char line[1 << 20], name[1 << 20], esc[1 << 20];
	struct shdr sh[10];
	size_t symtab_at, strtab_at, shstr_at, link_at, sh_at, i, nsh = 0;
	int stripped = 0, noaranges = 0;
	uint32_t last_name = 0;
	unsigned long long crc;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: mkelf OUT < SYMBOLS\n");
		return 2;
	}
	put(&str, "", 1);
	put(&syms, (char[24]){ 0 }, 24);
	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned long long addr, size;

		nsubs = 0;
		if (sscanf(line, "dwarf-ranges %lu %lu %lu", &ndies, &nentries,
			   &nsubs) >= 2) {
			dwarf_ranges(&abbrev, &info, &aranges, &ranges, ndies,
				     nentries, nsubs);
			continue;
		}
		if (sscanf(line, "dwarf-inlines %lu", &ndies) == 1) {
			dwarf_inlines(&abbrev, &info, &aranges, ndies);
			continue;
		}
		if (sscanf(line, "dwarf %lu", &ndies) == 1) {
			dwarf(&abbrev, &info, &aranges, ndies);
			continue;
		}
		if (strcmp(line, "stripped\n") == 0) {
			stripped = 1;
			continue;
		}
		if (strcmp(line, "noaranges\n") == 0) {
			noaranges = 1;
			continue;
		}
		if (sscanf(line, "debuglink %s %lli", esc, &crc) == 2) {
			unescape(name, esc);
			put(&link, name, strlen(name) + 1);
			while (link.len % 4 != 0)
				put(&link, "", 1);
			put32(&link, (uint32_t)crc);
			continue;
		}
		if (sscanf(line, "alias %lli %lli", &addr, &size) == 2 &&
		    last_name != 0) {
			put32(&syms, last_name);
			put(&syms, "\x12\0", 2);
			put16(&syms, 1);
			put64(&syms, addr);
			put64(&syms, size);
			continue;
		}
		if (sscanf(line, "sym %s %lli %lli", esc, &addr, &size) != 3) {
			fprintf(stderr, "mkelf: bad line: %s", line);
			return 2;
		}
		unescape(name, esc);
		last_name = (uint32_t)str.len;
		put32(&syms, (uint32_t)str.len);
		put(&syms, "\x12\0", 2);	/* GLOBAL FUNC, default */
		put16(&syms, 1);		/* .text */
		put64(&syms, addr);
		put64(&syms, size);
		put(&str, name, strlen(name) + 1);
	}
	if (stripped)
		syms.len = str.len = 0;
	symtab_at = 0x1000;
	strtab_at = symtab_at + syms.len;
	shstr_at = strtab_at + str.len;
	link_at = shstr_at + sizeof(shstr);
	abbrev_at = link_at + link.len;
	info_at = abbrev_at + abbrev.len;
	aranges_at = info_at + info.len;
	ranges_at = aranges_at + aranges.len;
	sh_at = (ranges_at + ranges.len + 7) & ~(size_t)7;
	memset(sh, 0, sizeof(sh));
	nsh = 1;
	sh[nsh++] = (struct shdr){ 1, 1, 6, 0x400100, 0x100, 0xf00,
				   0, 0, 16, 0 };
	if (!stripped) {
		sh[nsh++] = (struct shdr){ 7, 2, 0, 0, symtab_at, syms.len,
					   3, 1, 8, 24 };
		sh[nsh++] = (struct shdr){ 15, 3, 0, 0, strtab_at, str.len,
					   0, 0, 1, 0 };
	}
	sh[nsh++] = (struct shdr){ 23, 3, 0, 0, shstr_at, sizeof(shstr),
				   0, 0, 1, 0 };
	if (link.len > 0)
		sh[nsh++] = (struct shdr){ 33, 1, 0, 0, link_at, link.len,
					   0, 0, 4, 0 };
	if (info.len > 0) {
		sh[nsh++] = (struct shdr){ 48, 1, 0, 0, abbrev_at, abbrev.len,
					   0, 0, 1, 0 };
		sh[nsh++] = (struct shdr){ 62, 1, 0, 0, info_at, info.len,
					   0, 0, 1, 0 };
		if (!noaranges)
			sh[nsh++] = (struct shdr){ 74, 1, 0, 0, aranges_at,
						   aranges.len, 0, 0, 1, 0 };
		if (ranges.len > 0)
			sh[nsh++] = (struct shdr){ 89, 1, 0, 0, ranges_at,
						   ranges.len, 0, 0, 1, 0 };
	}
	/* ELF header */
	put(&out, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0", 16);
	put16(&out, 2);			/* ET_EXEC */
	put16(&out, 62);		/* EM_X86_64 */
	put32(&out, 1);
	put64(&out, 0x400100);		/* entry */
	put64(&out, 64);		/* phoff */
	put64(&out, sh_at);		/* shoff */
	put32(&out, 0);
	put16(&out, 64);
	put16(&out, 56);
	put16(&out, 1);
	put16(&out, 64);
	put16(&out, (uint16_t)nsh);
	put16(&out, stripped ? 2 : 4);	/* .shstrtab */
	/* PT_LOAD, R+X */
	put32(&out, 1);
	put32(&out, 5);
	put64(&out, 0);
	put64(&out, 0x400000);
	put64(&out, 0x400000);
	put64(&out, 0x1000);
	put64(&out, 0x1000);
	put64(&out, 0x1000);
	while (out.len < symtab_at)
		put(&out, "\xc3", 1);	/* ret */
	put(&out, syms.p, syms.len);
	put(&out, str.p, str.len);
	put(&out, shstr, sizeof(shstr));
	put(&out, link.p, link.len);
	put(&out, abbrev.p, abbrev.len);
	put(&out, info.p, info.len);
	put(&out, aranges.p, aranges.len);
	put(&out, ranges.p, ranges.len);
	while (out.len < sh_at)
		put(&out, "", 1);
	for (i = 0; i < nsh; i++)
		put_shdr(&out, &sh[i]);
	f = fopen(argv[1], "wb");
	if (f == NULL || fwrite(out.p, 1, out.len, f) != out.len ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return 2;
	}
	free(out.p);
	free(syms.p);
	free(str.p);
	free(link.p);
	free(abbrev.p);
	free(info.p);
	free(aranges.p);
	free(ranges.p);
	return 0;
}
