// SPDX-License-Identifier: MIT
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/types.h>

#include "igt_core.h"
#include "sw_sync.h"

#define SW_SYNC_PATH	"/sys/kernel/debug/sync/sw_sync"

/* The kernel's ABI (drivers/dma-buf/sw_sync.c); no uapi header has it. */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};

#define SW_SYNC_IOC_MAGIC		'W'
#define SW_SYNC_IOC_CREATE_FENCE	\
	_IOWR(SW_SYNC_IOC_MAGIC, 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC			_IOW(SW_SYNC_IOC_MAGIC, 1, __u32)

bool kernel_has_sw_sync(void)
{
	return access(SW_SYNC_PATH, R_OK | W_OK) == 0;
}

int sw_sync_timeline_create(void)
{
	int fd = open(SW_SYNC_PATH, O_RDWR | O_CLOEXEC);

	igt_assert_f(fd >= 0, "cannot open %s\n", SW_SYNC_PATH);
	return fd;
}

int sw_sync_timeline_create_fence(int timeline, uint32_t seqno)
{
	struct sw_sync_create_fence_data data = { .value = seqno };

	snprintf(data.name, sizeof(data.name), "ugpu-test-%u", seqno);
	igt_assert_eq(ioctl(timeline, SW_SYNC_IOC_CREATE_FENCE, &data), 0);
	igt_assert(data.fence >= 0);
	return data.fence;
}

void sw_sync_timeline_inc(int timeline, uint32_t count)
{
	__u32 arg = count;

	igt_assert_eq(ioctl(timeline, SW_SYNC_IOC_INC, &arg), 0);
}
