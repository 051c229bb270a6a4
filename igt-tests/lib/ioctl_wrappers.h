/* SPDX-License-Identifier: MIT */
/*
 * ioctl helpers with IGT's names: igt_ioctl restarts interrupted calls,
 * do_ioctl asserts success, do_ioctl_err asserts a given errno.
 */
#ifndef IOCTL_WRAPPERS_H
#define IOCTL_WRAPPERS_H

#include <errno.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include "igt_core.h"

static inline int igt_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

#define do_ioctl(fd, ioc, ioc_data) do {				\
	igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), 0);		\
	errno = 0;							\
} while (0)

#define do_ioctl_err(fd, ioc, ioc_data, err) do {			\
	igt_assert_eq(igt_ioctl((fd), (ioc), (ioc_data)), -1);		\
	igt_assert_eq(errno, (err));					\
	errno = 0;							\
} while (0)

int __gem_close(int fd, uint32_t handle);
void gem_close(int fd, uint32_t handle);

#endif /* IOCTL_WRAPPERS_H */
