// SPDX-License-Identifier: GPL-2.0-only
/*
 * ugpu-info: describe every ugpu GPU of the system.
 *
 * Walks the DRM render nodes, keeps those whose driver is "ugpu" and
 * prints what DRM_IOCTL_UGPU_GET_PARAM reports about each.
 *
 * Usage: ugpu-info [-f] [render node...]
 *   -f  print only "<node> <family>" lines, for scripts
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "ugpu_drm.h"

#define DRI_DIR		"/dev/dri"
#define MAX_NODES	64
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static bool brief;

static int get_param(int fd, uint32_t param, uint32_t index, uint64_t *value)
{
	struct drm_ugpu_get_param gp = {
		.param = param,
		.index = index,
	};

	if (drmIoctl(fd, DRM_IOCTL_UGPU_GET_PARAM, &gp))
		return -errno;
	*value = gp.value;
	return 0;
}

static const char *family_name(uint64_t family)
{
	switch (family) {
	case DRM_UGPU_FAMILY_VIVANTE:
		return "vivante";
	case DRM_UGPU_FAMILY_MALI:
		return "mali";
	case DRM_UGPU_FAMILY_ADRENO:
		return "adreno";
	default:
		return "unknown";
	}
}

/* The platform device behind a render node, e.g. "ugpu-mali.0". */
static void device_name(const char *node, char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	char *copy = strdup(node);
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/drm/%s/device",
		 copy ? basename(copy) : node);
	free(copy);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(buf, len, "?");
		return;
	}
	target[n] = '\0';
	snprintf(buf, len, "%s", basename(target));
}

static void print_caps(uint64_t caps)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ DRM_UGPU_QUEUE_CAP_JOB_CHAIN, "job-chain" },
		{ DRM_UGPU_QUEUE_CAP_FRAGMENT, "fragment" },
		{ DRM_UGPU_QUEUE_CAP_VERTEX_TILER, "vertex-tiler" },
		{ DRM_UGPU_QUEUE_CAP_COMPUTE, "compute" },
		{ DRM_UGPU_QUEUE_CAP_CMDBUF_3D, "cmdbuf-3d" },
		{ DRM_UGPU_QUEUE_CAP_CMDBUF_2D, "cmdbuf-2d" },
		{ DRM_UGPU_QUEUE_CAP_PM4, "pm4" },
	};
	size_t i;

	printf("0x%02" PRIx64, caps);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (caps & names[i].bit)
			printf(" %s", names[i].name);
	printf("\n");
}

/* Print one parameter; a failure is reported and counted, not fatal. */
static int show(int fd, const char *label, uint32_t param, uint32_t index,
		const char *fmt)
{
	uint64_t v = 0;
	int ret;

	ret = get_param(fd, param, index, &v);
	if (ret) {
		printf("  %-24s error %d (%s)\n", label, ret, strerror(-ret));
		return 1;
	}
	printf("  %-24s ", label);
	printf(fmt, v);
	printf("\n");
	return 0;
}

static void show_mali(int fd, int *errors)
{
	static const struct {
		uint32_t param;
		const char *label;
	} regs[] = {
		{ DRM_UGPU_PARAM_MALI_GPU_ID, "GPU_ID" },
		{ DRM_UGPU_PARAM_MALI_L2_FEATURES, "L2_FEATURES" },
		{ DRM_UGPU_PARAM_MALI_TILER_FEATURES, "TILER_FEATURES" },
		{ DRM_UGPU_PARAM_MALI_MEM_FEATURES, "MEM_FEATURES" },
		{ DRM_UGPU_PARAM_MALI_MMU_FEATURES, "MMU_FEATURES" },
		{ DRM_UGPU_PARAM_MALI_AS_PRESENT, "AS_PRESENT" },
		{ DRM_UGPU_PARAM_MALI_JS_PRESENT, "JS_PRESENT" },
		{ DRM_UGPU_PARAM_MALI_SHADER_PRESENT, "SHADER_PRESENT" },
		{ DRM_UGPU_PARAM_MALI_TILER_PRESENT, "TILER_PRESENT" },
		{ DRM_UGPU_PARAM_MALI_L2_PRESENT, "L2_PRESENT" },
		{ DRM_UGPU_PARAM_MALI_THREAD_MAX_THREADS, "THREAD_MAX_THREADS" },
		{ DRM_UGPU_PARAM_MALI_THREAD_FEATURES, "THREAD_FEATURES" },
	};
	uint64_t js_present = 0, v = 0;
	uint32_t i;

	for (i = 0; i < ARRAY_SIZE(regs); i++)
		*errors += show(fd, regs[i].label, regs[i].param, 0,
				"0x%08" PRIx64);
	get_param(fd, DRM_UGPU_PARAM_MALI_JS_PRESENT, 0, &js_present);
	for (i = 0; i < 32; i++) {
		char label[32];

		if (!(js_present & (1ULL << i)))
			continue;
		snprintf(label, sizeof(label), "JS%u_FEATURES", i);
		*errors += show(fd, label, DRM_UGPU_PARAM_MALI_JS_FEATURES, i,
				"0x%08" PRIx64);
	}
	for (i = 0; i < 4; i++) {
		char label[32];

		if (get_param(fd, DRM_UGPU_PARAM_MALI_TEXTURE_FEATURES, i, &v))
			break;
		snprintf(label, sizeof(label), "TEXTURE_FEATURES_%u", i);
		printf("  %-24s 0x%08" PRIx64 "\n", label, v);
	}
}

/* Returns the number of parameters that could not be read. */
static int describe(int fd, const char *node)
{
	uint64_t family = 0, nwords = 0, nqueues = 0, va_start = 0, va_size = 0;
	uint64_t v = 0;
	char dev[PATH_MAX];
	int errors = 0;
	uint32_t i;
	int ret;

	device_name(node, dev, sizeof(dev));
	ret = get_param(fd, DRM_UGPU_PARAM_FAMILY, 0, &family);
	if (brief) {
		printf("%s %s %s\n", node, ret ? "unknown" : family_name(family),
		       dev);
		return ret ? 1 : 0;
	}

	printf("%s (%s)\n", node, dev);
	if (ret) {
		printf("  family: error %d (%s)\n", ret, strerror(-ret));
		return 1;
	}
	printf("  %-24s %s (%" PRIu64 ")\n", "family", family_name(family),
	       family);
	errors += show(fd, "chip model", DRM_UGPU_PARAM_CHIP_MODEL, 0,
		       "0x%04" PRIx64);
	errors += show(fd, "chip revision", DRM_UGPU_PARAM_CHIP_REVISION, 0,
		       "0x%04" PRIx64);
	errors += show(fd, "chip id", DRM_UGPU_PARAM_CHIP_ID, 0,
		       "0x%016" PRIx64);

	if (get_param(fd, DRM_UGPU_PARAM_NUM_FEATURE_WORDS, 0, &nwords))
		errors++;
	printf("  %-24s %" PRIu64 "\n", "feature words", nwords);
	for (i = 0; i < nwords; i++) {
		char label[32];

		snprintf(label, sizeof(label), "  features[%u]", i);
		errors += show(fd, label, DRM_UGPU_PARAM_FEATURES, i,
			       "0x%08" PRIx64);
	}

	if (get_param(fd, DRM_UGPU_PARAM_NUM_QUEUES, 0, &nqueues))
		errors++;
	printf("  %-24s %" PRIu64 "\n", "queues", nqueues);
	for (i = 0; i < nqueues; i++) {
		if (get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, i, &v)) {
			printf("    queue %u: caps error\n", i);
			errors++;
			continue;
		}
		printf("    queue %u: caps ", i);
		print_caps(v);
	}

	if (get_param(fd, DRM_UGPU_PARAM_VA_START, 0, &va_start) ||
	    get_param(fd, DRM_UGPU_PARAM_VA_SIZE, 0, &va_size))
		errors++;
	printf("  %-24s 0x%" PRIx64 "-0x%" PRIx64 " (%" PRIu64 " MiB)\n",
	       "va range", va_start, va_start + va_size, va_size >> 20);
	errors += show(fd, "contig pool size", DRM_UGPU_PARAM_CONTIG_POOL_SIZE,
		       0, "%" PRIu64 " bytes");
	errors += show(fd, "contig pool free", DRM_UGPU_PARAM_CONTIG_POOL_FREE,
		       0, "%" PRIu64 " bytes");
	errors += show(fd, "timestamp frequency",
		       DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY, 0, "%" PRIu64 " Hz");
	errors += show(fd, "timestamp", DRM_UGPU_PARAM_TIMESTAMP, 0,
		       "%" PRIu64);
	errors += show(fd, "max cmds per submit", DRM_UGPU_PARAM_MAX_CMDS, 0,
		       "%" PRIu64);

	if (family == DRM_UGPU_FAMILY_MALI)
		show_mali(fd, &errors);
	return errors;
}

/* Opens @node; returns the fd if its driver is ugpu, else -1. */
static int open_ugpu(const char *node)
{
	drmVersionPtr ver;
	bool ours;
	int fd;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ver = drmGetVersion(fd);
	ours = ver && !strcmp(ver->name, "ugpu");
	drmFreeVersion(ver);
	if (!ours) {
		close(fd);
		return -1;
	}
	return fd;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Render nodes in /dev/dri, sorted; returns how many were found. */
static int find_nodes(char **nodes, int max)
{
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = opendir(DRI_DIR);
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && n < max) {
		if (strncmp(de->d_name, "renderD", 7))
			continue;
		if (asprintf(&nodes[n], DRI_DIR "/%s", de->d_name) < 0)
			break;
		n++;
	}
	closedir(dir);
	qsort(nodes, n, sizeof(*nodes), cmp_str);
	return n;
}

int main(int argc, char **argv)
{
	char *nodes[MAX_NODES];
	int found = 0, errors = 0;
	int i, n, fd, opt;

	while ((opt = getopt(argc, argv, "fh")) != -1) {
		switch (opt) {
		case 'f':
			brief = true;
			break;
		default:
			fprintf(stderr, "usage: %s [-f] [render node...]\n",
				argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}

	if (optind < argc) {
		n = 0;
		for (i = optind; i < argc && n < MAX_NODES; i++)
			nodes[n++] = strdup(argv[i]);
	} else {
		n = find_nodes(nodes, MAX_NODES);
	}

	for (i = 0; i < n; i++) {
		fd = open_ugpu(nodes[i]);
		if (fd >= 0) {
			found++;
			errors += describe(fd, nodes[i]);
			close(fd);
		}
		free(nodes[i]);
	}

	if (!found) {
		fprintf(stderr, "ugpu-info: no ugpu render node found\n");
		return 1;
	}
	if (!brief)
		printf("%d ugpu device(s), %d parameter error(s)\n", found,
		       errors);
	return errors ? 1 : 0;
}
