/* SPDX-License-Identifier: MIT */
/*
 * The kernel's sw_sync timelines (debugfs sync/sw_sync), with the names
 * IGT's sw_sync.h gives them: fences that signal only when the test
 * advances the timeline, never on a timeout.
 */
#ifndef SW_SYNC_H
#define SW_SYNC_H

#include <stdbool.h>
#include <stdint.h>

/* Whether the kernel offers sw_sync (CONFIG_SW_SYNC, debugfs mounted). */
bool kernel_has_sw_sync(void);
/* A new timeline at 0; its file descriptor. */
int sw_sync_timeline_create(void);
/* A sync_file fd that signals once the timeline reaches @seqno. */
int sw_sync_timeline_create_fence(int timeline, uint32_t seqno);
/* Advance the timeline by @count, signalling the fences it passes. */
void sw_sync_timeline_inc(int timeline, uint32_t count);

#endif /* SW_SYNC_H */
