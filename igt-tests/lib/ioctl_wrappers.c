// SPDX-License-Identifier: MIT
#include <string.h>
#include <drm.h>

#include "ioctl_wrappers.h"

int __gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close arg;

	memset(&arg, 0, sizeof(arg));
	arg.handle = handle;
	if (igt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &arg))
		return -errno;
	return 0;
}

void gem_close(int fd, uint32_t handle)
{
	igt_assert_eq(__gem_close(fd, handle), 0);
}
