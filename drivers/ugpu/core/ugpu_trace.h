/* SPDX-License-Identifier: GPL-2.0-only */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ugpu

#if !defined(_UGPU_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _UGPU_TRACE_H_

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(ugpu_job,
	TP_PROTO(const char *dev, u32 queue, u32 ctx, u64 seqno, int error),
	TP_ARGS(dev, queue, ctx, seqno, error),
	TP_STRUCT__entry(
		__string(dev, dev)
		__field(u32, queue)
		__field(u32, ctx)
		__field(u64, seqno)
		__field(int, error)
	),
	TP_fast_assign(
		__assign_str(dev);
		__entry->queue = queue;
		__entry->ctx = ctx;
		__entry->seqno = seqno;
		__entry->error = error;
	),
	TP_printk("dev=%s queue=%u ctx=%u seqno=%llu error=%d",
		  __get_str(dev), __entry->queue, __entry->ctx,
		  __entry->seqno, __entry->error)
);

/* A command was queued; @queue is UGPU_MAX_QUEUES for soft commands. */
DEFINE_EVENT(ugpu_job, ugpu_job_submit,
	TP_PROTO(const char *dev, u32 queue, u32 ctx, u64 seqno, int error),
	TP_ARGS(dev, queue, ctx, seqno, error)
);

/* A command was handed to the hardware or executed. */
DEFINE_EVENT(ugpu_job, ugpu_job_run,
	TP_PROTO(const char *dev, u32 queue, u32 ctx, u64 seqno, int error),
	TP_ARGS(dev, queue, ctx, seqno, error)
);

/* A command finished, with @error when it failed. */
DEFINE_EVENT(ugpu_job, ugpu_job_done,
	TP_PROTO(const char *dev, u32 queue, u32 ctx, u64 seqno, int error),
	TP_ARGS(dev, queue, ctx, seqno, error)
);

#endif /* _UGPU_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE ugpu_trace
#include <trace/define_trace.h>
