/* SPDX-License-Identifier: MIT */
/*
 * perf2gperf --info: what a perf.data file holds, printed on standard
 * output in the words of perf report --header-only -I, then its events
 * and processes with their sample counts.
 */
#ifndef P2G_INFO_H
#define P2G_INFO_H

#include "perfdata.h"
#include "report.h"

/*
 * Read all of PD's data to count its samples, then print its header
 * summary, feature sections, events and processes.  An error in the data
 * is reported on stderr (naming the file through RP) and what was read
 * before it is printed all the same.  Returns the exit status: 0, or
 * that of the error.
 */
int info_print(struct perfdata *pd, struct report *rp);

#endif
