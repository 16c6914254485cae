// symcxx.cc - C++ functions whose names perf demangles, for
// tests/run-symbols.sh (built there with g++ -O2
// -fno-omit-frame-pointer): a namespace's class's static and member
// functions, a function template, an operator, an anonymous
// namespace's function and a C alias of a C++ function.
#include <cstdio>
#include <cstdlib>

#define SPIN(x, n)							\
	do {								\
		for (unsigned long i_ = 0; i_ < (n); i_++) {		\
			(x) = (x) * 6364136223846793005UL + 1;		\
			__asm__ volatile("" : "+r"(x));			\
		}							\
	} while (0)

namespace ns {
struct K {
	unsigned long v;
	__attribute__((noinline)) static unsigned long spin(unsigned long n);
	__attribute__((noinline)) unsigned long run(unsigned long n) const;
	__attribute__((noinline)) K operator+(const K &o) const;
};

unsigned long K::spin(unsigned long n)
{
	unsigned long x = 1;

	SPIN(x, n);
	return x;
}

unsigned long K::run(unsigned long n) const
{
	unsigned long x = v + spin(n / 2);

	SPIN(x, n / 2);
	return x;
}

K K::operator+(const K &o) const
{
	unsigned long x = v + o.v;

	SPIN(x, x % 4 + 3000000);
	return K{x};
}
}

// A C name at spin's address: perf keeps one of the two, comparing the
// demangled name (longer: kept) with this one; the mangled name would
// lose (a leading underscore).
extern "C" unsigned long kspin(unsigned long n)
	__attribute__((alias("_ZN2ns1K4spinEm")));

namespace {
__attribute__((noinline)) unsigned long hidden(unsigned long n)
{
	unsigned long x = n;

	SPIN(x, n);
	return x;
}
}

template <typename T> __attribute__((noinline)) T twice(T n)
{
	T x = ns::K::spin(n) + hidden(n / 2);

	SPIN(x, n / 4);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 10000000;
	ns::K a{1}, b{2};

	unsigned long r = twice<unsigned long>(n) + a.run(n) + (a + b).v;
	printf("%lu\n", r & 1);
	return 0;
}
