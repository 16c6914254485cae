/* forkprof.c - run under libprofiler (LD_PRELOAD, CPUPROFILE=NAME), from
 * testdata/progs: the parent forks two children that exec, so that
 * libprofiler starts afresh in each and writes NAME_PID: the first execs
 * ./hot (which burns CPU), the second /bin/true (which takes no sample:
 * an empty profile).  The parent burns in parent_burn, waits for both
 * and exits.  (A child that does not exec shares the parent's profile
 * file and corrupts it.) */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) unsigned long parent_burn(unsigned long n)
{
	unsigned long x = 5, i;
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005UL + 1;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

int main(void)
{
	pid_t a, b;
	unsigned long r;

	fflush(stderr);
	a = fork();
	if (a == 0) {
		execl("./hot", "hot", (char *)NULL);
		_exit(127);
	}
	b = fork();
	if (b == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	r = parent_burn(60000000UL);
	waitpid(a, NULL, 0);
	waitpid(b, NULL, 0);
	fprintf(stderr, "forkprof %lx\n", r & 0xff);
	return 0;
}
