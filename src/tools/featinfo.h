/* SPDX-License-Identifier: MIT */
/*
 * The feature sections of a perf.data header as text, in the words and
 * order of perf report --header-only -I (perf's util/header.c print
 * functions), for perf2gperf --info.  The text goes into a buffer; the
 * library prints nothing.
 */
#ifndef P2G_FEATINFO_H
#define P2G_FEATINFO_H

#include <stddef.h>

#include "perfdata.h"

/*
 * Append to *BUF (*LEN bytes, malloc'd, NUL-terminated) the lines perf
 * prints for the topology, NUMA, PMU, cache, memory, group, directory,
 * compression and capability features of PD, and the missing features.
 * A section that does not parse gives one line saying so.  Returns 0, or
 * -1 when out of memory.
 */
int featinfo_text(const struct perfdata *pd, char **buf, size_t *len);

#endif
