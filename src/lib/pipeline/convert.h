/* SPDX-License-Identifier: MIT */
/*
 * The conversion pipeline: perf.data records -> samples of the selected
 * event that pass the filters -> stacks summed per process -> the
 * gperftools profile of one process, with its mappings, written in the
 * format asked for.  The same reading, stopped at the events each
 * sample counts for, gives --info its counts.
 */
#ifndef P2G_CONVERT_H
#define P2G_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addrspace.h"
#include "error.h"
#include "folded.h"
#include "perfdata.h"
#include "pprof.h"
#include "profile.h"
#include "stacktab.h"
#include "symstacks.h"

struct dbgfetch;

/*
 * With several inputs, the processes of input N (from 0) are kept apart
 * by putting N above the 22 bits a Linux pid has; -1 (the kernel) stays.
 */
#define CONVERT_PID_BITS 22

/* Byte order of the profile written. */
enum convert_order {
	CONVERT_ORDER_INPUT,	/* that of the recording machine */
	CONVERT_ORDER_LITTLE,
	CONVERT_ORDER_BIG,
	CONVERT_ORDER_NATIVE,
};

/* The format written. */
enum convert_format {
	CONVERT_FORMAT_GPERFTOOLS,	/* cpuprof.h */
	CONVERT_FORMAT_PPROF,		/* pprof.h */
	CONVERT_FORMAT_FOLDED,		/* folded.h */
};

/* What makes one profile with split: a process, a thread, or every
 * process of one command (struct process.comm). */
enum convert_split {
	CONVERT_SPLIT_NONE,	/* one profile */
	CONVERT_SPLIT_PID,
	CONVERT_SPLIT_TID,
	CONVERT_SPLIT_COMM,
};

/* What a profile counts per stack. */
enum convert_weight {
	CONVERT_WEIGHT_SAMPLES,	/* samples */
	CONVERT_WEIGHT_PERIOD,	/* their periods, in header periods */
};

struct convert_opts {
	const char *event;	/* event name, or NULL for the first */
	const int32_t *pids;	/* keep only these processes (sorted,
				   ascending) */
	size_t npids;
	const int32_t *tids;	/* keep only these threads (sorted) */
	size_t ntids;
	const char *comm;	/* keep only threads with this command */
	bool user_only;		/* drop kernel frames */
	bool kernel_only;	/* drop user frames */
	enum convert_split split;	/* one profile, or one per ... */
	bool by_thread;		/* keep the stacks of threads apart
				   (aggregate.h), for an output that
				   tells them apart (split by thread
				   does) */
	uint64_t min_samples;	/* leave out the profiles (with split)
				   or the processes with fewer samples */
	enum convert_format format;
	struct folded_opts folded;	/* for CONVERT_FORMAT_FOLDED (its
					   periods: from weight) */
	uint64_t period_us;	/* 0: derive from the event */
	bool no_fixup;		/* write stacks without leaf copies */
	enum convert_order byte_order;
	unsigned slot_bits;	/* 32, 64, or 0: 32 for 32-bit recordings */
	enum convert_weight weight;
	bool off_cpu;		/* weigh the stacks of sched:sched_switch
				   by the time off the CPU (offcpu.h), in
				   ns; o->event names that event */
	bool off_cpu_blocked;	/* ... leaving out the preempted */
	bool no_unwind;		/* leave --call-graph dwarf stacks as the
				   kernel's callchain and the user IP */
	unsigned max_stack;	/* frames per stack at most; 0: 127 */
	const char *symfs;	/* look for binaries under this directory */
	const char *home;	/* for perf's build id cache ~/.debug */
	const char *const *binaries;	/* more directories to find the
					   binaries in (dsofind.h) */
	size_t nbinaries;
	const char *vmlinux;	/* the kernel's symbols from this ELF */
	const char *kallsyms;	/* ... or from this kallsyms file */
	bool debuginfo;		/* let libdw read separate debug files
				   (/usr/lib/debug) for CFI */
	struct dbgfetch *fetch;	/* fetch the binaries and debug files
				   not found on disk through it
				   (dbgfetch.h; not owned); NULL: never */
	size_t order_bytes;	/* records held for the time order at
				   most; 0: 16 MiB */
	/* Called as an input's reading starts and then every few MiB of
	 * it: DONE of its TOTAL bytes (UINT64_MAX when not known) read,
	 * SAMPLES samples of all inputs so far. */
	void (*progress)(void *ctx, uint64_t done, uint64_t total,
			 uint64_t samples);
	/* Hears the warnings of the inputs' perf.data readers while their
	 * data is read, in their place among the records (as
	 * perfdata_warn_fn). */
	void (*warn)(void *ctx, const char *part, uint64_t offset,
		     const char *msg);
	/* Told once per recorded file, by the unwinder and by the
	 * symbolizer each, that no usable file was found for it, and why
	 * (sym_opts.missing). */
	void (*missing)(void *ctx, const char *path, const char *why);
	/* Called before input N is read. */
	void (*input_start)(void *ctx, size_t n);
	void *progress_ctx;
};

/* Counts over the whole input. */
struct convert_stats {
	uint64_t records;
	uint64_t samples;		/* all samples in the file */
	uint64_t samples_event;		/* of the selected event */
	uint64_t samples_filtered;	/* dropped by --pid/--tid/--comm */
	uint64_t samples_used;		/* in the profiles */
	uint64_t samples_empty;		/* no usable frame at all */
	uint64_t samples_zero;		/* only address-0 frames, which a
					   gperftools profile cannot hold */
	uint64_t zero_frames;		/* address-0 frames dropped */
	uint64_t markers;		/* context markers removed */
	uint64_t kernel_frames;
	uint64_t frames_dropped;	/* by --user-only / --kernel-only */
	uint64_t lost;			/* events the kernel lost */
	uint64_t lost_samples;		/* samples the kernel lost */
	uint64_t late;			/* records used out of time order
					   (order.h) */
	uint64_t unknown_id;		/* samples matching no event */
	uint64_t undecodable;		/* of events we cannot lay out */
	uint64_t read_unchanged;	/* PERF_SAMPLE_READ counters that
					   did not grow: no sample */
	uint64_t read_unknown_id;	/* ... whose id matches no event */
	uint64_t other_events;		/* of events not in the first input */
	size_t failed_input;		/* the input that could not be read */
	size_t processes;		/* processes with samples */
	size_t left_out;		/* profiles (with split) or processes
					   under min_samples */
	uint64_t samples_left_out;	/* their samples */
	uint64_t most_left_out;		/* the most samples of one of them */
	uint64_t period_us;
	bool period_guessed;		/* the event gave no time period */
	const struct perf_attr *event;	/* the event converted */
	size_t nr_sampling_events;	/* events with samples */
	bool dwarf_recording;	/* recorded with --call-graph dwarf */
	bool dwarf_unwound;	/* and the user stacks were unwound */
	bool dwarf_arch_unsupported;	/* of a machine we cannot unwind */
	uint64_t dwarf_samples;		/* with user registers and stack */
	uint64_t dwarf_done;		/* unwound to the end or the cap */
	uint64_t dwarf_partial;		/* unwinding stopped partway */
	uint64_t dwarf_copy_end;	/* of which at the stack copy's end */
	uint64_t dwarf_no_binary;	/* no binary: leaf (+ callchain) */
	uint64_t dwarf_unsupported;	/* registers of another ABI */
	uint64_t frames_capped;		/* stacks cut at max_stack */
	uint64_t lbr_samples;		/* user part from the branch stack */
	/* --off-cpu (offcpu_counts()) */
	uint64_t offcpu_outs;		/* switch-outs held */
	uint64_t offcpu_at_end;		/* counted to the end */
	uint64_t offcpu_lost_in;	/* dropped: no switch-in */
	uint64_t offcpu_preempted_left_out;	/* with blocked */
	unsigned slot_bits;	/* of the profiles written */
};

/* One profile made: the merged one, or with split one per process,
 * thread or command. */
struct convert_result {
	enum convert_format format;
	struct profile *profile;	/* CONVERT_FORMAT_GPERFTOOLS */
	const struct symstacks *names;	/* the other formats */
	const struct pprof_meta *pprof;	/* CONVERT_FORMAT_PPROF */
	const struct folded_opts *folded;	/* CONVERT_FORMAT_FOLDED */
	int32_t pid;		/* the process, or -1 for several */
	int32_t tid;		/* split by thread: the thread; else -1 */
	char comm[32];		/* the command of the process, or thread,
				   or of every process */
	size_t processes;	/* processes in the profile */
	uint64_t samples;	/* samples in it */
	uint64_t stacks;	/* distinct stacks written */
	uint64_t max_depth;
	size_t places;		/* mapped files and regions */
	size_t relocated;	/* of them moved off their addresses */
	size_t collisions;	/* left overlapping: no room to move */
	uint64_t unmapped;	/* frames in no mapping */
	bool with_kernel;
	size_t fixup_records;	/* records given leaf copies */
	uint64_t fixup_copies;
	bool fixup_converged;
	bool perl_strips;
	size_t space_paths;	/* maps paths Go pprof cuts at a space */
};

/* Receives each profile; returns 0, or -1 with ERR set to stop. */
typedef int (*convert_sink)(void *ctx, const struct convert_result *r,
			    struct p2g_error *err);

/*
 * Read all the data of the NPDS inputs PDS and make the profile of the
 * samples of the selected event that pass the filters: one for all their
 * processes, or with o->split one per process, thread or command, most
 * samples first (those under o->min_samples left out); hand each to
 * SINK.  The inputs' processes are kept apart; their events are
 * matched by name with the first input's (samples of other events are
 * counted in other_events), whose header (byte order, build ids, arch)
 * also stands for all.  Returns 0, or -1 with ERR set (and, if reading
 * failed, the input in st->failed_input, the error's offset in its file
 * (perfdata_locate())).
 */
int convert_run(struct perfdata *const *pds, size_t npds,
		const struct convert_opts *o, convert_sink sink,
		void *sink_ctx, struct convert_stats *st,
		struct p2g_error *err);

/* Write R's profile to FD in its format.  0, or -1 with ERR set. */
int convert_write(const struct convert_result *r, int fd,
		  struct p2g_error *err);

/* A process of convert_count(): its command and its samples of every
 * event. */
struct convert_process {
	int32_t pid;
	char comm[32];
	uint64_t samples;
};

/* What convert_count() counts. */
struct convert_counts {
	uint64_t *samples;	/* of each attr of the input */
	size_t nevents;
	struct convert_process *procs;	/* those with samples, the most
					   first (then by pid) */
	size_t nprocs;
};

/*
 * Read all of PD's data as convert_run() reads it (with o's callbacks;
 * nothing is unwound) and count its samples per event and per process
 * into C, for --info; when the reading fails partway, what was counted
 * up to there.  Returns 0, or -1 with ERR set.  Free C with
 * convert_counts_release() either way.
 */
int convert_count(struct perfdata *pd, const struct convert_opts *o,
		  struct convert_counts *c, struct p2g_error *err);
void convert_counts_release(struct convert_counts *c);

#endif
