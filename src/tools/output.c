/* SPDX-License-Identifier: MIT */
/* perf2gperf's output files and their signals: see output.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "input.h"
#include "message.h"
#include "output.h"
#include "signals.h"

/*
 * The temporary file, which a signal handler removes (signals.c): a
 * handler is given no context pointer, so it is kept in a static.
 */
static struct {
	char tmp_path[PATH_MAX];
	volatile sig_atomic_t tmp_live;	/* tmp_path exists and is ours */
} output_sig;

void
output_cleanup(void)
{
	if (output_sig.tmp_live)
		unlink(output_sig.tmp_path);
}

void
output_remove_tmp(void)
{
	if (output_sig.tmp_live) {
		unlink(output_sig.tmp_path);
		output_sig.tmp_live = 0;
	}
}

/* Create the temporary file beside TARGET, with the mode a new file
 * would get. */
static int
open_tmp(const char *target, struct p2g_error *err)
{
	char *path = output_sig.tmp_path;
	sigset_t held;
	mode_t mask;
	int fd;

	if (snprintf(path, sizeof(output_sig.tmp_path), "%s.tmpXXXXXX",
		     target) >= (int)sizeof(output_sig.tmp_path))
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "name too long");
	/* A signal in between would leave the file behind. */
	signals_hold(&held);
	fd = mkstemp(path);
	if (fd >= 0)
		output_sig.tmp_live = 1;
	signals_release(&held);
	if (fd < 0)
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
				"cannot create: %s", strerror(errno));
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	return fd;
}

/* The file OUTPUT names once its symbolic links are followed (which
 * need not exist yet, as a shell's '>' creates it), in PATH of SIZE
 * bytes.  0, or -1 with ERR set. */
static int
follow_links(const char *output, char *path, size_t size,
	     struct p2g_error *err)
{
	char target[PATH_MAX];
	struct stat st;
	const char *slash;
	size_t dir;
	ssize_t n;
	int hops = 0;

	if (snprintf(path, size, "%s", output) >= (int)size)
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "name too long");
	while (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (++hops > 40)
			return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
					strerror(ELOOP));
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
					strerror(errno));
		target[n] = '\0';
		/* a relative target is relative to the link's directory */
		slash = strrchr(path, '/');
		dir = target[0] != '/' && slash != NULL
			      ? (size_t)(slash - path) + 1 : 0;
		if (dir + (size_t)n >= size)
			return p2g_fail(err, P2G_IO, P2G_NO_OFFSET,
					"name too long");
		memcpy(path + dir, target, (size_t)n + 1);
	}
	return 0;
}

/* Write R's profile into the FIFO or character device PATH, as cp
 * would: it is opened and written, never replaced.  0, or -1 with ERR
 * set. */
static int
write_into(const char *path, const struct convert_result *r,
	   struct p2g_error *err)
{
	int fd;

	fd = open(path, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				strerror(errno));
	if (convert_write(r, fd, err) < 0) {
		close(fd);
		return -1;
	}
	if (close(fd) != 0)
		return p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s",
				strerror(errno));
	return 0;
}

int
output_add_identities(struct output_sink *sink, const struct perfdata *pd)
{
	size_t i;

	for (i = 0; i < perfdata_nparts(pd); i++) {
		dev_t *nd = realloc(sink->idev, (sink->nids + 1) * sizeof(*nd));
		ino_t *ni;

		if (nd == NULL)
			return -1;
		sink->idev = nd;
		ni = realloc(sink->iino, (sink->nids + 1) * sizeof(*ni));
		if (ni == NULL)
			return -1;
		sink->iino = ni;
		if (input_identity(perfdata_part_input(pd, i),
				   &sink->idev[sink->nids],
				   &sink->iino[sink->nids]))
			sink->nids++;
	}
	return 0;
}

/* Whether OUTPUT is one of the input files. */
static bool
is_input(const struct output_sink *sink, const char *output)
{
	struct stat ost;
	size_t i;

	for (i = 0; i < sink->nids && stat(output, &ost) == 0; i++)
		if (ost.st_dev == sink->idev[i] && ost.st_ino == sink->iino[i])
			return true;
	return false;
}

/* Whether the --split pattern PAT holds %C (a % escaped as %%). */
static bool
has_field(const char *pat, char c)
{
	for (; *pat != '\0'; pat++)
		if (*pat == '%' && pat[1] != '\0') {
			if (*++pat == c)
				return true;
		}
	return false;
}

void
output_check_pattern(const char *output, enum convert_split mode)
{
	static const char *const need[] = {
		[CONVERT_SPLIT_PID] = "--split, OUTPUT must be a file name "
				      "pattern with %p (the pid)",
		[CONVERT_SPLIT_TID] = "--split=tid, OUTPUT must be a file "
				      "name pattern with %t (the thread id)",
		[CONVERT_SPLIT_COMM] = "--split=comm, OUTPUT must be a file "
				       "name pattern with %c (the command)",
	};
	static const char field[] = {
		[CONVERT_SPLIT_PID] = 'p',
		[CONVERT_SPLIT_TID] = 't',
		[CONVERT_SPLIT_COMM] = 'c',
	};

	if (strcmp(output, "-") == 0 || !has_field(output, field[mode]))
		message_usage("with %s in it", need[mode]);
	if (mode != CONVERT_SPLIT_TID && has_field(output, 't'))
		message_usage("OUTPUT: %%t (the thread id) needs --split=tid");
	if (mode == CONVERT_SPLIT_COMM && has_field(output, 'p'))
		message_usage("OUTPUT: with --split=comm, %%p has no one "
			      "value: a command's profile holds its "
			      "processes");
}

/* The --split pattern PAT for R: %p the pid, %t the thread id, %c the
 * command (with '/' as '_', and a command of dots alone, "." or "..",
 * in underscores, so that it names no directory; "unknown" for none),
 * %% a percent sign.  With SUFFIX > 1, "-SUFFIX" after the first field.
 * False if the name would be too long. */
static bool
expand_pattern(const char *pat, const struct convert_result *r,
	       unsigned long suffix, char *out, size_t size)
{
	size_t n = 0;
	const char *c;
	char num[40];
	bool dots;

	for (; *pat != '\0'; pat++) {
		const char *add = NULL;
		char one[2] = { *pat, '\0' };
		bool field = *pat == '%' && (pat[1] == 'p' || pat[1] == 't' ||
					     pat[1] == 'c');

		if (*pat == '%' && (pat[1] == 'p' || pat[1] == 't')) {
			snprintf(num, sizeof(num), "%d",
				 pat[1] == 'p' ? r->pid : r->tid);
			add = num;
			pat++;
		} else if (*pat == '%' && pat[1] == 'c') {
			c = r->comm[0] ? r->comm : "unknown";
			dots = strspn(c, ".") == strlen(c);
			for (; *c; c++) {
				if (n + 1 >= size)
					return false;
				out[n++] = *c == '/' || dots ? '_' : *c;
			}
			add = "";
			pat++;
		} else if (*pat == '%' && pat[1] == '%') {
			add = "%";
			pat++;
		} else {
			add = one;
		}
		if (n + strlen(add) >= size)
			return false;
		memcpy(out + n, add, strlen(add));
		n += strlen(add);
		if (field && suffix > 1) {
			snprintf(num, sizeof(num), "-%lu", suffix);
			if (n + strlen(num) >= size)
				return false;
			memcpy(out + n, num, strlen(num));
			n += strlen(num);
			suffix = 0;
		}
	}
	out[n] = '\0';
	return true;
}

/* With --split, R's file name in NAME of SIZE bytes: the pattern
 * expanded, made distinct from every name before it by a suffix after
 * its first field ("-2", "-3"...) when two profiles would otherwise
 * share it (commands "a/b" and "a_b", say, or pid 1 thread 23 and pid
 * 12 thread 3 in "%p%t").  Claimed here, before the profile is
 * written.  0, or -1 with ERR set. */
static int
split_name(struct output_sink *sink, const struct convert_result *r,
	   char *name, size_t size, struct p2g_error *err)
{
	unsigned long suffix;
	int added = 0;

	for (suffix = 1; added == 0; suffix++) {
		if (!expand_pattern(sink->output, r, suffix, name, size))
			return p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
					"output name for pid %d is too long",
					r->pid);
		added = strset_add(&sink->names, name);
	}
	if (added < 0)
		return p2g_fail(err, P2G_NOMEM, P2G_NO_OFFSET,
				"out of memory");
	return 0;
}

/* What R's profile may do wrong in pprof, said about OUTPUT. */
static void
warn_result(const char *output, const struct convert_result *r)
{
	if (r->perl_strips)
		message_warning(output, P2G_NO_OFFSET,
				"every stack has the same second frame; "
				"google-pprof removes it unless run with "
				"--no-auto-signal-frm");
	/* as gperfcheck says it (checkreport.c) */
	if (r->space_paths)
		message_warning(output, P2G_NO_OFFSET,
				"%zu maps lines have a path with a space, "
				"which Go pprof cuts at the space",
				r->space_paths);
	if (r->collisions)
		message_warning(output, P2G_NO_OFFSET,
				"%zu mapped files found no free place and "
				"overlap others", r->collisions);
	if (!r->fixup_converged)
		message_warning(output, P2G_NO_OFFSET,
				"could not protect every stack from Go "
				"pprof's frame removal");
}

/*
 * Write R's profile into OUTPUT: a regular file (or a new one) through a
 * temporary file beside it, renamed over it; a FIFO or a character device
 * directly; through a symbolic link, the file it names.  0, or -1 with
 * ERR set and OUTPUT in sink->failed.
 */
static int
write_file(struct output_sink *sink, const char *output,
	   const struct convert_result *r, struct p2g_error *err)
{
	char target[PATH_MAX];
	struct stat st;
	sigset_t held;
	int fd, ret;

	snprintf(sink->failed, sizeof(sink->failed), "%s", output);
	/* Never write over the input. */
	if (is_input(sink, output))
		return p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
				"output is an input file");
	if (follow_links(output, target, sizeof(target), err) < 0)
		return -1;
	/* Never replace what is not a regular file: rename() would put a
	 * regular file in place of a device node or a FIFO. */
	if (stat(target, &st) == 0 &&
	    (!S_ISREG(st.st_mode) || sink->in_place)) {
		if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) ||
		    S_ISREG(st.st_mode)) {
			if (write_into(target, r, err) < 0)
				return -1;
			sink->failed[0] = '\0';
			return 0;
		}
		return p2g_fail(err, P2G_USAGE, P2G_NO_OFFSET,
				S_ISDIR(st.st_mode)
					? "is a directory"
					: "is not a regular file, a FIFO or a "
					  "character device");
	}
	fd = open_tmp(target, err);
	if (fd < 0)
		return -1;
	if (convert_write(r, fd, err) < 0) {
		close(fd);
		output_remove_tmp();
		return -1;
	}
	if (close(fd) != 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "%s", strerror(errno));
		output_remove_tmp();
		return -1;
	}
	/* Once renamed, the name is the output's: a signal in between
	 * must not remove it. */
	signals_hold(&held);
	ret = rename(output_sig.tmp_path, target);
	if (ret == 0)
		output_sig.tmp_live = 0;
	signals_release(&held);
	if (ret != 0) {
		p2g_fail(err, P2G_IO, P2G_NO_OFFSET, "cannot rename %s: %s",
			 output_sig.tmp_path, strerror(errno));
		output_remove_tmp();
		return -1;
	}
	sink->failed[0] = '\0';
	return 0;
}

/* With --split: a note naming R's profile, written to OUTPUT. */
static void
note_split(const char *output, const struct convert_result *r)
{
	if (r->tid >= 0)
		message_note(output, "thread %d of pid %d (%s): %" PRIu64
			     " samples", r->tid, r->pid, r->comm, r->samples);
	else if (r->processes > 1)
		message_note(output, "command %s: %zu processes, %" PRIu64
			     " samples", r->comm, r->processes, r->samples);
	else
		message_note(output, "pid %d (%s): %" PRIu64 " samples",
			     r->pid, r->comm, r->samples);
}

int
output_write(void *ctx, const struct convert_result *r,
	     struct p2g_error *err)
{
	struct output_sink *sink = ctx;
	char name[PATH_MAX];
	const char *output = sink->output;
	bool quiet_split = sink->split && !sink->verbose;

	report_input(sink->rp, 0);	/* all read: notes name the first */
	if (sink->split) {
		if (split_name(sink, r, name, sizeof(name), err) < 0)
			return -1;
		output = name;
	}
	if (sink->stats)
		report_result_stats(strcmp(output, "-") ? output
							: "(standard output)",
				    r);
	/* Split, the warnings are counted for the summary instead. */
	if (quiet_split) {
		sink->strips += r->perl_strips;
		sink->collisions += r->collisions > 0;
		sink->unconverged += !r->fixup_converged;
		sink->spaces += r->space_paths > 0;
	} else {
		warn_result(output, r);
	}
	if (strcmp(output, "-") == 0) {
		if (convert_write(r, STDOUT_FILENO, err) < 0) {
			snprintf(sink->failed, sizeof(sink->failed), "%s",
				 "(standard output)");
			return -1;
		}
		sink->written++;
		return 0;
	}
	if (write_file(sink, output, r, err) < 0)
		return -1;
	if (sink->split && sink->verbose)
		note_split(output, r);
	else if (!sink->split && r->processes > 1)
		message_note(sink->rp->name, "%zu processes merged into one "
			     "profile%s%s", r->processes,
			     r->relocated ? ", some mappings relocated" : "",
			     report_hint(sink->rp, " (--split writes one per "
					 "process)"));
	sink->written++;
	sink->samples += r->samples;
	return 0;
}

void
output_summary(const struct output_sink *sink, const char *input,
	       const struct convert_stats *st, const struct convert_opts *o)
{
	static const char *const per[] = {
		[CONVERT_SPLIT_PID] = "process",
		[CONVERT_SPLIT_TID] = "thread",
		[CONVERT_SPLIT_COMM] = "command",
	};
	char out[200] = "";

	if (st->left_out)
		snprintf(out, sizeof(out), "; %zu with fewer than %" PRIu64
			 " samples left out (%" PRIu64 " samples)",
			 st->left_out, o->min_samples, st->samples_left_out);
	message_note(input, "%zu profile%s (one per %s), %" PRIu64
		     " samples written%s", sink->written,
		     sink->written == 1 ? "" : "s", per[sink->split],
		     sink->samples, out);
	if (sink->strips)
		message_warning(input, P2G_NO_OFFSET,
				"in %zu of the profiles every stack has the "
				"same second frame; google-pprof removes it "
				"unless run with --no-auto-signal-frm (-v "
				"names them)", sink->strips);
	if (sink->spaces)
		message_warning(input, P2G_NO_OFFSET,
				"in %zu of the profiles maps lines have a path "
				"with a space, which Go pprof cuts at the "
				"space (-v names them)", sink->spaces);
	if (sink->collisions)
		message_warning(input, P2G_NO_OFFSET,
				"in %zu of the profiles some mapped files "
				"found no free place and overlap others (-v "
				"names them)", sink->collisions);
	if (sink->unconverged)
		message_warning(input, P2G_NO_OFFSET,
				"%zu of the profiles could not protect every "
				"stack from Go pprof's frame removal (-v "
				"names them)", sink->unconverged);
}

void
output_sink_release(struct output_sink *sink)
{
	strset_free(&sink->names);
	free(sink->idev);
	free(sink->iino);
	sink->idev = NULL;
	sink->iino = NULL;
	sink->nids = 0;
}
