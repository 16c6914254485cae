/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the symbolizer's readers.  Each input is read as a
 * kallsyms text, as a perf map, and as a mapped ELF file (served from a
 * memory file), whose symbols, PLT entries and DWARF are then looked up
 * at a spread of addresses, and walked name by name (gperfcheck's
 * --expect-function).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-subr.h"
#include "kallsyms.h"
#include "perfmap.h"
#include "symbols.h"
#include "symtab.h"

/* symbols_each_name()'s callback: each name read to its end. */
static int
each(void *ctx, const char *name)
{
	*(size_t *)ctx += strlen(name);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	const struct sym_frame *f;
	struct sym_opts o;
	struct sym_dso d;
	struct symbols *s;
	struct symtab t;
	char path[64];
	uint64_t a;
	size_t n = 0;

	symtab_init(&t);
	(void)kallsyms_parse((const char *)data, size, &t);
	(void)symtab_find(&t, 0xffffffff81000100ULL);
	symtab_free(&t);
	(void)perfmap_parse((const char *)data, size, &t);
	(void)symtab_find(&t, 0x1000);
	symtab_free(&t);

	if (fuzz_file(&fd, "fuzz-symbols", data, size, path,
		      sizeof(path)) == NULL)
		return 0;
	memset(&o, 0, sizeof(o));
	o.home = "/nonexistent";
	o.lines = true;
	s = symbols_new(&o);
	if (s == NULL)
		return 0;
	memset(&d, 0, sizeof(d));
	d.path = path;
	d.start = 0x400000;
	d.end = 0x400000 + (size > 0 ? size : 1);
	d.pid = 1;
	for (a = 0; a < size && a < 65536; a += 61)
		(void)symbols_lookup(s, &d, d.start + a, &f);
	(void)symbols_file(s, &d, NULL);
	(void)symbols_each_name(s, &d, each, &n);
	symbols_free(s);
	return 0;
}
