/* spawn2.c - the parent burns CPU, then forks two children that exec the
 * programs named by argv[1] and argv[2] (paths as given, so run from
 * testdata/progs: "./spawn2 ./hot ./multi"), burns more and waits for
 * both.  Exercises three processes, two of them exec'd from a copy of
 * the parent's address space, all mapping libc at their own addresses. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) unsigned long spawn_burn(unsigned long n)
{
	unsigned long x = 11, i;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static pid_t spawn(const char *prog)
{
	pid_t pid;

	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		execl(prog, prog, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	pid_t a, b;
	unsigned long r;

	if (argc != 3) {
		fprintf(stderr, "usage: spawn2 PROG1 PROG2\n");
		return 2;
	}
	r = spawn_burn(30000000UL);
	a = spawn(argv[1]);
	b = spawn(argv[2]);
	r += spawn_burn(30000000UL);
	if (a > 0)
		waitpid(a, NULL, 0);
	if (b > 0)
		waitpid(b, NULL, 0);
	fprintf(stderr, "spawn2 %lx\n", r & 0xff);
	return 0;
}
