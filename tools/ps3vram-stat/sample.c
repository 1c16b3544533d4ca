// SPDX-License-Identifier: GPL-2.0
/*
 * sample.c - read and parse the ps3vram statistics files
 *
 * Every path is the reader's root followed by the kernel path, so that
 * tests and recorded snapshots can stand in for /sys and /proc.  Parsing
 * is strict about what a column is (unsigned decimal, nothing else) and
 * lenient about what a file holds: a short file leaves its last columns
 * invalid, extra columns (a newer module) are ignored, a column that is
 * not a number is invalid on its own.  Each kind of problem is reported
 * once per file on the reader's error stream; only a file that exists but
 * may not be read is fatal, since nothing sensible can be shown then.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sample.h"

#define PS_SWAP_DIR		"/sys/kernel/ps3vram_swap"
#define PS_DMA_DIR		"/sys/kernel/ps3vram_dma"
#define PS_BLK_DIR		"/sys/block/" PS_BLK_NAME
#define PS_HIST_PATH		"/sys/kernel/debug/ps3vram_dma/wait_hist"
#define PS_VMSTAT_PATH		"/proc/vmstat"

/* A one-line stats file is well under a page. */
#define PS_LINE_MAX		4096
/* wait_hist is at most 320 lines of two numbers; /proc/vmstat ~200 lines. */
#define PS_TEXT_MAX		32768

/* Bits of ps_reader.warned: one per file and kind of problem. */
enum {
	PS_WARN_MISSING = 0,			/* + enum ps_file */
	PS_WARN_SHORT = PS_NR_FILES,		/* + enum ps_file */
	PS_WARN_BAD = 2 * PS_NR_FILES,		/* + enum ps_file */
	PS_WARN_VMSTAT = 3 * PS_NR_FILES,
	PS_WARN_CLIENTS,
	PS_WARN_CLIENT_FILE,
};

/*
 * The directories a file lives in or depends on: bits of ps_files[].dirs.
 * PS_IN_COMP is never found: comp_stat exists only in compressed mode, so
 * its absence never means an older module.
 */
enum { PS_IN_SWAP = 1, PS_IN_DMA = 2, PS_IN_BLK = 4, PS_IN_COMP = 8 };

/*
 * @dirs: a file absent while all of these are there is an older module
 * (warned about once); absent with one of them gone, it is just absent.
 */
static const struct {
	const char *path;
	int cols;
	unsigned char dirs;
} ps_files[PS_NR_FILES] = {
	[PS_SWAP_MM_STAT]  = { PS_SWAP_DIR "/mm_stat",  PS_NR_MM, PS_IN_SWAP },
	[PS_SWAP_IO_STAT]  = { PS_SWAP_DIR "/io_stat",  PS_NR_IO, PS_IN_SWAP },
	[PS_DMA_MEM_STAT]  = { PS_DMA_DIR "/mem_stat",  PS_NR_MEM, PS_IN_DMA },
	[PS_DMA_IO_STAT]   = { PS_DMA_DIR "/io_stat",   PS_NR_DIO, PS_IN_DMA },
	[PS_DMA_WAIT_STAT] = { PS_DMA_DIR "/wait_stat", PS_NR_WAIT, PS_IN_DMA },
	[PS_BLK_IO_STAT]   = { PS_BLK_DIR "/io_stat",   PS_NR_BIO, PS_IN_BLK },
	[PS_BLK_SIZE]      = { PS_BLK_DIR "/size",      PS_NR_BSIZE, PS_IN_BLK },
	[PS_BLK_DMA_IO_STAT] = { PS_DMA_DIR "/clients/" PS_BLK_NAME "/io_stat",
				 PS_NR_DIO, PS_IN_DMA | PS_IN_BLK },
	[PS_DMA_RECOVERY_STAT] = { PS_DMA_DIR "/recovery_stat", PS_NR_REC,
				   PS_IN_DMA },
	[PS_BLK_COMP_STAT] = { PS_BLK_DIR "/comp_stat", PS_NR_COMP,
			       PS_IN_BLK | PS_IN_COMP },
};

static const char *const ps_vm_names[PS_NR_VM] = {
	[PS_VM_ZSWPIN]  = "zswpin",
	[PS_VM_ZSWPOUT] = "zswpout",
	[PS_VM_ZSWPWB]  = "zswpwb",
	[PS_VM_PSWPIN]  = "pswpin",
	[PS_VM_PSWPOUT] = "pswpout",
};

const char *ps_file_path(enum ps_file f)
{
	return ps_files[f].path;
}

/* Columns this version of the tool knows for @f. */
int ps_file_cols(enum ps_file f)
{
	return ps_files[f].cols;
}

/* ---- parsing ----------------------------------------------------------- */

/* Parse an unsigned decimal of @len bytes at @s; false if it is none. */
static bool ps_parse_u64(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned char)s[i] - '0';

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/**
 * ps_parse_cols() - split a one-line stats file into its columns
 * @line: the file's text; parsing stops at the first newline
 * @out:  the columns
 *
 * Return: the number of columns kept (at most PS_MAX_COLS), also in
 * @out->ncols.  A column that is not an unsigned decimal is 0 with its bit
 * set in @out->bad.
 */
int ps_parse_cols(const char *line, struct ps_stat_file *out)
{
	const char *p = line;
	size_t len;

	memset(out, 0, sizeof(*out));
	for (;;) {
		p += strspn(p, " \t");
		if (!*p || *p == '\n')
			break;
		len = strcspn(p, " \t\n");
		if (out->ncols < PS_MAX_COLS) {
			if (!ps_parse_u64(p, len, &out->v[out->ncols]))
				out->bad |= 1u << out->ncols;
			out->ncols++;
		}
		p += len;
	}
	return out->ncols;
}

/**
 * ps_parse_hist() - parse debugfs wait_hist ("le_ns count" lines)
 * @text: the file's text
 * @h:    the buckets
 *
 * Lines starting with '#' and empty lines are skipped.
 *
 * Return: 0, or -EINVAL (and @h->n = -1) for a line that is not two
 * numbers, bounds that do not ascend, or too many lines.
 */
int ps_parse_hist(const char *text, struct ps_hist *h)
{
	const char *p = text, *eol;
	struct ps_stat_file cols;
	char line[128];
	size_t len;

	h->n = 0;
	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchrnul(p, '\n');
		len = (size_t)(eol - p);
		if (!len || *p == '#')
			continue;
		if (len >= sizeof(line) || h->n >= PS_HIST_MAX)
			goto bad;
		memcpy(line, p, len);
		line[len] = '\0';
		if (ps_parse_cols(line, &cols) != 2 || cols.bad)
			goto bad;
		if (h->n && cols.v[0] <= h->le[h->n - 1])
			goto bad;
		h->le[h->n] = cols.v[0];
		h->count[h->n] = cols.v[1];
		h->n++;
	}
	return 0;
bad:
	h->n = -1;
	return -EINVAL;
}

/**
 * ps_parse_vmstat() - pick the swap counters out of /proc/vmstat
 * @text: the file's text
 * @s:    the sample; sets @s->vm and @s->vm_ok for the names found
 */
void ps_parse_vmstat(const char *text, struct ps_sample *s)
{
	const char *p = text, *eol, *sp;
	unsigned int i;

	memset(s->vm_ok, 0, sizeof(s->vm_ok));
	for (; *p; p = *eol ? eol + 1 : eol) {
		eol = strchrnul(p, '\n');
		sp = memchr(p, ' ', (size_t)(eol - p));
		if (!sp)
			continue;
		for (i = 0; i < PS_NR_VM; i++) {
			if (strlen(ps_vm_names[i]) != (size_t)(sp - p) ||
			    memcmp(p, ps_vm_names[i], (size_t)(sp - p)))
				continue;
			s->vm_ok[i] = ps_parse_u64(sp + 1,
						   (size_t)(eol - sp - 1),
						   &s->vm[i]);
		}
	}
}

/* Count of bucket @le in @h, 0 when absent; *@i walks @h in step. */
static uint64_t ps_hist_count_at(const struct ps_hist *h, int *i, uint64_t le)
{
	while (*i < h->n && h->le[*i] < le)
		(*i)++;
	return *i < h->n && h->le[*i] == le ? h->count[*i] : 0;
}

/* True when every bucket of @prev is in @cur with at least its count. */
static bool ps_hist_grew(const struct ps_hist *cur, const struct ps_hist *prev)
{
	int i, j = 0;

	for (i = 0; i < prev->n; i++)
		if (ps_hist_count_at(cur, &j, prev->le[i]) < prev->count[i])
			return false;
	return true;
}

/**
 * ps_hist_delta_pct() - a percentile of the waits between two histograms
 * @cur:   the later histogram
 * @prev:  the earlier one; NULL for the percentile since load
 * @pct:   1-100
 * @le_ns: the upper bound of the bucket holding the percentile, 0 when
 *	   there was no wait; the kernel's rule, so that with @prev NULL
 *	   this equals the wait_stat column
 *
 * When a count went down (the module was reloaded) the waits since load
 * are used, as the counters do.
 *
 * Return: 0, or -EINVAL when either histogram is unreadable.
 */
int ps_hist_delta_pct(const struct ps_hist *cur, const struct ps_hist *prev,
		      unsigned int pct, uint64_t *le_ns)
{
	uint64_t total = 0, seen = 0, want;
	int i, j;

	if (cur->n < 0 || (prev && prev->n < 0))
		return -EINVAL;
	if (prev && !ps_hist_grew(cur, prev))
		prev = NULL;
	for (i = 0, j = 0; i < cur->n; i++)
		total += cur->count[i] -
			 (prev ? ps_hist_count_at(prev, &j, cur->le[i]) : 0);
	*le_ns = 0;
	if (!total)
		return 0;
	want = (total * pct + 99) / 100;
	for (i = 0, j = 0; i < cur->n; i++) {
		seen += cur->count[i] -
			(prev ? ps_hist_count_at(prev, &j, cur->le[i]) : 0);
		if (seen >= want && seen) {
			*le_ns = cur->le[i];
			return 0;
		}
	}
	*le_ns = cur->le[cur->n - 1];
	return 0;
}

/* ---- reading ----------------------------------------------------------- */

/* Say @msg about @path once per @bit. */
static void ps_warn(struct ps_reader *r, unsigned int bit, const char *path,
		    const char *msg)
{
	if (r->warned & (1ull << bit))
		return;
	r->warned |= 1ull << bit;
	fprintf(r->err, "ps3vram-stat: %s%s: %s\n", r->root, path, msg);
}

static bool ps_is_dir(const char *root, const char *path)
{
	char full[PATH_MAX];
	struct stat st;

	snprintf(full, sizeof(full), "%s%s", root, path);
	return !stat(full, &st) && S_ISDIR(st.st_mode);
}

/*
 * Read @path under @root into @buf (NUL-terminated, truncated to @size).
 * Return: bytes read, or -errno.
 */
static long ps_read_text(const char *root, const char *path, char *buf,
			 size_t size)
{
	char full[PATH_MAX];
	size_t got = 0;
	ssize_t n;
	int fd, err;

	snprintf(full, sizeof(full), "%s%s", root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < size - 1) {
		n = read(fd, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			close(fd);
			return -err;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	return (long)got;
}

static bool ps_fatal_errno(long err)
{
	return err == -EACCES || err == -EPERM;
}

/*
 * Read one-line file @f; @dir_ok says whether its module's directory is
 * there (a file absent from a present directory is an older module).
 * Return: 0, or a fatal -errno (already reported).
 */
static int ps_read_file(struct ps_reader *r, enum ps_file f, bool dir_ok,
			struct ps_stat_file *out)
{
	const char *path = ps_files[f].path;
	char line[PS_LINE_MAX], msg[96];
	long n;
	int i;

	n = ps_read_text(r->root, path, line, sizeof(line));
	if (n < 0) {
		out->ncols = -1;
		out->bad = 0;
		if (ps_fatal_errno(n)) {
			fprintf(r->err, "ps3vram-stat: cannot read %s%s: %s\n",
				r->root, path, strerror((int)-n));
			return (int)n;
		}
		if (n != -ENOENT)
			ps_warn(r, PS_WARN_MISSING + f, path, strerror((int)-n));
		else if (dir_ok)
			ps_warn(r, PS_WARN_MISSING + f, path,
				"absent (older module?); its columns show '-'");
		return 0;
	}
	ps_parse_cols(line, out);
	if (out->ncols < ps_files[f].cols) {
		snprintf(msg, sizeof(msg),
			 "%d of %d columns (older module?); '-' for the rest",
			 out->ncols, ps_files[f].cols);
		ps_warn(r, PS_WARN_SHORT + f, path, msg);
	}
	for (i = 0; i < out->ncols; i++) {
		if (out->bad & (1u << i)) {
			snprintf(msg, sizeof(msg),
				 "column %d is not a number; shown as '-'",
				 i + 1);
			ps_warn(r, PS_WARN_BAD + f, path, msg);
			break;
		}
	}
	return 0;
}

static void ps_read_backend(struct ps_reader *r, struct ps_sample *s)
{
	char buf[PS_NAME_MAX];

	s->backend[0] = '\0';
	if (ps_read_text(r->root, PS_DMA_DIR "/backend", buf, sizeof(buf)) < 0)
		return;
	buf[strcspn(buf, "\n")] = '\0';
	memcpy(s->backend, buf, sizeof(buf));
}

static void ps_read_vmstat(struct ps_reader *r, struct ps_sample *s)
{
	char *buf = malloc(PS_TEXT_MAX);

	memset(s->vm_ok, 0, sizeof(s->vm_ok));
	if (!buf || ps_read_text(r->root, PS_VMSTAT_PATH, buf, PS_TEXT_MAX) < 0)
		ps_warn(r, PS_WARN_VMSTAT, PS_VMSTAT_PATH,
			"unreadable; the kernel columns show '-'");
	else
		ps_parse_vmstat(buf, s);
	free(buf);
}

static void ps_read_hist(struct ps_reader *r, struct ps_sample *s)
{
	char *buf = malloc(PS_TEXT_MAX);

	s->hist.n = -1;
	if (buf && ps_read_text(r->root, PS_HIST_PATH, buf, PS_TEXT_MAX) >= 0)
		ps_parse_hist(buf, &s->hist);
	free(buf);
}

static int ps_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ps_client *)a)->name,
		      ((const struct ps_client *)b)->name);
}

/* One of a client's files; a problem there is worth one warning in all. */
static void ps_read_client_file(struct ps_reader *r, const char *dir,
				const char *name, struct ps_stat_file *out)
{
	char path[PATH_MAX], line[PS_LINE_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ps_read_text(r->root, path, line, sizeof(line)) < 0) {
		out->ncols = -1;
		out->bad = 0;
		ps_warn(r, PS_WARN_CLIENT_FILE, path, "unreadable");
		return;
	}
	ps_parse_cols(line, out);
}

static void ps_read_clients(struct ps_reader *r, struct ps_sample *s)
{
	char dir[PATH_MAX], sub[PATH_MAX];
	struct ps_client *c;
	struct dirent *de;
	DIR *d;

	s->nclients = 0;
	snprintf(dir, sizeof(dir), "%s" PS_DMA_DIR "/clients", r->root);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= sizeof(c->name))
			continue;
		if (s->nclients == PS_MAX_CLIENTS) {
			ps_warn(r, PS_WARN_CLIENTS, PS_DMA_DIR "/clients",
				"too many clients; JSON lists the first few");
			break;
		}
		c = &s->client[s->nclients++];
		strcpy(c->name, de->d_name);
	}
	closedir(d);
	qsort(s->client, (size_t)s->nclients, sizeof(*s->client), ps_name_cmp);
	for (c = s->client; c < s->client + s->nclients; c++) {
		snprintf(sub, sizeof(sub), PS_DMA_DIR "/clients/%s", c->name);
		ps_read_client_file(r, sub, "claim", &c->claim);
		/* already read as PS_BLK_DMA_IO_STAT: blk and clients agree */
		if (!strcmp(c->name, PS_BLK_NAME))
			c->io = s->file[PS_BLK_DMA_IO_STAT];
		else
			ps_read_client_file(r, sub, "io_stat", &c->io);
	}
}

static double ps_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/**
 * ps_sample_read() - read every statistics file once
 * @r: the reader
 * @s: the sample
 *
 * Return: 0, or -EACCES / -EPERM when a statistics file exists but may not
 * be read (reported on @r->err).  Absent and malformed files are not
 * errors: their columns are invalid.
 */
int ps_sample_read(struct ps_reader *r, struct ps_sample *s)
{
	unsigned int f, dirs;
	int ret;

	s->mono = ps_clock(CLOCK_MONOTONIC);
	s->wall = ps_clock(CLOCK_REALTIME);
	s->have_swap = ps_is_dir(r->root, PS_SWAP_DIR);
	s->have_dma = ps_is_dir(r->root, PS_DMA_DIR);
	s->have_blk = ps_is_dir(r->root, PS_BLK_DIR);
	dirs = (s->have_swap ? PS_IN_SWAP : 0) | (s->have_dma ? PS_IN_DMA : 0) |
	       (s->have_blk ? PS_IN_BLK : 0);
	for (f = 0; f < PS_NR_FILES; f++) {
		ret = ps_read_file(r, f, (ps_files[f].dirs & dirs) ==
				   ps_files[f].dirs, &s->file[f]);
		if (ret)
			return ret;
	}
	ps_read_backend(r, s);
	ps_read_vmstat(r, s);
	ps_read_hist(r, s);
	ps_read_clients(r, s);
	return 0;
}
