/* SPDX-License-Identifier: MIT */
/* Odds and ends, as IGT's igt_aux.h and igt_sysfs.h have them. */
#ifndef IGT_AUX_H
#define IGT_AUX_H

#include <stdbool.h>
#include <stdint.h>

/* Current CLOCK_MONOTONIC time in nanoseconds. */
uint64_t igt_nsec_now(void);
/* An absolute CLOCK_MONOTONIC deadline @ms milliseconds from now. */
int64_t igt_deadline_ns(unsigned int ms);

/* Read a whole small file into @buf (NUL-terminated); -errno on error. */
int igt_sysfs_read(const char *path, char *buf, size_t size);
/* Write @str to @path; -errno on error. */
int igt_sysfs_write(const char *path, const char *str);

/* Drop CAP_SYS_NICE from every capability set of this process. */
void igt_drop_cap_sys_nice(void);

#endif /* IGT_AUX_H */
