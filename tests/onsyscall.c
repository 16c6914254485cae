/* SPDX-License-Identifier: MIT */
/*
 * onsyscall: run a command and act on it at one of its system calls, so
 * that a test can make a file shrink, or a signal arrive, at an exact
 * point of a run, with no sleeps and no races.
 *
 *	onsyscall mmap|open PATH truncate=SIZE|signal=N[:inherit] -- CMD [ARG...]
 *
 * The command's first thread is traced (ptrace, PTRACE_GET_SYSCALL_INFO)
 * until mmap() maps, or open()/openat() opens, a file whose absolute path
 * starts with PATH's.  Then, the call returned, that file is truncated to
 * SIZE bytes ("page": the page size), or the thread gets signal N (a
 * number or a name without SIG: TERM, USR1, ...), and the
 * command runs on untraced.  CMD starts with signal N's default action,
 * whatever onsyscall inherited (a test run in the background of a shell
 * without job control inherits SIGINT and SIGQUIT ignored); with
 * ":inherit" it keeps the inherited one (a test of what an ignored
 * signal does).  The trace follows exec(), so CMD may be a
 * wrapper script that execs the tool (as make check-valgrind's do).
 *
 * Prints "onsyscall: acted at PATH" on stderr when it acted.  Exits with
 * CMD's status, 128 + N if CMD was ended by signal N, 77 if tracing is
 * not possible here, 99 on other trouble.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__linux__) && defined(PTRACE_GET_SYSCALL_INFO)

/* Whether the descriptor FD of process PID names a file under PREFIX;
 * its path then goes into PATH. */
static int
fd_matches(pid_t pid, long fd, const char *prefix, char *path, size_t size)
{
	char link[64];
	ssize_t n;

	if (fd < 0)
		return 0;
	snprintf(link, sizeof(link), "/proc/%d/fd/%ld", (int)pid, fd);
	n = readlink(link, path, size - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return strncmp(path, prefix, strlen(prefix)) == 0;
}

/* Signal NAME ("TERM") or number, or 0; a ":inherit" after it sets
 * *INHERIT. */
static int
signal_number(const char *name, int *inherit)
{
	static const struct {
		const char *name;
		int sig;
	} sigs[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
		{ "TERM", SIGTERM }, { "PIPE", SIGPIPE }, { "ALRM", SIGALRM },
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "XCPU", SIGXCPU },
		{ "VTALRM", SIGVTALRM }, { "XFSZ", SIGXFSZ },
	};
	size_t i, len = strcspn(name, ":");

	*inherit = strcmp(name + len, ":inherit") == 0;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (strlen(sigs[i].name) == len &&
		    strncmp(name, sigs[i].name, len) == 0)
			return sigs[i].sig;
	return atoi(name);
}

static int
is_mmap(long nr)
{
#ifdef SYS_mmap2
	if (nr == SYS_mmap2)
		return 1;
#endif
	return nr == SYS_mmap;
}

static int
is_open(long nr)
{
#ifdef SYS_open
	if (nr == SYS_open)
		return 1;
#endif
	return nr == SYS_openat;
}

/* The final status of PID as a shell gives it. */
static int
final_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 99;
}

int
main(int argc, char **argv)
{
	char prefix[2 * PATH_MAX + 2], path[PATH_MAX], dir[PATH_MAX];
	struct __ptrace_syscall_info info;
	const char *slash;
	long nr = -1, size = -1, fd = -1;
	int st, sig = 0, inherit = 0, want_mmap;
	pid_t pid;

	if (argc < 6 || strcmp(argv[4], "--") != 0 ||
	    (strcmp(argv[1], "mmap") != 0 && strcmp(argv[1], "open") != 0)) {
		fprintf(stderr, "usage: onsyscall mmap|open PATH "
			"truncate=SIZE|signal=N[:inherit] -- CMD [ARG...]\n");
		return 99;
	}
	want_mmap = strcmp(argv[1], "mmap") == 0;
	if (strcmp(argv[3], "truncate=page") == 0)
		size = sysconf(_SC_PAGESIZE);
	else if (strncmp(argv[3], "truncate=", 9) == 0)
		size = atol(argv[3] + 9);
	else if (strncmp(argv[3], "signal=", 7) == 0)
		sig = signal_number(argv[3] + 7, &inherit);
	if (size < 0 && sig <= 0) {
		fprintf(stderr, "onsyscall: bad action %s\n", argv[3]);
		return 99;
	}
	/* PATH made absolute, as /proc/PID/fd shows it */
	slash = strrchr(argv[2], '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - argv[2]) : 1,
		 slash ? argv[2] : ".");
	if (realpath(dir[0] ? dir : "/", path) == NULL) {
		perror("onsyscall: realpath");
		return 99;
	}
	snprintf(prefix, sizeof(prefix), "%s/%s", strcmp(path, "/") ? path : "",
		 slash ? slash + 1 : argv[2]);

	pid = fork();
	if (pid < 0) {
		perror("onsyscall: fork");
		return 99;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(126);
		raise(SIGSTOP);
		if (sig > 0 && !inherit)
			signal(sig, SIG_DFL);
		execvp(argv[5], argv + 5);
		perror("onsyscall: exec");
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 99;
	if (!WIFSTOPPED(st)) {
		fprintf(stderr, "onsyscall: cannot trace here\n");
		return 77;
	}
	if (ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC |
				  PTRACE_O_EXITKILL)) != 0 ||
	    ptrace(PTRACE_SYSCALL, pid, NULL, NULL) != 0) {
		perror("onsyscall: ptrace");
		kill(pid, SIGKILL);
		return 77;
	}
	for (;;) {
		int deliver = 0;

		if (waitpid(pid, &st, 0) != pid)
			return 99;
		if (!WIFSTOPPED(st))
			return final_status(st);
		if (WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			if (ptrace(PTRACE_GET_SYSCALL_INFO, pid,
				   (void *)sizeof(info), &info) <= 0) {
				perror("onsyscall: PTRACE_GET_SYSCALL_INFO");
				kill(pid, SIGKILL);
				return 77;
			}
			if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
				nr = (long)info.entry.nr;
				/* mmap's descriptor is its fifth argument */
				fd = (long)info.entry.args[4];
			} else if (info.op == PTRACE_SYSCALL_INFO_EXIT &&
				   !info.exit.is_error &&
				   (want_mmap ? is_mmap(nr) : is_open(nr))) {
				if (!want_mmap)
					fd = (long)info.exit.rval;
				if (fd_matches(pid, fd, prefix, path,
					       sizeof(path)))
					break;
			}
		} else if (WSTOPSIG(st) != SIGTRAP) {
			deliver = WSTOPSIG(st);	/* the command's own */
		}
		if (ptrace(PTRACE_SYSCALL, pid, NULL,
			   (void *)(long)deliver) != 0)
			return 99;
	}
	/* At the return of the call that mapped or opened the file. */
	if (size >= 0) {
		if (truncate(path, (off_t)size) != 0) {
			perror("onsyscall: truncate");
			kill(pid, SIGKILL);
			return 99;
		}
	} else {
		/* to this thread, delivered before it runs on */
		syscall(SYS_tgkill, pid, pid, sig);
		for (;;) {
			if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL) != 0 ||
			    waitpid(pid, &st, 0) != pid)
				return 99;
			if (!WIFSTOPPED(st))
				return final_status(st);
			if (WSTOPSIG(st) == sig)
				break;
		}
	}
	fprintf(stderr, "onsyscall: acted at %s\n", path);
	if (ptrace(PTRACE_DETACH, pid, NULL, (void *)(long)sig) != 0)
		return 99;
	if (waitpid(pid, &st, 0) != pid)
		return 99;
	return final_status(st);
}

#else

int
main(void)
{
	fprintf(stderr, "onsyscall: needs Linux and PTRACE_GET_SYSCALL_INFO\n");
	return 77;
}

#endif
