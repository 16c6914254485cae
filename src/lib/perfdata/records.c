/* SPDX-License-Identifier: MIT */
/* Decoding of the records of processes and mappings: see records.h. */
#include "config.h"

#include <string.h>

#include "cursor.h"
#include "records.h"

/* MMAP and MMAP2 after their pid: the two layouts of perf_event.h. */
static void
decode_mmap(const struct perf_record *rec, struct cursor *c,
	    struct sideband *sb)
{
	struct sideband_map *m = &sb->map;
	uint64_t len;

	m->start = cursor_u64(c);
	len = cursor_u64(c);
	m->pgoff = cursor_u64(c);
	if (rec->type == PERF_RECORD_MMAP2) {
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t sz = cursor_u8(c);
			const unsigned char *id;

			cursor_skip(c, 3);
			id = cursor_bytes(c, 20);
			if (id != NULL) {
				m->build_id_size = sz <= 20 ? sz : 20;
				memcpy(m->build_id, id, 20);
			}
		} else {
			m->maj = cursor_u32(c);
			m->min = cursor_u32(c);
			m->ino = cursor_u64(c);
			(void)cursor_u64(c);	/* ino_generation */
		}
		m->prot = cursor_u32(c);
		m->flags = cursor_u32(c);
		m->exec = (m->prot & 4) != 0;
	} else {
		m->prot = 5;	/* r-x: MMAP records without the data bit
				   describe executable mappings */
		m->flags = 2;
		m->exec = !(rec->misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	if (len > UINT64_MAX - m->start)
		len = UINT64_MAX - m->start;
	m->end = m->start + len;
}

int
records_decode(const struct perf_record *rec, bool big_endian,
	       struct sideband *sb, struct p2g_error *err)
{
	struct cursor c;

	memset(sb, 0, sizeof(*sb));
	sb->type = rec->type;
	cursor_init(&c, rec->data, rec->size, rec->offset, big_endian);
	cursor_skip(&c, 8);
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		sb->pid = (int32_t)cursor_u32(&c);
		sb->tid = (int32_t)cursor_u32(&c);
		decode_mmap(rec, &c, sb);
		if (!cursor_ok(&c))
			return p2g_fail(err, P2G_INVALID,
					cursor_err_offset(&c),
					"mmap record is truncated");
		break;
	case PERF_RECORD_COMM:
		sb->pid = (int32_t)cursor_u32(&c);
		sb->tid = (int32_t)cursor_u32(&c);
		sb->exec = (rec->misc & PERF_RECORD_MISC_COMM_EXEC) != 0;
		break;
	case PERF_RECORD_EXIT:
		sb->pid = (int32_t)cursor_u32(&c);
		sb->ppid = (int32_t)cursor_u32(&c);
		sb->tid = (int32_t)cursor_u32(&c);
		break;
	case PERF_RECORD_FORK:
		sb->pid = (int32_t)cursor_u32(&c);
		sb->ppid = (int32_t)cursor_u32(&c);
		sb->tid = (int32_t)cursor_u32(&c);
		sb->ptid = (int32_t)cursor_u32(&c);
		break;
	default:
		return 0;
	}
	if (!cursor_ok(&c))
		return p2g_fail(err, P2G_INVALID, cursor_err_offset(&c),
				"record of type %u is truncated", rec->type);
	/* The name (MMAP's path, COMM's command) runs to a NUL within the
	 * record, before the sample_id_all trailer. */
	if (rec->type != PERF_RECORD_FORK && rec->type != PERF_RECORD_EXIT) {
		sb->name = (const char *)c.base + c.pos;
		sb->namelen = strnlen(sb->name, cursor_left(&c));
	}
	return 0;
}
