// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu-coredump: check and print a ugpu device coredump.
 *
 * Reads a dump in the format of uapi/drm/ugpu_coredump.h (see
 * Documentation/coredump.rst) from a file, from standard input ("-"), or,
 * without an argument, from every /sys/class/devcoredump/devcd<N>/data
 * (skipping other drivers' dumps), checks every size and offset in it and
 * prints it. With -q only the check
 * is made, and with -d a dump read from devcoredump is dropped afterwards.
 *
 * Usage: ugpu-coredump [-q] [-d] [file...]
 * Exit status: 0 every dump is valid, 1 one is not, 2 one could not be
 * read.
 */
#include <ctype.h>
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ugpu_coredump.h"
#include "ugpu_drm.h"
#include "ugpu_tool.h"

#define DEVCD_DIR	"/sys/class/devcoredump"
/* Larger than any dump the kernel writes. */
#define MAX_DUMP	(16u << 20)

static bool quiet;

#define out(...)	do { if (!quiet) printf(__VA_ARGS__); } while (0)

static void hexdump(const uint8_t *p, size_t len, uint64_t base)
{
	size_t i;

	for (i = 0; i < len; i += 4) {
		uint32_t w = 0;

		memcpy(&w, p + i, len - i < 4 ? len - i : 4);
		if (i % 32 == 0)
			out("    %08" PRIx64 ":", base + i);
		out(" %08x", le32toh(w));
		if (i % 32 == 28 || i + 4 >= len)
			out("\n");
	}
}

/* A NUL-terminated string of at most @len bytes, printable. */
static bool valid_string(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && s[i]; i++)
		if (!isprint((unsigned char)s[i]))
			return false;
	return i < len;
}

static const char *section_name(uint32_t type)
{
	switch (type) {
	case UGPU_COREDUMP_SECTION_REGS: return "registers";
	case UGPU_COREDUMP_SECTION_CMDS: return "commands";
	case UGPU_COREDUMP_SECTION_BOS: return "buffer objects";
	case UGPU_COREDUMP_SECTION_TEXT: return "family extras";
	default: return "unknown";
	}
}

static int bad(const char *what, const char *why, size_t off)
{
	fprintf(stderr, "%s: invalid dump: %s (at byte %zu)\n", what, why, off);
	return 1;
}

static int decode_regs(const char *what, const uint8_t *p, size_t size,
		       size_t base)
{
	size_t off = 0, len;
	uint32_t i, count, reg;

	while (off < size) {
		const struct ugpu_coredump_regs *r = (const void *)(p + off);

		if (size - off < sizeof(*r))
			return bad(what, "register range header cut off", base + off);
		count = le32toh(r->count);
		reg = le32toh(r->offset);
		if (!valid_string(r->name, sizeof(r->name)) || !count)
			return bad(what, "bad register range", base + off);
		len = (sizeof(*r) + (size_t)count * 4 + 7) & ~(size_t)7;
		if (count > size || len > size - off)
			return bad(what, "register range overruns its section",
				   base + off);
		for (i = 0; i < count; i++) {
			uint32_t v;

			memcpy(&v, p + off + sizeof(*r) + i * 4, 4);
			out("  %-24s%s 0x%05x: 0x%08x\n", r->name, i ? "+" : " ",
			    reg + i * 4, le32toh(v));
		}
		off += len;
	}
	return 0;
}

static int decode_cmds(const char *what, const uint8_t *p, size_t size,
		       size_t base)
{
	size_t off = 0, len;
	uint32_t length;

	while (off < size) {
		const struct ugpu_coredump_cmdbuf *c = (const void *)(p + off);

		if (size - off < sizeof(*c))
			return bad(what, "command buffer header cut off", base + off);
		length = le32toh(c->length);
		len = (sizeof(*c) + (size_t)length + 7) & ~(size_t)7;
		if (length > le64toh(c->size) || length > size ||
		    len > size - off || c->pad)
			return bad(what, "bad command buffer", base + off);
		out("  BO %u at 0x%" PRIx64 " (offset 0x%" PRIx64 "), %" PRIu64
		    " bytes, %u shown%s\n", le32toh(c->bo), le64toh(c->iova),
		    le64toh(c->offset), le64toh(c->size), length,
		    le32toh(c->flags) & UGPU_COREDUMP_CMD_ADDRESS ?
		    ", from the command's address" : "");
		hexdump(p + off + sizeof(*c), length, le64toh(c->iova));
		off += len;
	}
	return 0;
}

static int decode_bos(const char *what, const uint8_t *p, size_t size,
		      size_t base)
{
	size_t off;

	if (size % sizeof(struct ugpu_coredump_bo))
		return bad(what, "BO list of a partial entry", base);
	for (off = 0; off < size; off += sizeof(struct ugpu_coredump_bo)) {
		const struct ugpu_coredump_bo *b = (const void *)(p + off);
		uint32_t flags = le32toh(b->flags);

		if (b->pad)
			return bad(what, "nonzero padding in a BO entry", base + off);
		out("  handle %u: 0x%" PRIx64 ", %" PRIu64 " bytes, %s%s, BO flags 0x%x\n",
		    le32toh(b->handle), le64toh(b->iova), le64toh(b->size),
		    flags & DRM_UGPU_SUBMIT_BO_READ ? "R" : "-",
		    flags & DRM_UGPU_SUBMIT_BO_WRITE ? "W" : "-",
		    le32toh(b->bo_flags));
	}
	return 0;
}

static int decode_text(const char *what, const uint8_t *p, size_t size,
		       size_t base)
{
	size_t len = strnlen((const char *)p, size), i;

	for (i = len; i < size; i++)
		if (p[i])
			return bad(what, "text after its NUL padding", base + i);
	if (len && !quiet) {
		fwrite(p, 1, len, stdout);
		if (p[len - 1] != '\n')
			putchar('\n');
	}
	return 0;
}

/* Check and print the dump @buf of @len bytes; 0 when it is valid. */
static int decode(const char *what, const uint8_t *buf, size_t len)
{
	const struct ugpu_coredump_header *h = (const void *)buf;
	uint32_t hsize, total, count, i, type, size;
	size_t off;
	time_t secs;
	char when[64];
	int ret;

	if (len < sizeof(*h) || memcmp(h->magic, UGPU_COREDUMP_MAGIC, 8))
		return bad(what, "no ugpu dump magic", 0);
	if (le32toh(h->version) != UGPU_COREDUMP_VERSION) {
		fprintf(stderr, "%s: dump version %u, this decoder knows %u\n",
			what, le32toh(h->version), UGPU_COREDUMP_VERSION);
		return 1;
	}
	hsize = le32toh(h->header_size);
	total = le32toh(h->total_size);
	count = le32toh(h->section_count);
	if (hsize < sizeof(*h) || hsize % 8 || total != len || hsize > total)
		return bad(what, "header or total size does not match", 0);
	if (!valid_string(h->comm, sizeof(h->comm)) ||
	    !valid_string(h->device, sizeof(h->device)) || h->pad)
		return bad(what, "bad strings or padding in the header", 0);

	secs = le64toh(h->time_ns) / 1000000000;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&secs));
	out("ugpu coredump v%u of %s: %s GPU, model 0x%x revision 0x%x, chip id 0x%" PRIx64 "\n",
	    le32toh(h->version), h->device,
	    ugpu_family_name(le32toh(h->family)), le32toh(h->chip_model),
	    le32toh(h->chip_revision), le64toh(h->chip_id));
	out("time %s\n", when);
	out("job: queue %u, seqno %" PRIu64 ", context %u of %s[%u], error %d (%s)\n",
	    le32toh(h->queue), le64toh(h->seqno), le32toh(h->ctx), h->comm,
	    le32toh(h->pid), (int32_t)le32toh(h->error),
	    strerror(-(int32_t)le32toh(h->error)));
	out("context: %u hung or faulted jobs%s\n", le32toh(h->hangs),
	    le32toh(h->flags) & UGPU_COREDUMP_BANNED ? ", banned" : "");
	if (le32toh(h->flags) & UGPU_COREDUMP_TRUNCATED)
		out("(truncated: the dump did not fit)\n");

	off = hsize;
	for (i = 0; i < count; i++) {
		const struct ugpu_coredump_section *s = (const void *)(buf + off);

		if (len - off < sizeof(*s))
			return bad(what, "section header cut off", off);
		type = le32toh(s->type);
		size = le32toh(s->size);
		off += sizeof(*s);
		if (size % 8 || size > len - off)
			return bad(what, "section overruns the dump", off);
		out("%s:\n", section_name(type));
		switch (type) {
		case UGPU_COREDUMP_SECTION_REGS:
			ret = decode_regs(what, buf + off, size, off);
			break;
		case UGPU_COREDUMP_SECTION_CMDS:
			ret = decode_cmds(what, buf + off, size, off);
			break;
		case UGPU_COREDUMP_SECTION_BOS:
			ret = decode_bos(what, buf + off, size, off);
			break;
		case UGPU_COREDUMP_SECTION_TEXT:
			ret = decode_text(what, buf + off, size, off);
			break;
		default:
			out("  (%u bytes of type %u skipped)\n", size, type);
			ret = 0;
		}
		if (ret)
			return ret;
		off += size;
	}
	if (off != len)
		return bad(what, "bytes after the last section", off);
	return 0;
}

/* Read all of @fd into a new buffer; returns its length or -1. */
static ssize_t read_all(int fd, uint8_t **bufp)
{
	size_t len = 0, cap = 1 << 16;
	uint8_t *buf = malloc(cap), *n;
	ssize_t r;

	while (buf) {
		if (len == cap) {
			if (cap >= MAX_DUMP)
				break;
			cap *= 2;
			n = realloc(buf, cap);
			if (!n)
				break;
			buf = n;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (!r) {
			*bufp = buf;
			return len;
		}
		len += r;
	}
	free(buf);
	return -1;
}

/*
 * @all: one of every pending devcoredump, of any driver: one that is not
 * a ugpu dump is skipped, not an error.
 */
static int decode_file(const char *path, bool drop, bool all)
{
	bool in = !strcmp(path, "-");
	int fd = in ? 0 : open(path, drop ? O_RDWR : O_RDONLY);
	uint8_t *buf;
	ssize_t len;
	int ret;

	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	len = read_all(fd, &buf);
	if (len < 0) {
		fprintf(stderr, "%s: cannot read it\n", path);
		if (!in)
			close(fd);
		return 2;
	}
	if (all && (len < 8 || memcmp(buf, UGPU_COREDUMP_MAGIC, 8))) {
		out("%s: not a ugpu dump, skipped\n", path);
		ret = 0;
		drop = false;
	} else {
		out("%s:\n", path);
		ret = decode(path, buf, len);
	}
	free(buf);
	/* devcoredump frees a dump once anything is written to it. */
	if (drop && write(fd, "1", 1) != 1)
		fprintf(stderr, "%s: not dropped: %s\n", path, strerror(errno));
	if (!in)
		close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	char path[512];
	struct dirent *de;
	bool drop = false;
	int opt, ret = 0, r, n = 0;
	DIR *dir;

	while ((opt = getopt(argc, argv, "qdh")) != -1) {
		switch (opt) {
		case 'q':
			quiet = true;
			break;
		case 'd':
			drop = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-q] [-d] [file...]\n", argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	for (; optind < argc; optind++) {
		r = decode_file(argv[optind], false, false);
		ret = r > ret ? r : ret;
		n++;
	}
	if (n)
		return ret;

	dir = opendir(DEVCD_DIR);
	if (!dir) {
		fprintf(stderr, "%s: %s\n", DEVCD_DIR, strerror(errno));
		return 2;
	}
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "devcd", 5))
			continue;
		snprintf(path, sizeof(path), DEVCD_DIR "/%s/data", de->d_name);
		r = decode_file(path, drop, true);
		ret = r > ret ? r : ret;
		n++;
	}
	closedir(dir);
	if (!n)
		fprintf(stderr, "no device coredump in %s\n", DEVCD_DIR);
	return n ? ret : 2;
}
