/* SPDX-License-Identifier: MIT */
/*
 * Known waits for the off-CPU tests: short_sleeps() sleeps 20 x 10 ms,
 * long_sleeps() 10 x 30 ms, then wait_pipe() reads a pipe that another
 * thread (filler) writes to after 100 ms: 600 ms off the CPU in all on
 * the main thread, in three functions.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int fds[2];

__attribute__((noinline)) static void
nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

__attribute__((noinline)) static void
short_sleeps(void)
{
	int i;

	for (i = 0; i < 20; i++)
		nap(10);
}

__attribute__((noinline)) static void
long_sleeps(void)
{
	int i;

	for (i = 0; i < 10; i++)
		nap(30);
}

__attribute__((noinline)) static void *
filler(void *arg)
{
	(void)arg;
	nap(100);
	if (write(fds[1], "x", 1) != 1)
		perror("write");
	return NULL;
}

__attribute__((noinline)) static void
wait_pipe(void)
{
	pthread_t t;
	char c;

	if (pipe(fds) != 0 || pthread_create(&t, NULL, filler, NULL) != 0) {
		perror("offcpu");
		return;
	}
	if (read(fds[0], &c, 1) != 1)
		perror("read");
	pthread_join(t, NULL);
}

int
main(void)
{
	short_sleeps();
	long_sleeps();
	wait_pipe();
	return 0;
}
