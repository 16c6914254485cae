// SPDX-License-Identifier: MIT
// cprop.c in C++, for tests/run-folded.sh: perf names the frames it
// unwinds with DWARF as addr2line does, by the linkage name (demangled)
// of the function and of each function inlined (ns::step, not step;
// ns::work, not "ns::work [clone .constprop.0]"), and by the ELF symbol
// where the function has no linkage name (an anonymous namespace's).
#include <cstdlib>

static volatile unsigned long sink;

namespace ns {
__attribute__((always_inline)) inline unsigned long
step(unsigned long x, unsigned long k)
{
	return x * 2654435761UL + k;
}

__attribute__((noinline)) unsigned long work(unsigned long n,
					     unsigned long k)
{
	unsigned long x = 1;

	for (unsigned long i = 0; i < n; i++)
		x = step(x, k) ^ (x >> 7);
	return x;
}
}

namespace {
__attribute__((noinline)) unsigned long hidden(unsigned long n,
					       unsigned long k)
{
	unsigned long x = 3;

	for (unsigned long i = 0; i < n; i++)
		x = ns::step(x, k) ^ (x >> 9);
	return x;
}
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 200000000;

	sink = ns::work(n, 17) + ns::work(n / 3, 17);
	sink += hidden(n, 5) + hidden(n / 5, 5);
	return 0;
}
