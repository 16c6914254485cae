/* SPDX-License-Identifier: MIT */
/* Text files of symbols: see symtext.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "symtext.h"

int
symtext_slurp(const char *path, size_t max, char **buf, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *b = NULL, *nb;
	struct stat st;
	ssize_t got;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* a FIFO or a device is never read */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		goto fail;
	for (;;) {
		if (b == NULL || n == cap) {
			if (b != NULL)
				cap = grow_cap(cap, grow_add(n, 1), 1, cap);
			if (cap > max + 1)
				cap = max + 1;
			if (b != NULL && n == cap)
				goto fail;	/* more than MAX */
			nb = realloc(b, cap);
			if (nb == NULL)
				goto fail;
			b = nb;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			goto fail;
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	*buf = b;
	*len = n;
	return 0;
fail:
	free(b);
	close(fd);
	return -1;
}

long
symtext_lines(const char *buf, size_t len, symtext_line_fn fn, void *ctx)
{
	size_t i = 0;
	long sum = 0;

	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t n = nl != NULL ? (size_t)(nl - (buf + i)) : len - i;
		int r;

		if (n > 0 && buf[i + n - 1] == '\r')
			n--;
		r = fn(ctx, buf + i, n);
		if (r < 0)
			return r;
		sum += r;
		if (nl == NULL)
			break;
		i = (size_t)(nl - buf) + 1;
	}
	return sum;
}

long
symtext_table(const char *buf, size_t len, symtext_line_fn fn,
	      struct symtab *t, enum symtab_kind kind)
{
	long added = symtext_lines(buf, len, fn, t);

	symtab_finish(t, kind);
	return added;
}

long
symtext_read_table(const char *path, symtext_line_fn fn, struct symtab *t,
		   enum symtab_kind kind)
{
	char *buf;
	size_t len;
	long r;

	if (symtext_slurp(path, (size_t)1 << 30, &buf, &len) < 0)
		return -1;
	r = symtext_table(buf, len, fn, t, kind);
	free(buf);
	return r;
}

/* The value of each hex digit, plus 1; 0 for the other bytes. */
static const unsigned char hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14,
	['E'] = 15, ['F'] = 16,
};

size_t
symtext_hex(const char *p, size_t n, int prefix, uint64_t *v)
{
	size_t i = 0, start, end;
	uint64_t x = 0;

	if (prefix && n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		i = 2;
	start = i;
	/* a 17th digit is looked at, to refuse it */
	end = n - i > 17 ? i + 17 : n;
	for (; i < end; i++) {
		unsigned d = hex_digit[(unsigned char)p[i]];

		if (d == 0)
			break;
		x = x << 4 | (d - 1);
	}
	if (i == start || i - start > 16) {
		*v = 0;
		return 0;
	}
	*v = x;
	return i;
}
