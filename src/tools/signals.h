/* SPDX-License-Identifier: MIT */
/*
 * The signals of both front ends, set up first thing in main(), before
 * any input is opened.  SIGBUS: a mapped file (a regular input, or a
 * binary libelf maps) that another process truncates while it is read
 * raises SIGBUS on the next page past its new end; the tool then says
 * which file and at which offset, in one line, and exits 1.  SIGXFSZ is
 * ignored, so that a write past the file size limit fails with EFBIG and
 * is reported like any failed write.  The signals that end a process by
 * default (HUP, INT, QUIT, TERM, PIPE, ALRM, USR1, USR2, XCPU, VTALRM,
 * POLL, PWR) still end it, after the cleanup function has run.
 */
#ifndef P2G_SIGNALS_H
#define P2G_SIGNALS_H

#include <signal.h>
#include <sys/types.h>

/*
 * Install the handlers.  CLEANUP, if not NULL, runs in a handler before
 * the process ends by a signal (SIGBUS included): it may make only
 * async-signal-safe calls.  A signal ignored when the program started
 * (nohup, a shell's background job) stays ignored.
 */
void signals_init(void (*cleanup)(void));

/* Hold back the signals that end the process (in this thread) while the
 * state the cleanup reads changes: creating a temporary file and
 * marking it as one to remove must be one step.  OLD keeps the mask to
 * give back to signals_release(). */
void signals_hold(sigset_t *old);
void signals_release(const sigset_t *old);

/* Name the file of device DEV and inode INO NAME (kept, not copied) in
 * what SIGBUS prints, instead of the path the kernel knows it by.
 * Called from the main thread only, before other threads exist or while
 * they do not read mapped files.  Silently does nothing when out of
 * memory. */
void signals_name_file(dev_t dev, ino_t ino, const char *name);

/* The same for PATH, named NAME (both kept): its device and inode come
 * from stat(); nothing happens if it cannot be stat()ed. */
void signals_name_path(const char *path, const char *name);

/* NAME (kept, not copied) is the input being read: what SIGBUS says
 * when it cannot tell which file shrank (no /proc).  NULL for none. */
void signals_input(const char *name);

#endif
