/* SPDX-License-Identifier: MIT */
/* The signals of both front ends: see signals.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "message.h"
#include "signals.h"

/* A file SIGBUS names as the user did. */
struct named_file {
	dev_t dev;
	ino_t ino;
	const char *name;
};

/*
 * What the handlers read.  A handler is given no context pointer, so this
 * is kept in statics; the table is replaced whole, the count published
 * after the pointer, so that a handler never sees an entry not yet
 * filled in.
 */
static struct {
	void (*cleanup)(void);
	struct named_file *volatile files;
	volatile size_t nfiles;
	const char *volatile input;
	char claimed;		/* a SIGBUS is being reported */
} sig_state;

/* The signals that end a process by default and are not faults of the
 * program itself (those, and SIGPROF that profilers use, are left as
 * they are). */
static const int ending_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1,
	SIGUSR2, SIGXCPU, SIGVTALRM,
#ifdef SIGPOLL
	SIGPOLL,
#endif
#ifdef SIGPWR
	SIGPWR,
#endif
};

/* Run the cleanup, then end the process by SIG as if it had not been
 * caught: SIG stays blocked until the handler returns, and then acts. */
static void
die_by(int sig)
{
	struct sigaction sa;

	if (sig_state.cleanup != NULL)
		sig_state.cleanup();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	raise(sig);
}

static void
on_ending(int sig)
{
	die_by(sig);
}

/* ---- what SIGBUS says, with async-signal-safe calls only --------------- */

/* A line of text built in place. */
struct line {
	char buf[PATH_MAX + 160];
	size_t len;
};

static void
put(struct line *l, const char *s)
{
	while (*s != '\0' && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = *s++;
}

static void
put_hex(struct line *l, uint64_t v)
{
	char d[17];
	int n = 0;

	do {
		d[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v != 0);
	put(l, "0x");
	while (n > 0 && l->len < sizeof(l->buf) - 1)
		l->buf[l->len++] = d[--n];
}

/* Parse hexadecimal (BASE 16) or decimal digits at *P into *V; false
 * when there are none. */
static bool
scan_num(const char **p, unsigned base, uint64_t *v)
{
	const char *s = *p;
	unsigned d;

	*v = 0;
	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else
			break;
		*v = *v * base + d;
	}
	if (s == *p)
		return false;
	*p = s;
	return true;
}

/* The mapping of /proc/self/maps that holds ADDR: its file's device,
 * inode and path (in PATH, cut to fit), and ADDR's offset in the file.
 * 1 if found in a file mapping, 0 if not, -1 if the maps cannot be
 * read. */
static int
find_mapping(uintptr_t addr, dev_t *dev, ino_t *ino, char *path,
	     size_t path_size, uint64_t *off)
{
	char chunk[4096], text[PATH_MAX + 128];
	size_t tl = 0;
	ssize_t n, i;
	int fd, found = 0;

	fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (found == 0 && (n = read(fd, chunk, sizeof(chunk))) > 0) {
		for (i = 0; i < n && found == 0; i++) {
			uint64_t start, end, pgoff, maj, min, inode;
			const char *p = text;
			size_t k;

			if (chunk[i] != '\n') {
				if (tl < sizeof(text) - 1)
					text[tl++] = chunk[i];
				continue;
			}
			text[tl] = '\0';
			tl = 0;
			/* start-end perms offset major:minor inode path */
			if (!scan_num(&p, 16, &start) || *p++ != '-' ||
			    !scan_num(&p, 16, &end) || *p++ != ' ')
				continue;
			if (addr < start || addr >= end)
				continue;
			found = -2;	/* the line, but not a file */
			while (*p != ' ' && *p != '\0')
				p++;
			if (*p++ != ' ' || !scan_num(&p, 16, &pgoff) ||
			    *p++ != ' ' || !scan_num(&p, 16, &maj) ||
			    *p++ != ':' || !scan_num(&p, 16, &min) ||
			    *p++ != ' ' || !scan_num(&p, 10, &inode) ||
			    inode == 0)
				continue;
			while (*p == ' ')
				p++;
			for (k = 0; p[k] != '\0' && k < path_size - 1; k++)
				path[k] = p[k];
			path[k] = '\0';
			*dev = makedev(maj, min);
			*ino = (ino_t)inode;
			*off = addr - start + pgoff;
			found = 1;
		}
	}
	close(fd);
	return found == 1 ? 1 : 0;
}

/* The name the user gave the file DEV, INO, or NULL. */
static const char *
user_name(dev_t dev, ino_t ino)
{
	size_t i, n = sig_state.nfiles;
	const struct named_file *f = sig_state.files;

	for (i = 0; i < n; i++)
		if (f[i].dev == dev && f[i].ino == ino)
			return f[i].name;
	return NULL;
}

/*
 * A mapped file that shrank: say which, at which offset, and exit 1 (the
 * input is not what it was when it was opened).  Any other SIGBUS is a
 * fault of the program, which ends it as usual.
 */
static void
on_sigbus(int sig, siginfo_t *si, void *uctx)
{
	static struct line l;
	char path[PATH_MAX];
	const char *name;
	uint64_t off = 0;
	dev_t dev = 0;
	ino_t ino = 0;
	int where = -1;
	ssize_t r;

	(void)uctx;
	if (si->si_code == BUS_ADRERR)
		where = find_mapping((uintptr_t)si->si_addr, &dev, &ino, path,
				     sizeof(path), &off);
	if (si->si_code != BUS_ADRERR || where == 0) {
		die_by(sig);
		return;
	}
	/* Several threads may read the file: one of them speaks. */
	if (__atomic_test_and_set(&sig_state.claimed, __ATOMIC_SEQ_CST))
		for (;;)
			pause();
	if (sig_state.cleanup != NULL)
		sig_state.cleanup();
	l.len = 0;
	put(&l, progname);
	put(&l, ": ");
	if (where > 0) {
		name = user_name(dev, ino);
		put(&l, name != NULL ? name : path);
		put(&l, ": offset ");
		put_hex(&l, off);
		put(&l, ": ");
	} else if (sig_state.input != NULL) {
		put(&l, sig_state.input);
		put(&l, ": ");
	} else {
		put(&l, "a mapped input: ");
	}
	put(&l, "the file shrank while it was read\n");
	r = write(STDERR_FILENO, l.buf, l.len);
	(void)r;
	_exit(1);
}

void
signals_init(void (*cleanup)(void))
{
	struct sigaction sa, old;
	size_t i;

	sig_state.cleanup = cleanup;
	memset(&sa, 0, sizeof(sa));
	sigfillset(&sa.sa_mask);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_flags = 0;
	sa.sa_handler = on_ending;
	for (i = 0; cleanup != NULL && i < sizeof(ending_signals) /
						    sizeof(ending_signals[0]);
	     i++)
		if (sigaction(ending_signals[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(ending_signals[i], &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, NULL);
}

void
signals_hold(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(ending_signals) / sizeof(ending_signals[0]);
	     i++)
		sigaddset(&set, ending_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void
signals_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

void
signals_name_file(dev_t dev, ino_t ino, const char *name)
{
	size_t n = sig_state.nfiles;
	struct named_file *old = sig_state.files, *nf;

	nf = malloc((n + 1) * sizeof(*nf));
	if (nf == NULL)
		return;
	if (n > 0)
		memcpy(nf, old, n * sizeof(*nf));
	nf[n].dev = dev;
	nf[n].ino = ino;
	nf[n].name = name;
	/* the count last: a handler reads the count, then the table */
	sig_state.nfiles = 0;
	sig_state.files = nf;
	sig_state.nfiles = n + 1;
	free(old);
}

void
signals_name_path(const char *path, const char *name)
{
	struct stat st;

	if (stat(path, &st) == 0)
		signals_name_file(st.st_dev, st.st_ino, name);
}

void
signals_input(const char *name)
{
	sig_state.input = name;
}
