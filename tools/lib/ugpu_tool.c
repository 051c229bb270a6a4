// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every ugpu tool needs; see ugpu_tool.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "ugpu_drm.h"
#include "ugpu_tool.h"

#define DRI_DIR		"/dev/dri"
#define RENDER_PREFIX	"renderD"

/* Exit status of a test that found nothing to test. */
#define EXIT_SKIP	77

int ugpu_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value)
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

const char *ugpu_family_name(uint64_t family)
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

int ugpu_open(const char *node)
{
	drmVersionPtr version;
	bool is_ugpu;
	int fd;

	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	version = drmGetVersion(fd);
	is_ugpu = version && !strcmp(version->name, "ugpu");
	drmFreeVersion(version);
	if (!is_ugpu) {
		close(fd);
		return -1;
	}
	return fd;
}

int ugpu_device_name(const char *node, char *buf, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	char *copy = strdup(node);	/* basename() may modify its argument */
	const char *node_name = copy ? basename(copy) : node;
	ssize_t n;
	int ret = 0;

	snprintf(link, sizeof(link), "/sys/class/drm/%s/device", node_name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(buf, len, "%s", node_name);
		ret = -1;
	} else {
		target[n] = '\0';
		snprintf(buf, len, "%s", basename(target));
	}
	free(copy);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

/* Render nodes in /dev/dri, sorted; returns how many were found. */
static int find_render_nodes(char **nodes, int max)
{
	struct dirent *de;
	DIR *dir;
	int n = 0;

	dir = opendir(DRI_DIR);
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && n < max) {
		if (strncmp(de->d_name, RENDER_PREFIX, strlen(RENDER_PREFIX)))
			continue;
		if (asprintf(&nodes[n], DRI_DIR "/%s", de->d_name) < 0)
			break;
		n++;
	}
	closedir(dir);
	qsort(nodes, n, sizeof(*nodes), cmp_str);
	return n;
}

static bool is_family(int fd, uint64_t family)
{
	uint64_t value = 0;

	return !ugpu_get_param(fd, DRM_UGPU_PARAM_FAMILY, 0, &value) &&
	       value == family;
}

/* Calls @fn if @node is a ugpu node of @family; returns whether it did. */
static bool visit_node(const char *node, uint64_t family, ugpu_node_fn fn,
		       void *arg, int *failed)
{
	int fd;

	fd = ugpu_open(node);
	if (fd < 0)
		return false;
	if (family && !is_family(fd, family)) {
		close(fd);
		return false;
	}
	if (fn(fd, node, arg))
		(*failed)++;
	close(fd);
	return true;
}

int ugpu_visit_nodes(char **paths, int count, uint64_t family,
		     ugpu_node_fn fn, void *arg, int *failed)
{
	char *found[UGPU_MAX_NODES];
	int i, nfound, visited = 0;

	*failed = 0;
	if (count) {
		for (i = 0; i < count && i < UGPU_MAX_NODES; i++)
			visited += visit_node(paths[i], family, fn, arg,
					      failed);
		return visited;
	}

	nfound = find_render_nodes(found, UGPU_MAX_NODES);
	for (i = 0; i < nfound; i++) {
		visited += visit_node(found[i], family, fn, arg, failed);
		free(found[i]);
	}
	return visited;
}

int ugpu_ctx_create(int fd, uint32_t *handle)
{
	struct drm_ugpu_ctx_create req = {
		.priority = DRM_UGPU_CTX_PRIORITY_MEDIUM,
	};

	if (drmIoctl(fd, DRM_IOCTL_UGPU_CTX_CREATE, &req))
		return -errno;
	*handle = req.handle;
	return 0;
}

void ugpu_ctx_destroy(int fd, uint32_t handle)
{
	struct drm_ugpu_ctx_destroy req = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_UGPU_CTX_DESTROY, &req);
}

int ugpu_bo_create(int fd, uint64_t size, uint32_t flags, struct ugpu_bo *bo)
{
	struct drm_ugpu_bo_create req = { .size = size, .flags = flags };
	void *map;

	if (drmIoctl(fd, DRM_IOCTL_UGPU_BO_CREATE, &req))
		return -errno;
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   req.mmap_offset);
	if (map == MAP_FAILED) {
		struct drm_gem_close close_req = { .handle = req.handle };
		int err = -errno;

		drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &close_req);
		return err;
	}
	bo->handle = req.handle;
	bo->va = req.va;
	bo->size = size;
	bo->map = map;
	memset(bo->map, 0, size);
	return 0;
}

void ugpu_bo_destroy(int fd, struct ugpu_bo *bo)
{
	struct drm_gem_close req = { .handle = bo->handle };

	if (!bo->map)
		return;
	munmap(bo->map, bo->size);
	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &req);
	bo->map = NULL;
}

int64_t ugpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

int64_t ugpu_deadline_ns(int64_t from_now)
{
	return ugpu_now_ns() + from_now;
}

struct demo_run {
	const struct ugpu_demo *demo;
	const char *out_dir;
};

static int draw_on_node(int fd, const char *node, void *arg)
{
	const struct demo_run *run = arg;
	char device[NAME_MAX + 1];

	ugpu_device_name(node, device, sizeof(device));
	return run->demo->draw(fd, device, run->out_dir);
}

int ugpu_demo_main(const struct ugpu_demo *demo, int argc, char **argv)
{
	struct demo_run run = { .demo = demo, .out_dir = "." };
	int devices, failed, opt;

	while ((opt = getopt(argc, argv, "o:h")) != -1) {
		switch (opt) {
		case 'o':
			run.out_dir = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-o DIR] [render node...]\n",
				argv[0]);
			if (demo->what)
				fprintf(stderr, "%s\n", demo->what);
			return opt == 'h' ? 0 : 2;
		}
	}

	devices = ugpu_visit_nodes(argv + optind, argc - optind,
				   demo->family, draw_on_node, &run, &failed);
	if (!devices) {
		fprintf(stderr, "%s: no %s device found\n", demo->prog,
			demo->family_label);
		return EXIT_SKIP;
	}
	return failed ? 1 : 0;
}
