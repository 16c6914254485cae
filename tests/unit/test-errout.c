/* SPDX-License-Identifier: MIT */
/*
 * A struct p2g_error is output only: a function given one that still
 * holds an earlier failure must behave as with a clear one.  Each check
 * hands a stale error to a call that succeeds (a perf.data file, a
 * perf.data directory, a gzip input, the gzip probe of a plain file) and
 * expects the success.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "input.h"
#include "perfdata.h"
#include "unit.h"

static char path[4096];

static const char *
fixture(const char *name)
{
	const char *top = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/testdata/%s", top ? top : ".",
		 name);
	return path;
}

/* An error record as a failed call leaves it. */
static void
stale(struct p2g_error *err)
{
	p2g_fail(err, P2G_INVALID, 0x1234, "an earlier failure");
	strcpy(err->part, "data.7");
}

static void
check_open(const char *name)
{
	struct p2g_error err;
	struct perfdata *pd;

	stale(&err);
	pd = perfdata_open(fixture(name), NULL, NULL, &err);
	if (pd == NULL)
		fprintf(stderr, "%s: %s\n", name, err.msg);
	CHECK(pd != NULL);
	perfdata_close(pd);
}

/* The gzip probe of fixture NAME, handed a stale error, says WANT. */
static void
check_gzip(const char *name, int want)
{
	struct p2g_error err;
	struct input *in;

	p2g_error_clear(&err);
	in = input_open(fixture(name), &err);
	CHECK(in != NULL);
	if (in == NULL)
		return;
	stale(&err);
	CHECK(input_is_gzip(in, &err) == want);
	input_close(in);
}

int
main(void)
{
	check_open("hot.perf.data");
	check_open("multi-pipe.perf.data");
	check_open("threads-dir.perf.data");
	check_open("dwarfprog.perf.data.gz");
	check_gzip("hot.perf.data", 0);
	check_gzip("dwarfprog.perf.data.gz", 1);
	return unit_exit();
}
