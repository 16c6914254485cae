/* SPDX-License-Identifier: MIT */
/* C++ names as perf shows them: see demangle.h. */
#include "config.h"

#include <stddef.h>

#include "demangle.h"

#ifdef HAVE_LIBIBERTY
#include <libiberty/demangle.h>

char *
demangle_name(const char *name)
{
	/* only names the C++ ABI mangles (as perf's Rust names are too):
	 * never a C name that a D or Ada demangler would read */
	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	return cplus_demangle(name, DMGL_NO_OPTS);
}

bool
demangle_available(void)
{
	return true;
}
#else
char *
demangle_name(const char *name)
{
	(void)name;
	return NULL;
}

bool
demangle_available(void)
{
	return false;
}
#endif
