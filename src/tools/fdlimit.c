/* SPDX-License-Identifier: MIT */
/* The limit on open files: see fdlimit.h. */
#include "config.h"

#include <sys/resource.h>

#include "fdlimit.h"

void
fdlimit_raise(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	(void)setrlimit(RLIMIT_NOFILE, &rl);
}
