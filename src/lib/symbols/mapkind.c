/* SPDX-License-Identifier: MIT */
/*
 * The one place where a mapping's name is classified (see mapkind.h).
 * perf's rules: "//anon" (exactly), "/dev/zero..." and "/anon_hugepage..."
 * are anonymous memory, whose code perf names from /tmp/perf-PID.map;
 * "[stack...", "[heap]" and "/SYSV..." are memory with no file behind it.
 */
#include <string.h>

#include "mapkind.h"

static bool
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* /tmp/perf-PID.map, PID in decimal digits */
static bool
is_perfmap(const char *path)
{
	const char *p;

	if (!starts(path, "/tmp/perf-"))
		return false;
	for (p = path + 10; *p >= '0' && *p <= '9'; p++)
		;
	return p > path + 10 && strcmp(p, ".map") == 0;
}

enum mapkind
mapping_kind(const char *path)
{
	if (path[0] == '\0')
		return MAPKIND_NONE;
	if (strcmp(path, "//anon") == 0)
		return MAPKIND_ANON;
	if (starts(path, "/dev/zero") || starts(path, "/anon_hugepage"))
		return MAPKIND_ANON_SHARED;
	if (path[0] == '[') {
		if (starts(path, "[anon:"))
			return MAPKIND_ANON_NAMED;
		if (strcmp(path, "[vdso]") == 0)
			return MAPKIND_VDSO;
		if (starts(path, "[kernel.kallsyms]") ||
		    starts(path, "[guest.kernel.kallsyms"))
			return MAPKIND_KERNEL;
		return MAPKIND_SPECIAL;
	}
	if (is_perfmap(path))
		return MAPKIND_PERFMAP;
	if (starts(path, "/memfd:"))
		return MAPKIND_MEMFD;
	if (starts(path, "/SYSV"))
		return MAPKIND_SYSV;
	if (starts(path, "/dev/"))
		return MAPKIND_DEVICE;
	if (starts(path, "/["))
		return MAPKIND_SPECIAL;
	return MAPKIND_FILE;
}

bool
mapkind_is_own(enum mapkind k)
{
	switch (k) {
	case MAPKIND_FILE:
	case MAPKIND_SYSV:
	case MAPKIND_DEVICE:
		return false;
	default:
		return true;
	}
}
