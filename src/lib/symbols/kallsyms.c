/* SPDX-License-Identifier: MIT */
/* Kernel symbols from kallsyms text: see kallsyms.h. */
#include "config.h"

#include <elf.h>
#include <string.h>

#include "cursor.h"
#include "kallsyms.h"
#include "symtext.h"

/* The longest name the kernel makes (KSYM_NAME_LEN), with a module. */
#define KALLSYMS_MAX_LINE 1024

/* One line L (N bytes, no newline). */
static int
parse_line(void *ctx, const char *l, size_t n)
{
	struct symtab *t = ctx;
	uint64_t addr;
	size_t i = n < KALLSYMS_MAX_LINE ? symtext_hex(l, n, 0, &addr) : 0;
	char type;
	int binding;

	if (i == 0 || addr == 0 || n - i < 4 || l[i] != ' ' ||
	    l[i + 2] != ' ')
		return 0;
	type = l[i + 1];
	if (type != 'T' && type != 't' && type != 'W' && type != 'w')
		return 0;
	l += i + 3;
	n -= i + 3;
	if (n == 0 || l[0] == '$' || l[0] == '\t' ||
	    memchr(l, '\0', n) != NULL)
		return 0;
	binding = type == 'W' ? STB_WEAK : type == 'T' ? STB_GLOBAL
						       : STB_LOCAL;
	if (symtab_add(t, addr, 0, binding, STT_FUNC, l, n) < 0)
		return -1;
	return 1;
}

long
kallsyms_parse(const char *buf, size_t len, struct symtab *t)
{
	return symtext_table(buf, len, parse_line, t, SYMTAB_KALLSYMS);
}

long
kallsyms_read(const char *path, struct symtab *t)
{
	return symtext_read_table(path, parse_line, t, SYMTAB_KALLSYMS);
}

size_t
kallsyms_notes_build_id(const unsigned char *buf, size_t len, uint8_t *out,
			size_t size)
{
	struct cursor c;

	/* the notes are in the kernel's own byte order: this machine's */
	cursor_init(&c, buf, len, 0,
		    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	while (cursor_ok(&c) && cursor_left(&c) >= 12) {
		uint32_t namesz, descsz, type;
		const unsigned char *name, *desc;

		namesz = cursor_u32(&c);
		descsz = cursor_u32(&c);
		type = cursor_u32(&c);
		if (namesz > cursor_left(&c) || descsz > cursor_left(&c))
			return 0;
		name = cursor_bytes(&c, (namesz + 3) & ~3u);
		desc = cursor_bytes(&c, (descsz + 3) & ~3u);
		if (!cursor_ok(&c) || name == NULL || desc == NULL)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 &&
		    memcmp(name, "GNU", 4) == 0 && descsz > 0) {
			if (descsz > size)
				descsz = (uint32_t)size;
			memcpy(out, desc, descsz);
			return descsz;
		}
	}
	return 0;
}
