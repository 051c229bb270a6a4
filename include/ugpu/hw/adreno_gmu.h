/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Qualcomm Adreno a6xx GMU (graphics management unit), as the a618 and
 * the a635 have it: the registers of its "gmu" window and of its RSC
 * (inside that window on the a618, a window of its own, "rscc", on the
 * a650 family the a635 belongs to), of the GPU's PDC ("gmu_pdc",
 * "gmu_pdc_seq"), the block format of the newer firmware files, and the
 * layout of the HFI (host firmware interface) queues and of the messages
 * of version 1 (the a618's legacy firmware) and version 2 (the a635's).
 * Shared by the driver and the simulated GMU; the facts are those of the
 * msm driver's register database.
 *
 * Register offsets are dword offsets inside their window; the MMIO byte
 * offset is four times that (A6XX_MMIO()).
 */
#ifndef _UGPU_HW_ADRENO_GMU_H_
#define _UGPU_HW_ADRENO_GMU_H_

#include <ugpu/hw/ugpu_bits.h>

/* The "gmu" window: the GMU's own registers and its always-on block. */
#define GMU_WINDOW_SIZE			0x31000	/* bytes, as sc7180.dtsi */
#define GMU_WINDOW_SIZE_A650		0x34000	/* bytes, as sc7280.dtsi */
#define GMU_GX_SPTPRAC_POWER_CONTROL	0x0081
#define   GMU_SPTPRAC_POWER_ON		0x778000
#define   GMU_SPTPRAC_POWER_OFF		0x778001
#define GMU_CM3_ITCM_START		0x0c00
#define   GMU_CM3_ITCM_SIZE		0x8000	/* bytes the legacy image may fill */
#define GMU_CM3_DTCM_START		0x1c00
#define   GMU_CM3_DTCM_FW_VERSION	0x0ff8	/* dwords into DTCM */
#define GMU_BOOT_SLUMBER_OPTION		0x23f8
#define   GMU_BOOT_OPTION_BOOT		0	/* GX rail on */
#define   GMU_BOOT_OPTION_SLUMBER	1	/* GX off, RPMh sleep */
#define GMU_GX_VOTE_IDX			0x23f9
#define GMU_MX_VOTE_IDX			0x23fa
#define GMU_DCVS_ACK_OPTION		0x23fc
#define GMU_DCVS_PERF_SETTING		0x23fd
/* Perf index into the HFI perf table, and the "change now" option. */
#define   GMU_DCVS_PERF(idx)		((3u << 28) | ((idx) & 0xff))
#define   GMU_DCVS_PERF_IDX(v)		((v) & 0xff)
#define GMU_DCVS_BW_SETTING		0x23fe
#define   GMU_DCVS_BW_FIRMWARE		0xff	/* the firmware picks */
#define GMU_DCVS_RETURN			0x23ff
#define GMU_ICACHE_CONFIG		0x4c00
#define GMU_DCACHE_CONFIG		0x4c01
#define GMU_SYS_BUS_CONFIG		0x4c0f
#define GMU_CM3_SYSRESET		0x5000	/* 1: CM3 held in reset */
#define GMU_CM3_BOOT_CONFIG		0x5001
#define GMU_CM3_FW_BUSY			0x501a
#define GMU_CM3_FW_INIT_RESULT		0x501c
#define   GMU_FW_INIT_DONE		0xbabeface	/* legacy firmware */
#define   GMU_FW_VERSION_LEGACY_MAX	0x20010004
/* Newer firmware (DTCM version above the legacy one) says done here. */
#define   GMU_FW_INIT_RESULT_MASK	0x1ff
#define   GMU_FW_INIT_RESULT_DONE	0x100
#define GMU_CM3_CFG			0x502d
#define GMU_CX_GMU_POWER_COUNTER_ENABLE	0x5040
#define GMU_ALWAYS_ON_COUNTER_L		0x5088
#define GMU_ALWAYS_ON_COUNTER_H		0x5089
#define GMU_PWR_COL_INTER_FRAME_CTRL	0x50c0
#define GMU_PWR_COL_INTER_FRAME_HYST	0x50c1
#define GMU_PWR_COL_SPTPRAC_HYST	0x50c2
#define GMU_GMU_PWR_COL_KEEPALIVE	0x50c3
#define GMU_SPTPRAC_PWR_CLK_STATUS	0x50d0
#define   GMU_SPTPRAC_GDSC_POWERING_OFF	BIT(0)
#define   GMU_SPTPRAC_GDSC_POWERING_ON	BIT(1)
#define   GMU_SPTPRAC_GDSC_POWER_OFF	BIT(2)
#define   GMU_SPTPRAC_GDSC_POWER_ON	BIT(3)
#define   GMU_SPTPRAC_SP_CLOCK_OFF	BIT(4)
#define   GMU_SPTPRAC_GMU_UP_POWER_STATE BIT(5)
#define   GMU_SPTPRAC_GX_HM_GDSC_POWER_OFF BIT(6)
#define   GMU_SPTPRAC_GX_HM_CLK_OFF	BIT(7)
/* What SPTPRAC_PWR_CLK_STATUS & 0x38 reads once SP/TP are powered. */
#define   GMU_SPTPRAC_ON_MASK		0x38
#define   GMU_SPTPRAC_ON_VALUE		0x28
#define GMU_RPMH_CTRL			0x50e8
#define   GMU_RPMH_INTERFACE_ENABLE	BIT(0)
#define   GMU_RPMH_LLC_VOTE_ENABLE	BIT(4)
#define   GMU_RPMH_DDR_VOTE_ENABLE	BIT(8)
#define   GMU_RPMH_MX_VOTE_ENABLE	BIT(9)
#define   GMU_RPMH_CX_VOTE_ENABLE	BIT(10)
#define   GMU_RPMH_GFX_VOTE_ENABLE	BIT(11)
#define GMU_RPMH_POWER_STATE		0x50ec
#define   GMU_RPMH_POWER_STATE_SLUMBER	0x0f
/* a650 family: the host's veto of the FAL10 low-power mode. */
#define GMU_CX_FAL_INTF			0x50f0
#define GMU_CX_FALNEXT_INTF		0x50f1
#define GMU_PWR_COL_CP_MSG		0x5100	/* log buffer: iova | 4K pages - 1 */
#define GMU_PWR_COL_CP_RESP		0x5101
#define GMU_HFI_CTRL_STATUS		0x5180
#define GMU_HFI_VERSION_INFO		0x5181
#define GMU_HFI_SFR_ADDR		0x5182	/* legacy: the GMU's chip id */
#define GMU_HFI_QTBL_INFO		0x5184
#define GMU_HFI_QTBL_ADDR		0x5185
#define GMU_HFI_CTRL_INIT		0x5186
#define GMU_GMU2HOST_INTR_SET		0x5190
#define GMU_GMU2HOST_INTR_CLR		0x5191
#define GMU_GMU2HOST_INTR_INFO		0x5192
#define   GMU_INTR_MSGQ			BIT(0)	/* a response is queued */
#define   GMU_INTR_CM3_FAULT		BIT(23)
#define GMU_GMU2HOST_INTR_MASK		0x5193
#define GMU_HOST2GMU_INTR_SET		0x5194
#define   GMU_HOST_INTR_CMDQ		BIT(0)	/* a command is queued */
#define GMU_HOST2GMU_INTR_CLR		0x5195
#define GMU_HOST2GMU_INTR_RAW_INFO	0x5196
#define GMU_GENERAL_7			0x51cc	/* 1: TCM retained (warm boot) */

/*
 * Out-of-band requests of the legacy (a630-family) firmware: the host
 * sets the request bit in HOST2GMU_INTR_SET, the GMU answers with the ack
 * bit in GMU2HOST_INTR_INFO, the host clears that, and ends the request
 * by setting the ack bit in HOST2GMU_INTR_SET.
 */
#define GMU_OOB_GPU_SET_REQ		16
#define GMU_OOB_GPU_SET_ACK		24
#define GMU_OOB_PERFCOUNTER_REQ		17
#define GMU_OOB_PERFCOUNTER_ACK		25
#define GMU_OOB_BOOT_SLUMBER_REQ	22
#define GMU_OOB_BOOT_SLUMBER_ACK	30
#define GMU_OOB_DCVS_REQ		23
#define GMU_OOB_DCVS_ACK		31

/*
 * The newer firmware's (a640 family on) out-of-band requests: only GPU_SET
 * and PERFCOUNTER remain, on other bits, and each is ended by a clear bit
 * of its own; boot, slumber and frequency changes are HFI messages.
 */
#define GMU_OOB_GPU_SET_REQ_NEW		30
#define GMU_OOB_GPU_SET_ACK_NEW		31
#define GMU_OOB_GPU_SET_CLEAR_NEW	31
#define GMU_OOB_PERFCOUNTER_REQ_NEW	28
#define GMU_OOB_PERFCOUNTER_ACK_NEW	30
#define GMU_OOB_PERFCOUNTER_CLEAR_NEW	29

/* The always-on block (still in the "gmu" window). */
#define GMU_AO_HOST_INTERRUPT_CLR	0x9304
#define GMU_AO_HOST_INTERRUPT_STATUS	0x9305
#define   GMU_AO_INT_WDOG_BITE		BIT(0)
#define   GMU_AO_INT_RSCC_COMP		BIT(1)
#define   GMU_AO_INT_FENCE_ERR		BIT(3)
#define   GMU_AO_INT_HOST_AHB_BUS_ERROR	BIT(5)
#define GMU_AO_HOST_INTERRUPT_MASK	0x9306
#define GMU_RSCC_CONTROL_REQ		0x9307
#define GMU_RSCC_CONTROL_ACK		0x9308
#define   GMU_RSCC_SLEEP		BIT(0)
#define   GMU_RSCC_WAKE			BIT(1)
#define GMU_AO_GPU_CX_BUSY_STATUS	0x930c
#define   GMU_AO_GPU_BUSY_IGN_AHB	BIT(23)
#define GMU_AO_AHB_FENCE_CTRL		0x9310
#define GMU_AHB_FENCE_RANGE_0		0x9311
#define GMU_AHB_FENCE_STATUS_CLR	0x9314
#define GMU_CC_GX_GDSCR			0x9c03
#define   GMU_CC_GX_GDSC_RETAIN		BIT(11)

/*
 * The GPU's RSC (RSCC), at this many dwords into the a618's "gmu" window;
 * the a650 family's RSCC is the "rscc" window, its registers at the same
 * offsets from that window's start.
 */
#define GMU_RSCC_BASE			0x8c00
#define RSCC_RSC_STATUS0_DRV0		0x0004
#define   RSCC_STATUS0_SDE_CG_OFF	BIT(24)	/* written at init */
#define   RSCC_STATUS0_SLEEP_DONE	BIT(16)
#define RSCC_PDC_SEQ_START_ADDR		0x0008
#define RSCC_PDC_MATCH_VALUE_LO		0x0009
#define RSCC_PDC_MATCH_VALUE_HI		0x000a
#define RSCC_PDC_SLAVE_ID_DRV0		0x000b
#define RSCC_HIDDEN_TCS_CMD0_ADDR	0x000d
#define RSCC_HIDDEN_TCS_CMD0_DATA	0x000e
#define RSCC_OVERRIDE_START_ADDR	0x0100
#define RSCC_SEQ_BUSY_DRV0		0x0101
#define RSCC_SEQ_MEM_0_DRV0		0x0180
#define RSCC_TCS0_DRV0_STATUS		0x0346
#define RSCC_TCS1_DRV0_STATUS		0x03ee
#define RSCC_TCS2_DRV0_STATUS		0x0496
#define RSCC_TCS3_DRV0_STATUS		0x053e
#define RSCC_WINDOW_SIZE		0x10000	/* bytes: sc7280.dtsi's "rscc" */

/*
 * Newer GMU firmware files are a sequence of blocks, each a struct
 * gmu_fw_block and @size bytes of data to load at @addr in the CM3's view:
 * its instruction and data TCMs (written through the ITCM and DTCM
 * registers, at most %GMU_TCM_LOAD_SIZE bytes each) or the GMU memory the
 * host maps for it (the a650 family's instruction cache region and the
 * buffers the firmware allocates at fixed addresses).
 */
#define GMU_FW_ITCM_ADDR		0x00000000
#define GMU_FW_DTCM_ADDR_A650		0x10004000
#define GMU_TCM_LOAD_SIZE		0x4000

/**
 * struct gmu_fw_block - header of one block of a block-format firmware.
 * @addr: where the data goes, in the CM3's address space.
 * @size: bytes of data after this header; a multiple of 4.
 * @type: block type (not interpreted by the loader).
 * @value: block argument (not interpreted by the loader).
 */
struct gmu_fw_block {
	__le32 addr;
	__le32 size;
	__le32 type;
	__le32 value;
};

/*
 * GMU memory the a650 family's firmware uses at fixed addresses: its
 * instruction cache region, and what msm calls its "dummy" and "debug"
 * buffers, the firmware's preallocation requests of the a660 family.
 */
#define GMU_A650_ICACHE_ADDR		0x00004000
#define GMU_A650_ICACHE_SIZE		(0x1000000 - 0x4000)
#define GMU_A660_DUMMY_ADDR		0x60000000
#define GMU_A660_DUMMY_SIZE		0x2000
#define GMU_A660_DEBUG_ADDR		0x60400000
#define GMU_A660_DEBUG_SIZE		0x7000

/* The GPU's PDC ("gmu_pdc" window) and its sequencer ("gmu_pdc_seq"). */
#define PDC_WINDOW_SIZE			0x10000	/* bytes, each window */
#define PDC_GPU_ENABLE_PDC		0x1140
#define   PDC_GPU_ENABLE		0x80000001
#define PDC_GPU_SEQ_START_ADDR		0x1148
#define PDC_GPU_TCS0_CONTROL		0x1540
#define PDC_GPU_TCS1_CONTROL		0x1572
#define PDC_GPU_TCS1_CMD_ENABLE_BANK	0x1573
#define PDC_GPU_TCS1_CMD_WAIT_FOR_CMPL_BANK 0x1574
#define PDC_GPU_TCS1_CMD0_MSGID		0x1575
#define PDC_GPU_TCS1_CMD0_ADDR		0x1576
#define PDC_GPU_TCS1_CMD0_DATA		0x1577
#define PDC_GPU_TCS3_CONTROL		0x15d6
#define PDC_GPU_TCS3_CMD_ENABLE_BANK	0x15d7
#define PDC_GPU_TCS3_CMD_WAIT_FOR_CMPL_BANK 0x15d8
#define PDC_GPU_TCS3_CMD0_MSGID		0x15d9
#define PDC_GPU_TCS3_CMD0_ADDR		0x15da
#define PDC_GPU_TCS3_CMD0_DATA		0x15db
#define PDC_TCS_CMD_STRIDE		4	/* dwords from CMDn to CMDn+1 */
#define PDC_GPU_SEQ_MEM_0		0x0000	/* in "gmu_pdc_seq" */

/*
 * HFI: queues in GMU memory. The host writes the queue table's address
 * (a GMU virtual address, through the GMU's own SMMU context) to
 * HFI_QTBL_ADDR: a table header, then @num_queues queue headers, each
 * naming a ring of dwords. Queue 0 carries commands to the GMU, queue 1
 * its responses. Read and write indices count dwords.
 */
#define HFI_QUEUE_CMD			0
#define HFI_QUEUE_RESPONSE		1
#define HFI_QUEUE_TYPE(prio, id)	(((prio) << 8) | (id))

/**
 * struct hfi_queue_table_header - start of the HFI queue table.
 * @version: 0.
 * @size: bytes of the table header and every queue header.
 * @qhdr0_offset: dwords from the table's start to the first queue header.
 * @qhdr_size: dwords of one queue header.
 * @num_queues: queue headers that follow.
 * @active_queues: of them, queues in use.
 */
struct hfi_queue_table_header {
	__u32 version;
	__u32 size;
	__u32 qhdr0_offset;
	__u32 qhdr_size;
	__u32 num_queues;
	__u32 active_queues;
};

/**
 * struct hfi_queue_header - one HFI queue.
 * @status: 1 while the queue is in use.
 * @iova: GMU virtual address of the queue's ring.
 * @type: HFI_QUEUE_TYPE(priority, id).
 * @size: dwords in the ring.
 * @msg_size: 0.
 * @dropped: messages the writer dropped for lack of room.
 * @rx_watermark: 1.
 * @tx_watermark: 1.
 * @rx_request: 1: the reader wants an interrupt for the next message.
 * @tx_request: 0.
 * @read_index: next dword the reader reads.
 * @write_index: next dword the writer writes.
 */
struct hfi_queue_header {
	__u32 status;
	__u32 iova;
	__u32 type;
	__u32 size;
	__u32 msg_size;
	__u32 dropped;
	__u32 rx_watermark;
	__u32 tx_watermark;
	__u32 rx_request;
	__u32 tx_request;
	__u32 read_index;
	__u32 write_index;
};

/* Message header: id, size in dwords (header included), type, seqnum. */
#define HFI_HEADER(id, dwords, type, seq) \
	(((seq) & 0xfff) << 20 | ((type) & 0xf) << 16 | \
	 ((dwords) & 0xff) << 8 | ((id) & 0xff))
#define HFI_HEADER_ID(h)		((h) & 0xff)
#define HFI_HEADER_SIZE(h)		(((h) >> 8) & 0xff)
#define HFI_HEADER_TYPE(h)		(((h) >> 16) & 0xf)
#define HFI_HEADER_SEQNUM(h)		(((h) >> 20) & 0xfff)
#define HFI_MSG_CMD			0
#define HFI_MSG_ACK			1	/* version 2 firmware's acks */
#define HFI_MSG_ACK_V1			2	/* the legacy firmware's acks */

#define HFI_H2F_MSG_INIT		0
#define HFI_H2F_MSG_FW_VERSION		1
#define HFI_H2F_MSG_BW_TABLE		3
#define HFI_H2F_MSG_PERF_TABLE		4
#define HFI_H2F_MSG_TEST		5
#define HFI_H2F_MSG_START		10
#define HFI_H2F_MSG_CORE_FW_START	14
#define HFI_H2F_MSG_GX_BW_PERF_VOTE	30
#define HFI_H2F_MSG_PREPARE_SLUMBER	33
#define HFI_F2H_MSG_ERROR		100
#define HFI_F2H_MSG_ACK			126

/* The HFI version the host offers in FW_VERSION: 1.10. */
#define HFI_VERSION_1_10		((1u << 28) | (1u << 19) | (1u << 17))

#define HFI_RESPONSE_PAYLOAD_DWORDS	16

/**
 * struct hfi_msg_response - the GMU's answer to a command.
 * @header: HFI_F2H_MSG_ACK, its size, HFI_MSG_ACK_V1.
 * @ret_header: the header of the command answered.
 * @error: 0, or the firmware's error code.
 * @payload: answer (FW_VERSION: the firmware's version in dword 0).
 */
struct hfi_msg_response {
	__u32 header;
	__u32 ret_header;
	__u32 error;
	__u32 payload[HFI_RESPONSE_PAYLOAD_DWORDS];
};

/**
 * struct hfi_msg_error - an error the GMU reports on its own.
 * @header: HFI_F2H_MSG_ERROR.
 * @code: the firmware's error code.
 * @payload: details.
 */
struct hfi_msg_error {
	__u32 header;
	__u32 code;
	__u32 payload[2];
};

/**
 * struct hfi_msg_gmu_init - HFI_H2F_MSG_INIT.
 * @header: message header.
 * @seg_id: 0.
 * @dbg_buffer_addr: GMU address of the debug buffer.
 * @dbg_buffer_size: its size in bytes.
 * @boot_state: 0 cold boot, 1 warm boot.
 */
struct hfi_msg_gmu_init {
	__u32 header;
	__u32 seg_id;
	__u32 dbg_buffer_addr;
	__u32 dbg_buffer_size;
	__u32 boot_state;
};

/**
 * struct hfi_msg_fw_version - HFI_H2F_MSG_FW_VERSION.
 * @header: message header.
 * @supported_version: %HFI_VERSION_1_10.
 */
struct hfi_msg_fw_version {
	__u32 header;
	__u32 supported_version;
};

#define HFI_MAX_GPU_LEVELS		16
#define HFI_MAX_GMU_LEVELS		4

/**
 * struct hfi_perf_level - one operating point.
 * @vote: RPMh arc vote: primary level << 16 | secondary index << 8 |
 *	primary index.
 * @freq: kHz; level 0 is "off", 0 kHz.
 */
struct hfi_perf_level {
	__u32 vote;
	__u32 freq;
};

/**
 * struct hfi_msg_perf_table_v1 - HFI_H2F_MSG_PERF_TABLE, version 1.
 * @header: message header.
 * @num_gpu_levels: entries of @gx_votes used, the "off" level included.
 * @num_gmu_levels: entries of @cx_votes used, the "off" level included.
 * @gx_votes: the GPU's levels, lowest first; DCVS_PERF_SETTING indexes it.
 * @cx_votes: the GMU's own levels.
 */
struct hfi_msg_perf_table_v1 {
	__u32 header;
	__u32 num_gpu_levels;
	__u32 num_gmu_levels;
	struct hfi_perf_level gx_votes[HFI_MAX_GPU_LEVELS];
	struct hfi_perf_level cx_votes[HFI_MAX_GMU_LEVELS];
};

#define HFI_MAX_BW_LEVELS		16
#define HFI_MAX_CNOC_CMDS		6
#define HFI_MAX_DDR_CMDS		8

/**
 * struct hfi_msg_bw_table - HFI_H2F_MSG_BW_TABLE: the bus votes.
 * @header: message header.
 * @bw_level_num: DDR levels in @ddr_cmds_data (at most 16).
 * @cnoc_cmds_num: config NoC commands (at most 6).
 * @ddr_cmds_num: DDR commands per level (at most 8).
 * @cnoc_wait_bitmask: CNOC commands waited for.
 * @ddr_wait_bitmask: DDR commands waited for.
 * @cnoc_cmds_addrs: RPMh addresses of the CNOC commands.
 * @cnoc_cmds_data: CNOC command data, off and on.
 * @ddr_cmds_addrs: RPMh addresses of the DDR commands.
 * @ddr_cmds_data: DDR command data per level.
 */
struct hfi_msg_bw_table {
	__u32 header;
	__u32 bw_level_num;
	__u32 cnoc_cmds_num;
	__u32 ddr_cmds_num;
	__u32 cnoc_wait_bitmask;
	__u32 ddr_wait_bitmask;
	__u32 cnoc_cmds_addrs[HFI_MAX_CNOC_CMDS];
	__u32 cnoc_cmds_data[2][HFI_MAX_CNOC_CMDS];
	__u32 ddr_cmds_addrs[HFI_MAX_DDR_CMDS];
	__u32 ddr_cmds_data[HFI_MAX_BW_LEVELS][HFI_MAX_DDR_CMDS];
};

/**
 * struct hfi_msg_test - HFI_H2F_MSG_TEST: no more messages until the
 *	next boot.
 * @header: message header.
 */
struct hfi_msg_test {
	__u32 header;
};

/*
 * HFI version 2: each message starts at a multiple of %HFI_V2_ALIGN
 * dwords in its queue; the writer fills the gap after a message with
 * %HFI_V2_FILL and the reader skips it. The response queue's id is
 * %HFI_RSP_QUEUE_ID_V2 (the legacy firmware's: %HFI_RSP_QUEUE_ID_V1).
 */
#define HFI_V2_ALIGN			4
#define HFI_V2_FILL			0xfafafafa
#define HFI_RSP_QUEUE_ID_V1		4
#define HFI_RSP_QUEUE_ID_V2		1

/**
 * struct hfi_perf_gx_level - one GPU level of the version 2 perf table.
 * @vote: RPMh ARC vote (see &struct hfi_perf_level).
 * @acd: adaptive clock distribution setting; all ones: none.
 * @freq: frequency in kHz.
 */
struct hfi_perf_gx_level {
	__u32 vote;
	__u32 acd;
	__u32 freq;
};

/**
 * struct hfi_msg_perf_table - HFI_H2F_MSG_PERF_TABLE, version 2.
 * @header: message header.
 * @num_gpu_levels: entries of @gx_votes, the "off" level 0 included.
 * @num_gmu_levels: entries of @cx_votes.
 * @gx_votes: the GPU's levels, the lowest first.
 * @cx_votes: the GMU's own levels.
 */
struct hfi_msg_perf_table {
	__u32 header;
	__u32 num_gpu_levels;
	__u32 num_gmu_levels;
	struct hfi_perf_gx_level gx_votes[HFI_MAX_GPU_LEVELS];
	struct hfi_perf_level cx_votes[HFI_MAX_GMU_LEVELS];
};

/**
 * struct hfi_msg_core_fw_start - HFI_H2F_MSG_CORE_FW_START.
 * @header: message header.
 * @handle: 0.
 */
struct hfi_msg_core_fw_start {
	__u32 header;
	__u32 handle;
};

/**
 * struct hfi_msg_start - HFI_H2F_MSG_START: the tables are in, run the
 *	GPU.
 * @header: message header.
 */
struct hfi_msg_start {
	__u32 header;
};

/**
 * struct hfi_msg_gx_bw_perf_vote - HFI_H2F_MSG_GX_BW_PERF_VOTE: run the
 *	GPU at a level of the perf table.
 * @header: message header.
 * @ack_type: 1: answer once the level is applied.
 * @freq: the level, an index into the perf table's GPU levels.
 * @bw: the bus level, an index into the bus table.
 */
struct hfi_msg_gx_bw_perf_vote {
	__u32 header;
	__u32 ack_type;
	__u32 freq;
	__u32 bw;
};

#define HFI_ACK_BLOCKING		1

/**
 * struct hfi_msg_prep_slumber - HFI_H2F_MSG_PREPARE_SLUMBER: GX off and
 *	the RPMh votes dropped.
 * @header: message header.
 * @bw: bus level to resume at.
 * @freq: GPU level to resume at.
 */
struct hfi_msg_prep_slumber {
	__u32 header;
	__u32 bw;
	__u32 freq;
};

#endif /* _UGPU_HW_ADRENO_GMU_H_ */
