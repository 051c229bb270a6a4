// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

#include "igt_core.h"
#include "igt_aux.h"

uint64_t igt_nsec_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int64_t igt_deadline_ns(unsigned int ms)
{
	return igt_nsec_now() + (uint64_t)ms * 1000000ull;
}

int igt_sysfs_read(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	if (len < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	buf[len] = '\0';
	close(fd);
	return len;
}

int igt_sysfs_write(const char *path, const char *str)
{
	ssize_t len;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = write(fd, str, strlen(str));
	if (len < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

void igt_drop_cap_sys_nice(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[2];
	int idx = CAP_SYS_NICE / 32;
	uint32_t bit = 1u << (CAP_SYS_NICE % 32);

	/* Out of the bounding set first, so that exec cannot regain it. */
	prctl(PR_CAPBSET_DROP, CAP_SYS_NICE, 0, 0, 0);

	memset(data, 0, sizeof(data));
	igt_assert(syscall(SYS_capget, &hdr, data) == 0);
	data[idx].effective &= ~bit;
	data[idx].permitted &= ~bit;
	data[idx].inheritable &= ~bit;
	igt_assert(syscall(SYS_capset, &hdr, data) == 0);
}
