/* SPDX-License-Identifier: MIT */
/* perf2gperf record: perf record's stream converted as it comes; see
 * record.h. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "message.h"
#include "record.h"

/* Does perf record option ARG (as given) start with one of NAMES? */
static bool
is_option(const char *arg, const char *const *names)
{
	for (; *names != NULL; names++) {
		size_t n = strlen(*names);

		if (strncmp(arg, *names, n) == 0 &&
		    (arg[n] == '\0' || arg[n] == '=' ||
		     (arg[1] != '-' && n == 2)))
			return true;
	}
	return false;
}

/* OUTPUT's default: the command's file name + ".prof", or perf.prof
 * with no command (perf record -a, -p PID). */
static char *
default_output(const char *cmd)
{
	const char *base = "perf";
	char *out;

	if (cmd != NULL) {
		base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
		if (*base == '\0' || strcmp(base, ".") == 0 ||
		    strcmp(base, "..") == 0)
			base = "perf";
	}
	out = malloc(strlen(base) + sizeof(".prof"));
	if (out != NULL)
		sprintf(out, "%s.prof", base);
	return out;
}

/* The arguments of perf: record -o -, the defaults the options OPTS
 * (NOPTS of them) leave open, OPTS, then -- and CMD (NCMD words).  With
 * OFF_CPU, the events that off-CPU time needs (offcpu.h), at their
 * default periods (a frequency would sample the switches too). */
static char **
perf_argv(const char *perf, char **opts, int nopts, char **cmd, int ncmd,
	  bool off_cpu)
{
	static const char *const graph[] = { "-g", "--call-graph", NULL };
	static const char *const rate[] = { "-F", "--freq", "-c", "--count",
					    NULL };
	bool has_graph = false, has_rate = false;
	char **av;
	int i, n = 0;

	for (i = 0; i < nopts; i++) {
		has_graph |= is_option(opts[i], graph);
		has_rate |= is_option(opts[i], rate);
	}
	av = calloc((size_t)(nopts + ncmd) + 16, sizeof(*av));
	if (av == NULL)
		return NULL;
	av[n++] = (char *)perf;
	av[n++] = (char *)"record";
	av[n++] = (char *)"-o";
	av[n++] = (char *)"-";
	if (!has_graph)
		av[n++] = (char *)"-g";
	if (off_cpu) {
		av[n++] = (char *)"-e";
		av[n++] = (char *)"cpu-clock";
		av[n++] = (char *)"-e";
		av[n++] = (char *)"sched:sched_switch";
		av[n++] = (char *)"--switch-events";
	} else if (!has_rate) {
		av[n++] = (char *)"-F";
		av[n++] = (char *)"999";
	}
	for (i = 0; i < nopts; i++)
		av[n++] = opts[i];
	if (ncmd > 0) {
		av[n++] = (char *)"--";
		for (i = 0; i < ncmd; i++)
			av[n++] = cmd[i];
	}
	av[n] = NULL;
	return av;
}

/* perf, for on_stop(): 0 until it is started. */
static volatile pid_t stop_pid;
static volatile sig_atomic_t stop_pending;

/* SIGINT or SIGTERM: stop perf with SIGINT, as a terminal's Ctrl-C
 * does.  The terminal's own SIGINT (si_code SI_KERNEL, > 0) reached
 * perf too, in the same process group, and is not passed on twice. */
static void
on_stop(int sig, siginfo_t *si, void *uctx)
{
	int e = errno;

	(void)uctx;
	if (sig == SIGINT && si != NULL && si->si_code > 0)
		return;
	if (stop_pid > 0)
		(void)kill(stop_pid, SIGINT);
	else
		stop_pending = 1;
	errno = e;
}

/* Catch SIGINT and SIGTERM with on_stop() before perf starts, so that
 * none is lost in between; perf gets the default action back at exec. */
static void
catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* perf is PID from now on: pass it a stop that came while it started. */
static void
stop_target(pid_t pid)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	stop_pid = pid;
	if (stop_pending && pid > 0)
		(void)kill(pid, SIGINT);
	stop_pending = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Run AV with its standard output into a pipe; R's pid and fd.  A
 * failed exec is reported through a second pipe, as its errno. */
static int
spawn(char **av, struct record *r)
{
	int out[2], status[2], e = 0;
	ssize_t n;

	if (pipe2(out, O_CLOEXEC) != 0)
		return -1;
	if (pipe2(status, O_CLOEXEC) != 0) {
		close(out[0]);
		close(out[1]);
		return -1;
	}
	fflush(NULL);
	r->pid = fork();
	if (r->pid == 0) {
		if (dup2(out[1], STDOUT_FILENO) >= 0)
			execvp(av[0], av);
		e = errno;
		(void)!write(status[1], &e, sizeof(e));
		_exit(127);
	}
	e = errno;
	close(out[1]);
	close(status[1]);
	if (r->pid < 0) {
		close(out[0]);
		close(status[0]);
		r->pid = 0;
		errno = e;
		return -1;
	}
	while ((n = read(status[0], &e, sizeof(e))) < 0 && errno == EINTR)
		;
	close(status[0]);
	if (n == (ssize_t)sizeof(e)) {
		close(out[0]);
		waitpid(r->pid, NULL, 0);
		r->pid = 0;
		errno = e;
		return -1;
	}
	r->fd = out[0];
	return 0;
}

/* Is there a file NAME in a directory of $PATH?  execvp() says EACCES,
 * not ENOENT, for a name found nowhere when a directory of $PATH cannot
 * be searched. */
static bool
on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;
	char buf[4096];

	for (p = path != NULL ? path : ""; *p != '\0'; p = end + (*end != '\0')) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		if ((size_t)snprintf(buf, sizeof(buf), "%.*s/%s",
				     (int)(end - p), end > p ? p : ".",
				     name) < sizeof(buf) &&
		    stat(buf, &st) == 0)
			return true;
	}
	return false;
}

int
record_start(int argc, char **argv, struct record *r)
{
	char **opts, **cmd = NULL, **av;
	char why[200] = "";	/* a usage error */
	int i, nopts = 0, ncmd = 0;
	bool dashdash = false;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->perf = getenv("PERF");
	if (r->perf == NULL || *r->perf == '\0')
		r->perf = "perf";
	opts = calloc((size_t)argc + 1, sizeof(*opts));
	if (opts == NULL)
		message_usage("out of memory");
	for (i = 1; i < argc && !dashdash; i++)
		dashdash = strcmp(argv[i], "--") == 0;
	for (i = 1; i < argc && why[0] == '\0'; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			cmd = argv + i + 1;
			ncmd = argc - i - 1;
			break;
		}
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (i + 1 < argc)
				r->output = argv[++i];
			else
				snprintf(why, sizeof(why), "option '%s' needs "
					 "a file name", a);
		} else if (strcmp(a, "--off-cpu") == 0) {
			r->off_cpu = true;
		} else if (strncmp(a, "--output=", 9) == 0) {
			r->output = (char *)a + 9;
		} else if (strncmp(a, "-o", 2) == 0) {
			r->output = (char *)a + 2;
		} else if (dashdash) {
			opts[nopts++] = argv[i];
		} else if (a[0] == '-') {
			snprintf(why, sizeof(why), "perf record's options "
				 "need -- before the command ('%s')", a);
		} else {
			cmd = argv + i;
			ncmd = argc - i;
			break;
		}
	}
	if (why[0] == '\0' && ncmd == 0 && (!dashdash || nopts == 0))
		snprintf(why, sizeof(why), "no command to run (perf2gperf "
			 "record [-o OUTPUT] [PERF-RECORD-OPTIONS] -- CMD "
			 "[ARGS])");
	if (why[0] == '\0' && r->output != NULL && r->output[0] == '\0')
		snprintf(why, sizeof(why), "the OUTPUT name is empty");
	if (why[0] == '\0' && r->output == NULL &&
	    (r->output = default_output(ncmd ? cmd[0] : NULL)) == NULL)
		snprintf(why, sizeof(why), "out of memory");
	if (why[0] != '\0') {
		free(opts);
		message_usage("record: %s", why);
	}
	av = perf_argv(r->perf, opts, nopts, cmd, ncmd, r->off_cpu);
	free(opts);
	if (av == NULL)
		message_usage("out of memory");
	catch_stop();
	if (spawn(av, r) != 0) {
		int e = errno;

		if (strchr(r->perf, '/') == NULL && !on_path(r->perf))
			fprintf(stderr, "%s: cannot run %s: not found in "
				"PATH (install perf: the linux-perf package "
				"on Debian, linux-tools on Ubuntu)\n",
				progname, r->perf);
		else
			fprintf(stderr, "%s: cannot run %s: %s\n", progname,
				r->perf, strerror(e));
		free(av);
		return -1;
	}
	free(av);
	stop_target(r->pid);
	snprintf(r->input, sizeof(r->input), "/dev/fd/%d", r->fd);
	return 0;
}

/* Why perf may not record: kernel.perf_event_paranoid, when it forbids
 * what an unprivileged user needs for perf record (a value above 1). */
static void
paranoid_hint(void)
{
	FILE *f;
	int level;

	if (geteuid() == 0)
		return;
	f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f == NULL)
		return;
	if (fscanf(f, "%d", &level) == 1 && level > 1)
		fprintf(stderr, "%s: kernel.perf_event_paranoid is %d: run "
			"as root, or allow profiling your own processes "
			"with 'sysctl kernel.perf_event_paranoid=1'\n",
			progname, level);
	fclose(f);
}

int
record_finish(struct record *r, int status)
{
	int ws;

	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	if (r->pid == 0)
		return status;
	while (waitpid(r->pid, &ws, 0) < 0)
		if (errno != EINTR)
			return status ? status : 2;
	stop_target(0);
	r->pid = 0;
	/* perf record stopped by Ctrl-C ends by raising SIGINT again once
	 * its stream is complete. */
	if ((WIFEXITED(ws) && WEXITSTATUS(ws) == 0) ||
	    (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGINT))
		return status;
	if (WIFEXITED(ws))
		fprintf(stderr, "%s: %s record failed (exit status %d)\n",
			progname, r->perf, WEXITSTATUS(ws));
	else
		fprintf(stderr, "%s: %s record was killed (signal %d)\n",
			progname, r->perf, WTERMSIG(ws));
	if (status == 0)
		return 0;
	paranoid_hint();
	return 2;
}
