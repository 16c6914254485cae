/* SPDX-License-Identifier: MIT */
/* JIT symbols from perf maps: see perfmap.h. */
#include "config.h"

#include <elf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "perfmap.h"
#include "symtext.h"

static int
parse_line(void *ctx, const char *l, size_t n)
{
	struct symtab *t = ctx;
	uint64_t start, size;
	size_t i, k;

	i = symtext_hex(l, n, 1, &start);
	if (i == 0 || i >= n || l[i] != ' ')
		return 0;
	i++;
	k = symtext_hex(l + i, n - i, 1, &size);
	if (k == 0 || i + k >= n || l[i + k] != ' ')
		return 0;
	i += k + 1;
	if (i >= n || memchr(l + i, '\0', n - i) != NULL)
		return 0;
	if (symtab_add(t, start, size, STB_GLOBAL, STT_FUNC, l + i, n - i) < 0)
		return -1;
	return 1;
}

long
perfmap_parse(const char *buf, size_t len, struct symtab *t)
{
	return symtext_table(buf, len, parse_line, t, SYMTAB_PERFMAP);
}

long
perfmap_read(const char *path, struct symtab *t)
{
	struct stat st;
	int fd;

	fd = input_regular_fd(path, NULL);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || (st.st_uid != 0 && st.st_uid != geteuid())) {
		close(fd);
		return -1;
	}
	close(fd);
	return symtext_read_table(path, parse_line, t, SYMTAB_PERFMAP);
}
