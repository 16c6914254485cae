/* SPDX-License-Identifier: MIT */
/* Front-end messages: see message.h. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <elfutils/libdwfl.h>
#include <zlib.h>

#include "message.h"

const char *progname = PACKAGE;
bool message_quiet;

void
message_error(const char *file, const struct p2g_error *err)
{
	if (err->offset != P2G_NO_OFFSET)
		fprintf(stderr, "%s: %s: offset 0x%llx: %s\n", progname, file,
			(unsigned long long)err->offset, err->msg);
	else
		fprintf(stderr, "%s: %s: %s\n", progname, file, err->msg);
}

void
message_warning(const char *file, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (message_quiet)
		return;
	if (offset != P2G_NO_OFFSET)
		fprintf(stderr, "%s: %s: offset 0x%llx: warning: ", progname,
			file, (unsigned long long)offset);
	else
		fprintf(stderr, "%s: %s: warning: ", progname, file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
message_note(const char *file, const char *fmt, ...)
{
	va_list ap;

	if (message_quiet)
		return;
	fprintf(stderr, "%s: %s: ", progname, file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
message_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n",
		progname);
	exit(2);
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
	printf("libdw %s, zlib %s\n", dwfl_version(NULL), zlibVersion());
}
