/* SPDX-License-Identifier: MIT */
/*
 * A driver for the symbolizer (symbols.h), for the tests: reads lines
 * from standard input and prints what the library gives.
 *
 *	map START END PGOFF PID BUILDID|- PATH	the mapping of the lines
 *						that follow (hex numbers)
 *	@OFFSET					the same for the
 *						address at file offset
 *						OFFSET of the mapping
 *						(as perf script shows
 *						user-space addresses)
 *	ADDR					"ADDR NAME" (NAME the
 *						symbol's function, or
 *						[unknown]); with --lines
 *						"ADDR F1@FILE:LINE;..."
 *						innermost first
 *	file					"file PATH", or "file -
 *						WHY"
 *
 * Options: --symfs DIR, --home DIR, --vmlinux FILE, --kallsyms FILE,
 * --binaries DIR (repeatable), --lines, --kernel-build-id HEX; or
 * --demangles alone, which prints "yes" if C++ names are demangled, else
 * "no".
 * Exit status 0, or 2 on a usage error or when memory runs out.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

/* HEX into BUF (SIZE bytes at most); the bytes, or 0 if not hex. */
static size_t
parse_hex(const char *hex, uint8_t *buf, size_t size)
{
	size_t n = 0;

	while (hex[0] != '\0' && hex[1] != '\0' && n < size) {
		unsigned v;

		if (sscanf(hex, "%2x", &v) != 1)
			return 0;
		buf[n++] = (uint8_t)v;
		hex += 2;
	}
	return hex[0] == '\0' ? n : 0;
}

int
main(int argc, char **argv)
{
	static const char *bins[16];
	struct sym_opts o;
	struct sym_dso d;
	struct symbols *s;
	uint8_t bid[64], kbid[64];
	char path[4096], line[8192];
	int i, status = 0;

	memset(&o, 0, sizeof(o));
	memset(&d, 0, sizeof(d));
	o.binaries = bins;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--demangles") == 0) {
			puts(symbols_demangles() ? "yes" : "no");
			return fflush(stdout) != 0 ? 2 : 0;
		}
		if (strcmp(a, "--lines") == 0) {
			o.lines = true;
			continue;
		}
		if (v == NULL)
			goto usage;
		i++;
		if (strcmp(a, "--symfs") == 0)
			o.symfs = v;
		else if (strcmp(a, "--home") == 0)
			o.home = v;
		else if (strcmp(a, "--vmlinux") == 0)
			o.vmlinux = v;
		else if (strcmp(a, "--kallsyms") == 0)
			o.kallsyms = v;
		else if (strcmp(a, "--binaries") == 0 && o.nbinaries < 16)
			bins[o.nbinaries++] = v;
		else if (strcmp(a, "--kernel-build-id") == 0) {
			o.kernel_build_id = kbid;
			o.kernel_build_id_size = parse_hex(v, kbid,
							   sizeof(kbid));
		} else
			goto usage;
	}
	s = symbols_new(&o);
	if (s == NULL)
		return 2;
	path[0] = '\0';
	d.path = path;
	while (fgets(line, sizeof(line), stdin) != NULL) {
		unsigned long long a, b, off, addr;
		char hex[256];
		int pid, n = 0;

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "map %llx %llx %llx %d %255s %n", &a, &b, &off,
			   &pid, hex, &n) == 5 && n > 0) {
			snprintf(path, sizeof(path), "%s", line + n);
			d.start = a;
			d.end = b;
			d.pgoff = off;
			d.pid = pid;
			d.build_id_size = parse_hex(hex, bid, sizeof(bid));
			d.build_id = d.build_id_size ? bid : NULL;
		} else if (strcmp(line, "file") == 0) {
			const char *why, *f = symbols_file(s, &d, &why);

			printf("file %s%s\n", f ? f : "- ", f ? "" : why);
		} else if (line[0] == '@' ? sscanf(line + 1, "%llx", &addr) == 1
					  : sscanf(line, "%llx", &addr) == 1) {
			const struct sym_frame *f;
			int k, nf;

			if (line[0] == '@')
				addr = addr - d.pgoff + d.start;
			nf = symbols_lookup(s, &d, addr, &f);
			if (nf < 0) {
				status = 2;
				break;
			}
			printf("%s ", line);
			if (nf == 0)
				printf("[unknown]");
			for (k = 0; k < nf && !o.lines; k++)
				if (k == nf - 1)
					printf("%s", f[k].function);
			for (k = 0; k < nf && o.lines; k++)
				printf("%s%s@%s:%u", k ? ";" : "",
				       f[k].function ? f[k].function : "??",
				       f[k].file ? f[k].file : "??",
				       (unsigned)f[k].line);
			printf("\n");
		}
	}
	symbols_free(s);
	if (fflush(stdout) != 0 || ferror(stdout))
		status = 2;
	return status;
usage:
	fprintf(stderr, "usage: symlookup [--symfs DIR] [--home DIR] "
		"[--vmlinux F] [--kallsyms F] [--binaries DIR] [--lines] "
		"[--kernel-build-id HEX] < LINES\n");
	return 2;
}
