/* forkexec.c - parent burns CPU, forks; the child execs ./hot (path given
 * relative to the current directory, so run from testdata/progs), the
 * parent burns more and waits. Exercises FORK/COMM/EXEC and a second pid. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) unsigned long parent_burn(unsigned long n)
{
	unsigned long x = 7, i;
	for (i = 0; i < n; i++) {
		x = x * 2862933555777941757UL + 3;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	pid_t pid;
	unsigned long r = parent_burn(50000000UL);

	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		execl("./hot", "hot", (char *)NULL);
		_exit(127);
	}
	r += parent_burn(50000000UL);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	fprintf(stderr, "forkexec %lx\n", r & 0xff);
	return 0;
}
