/* SPDX-License-Identifier: MIT */
/* Error records: see error.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "error.h"

int
p2g_fail(struct p2g_error *e, enum p2g_status st, uint64_t off,
	 const char *fmt, ...)
{
	va_list ap;

	if (e == NULL)
		return -1;
	e->status = st;
	e->offset = off;
	e->part[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

void
p2g_error_clear(struct p2g_error *e)
{
	e->status = P2G_OK;
	e->offset = P2G_NO_OFFSET;
	e->part[0] = '\0';
	e->msg[0] = '\0';
}

int
p2g_exit_status(enum p2g_status st)
{
	switch (st) {
	case P2G_OK:
		return 0;
	case P2G_INVALID:
	case P2G_UNSUPPORTED:
		return 1;
	default:
		return 2;
	}
}
