/* SPDX-License-Identifier: MIT */
/*
 * Opening DRM devices, as IGT's drmtest.h does it, restricted to ugpu.
 */
#ifndef DRMTEST_H
#define DRMTEST_H

#include <stdbool.h>

/* Driver selectors of drm_open_driver*(): only ugpu is known here. */
#define DRIVER_UGPU	(1 << 0)
#define DRIVER_ANY	~0

/* The name DRM_IOCTL_VERSION reports for a ugpu device. */
#define UGPU_DRIVER_NAME "ugpu"

int __drm_open_driver_render(int chipset);
int drm_open_driver_render(int chipset);
int __drm_open_render_minor(int minor);
bool is_ugpu_device(int fd);
void drm_close_driver(int fd);

#endif /* DRMTEST_H */
