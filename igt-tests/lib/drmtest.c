// SPDX-License-Identifier: MIT
/*
 * Finding and opening ugpu render nodes.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt_core.h"
#include "drmtest.h"

bool is_ugpu_device(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ret;

	if (!v)
		return false;
	ret = v->name && strcmp(v->name, UGPU_DRIVER_NAME) == 0;
	drmFreeVersion(v);
	return ret;
}

/* Open render node @minor (128 and up) if it is a ugpu device, else -1. */
int __drm_open_render_minor(int minor)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/dri/renderD%d", minor);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!is_ugpu_device(fd)) {
		close(fd);
		return -1;
	}
	return fd;
}

int __drm_open_driver_render(int chipset)
{
	int minor;

	if (!(chipset & DRIVER_UGPU))
		return -1;
	for (minor = 128; minor < 128 + 64; minor++) {
		int fd = __drm_open_render_minor(minor);

		if (fd >= 0)
			return fd;
	}
	return -1;
}

int drm_open_driver_render(int chipset)
{
	int fd = __drm_open_driver_render(chipset);

	igt_require_f(fd >= 0, "No ugpu render node found\n");
	return fd;
}

void drm_close_driver(int fd)
{
	close(fd);
}
