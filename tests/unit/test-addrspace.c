/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the mappings of address spaces when a new mapping
 * overlaps others, as perf has them: an old mapping keeps the part below
 * the new one (its start and offset, a shorter end) and the part above
 * (from the new one's end, its offset moved along), each with the old
 * one's file and protection; a new mapping inside one old one leaves
 * both parts, one over several the outer parts of the first and last;
 * the space of a sample taken before keeps the whole old mapping, and so
 * does a parent whose child maps over part of what they share.
 */
#include "config.h"

#include <string.h>

#include "addrspace.h"
#include "unit.h"

/* Map START..END at file offset PGOFF of PATH (r-x if EXEC, else rw-)
 * into process PID. */
static void
map(struct addrspace *as, int32_t pid, uint64_t start, uint64_t end,
    uint64_t pgoff, const char *path, bool exec)
{
	struct mapping m;

	memset(&m, 0, sizeof(m));
	m.start = start;
	m.end = end;
	m.pgoff = pgoff;
	m.prot = exec ? 5 : 3;
	m.flags = 2;
	m.exec = exec;
	m.path = (char *)path;
	CHECK(addrspace_mmap(as, pid, &m) == 0);
}

/* The mapping of the current space of PID at ADDR, or NULL. */
static const struct mapping *
at(struct addrspace *as, int32_t pid, uint64_t addr)
{
	uint32_t sid;

	if (addrspace_sample_space(as, pid, &sid) < 0)
		return NULL;
	return addrspace_resolve(as, sid, addr);
}

/* Mapping M is START..END at PGOFF of PATH. */
static void
check_map(const struct mapping *m, uint64_t start, uint64_t end,
	  uint64_t pgoff, const char *path)
{
	CHECK(m != NULL);
	if (m == NULL)
		return;
	CHECK_EQ_U64(m->start, start);
	CHECK_EQ_U64(m->end, end);
	CHECK_EQ_U64(m->pgoff, pgoff);
	CHECK(strcmp(m->path, path) == 0);
}

int
main(void)
{
	struct addrspace *as = addrspace_new();
	const struct mapping *m;
	uint32_t sid;

	CHECK(as != NULL);
	if (as == NULL)
		return unit_exit();

	/* Data over the end of a program's text, then inside libc's. */
	map(as, 1, 0x1000, 0x5000, 0, "/prog", true);
	map(as, 1, 0x4000, 0x6000, 0x3000, "/prog", false);
	map(as, 1, 0x10000, 0x20000, 0x2000, "/libc", true);
	map(as, 1, 0x14000, 0x15000, 0x100000, "/data", false);
	check_map(at(as, 1, 0x1800), 0x1000, 0x4000, 0, "/prog");
	m = at(as, 1, 0x1800);
	CHECK(m != NULL && m->exec && m->prot == 5);
	check_map(at(as, 1, 0x4800), 0x4000, 0x6000, 0x3000, "/prog");
	check_map(at(as, 1, 0x10000), 0x10000, 0x14000, 0x2000, "/libc");
	check_map(at(as, 1, 0x14fff), 0x14000, 0x15000, 0x100000, "/data");
	check_map(at(as, 1, 0x15000), 0x15000, 0x20000, 0x7000, "/libc");
	check_map(at(as, 1, 0x1ffff), 0x15000, 0x20000, 0x7000, "/libc");
	CHECK(at(as, 1, 0x20000) == NULL);

	/* The space of the samples above keeps what it had. */
	CHECK(addrspace_sample_space(as, 1, &sid) == 0);
	/* One mapping over the upper part of one and the lower of the
	 * next, and the data between them. */
	map(as, 1, 0x12000, 0x18000, 0, "/new", true);
	check_map(at(as, 1, 0x11fff), 0x10000, 0x12000, 0x2000, "/libc");
	check_map(at(as, 1, 0x12000), 0x12000, 0x18000, 0, "/new");
	check_map(at(as, 1, 0x18000), 0x18000, 0x20000, 0xa000, "/libc");
	check_map(addrspace_resolve(as, sid, 0x14800), 0x14000, 0x15000,
		  0x100000, "/data");
	check_map(addrspace_resolve(as, sid, 0x12000), 0x10000, 0x14000,
		  0x2000, "/libc");
	check_map(addrspace_resolve(as, sid, 0x17000), 0x15000, 0x20000,
		  0x7000, "/libc");

	/* An empty mapping inside another splits it, covering nothing. */
	map(as, 1, 0x1c000, 0x1c000, 0, "/empty", false);
	check_map(at(as, 1, 0x1bfff), 0x18000, 0x1c000, 0xa000, "/libc");
	check_map(at(as, 1, 0x1c000), 0x1c000, 0x20000, 0xe000, "/libc");

	/* A child maps over part of what it shares with its parent. */
	CHECK(addrspace_fork(as, 2, 1, 2, 1) == 0);
	map(as, 2, 0x19000, 0x1a000, 0, "/child", true);
	check_map(at(as, 2, 0x18fff), 0x18000, 0x19000, 0xa000, "/libc");
	check_map(at(as, 2, 0x1a000), 0x1a000, 0x1c000, 0xc000, "/libc");
	check_map(at(as, 1, 0x19800), 0x18000, 0x1c000, 0xa000, "/libc");

	addrspace_free(as);
	return unit_exit();
}
