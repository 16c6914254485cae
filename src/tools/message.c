/* SPDX-License-Identifier: MIT */
/* Front-end messages: see message.h. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>
#include <zlib.h>
#ifdef HAVE_ZSTD
#include <zstd.h>
#endif

#include "dbgfetch.h"
#include "message.h"
#include "symbols.h"

const char *progname = PACKAGE;
bool message_quiet;

void
message_put_safe(FILE *f, const char *s)
{
	message_put_safe_n(f, s, strlen(s));
}

void
message_put_safe_n(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '\\')
			fprintf(f, "\\x%02x", p[i]);
		else
			putc(p[i], f);
	}
}

const char *
message_escape(char *buf, size_t size, const char *s)
{
	const unsigned char *p;
	size_t n = 0;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		bool esc = *p < 0x20 || *p >= 0x7f || *p == '\\';

		if (n + (esc ? 4 : 1) >= size)
			break;
		if (esc)
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *p);
		else
			buf[n++] = (char)*p;
	}
	if (size > 0)
		buf[n] = '\0';
	return buf;
}

/*
 * A message's line, built whole and then written in one write(2):
 * stderr is unbuffered, and a line printed a byte at a time took a
 * system call per byte (80,000 warnings: seconds).  The parts formatted
 * into it come from the input file: their non-printable bytes are
 * escaped.
 */
struct line {
	char buf[8192];
	size_t n;
};

static void vline_safe(struct line *l, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void line_safe(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
vline_safe(struct line *l, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	message_escape(l->buf + l->n, sizeof(l->buf) - l->n, buf);
	l->n += strlen(l->buf + l->n);
}

static void
line_safe(struct line *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline_safe(l, fmt, ap);
	va_end(ap);
}

/* Write L and a newline to stderr. */
static void
line_end(struct line *l)
{
	l->buf[l->n++] = '\n';
	fwrite(l->buf, 1, l->n, stderr);
}

/* The width of the status line on the screen; 0 when none is shown. */
static size_t status_len;

bool
message_status_overwrites(void)
{
	static int tty = -1;

	if (tty < 0)
		tty = isatty(STDERR_FILENO);
	return tty;
}

void
message_status(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	size_t len;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (!message_status_overwrites()) {
		fprintf(stderr, "%s\n", buf);
		fflush(stderr);
		return;
	}
	len = strlen(buf);
	fprintf(stderr, "\r%s%*s", buf,
		status_len > len ? (int)(status_len - len) : 0, "");
	status_len = len;
	fflush(stderr);
}

void
message_status_end(void)
{
	if (status_len == 0)
		return;
	fprintf(stderr, "\r%*s\r", (int)status_len, "");
	status_len = 0;
	fflush(stderr);
}

void
message_error(const char *file, const struct p2g_error *err)
{
	struct line l = { .n = 0 };

	message_status_end();
	if (err->offset != P2G_NO_OFFSET)
		line_safe(&l, "%s: %s: offset 0x%llx: %s", progname, file,
			  (unsigned long long)err->offset, err->msg);
	else
		line_safe(&l, "%s: %s: %s", progname, file, err->msg);
	line_end(&l);
}

void
message_warning(const char *file, uint64_t offset, const char *fmt, ...)
{
	struct line l = { .n = 0 };
	va_list ap;

	if (message_quiet)
		return;
	message_status_end();
	if (offset != P2G_NO_OFFSET)
		line_safe(&l, "%s: %s: offset 0x%llx: warning: ", progname,
			  file, (unsigned long long)offset);
	else
		line_safe(&l, "%s: %s: warning: ", progname, file);
	va_start(ap, fmt);
	vline_safe(&l, fmt, ap);
	va_end(ap);
	line_end(&l);
}

void
message_note(const char *file, const char *fmt, ...)
{
	struct line l = { .n = 0 };
	va_list ap;

	if (message_quiet)
		return;
	message_status_end();
	line_safe(&l, "%s: %s: ", progname, file);
	va_start(ap, fmt);
	vline_safe(&l, fmt, ap);
	va_end(ap);
	line_end(&l);
}

void
message_usage(const char *fmt, ...)
{
	va_list ap;

	message_status_end();
	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n",
		progname);
	exit(2);
}

void
message_bad_option(const char *arg, int opt)
{
	if (opt != 0 && arg != NULL && arg[0] == '-' && arg[1] != '-')
		message_usage("invalid option -- '%c'", opt);
	message_usage("unrecognized option '%s'", arg ? arg : "?");
}

uint64_t
message_parse_uint(const char *opt, const char *arg, uint64_t min,
		   uint64_t max)
{
	unsigned long long v;
	char *end;

	/* strtoull() takes "-1" for ULLONG_MAX: refuse a sign outright */
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg == '-' || end == arg || *end != '\0' || errno != 0 ||
	    v < min || v > max) {
		if (min == 0 && max == UINT64_MAX)
			message_usage("%s: '%s' is not a non-negative integer",
				      opt, arg);
		message_usage("%s: '%s' is not an integer from %" PRIu64
			      " to %" PRIu64, opt, arg, min, max);
	}
	return v;
}

int
message_parse_word(const char *opt, const char *arg,
		   const struct message_word *words)
{
	char list[256];
	size_t i, n, len = 0;

	for (n = 0; words[n].word != NULL; n++)
		if (strcmp(arg, words[n].word) == 0)
			return words[n].value;
	list[0] = '\0';
	for (i = 0; i < n && len < sizeof(list); i++)
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i == 0 ? "" : i + 1 < n ? ", " : " or ",
					words[i].word);
	message_usage("%s: '%s' is not %s", opt, arg, list);
}

void
message_exit(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error on standard output: %s\n",
			progname, strerror(errno));
		exit(2);
	}
	exit(status);
}

void
message_library_versions(void)
{
	printf("libdw %s, zlib %s, ", dwfl_version(NULL), zlibVersion());
#ifdef HAVE_ZSTD
	printf("libzstd %s, ", ZSTD_versionString());
#else
	printf("without libzstd, ");
#endif
	printf("%s libdebuginfod, %s libiberty\n",
	       dbgfetch_available() ? "with" : "without",
	       symbols_demangles() ? "with" : "without");
}
