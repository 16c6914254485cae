/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of mapping_kind(): the names perf and the kernel give to
 * memory that is no file, each to its kind as perf's util/map.h tells
 * them apart ("//anon" exactly; "/dev/zero" and "/anon_hugepage" as
 * prefixes, " (deleted)" and all; a perf map only as /tmp/perf-PID.map),
 * and which kinds belong to their process.
 */
#include "config.h"

#include "mapkind.h"
#include "unit.h"

static const struct {
	const char *path;
	enum mapkind kind;
} cases[] = {
	{ "", MAPKIND_NONE },
	{ "//anon", MAPKIND_ANON },
	{ "//anonymous", MAPKIND_FILE },
	{ "/dev/zero (deleted)", MAPKIND_ANON_SHARED },
	{ "/anon_hugepage (deleted)", MAPKIND_ANON_SHARED },
	{ "[anon:libc_malloc]", MAPKIND_ANON_NAMED },
	{ "/tmp/perf-1234.map", MAPKIND_PERFMAP },
	{ "/tmp/perf-.map", MAPKIND_FILE },
	{ "/tmp/perf-12x.map", MAPKIND_FILE },
	{ "/tmp/perf-vdso.so-AbCdEf", MAPKIND_FILE },
	{ "/memfd:jit (deleted)", MAPKIND_MEMFD },
	{ "/SYSV00000000 (deleted)", MAPKIND_SYSV },
	{ "/dev/shm/x", MAPKIND_DEVICE },
	{ "[vdso]", MAPKIND_VDSO },
	{ "[vdso32]", MAPKIND_SPECIAL },
	{ "[kernel.kallsyms]_text", MAPKIND_KERNEL },
	{ "[guest.kernel.kallsyms.1234]", MAPKIND_KERNEL },
	{ "[heap]", MAPKIND_SPECIAL },
	{ "[stack]", MAPKIND_SPECIAL },
	{ "[vsyscall]", MAPKIND_SPECIAL },
	{ "[p2gmod]", MAPKIND_SPECIAL },
	{ "/[aio] (deleted)", MAPKIND_SPECIAL },
	{ "/usr/lib/x86_64-linux-gnu/libc.so.6", MAPKIND_FILE },
	{ "relative/prog", MAPKIND_FILE },
};

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum mapkind k = mapping_kind(cases[i].path);

		if (k != cases[i].kind)
			fprintf(stderr, "%s: kind %d, expected %d\n",
				cases[i].path, (int)k, (int)cases[i].kind);
		CHECK(k == cases[i].kind);
	}
	/* a file, SysV memory and a device are shared; the rest is the
	 * process's own */
	CHECK(!mapkind_is_own(MAPKIND_FILE));
	CHECK(!mapkind_is_own(MAPKIND_SYSV));
	CHECK(!mapkind_is_own(MAPKIND_DEVICE));
	CHECK(mapkind_is_own(MAPKIND_NONE));
	CHECK(mapkind_is_own(MAPKIND_ANON));
	CHECK(mapkind_is_own(MAPKIND_ANON_SHARED));
	CHECK(mapkind_is_own(MAPKIND_ANON_NAMED));
	CHECK(mapkind_is_own(MAPKIND_PERFMAP));
	CHECK(mapkind_is_own(MAPKIND_MEMFD));
	CHECK(mapkind_is_own(MAPKIND_VDSO));
	CHECK(mapkind_is_own(MAPKIND_KERNEL));
	CHECK(mapkind_is_own(MAPKIND_SPECIAL));
	return unit_exit();
}
