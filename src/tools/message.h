/* SPDX-License-Identifier: MIT */
/*
 * Messages of the front ends (never used by the core library):
 * "PROG: FILE: offset 0xHEX: what is wrong", lower case, no period.
 */
#ifndef P2G_MESSAGE_H
#define P2G_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

extern const char *progname;
extern bool message_quiet;

/* Print S to F with bytes outside printable ASCII (and backslash) as
 * \xHH: strings from an input file may hold anything. */
void message_put_safe(FILE *f, const char *s);

/* The same for the N bytes at S (NULs among them escaped too). */
void message_put_safe_n(FILE *f, const char *s, size_t n);

/* S escaped the same way into BUF of SIZE bytes (cut short, at an
 * escape's boundary, when it does not fit); returns BUF. */
const char *message_escape(char *buf, size_t size, const char *s);

/* Show FMT as the status line on stderr.  On a terminal it is written
 * over the one before, with no newline, and every message below ends it
 * first; into a file or a pipe it is a line of its own. */
void message_status(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Whether stderr is a terminal, where status lines overwrite each
 * other. */
bool message_status_overwrites(void);

/* Clear the status line, if one is shown on a terminal. */
void message_status_end(void);

/* Report ERR about FILE on stderr. */
void message_error(const char *file, const struct p2g_error *err);

/* A warning about FILE at OFFSET (P2G_NO_OFFSET for none); silenced by
 * -q.  Warnings never change the exit status. */
void message_warning(const char *file, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A note (not a problem) about FILE; silenced by -q. */
void message_note(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A usage error: message, then "Try 'PROG --help'", exit 2. */
void message_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* A usage error for an unknown option: ARG is the argument getopt was
 * looking at, OPT the option character (0 for a long option). */
void message_bad_option(const char *arg, int opt) __attribute__((noreturn));

/* The integer argument ARG of option OPT (e.g. "--max-stack"), from MIN
 * to MAX; else a usage error: "is not a non-negative integer" when the
 * range is all of uint64_t, else "is not an integer from MIN to MAX". */
uint64_t message_parse_uint(const char *opt, const char *arg, uint64_t min,
			    uint64_t max);

/* A word an option takes, and the value it stands for. */
struct message_word {
	const char *word;
	int value;
};

/* The value of the argument ARG of option OPT (e.g. "--weight") among
 * WORDS (ended by a NULL word); else a usage error: "is not A, B or
 * C", the words in their order. */
int message_parse_word(const char *opt, const char *arg,
		       const struct message_word *words);

/* Flush stdout and exit with STATUS, or with 2 if stdout had a write
 * error. */
void message_exit(int status) __attribute__((noreturn));

/* Print the versions of the libraries the tool is linked with. */
void message_library_versions(void);

#endif
