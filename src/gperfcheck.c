/* SPDX-License-Identifier: MIT */
/*
 * gperfcheck: validate gperftools CPU profiles, any slot width and byte
 * order, and print them in a canonical text form.  Front end only: the
 * reading and the rules live in cpuprof.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpuprof.h"
#include "gzbuf.h"
#include "message.h"

/* Largest file read into memory; profiles are far smaller. */
#define MAX_FILE ((size_t)1 << 34)

static void
usage(void)
{
	printf("Usage: %s [OPTIONS] FILE...\n"
"Check that each FILE is a gperftools CPU profile that Go pprof and\n"
"google-pprof read as its writer meant: header 0,3,0,period,0 with a\n"
"period above 0, records with a count and at least one PC, no PC 0, the\n"
"trailer 0,1,0, and maps lines that parse and are shorter than 64 KiB.\n"
"Slot width (32 or 64 bits) and byte order come from the header.  The\n"
"first defect of a file is reported as 'FILE: offset 0xHEX: problem'.\n"
"A gzip-compressed profile is read inflated, as pprof reads it; a heap\n"
"or contention profile, perl pprof's raw form and a protobuf profile are\n"
"named as such (exit status 1).\n"
"\n"
"  -d, --dump      print each valid FILE in canonical text form: the\n"
"                  header, one line per record (count, then the leaf-first\n"
"                  PCs in hex), the trailer and the maps lines\n"
"  -s, --summary   print a one-line summary of each valid FILE\n"
"  -q, --quiet     print nothing, not even errors; use the exit status\n"
"  -h, --help      print this help and exit\n"
"  -V, --version   print the version and exit\n"
"\n"
"Exit status: 0 every FILE is valid, 1 some FILE is invalid, 2 trouble\n"
"(usage, I/O, memory).\n"
"\n"
"Report bugs to: %s\n", progname, PACKAGE_BUGREPORT);
	message_exit(0);
}

static int
read_file(const char *path, unsigned char **buf, size_t *len,
	  struct p2g_error *err)
{
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = NULL, *nb;
	ssize_t got;
	int fd;

	fd = strcmp(path, "-") == 0 ? STDIN_FILENO
				    : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				strerror(errno));
	for (;;) {
		if (n == cap || b == NULL) {
			if (b != NULL)
				cap *= 2;
			if (cap > MAX_FILE) {
				p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					 "file is larger than %zu bytes",
					 MAX_FILE);
				goto fail;
			}
			nb = realloc(b, cap);
			if (nb == NULL) {
				p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
					 "out of memory");
				goto fail;
			}
			b = nb;
		}
		got = read(fd, b + n, cap - n);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				 strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (fd != STDIN_FILENO)
		close(fd);
	*buf = b;
	*len = n;
	return 0;
fail:
	if (fd != STDIN_FILENO)
		close(fd);
	free(b);
	return -1;
}

/* Profiles this large are not CPU profiles: the bound on gzip input. */
#define MAX_INFLATED ((size_t)512 << 20)

/*
 * A gzip-compressed profile is read as pprof reads it, inflated; a
 * neighbouring format (heap profile, perl pprof's raw form, protobuf) is
 * named rather than reported as a bad header.
 */
static int
unwrap(unsigned char **buf, size_t *len, struct p2g_error *err)
{
	const char *what = cpuprof_neighbour(*buf, *len);
	bool gz = false;

	if (what != NULL && (*buf)[0] == 0x1f) {
		unsigned char *out;
		size_t n;

		if (gzbuf_inflate(*buf, *len, MAX_INFLATED, &out, &n,
				  err) < 0)
			return -1;
		free(*buf);
		*buf = out;
		*len = n;
		gz = true;
		what = cpuprof_neighbour(*buf, *len);
	}
	if (what != NULL)
		return p2g_fail(err, P2G_UNSUPPORTED, P2G_NO_OFFSET, "%s%s",
				what, gz ? " (gzip-compressed)" : "");
	return 0;
}

static void
dump(const struct profile *p)
{
	size_t i;
	uint64_t j;
	const char *s, *nl;

	printf("header 0 3 0 %" PRIu64 " 0\n", p->period_us);
	printf("slots %u-bit %s-endian\n", p->slot_bytes * 8,
	       p->big_endian ? "big" : "little");
	for (i = 0; i < p->nrecs; i++) {
		const struct profile_record *r = &p->recs[i];

		printf("%" PRIu64, r->count);
		for (j = 0; j < r->n; j++)
			printf(" 0x%" PRIx64, p->pcs[r->off + j]);
		putchar('\n');
	}
	printf("trailer 0 1 0\n");
	for (s = p->maps; s != NULL && *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl == NULL) {
			printf("map %s\n", s);
			break;
		}
		printf("map %.*s\n", (int)(nl - s), s);
	}
}

static void
summary(const char *file, const struct profile *p)
{
	uint64_t depth = 0, lines = 0;
	size_t i;
	const char *s;

	for (i = 0; i < p->nrecs; i++)
		if (p->recs[i].n > depth)
			depth = p->recs[i].n;
	for (s = p->maps; s != NULL && *s != '\0'; s++)
		if (*s == '\n' || s[1] == '\0')
			lines++;
	printf("%s: %u-bit %s-endian, period %" PRIu64 " us, %" PRIu64
	       " samples in %zu records, max depth %" PRIu64 ", %" PRIu64
	       " maps lines\n", file, p->slot_bytes * 8,
	       p->big_endian ? "big" : "little", p->period_us,
	       profile_samples(p), p->nrecs, depth, lines);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dump", no_argument, NULL, 'd' },
		{ "summary", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool do_dump = false, do_summary = false;
	int c, ret = 0, i;

	progname = "gperfcheck";
	opterr = 0;	/* our own messages, with our own prefix */
	while ((c = getopt_long(argc, argv, ":dsqhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			do_dump = true;
			break;
		case 's':
			do_summary = true;
			break;
		case 'q':
			message_quiet = true;
			break;
		case 'h':
			usage();
			break;
		case 'V':
			printf("%s (%s) %s\n", progname, PACKAGE_NAME,
			       PACKAGE_VERSION);
			message_library_versions();
			message_exit(0);
			break;
		default:
			message_bad_option(argv[optind - 1], optopt);
		}
	}
	if (optind == argc)
		message_usage("no FILE given");

	for (i = optind; i < argc; i++) {
		const char *name = strcmp(argv[i], "-") == 0
					   ? "(standard input)" : argv[i];
		struct p2g_error err;
		struct profile p;
		unsigned char *buf = NULL;
		size_t len = 0;
		int st;

		p2g_error_clear(&err);
		profile_init(&p);
		if (read_file(argv[i], &buf, &len, &err) < 0 ||
		    unwrap(&buf, &len, &err) < 0 ||
		    cpuprof_read(buf, len, &p, &err) < 0) {
			st = p2g_exit_status(err.status);
			if (!message_quiet)
				message_error(name, &err);
			if (st > ret)
				ret = st;
		} else {
			if (do_summary)
				summary(name, &p);
			if (do_dump && argc - optind > 1)
				printf("file %s\n", name);
			if (do_dump)
				dump(&p);
		}
		profile_release(&p);
		free(buf);
	}
	message_exit(ret);
}
