/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every ugpu tool needs: finding and opening the ugpu render nodes,
 * reading parameters, buffer objects, and the main loop of the demos that
 * draw a picture on every device of one family.
 */
#ifndef _UGPU_TOOLS_UGPU_TOOL_H_
#define _UGPU_TOOLS_UGPU_TOOL_H_

#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Render nodes looked at, at the most. */
#define UGPU_MAX_NODES	64

#define NSEC_PER_SEC	1000000000LL

int ugpu_get_param(int fd, uint32_t param, uint32_t index, uint64_t *value);

/* "vivante", "mali", "adreno" or "unknown". */
const char *ugpu_family_name(uint64_t family);

/* Opens @node; returns the fd if its driver is ugpu, else -1. */
int ugpu_open(const char *node);

/*
 * Puts the platform device behind render node @node (e.g. "ugpu-mali.1")
 * in @buf and returns 0; if there is none, puts the node's own file name
 * and returns -1.
 */
int ugpu_device_name(const char *node, char *buf, size_t len);

/*
 * Called on an open ugpu render node; a non-zero return counts as a
 * failure.
 */
typedef int (*ugpu_node_fn)(int fd, const char *node, void *arg);

/*
 * Calls @fn on each of the @count render nodes @paths, or on every render
 * node of /dev/dri in name order if @count is 0, that ugpu drives and,
 * unless @family is 0, whose family is @family. Returns how many nodes
 * @fn was called on; *@failed is set to how many of them failed.
 */
int ugpu_visit_nodes(char **paths, int count, uint64_t family,
		     ugpu_node_fn fn, void *arg, int *failed);

/* Creates a context of medium priority; returns 0 or -errno. */
int ugpu_ctx_create(int fd, uint32_t *handle);
void ugpu_ctx_destroy(int fd, uint32_t handle);

/* A buffer object, mapped. */
struct ugpu_bo {
	uint32_t handle;
	uint64_t va;
	uint64_t size;
	uint8_t *map;
};

/* Creates and maps a zeroed BO; returns 0 or -errno. */
int ugpu_bo_create(int fd, uint64_t size, uint32_t flags, struct ugpu_bo *bo);
/* Unmaps and closes @bo; nothing if it was not created. */
void ugpu_bo_destroy(int fd, struct ugpu_bo *bo);

/* CLOCK_MONOTONIC time now, in ns. */
int64_t ugpu_now_ns(void);
/* CLOCK_MONOTONIC time @from_now ns from now, for drmSyncobjWait(). */
int64_t ugpu_deadline_ns(int64_t from_now);

/*
 * A demo: draws a picture on each device of one family and writes it
 * as a PNG into a directory.
 */
struct ugpu_demo {
	const char *prog;		/* the program's name, for messages */
	const char *family_label;	/* the family in messages, e.g. "Mali" */
	uint64_t family;		/* DRM_UGPU_FAMILY_* */
	/* What it draws, for the usage text; may be NULL. */
	const char *what;
	/* Draws on @fd, device @device; returns 0 or -errno. */
	int (*draw)(int fd, const char *device, const char *out_dir);
};

/*
 * The main() of a demo: "<prog> [-o DIR] [render node...]" draws on every
 * device of the family (DIR defaults to "."). Returns the exit status: 0
 * all drawn, 77 no device of the family, 1 a failure, 2 a usage error.
 */
int ugpu_demo_main(const struct ugpu_demo *demo, int argc, char **argv);

#endif
