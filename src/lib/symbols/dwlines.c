/* SPDX-License-Identifier: MIT */
/* Inlined functions and source lines from DWARF: see dwlines.h. */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>

#include "dwlines.h"

/* More inlining than any compiler does: a deeper chain is cut. */
#define DWLINES_MAX_DEPTH 64

struct dwlines {
	Dwarf *dw;
};

struct dwlines *
dwlines_open(Elf *elf)
{
	struct dwlines *d;
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);

	if (dw == NULL)
		return NULL;
	d = calloc(1, sizeof(*d));
	if (d == NULL) {
		dwarf_end(dw);
		return NULL;
	}
	d->dw = dw;
	return d;
}

void
dwlines_free(struct dwlines *d)
{
	if (d == NULL)
		return;
	dwarf_end(d->dw);
	free(d);
}

/* The file of index IDX in the CU's file table, or NULL. */
static const char *
cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

int
dwlines_frames(struct dwlines *d, uint64_t addr, const char *symbol,
	       void *ctx, dwlines_alloc_fn alloc, struct sym_frame **out)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *line;
	struct sym_frame f[DWLINES_MAX_DEPTH + 1], *v;
	const char *file = NULL;
	uint32_t lineno = 0;
	int nscopes, i, n = 0;

	*out = NULL;
	if (dwarf_addrdie(d->dw, addr, &cu) == NULL)
		return 0;
	line = dwarf_getsrc_die(&cu, addr);
	if (line != NULL) {
		int l = 0;

		file = dwarf_linesrc(line, NULL, NULL);
		if (dwarf_lineno(line, &l) == 0 && l > 0)
			lineno = (uint32_t)l;
	}
	nscopes = dwarf_getscopes(&cu, addr, &scopes);
	for (i = 0; i < nscopes && n < DWLINES_MAX_DEPTH; i++) {
		Dwarf_Die *sc = &scopes[i];
		Dwarf_Attribute a;
		Dwarf_Word w;

		if (dwarf_tag(sc) != DW_TAG_inlined_subroutine)
			continue;
		f[n].function = dwarf_diename(sc);
		f[n].file = file;
		f[n].line = lineno;
		n++;
		/* the caller's place is this inlining's call site */
		file = NULL;
		lineno = 0;
		if (dwarf_formudata(dwarf_attr(sc, DW_AT_call_file, &a),
				    &w) == 0)
			file = cu_file(&cu, w);
		if (dwarf_formudata(dwarf_attr(sc, DW_AT_call_line, &a),
				    &w) == 0 && w <= UINT32_MAX)
			lineno = (uint32_t)w;
	}
	free(scopes);
	f[n].function = symbol;
	f[n].file = file;
	f[n].line = lineno;
	n++;
	v = alloc(ctx, (size_t)n);
	if (v == NULL)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = f[i];
	*out = v;
	return n;
}
