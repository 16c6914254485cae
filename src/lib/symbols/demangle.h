/* SPDX-License-Identifier: MIT */
/*
 * C++ names as perf shows them: demangled by libiberty's cplus_demangle()
 * with no options, so without parameters or return type ("ns::K::spin",
 * "twice<unsigned long>"), which is what Debian's perf prints (its
 * default, non-verbose demangling).  Only when configure found libiberty
 * (libiberty-dev); otherwise names stay as the symbol table has them.
 *
 * A mangled name of a few hundred bytes can stand for hundreds of
 * megabytes (each back-reference to a template doubling it): a name is
 * demangled at most to DEMANGLE_MAX bytes, where the demangler is
 * stopped and the name ends in "...".
 */
#ifndef P2G_DEMANGLE_H
#define P2G_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* The most bytes of a demangled name, before its "...". */
#define DEMANGLE_MAX 4096

/* Room for a demangled name, its "..." and its NUL. */
#define DEMANGLE_BUF (DEMANGLE_MAX + 4)

/* NAME demangled into BUF (NUL-ended); its length, or 0 when NAME is
 * not a mangled name, demangling is not built in, or memory runs out
 * (BUF is then as it was). */
size_t demangle_into(const char *name, char *buf);

/* The demangled NAME (malloc'd: the caller frees it), or NULL when NAME
 * is not a mangled name, demangling is not built in, or memory runs
 * out. */
char *demangle_name(const char *name);

/* True if demangling is built in. */
bool demangle_available(void);

#endif
