/* SPDX-License-Identifier: MIT */
/* --debuginfod's handle and words: see fetch.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fetch.h"
#include "message.h"

/* The build IDs one warning lists at most. */
#define WARN_LIST 8

struct dbgfetch *
fetch_open(const char *name, dbgfetch_progress_fn progress, void *ctx)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	struct dbgfetch *f;

	if (!dbgfetch_available()) {
		message_warning(name, P2G_NO_OFFSET, "--debuginfod: built "
				"without libdebuginfod: nothing is fetched");
		return NULL;
	}
	if (urls == NULL || strspn(urls, " \t\n") == strlen(urls)) {
		message_warning(name, P2G_NO_OFFSET, "--debuginfod: "
				"DEBUGINFOD_URLS names no server: nothing is "
				"fetched");
		return NULL;
	}
	/* the client asks a failing server again twice by default: a
	 * stalled one would cost three timeouts per build ID */
	if (setenv("DEBUGINFOD_RETRY_LIMIT", "0", 0) != 0) {
		fprintf(stderr, "%s: out of memory\n", progname);
		message_exit(2);
	}
	f = dbgfetch_new(progress, ctx);
	if (f == NULL) {
		fprintf(stderr, "%s: out of memory\n", progname);
		message_exit(2);
	}
	return f;
}

void
fetch_warn(const char *name, const struct dbgfetch *f)
{
	char list[WARN_LIST * 200] = "";
	const char *hex, *path, *why;
	enum dbgfetch_kind kind;
	size_t i, n = 0, len = 0;

	if (f == NULL)
		return;
	for (i = 0; (hex = dbgfetch_asked(f, i, &kind, &path, &why)) != NULL;
	     i++) {
		int w;

		if (path != NULL)
			continue;
		if (n++ >= WARN_LIST)
			continue;
		w = snprintf(list + len, sizeof(list) - len, "%s%s (%s: %s)",
			     n > 1 ? ", " : "", hex, dbgfetch_kind_name(kind),
			     why);
		if (w > 0 && (size_t)w < sizeof(list) - len)
			len += (size_t)w;
	}
	if (n == 0)
		return;
	message_warning(name, P2G_NO_OFFSET,
			"debuginfod servers %s: %zu file%s not had: %s%s",
			getenv("DEBUGINFOD_URLS"), n, n == 1 ? "" : "s", list,
			n > WARN_LIST ? ", ..." : "");
}

void
fetch_stats(const struct dbgfetch *f)
{
	const struct dbgfetch_counts *c;
	const char *hex, *path, *why;
	enum dbgfetch_kind kind;
	size_t i;
	int k;

	if (f == NULL)
		return;
	c = dbgfetch_counts(f);
	fprintf(stderr, "%s: debuginfod (%s):\n", progname,
		getenv("DEBUGINFOD_URLS"));
	for (k = 0; k < DBGFETCH_NKINDS; k++)
		fprintf(stderr,
			"  %-10s  fetched %zu, not found %zu, failed %zu, "
			"refused %zu\n", dbgfetch_kind_name(k),
			c->fetched[k], c->not_found[k], c->failed[k],
			c->refused[k]);
	for (i = 0; (hex = dbgfetch_asked(f, i, &kind, &path, &why)) != NULL;
	     i++) {
		fprintf(stderr, "  %s %-10s  ", hex, dbgfetch_kind_name(kind));
		if (path != NULL) {
			fputs("from ", stderr);
			message_put_safe(stderr, path);
			fputc('\n', stderr);
		} else {
			fprintf(stderr, "%s\n", why);
		}
	}
}
