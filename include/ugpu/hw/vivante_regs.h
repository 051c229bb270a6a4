/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Vivante GCxxx: host interface (AHB) registers, the states of the 64K-word
 * state space that the driver and the simulated GPU use, and the front-end
 * (FE) command stream format. Shared by the driver, the simulated GPU and
 * the tests (which include it from user space).
 *
 * AHB registers are byte offsets in the register window. States are byte
 * addresses in the state space (LOAD_STATE carries them divided by four).
 */
#ifndef _UGPU_HW_VIVANTE_REGS_H_
#define _UGPU_HW_VIVANTE_REGS_H_

#include <ugpu/hw/ugpu_bits.h>

/* Host interface */
#define VIV_HI_CLOCK_CONTROL		0x0000
#define   VIV_HI_CLOCK_CONTROL_CLK3D_DIS	BIT(0)
#define   VIV_HI_CLOCK_CONTROL_CLK2D_DIS	BIT(1)
#define   VIV_HI_CLOCK_CONTROL_SOFT_RESET	BIT(12)
#define   VIV_HI_CLOCK_CONTROL_IDLE_3D		BIT(16)
#define   VIV_HI_CLOCK_CONTROL_IDLE_2D		BIT(17)
#define VIV_HI_IDLE_STATE		0x0004
#define   VIV_HI_IDLE_STATE_FE			BIT(0)
#define   VIV_HI_IDLE_STATE_DE			BIT(1)
#define   VIV_HI_IDLE_STATE_PE			BIT(2)
#define   VIV_HI_IDLE_STATE_ALL			0x00000fff
#define VIV_HI_INTR_ACKNOWLEDGE		0x0010	/* read clears */
#define   VIV_HI_INTR_EVENT_MASK		0x3fffffff
#define   VIV_HI_INTR_MMU_EXCEPTION		BIT(30)
#define   VIV_HI_INTR_AXI_BUS_ERROR		BIT(31)
#define VIV_HI_INTR_ENBL		0x0014
#define VIV_HI_CHIP_IDENTITY		0x0018
#define VIV_HI_CHIP_FEATURE		0x001c
#define VIV_HI_CHIP_MODEL		0x0020
#define VIV_HI_CHIP_REV			0x0024
#define VIV_HI_CHIP_DATE		0x0028
#define VIV_HI_CHIP_TIME		0x002c
#define VIV_HI_CHIP_CUSTOMER_ID		0x0030
#define VIV_HI_CHIP_MINOR_FEATURE_0	0x0034
#define VIV_HI_CHIP_SPECS		0x0048
#define   VIV_SPECS_STREAM_COUNT(x)		(((x) >> 0) & 0xf)
#define   VIV_SPECS_REGISTER_MAX(x)		(((x) >> 4) & 0xf)
#define   VIV_SPECS_THREAD_COUNT(x)		(((x) >> 8) & 0xf)
#define   VIV_SPECS_VERTEX_CACHE_SIZE(x)	(((x) >> 12) & 0x1f)
#define   VIV_SPECS_SHADER_CORE_COUNT(x)	(((x) >> 20) & 0x1f)
#define   VIV_SPECS_PIXEL_PIPES(x)		(((x) >> 25) & 0x7)
#define   VIV_SPECS_VERTEX_OUTPUT_BUFFER_SIZE(x) (((x) >> 28) & 0xf)
#define VIV_HI_CHIP_MINOR_FEATURE_1	0x0074
/*
 * Free-running 32-bit count of core clock cycles (the profiler's total
 * cycles). GC880, GC2000 and GC2100 keep it in MC_PROFILE_CYCLE_COUNTER
 * instead.
 */
#define VIV_HI_PROFILE_TOTAL_CYCLES	0x0078
#define VIV_HI_CHIP_SPECS_2		0x0080
#define   VIV_SPECS_2_BUFFER_SIZE(x)		(((x) >> 0) & 0xff)
#define   VIV_SPECS_2_INSTRUCTION_COUNT(x)	(((x) >> 8) & 0xff)
#define   VIV_SPECS_2_NUM_CONSTANTS(x)		(((x) >> 16) & 0xffff)
#define VIV_HI_CHIP_MINOR_FEATURE_2	0x0084
#define VIV_HI_CHIP_MINOR_FEATURE_3	0x0088
#define VIV_HI_CHIP_SPECS_3		0x008c
#define   VIV_SPECS_3_GPU_CORE_COUNT(x)		(((x) >> 0) & 0x7)
#define   VIV_SPECS_3_VARYINGS_COUNT(x)		(((x) >> 4) & 0x1f)
#define VIV_HI_CHIP_MINOR_FEATURE_4	0x0094
#define VIV_HI_CHIP_SPECS_4		0x009c
#define VIV_HI_CHIP_MINOR_FEATURE_5	0x00a0
#define VIV_HI_CHIP_PRODUCT_ID		0x00a8
#define VIV_HI_CHIP_ECO_ID		0x00e8

/* MMUv2 (also reachable as states through LOAD_STATE) */
#define VIV_MMUV2_SAFE_ADDRESS		0x0180
#define VIV_MMUV2_CONFIGURATION		0x0184
#define   VIV_MMUV2_CONFIGURATION_MODE4_K	0x00000000
#define   VIV_MMUV2_CONFIGURATION_MODE_MASK	BIT(3)
#define   VIV_MMUV2_CONFIGURATION_FLUSH		BIT(4)
#define   VIV_MMUV2_CONFIGURATION_FLUSH_MASK	BIT(7)
#define   VIV_MMUV2_CONFIGURATION_ADDRESS_MASK	BIT(8)
#define   VIV_MMUV2_CONFIGURATION_ADDRESS	0xfffffc00
#define VIV_MMUV2_STATUS		0x0188
#define   VIV_MMUV2_STATUS_EXCEPTION0(x)	((x) & 0x3)
#define   VIV_MMUV2_EXCEPTION_SLAVE_NOT_PRESENT	1
#define   VIV_MMUV2_EXCEPTION_PAGE_NOT_PRESENT	2
#define   VIV_MMUV2_EXCEPTION_WRITE_VIOLATION	3
#define VIV_MMUV2_CONTROL		0x018c
#define   VIV_MMUV2_CONTROL_ENABLE		BIT(0)
#define VIV_MMUV2_EXCEPTION_ADDR(i)	(0x0190 + 4 * (i))

/* MMUv1 and the memory controller */
#define VIV_MC_MMU_FE_PAGE_TABLE	0x0400
#define VIV_MC_MMU_TX_PAGE_TABLE	0x0404
#define VIV_MC_MMU_PE_PAGE_TABLE	0x0408
#define VIV_MC_MMU_PEZ_PAGE_TABLE	0x040c
#define VIV_MC_MMU_RA_PAGE_TABLE	0x0410
#define VIV_MC_MEMORY_BASE_ADDR_RA	0x0418
#define VIV_MC_MEMORY_BASE_ADDR_FE	0x041c
#define VIV_MC_MEMORY_BASE_ADDR_TX	0x0420
#define VIV_MC_MEMORY_BASE_ADDR_PEZ	0x0424
#define VIV_MC_MEMORY_BASE_ADDR_PE	0x0428
#define VIV_MC_PROFILE_CYCLE_COUNTER	0x0438

/*
 * MMUv1: GPU addresses below the page-table window reach physical memory
 * through the linear window (address + MC_MEMORY_BASE); the window itself
 * is translated by one flat table of 32-bit page addresses.
 */
#define VIV_MMUV1_WINDOW_START		0x80000000u
#define VIV_MMUV1_WINDOW_SIZE		0x80000000u

/* MMUv2 two-level tables: 1024 MTLB entries of 4 MiB, 1024 STLB pages. */
#define VIV_MMUV2_PTE_PRESENT		BIT(0)
#define VIV_MMUV2_PTE_EXCEPTION		BIT(1)
#define VIV_MMUV2_PTE_WRITEABLE		BIT(2)
#define VIV_MMUV2_MTLB_SHIFT		22
#define VIV_MMUV2_STLB_SHIFT		12
#define VIV_MMUV2_ENTRIES		1024

/* Front end */
#define VIV_FE_VERTEX_ELEMENT_CONFIG(i)	(0x0600 + 4 * (i))
#define   VIV_FE_VERTEX_ELEMENT_TYPE(x)		((x) & 0xf)
#define   VIV_FE_DATA_TYPE_FLOAT		8
#define   VIV_FE_VERTEX_ELEMENT_ENDIAN(x)	(((x) >> 4) & 0x3)
#define   VIV_FE_VERTEX_ELEMENT_NONCONSECUTIVE	BIT(7)
#define   VIV_FE_VERTEX_ELEMENT_STREAM(x)	(((x) >> 8) & 0x7)
/* Components: 1 to 3, or 0 for 4. */
#define   VIV_FE_VERTEX_ELEMENT_NUM(x)		(((x) >> 12) & 0x3)
#define   VIV_FE_VERTEX_ELEMENT_NORMALIZE(x)	(((x) >> 14) & 0x3)
#define   VIV_FE_VERTEX_ELEMENT_START(x)	(((x) >> 16) & 0xff)
#define   VIV_FE_VERTEX_ELEMENT_END(x)		((x) >> 24)
#define VIV_FE_VERTEX_ELEMENTS		16
/*
 * The farthest byte of a vertex an element reads, plus one: an element
 * starts at most 255 bytes into its vertex (START is 8 bits) and has at
 * most four 32-bit components; END, also 8 bits, is at most 255.
 */
#define VIV_FE_VERTEX_REACH		(0xff + 16)
#define VIV_FE_CMD_STREAM_BASE_ADDR	0x0640
#define VIV_FE_INDEX_STREAM_BASE_ADDR	0x0644
#define VIV_FE_INDEX_STREAM_CONTROL	0x0648
#define   VIV_FE_INDEX_TYPE(x)			((x) & 0x3)
#define   VIV_FE_INDEX_TYPE_U8			0
#define   VIV_FE_INDEX_TYPE_U16			1
#define   VIV_FE_INDEX_TYPE_U32			2
#define   VIV_FE_INDEX_PRIMITIVE_RESTART	BIT(8)
#define VIV_FE_VERTEX_STREAM_BASE_ADDR	0x064c
#define VIV_FE_VERTEX_STREAM_CONTROL	0x0650
/* Stream control: the stride of one vertex in bytes, instance divisor. */
#define   VIV_FE_STREAM_STRIDE(x)		((x) & 0xff)
#define   VIV_FE_STREAM_DIVISOR_MASK		0x00ff0000
#define VIV_FE_COMMAND_ADDRESS		0x0654
#define VIV_FE_COMMAND_CONTROL		0x0658
#define   VIV_FE_COMMAND_CONTROL_PREFETCH(x)	((x) & 0xffff)
#define   VIV_FE_COMMAND_CONTROL_ENABLE		BIT(16)
#define VIV_FE_DMA_STATUS		0x065c
#define VIV_FE_DMA_DEBUG_STATE		0x0660
#define   VIV_FE_DMA_DEBUG_STATE_IDLE		0x00
#define   VIV_FE_DMA_DEBUG_STATE_WAIT		0x12
#define   VIV_FE_DMA_DEBUG_STATE_STALL		0x15
#define VIV_FE_DMA_ADDRESS		0x0664
#define VIV_FE_DMA_LOW			0x0668
#define VIV_FE_DMA_HIGH			0x066c
#define VIV_FE_VERTEX_STREAMS_BASE_ADDR(i) (0x0680 + 4 * (i))
#define VIV_FE_VERTEX_STREAMS_CONTROL(i) (0x06a0 + 4 * (i))
#define VIV_FE_VERTEX_STREAMS		8

/*
 * DRAW_PRIMITIVES: header, primitive type, first vertex, primitive count.
 * DRAW_INDEXED_PRIMITIVES: header, type, first index, primitive count,
 * and an offset added to every index (padded to 64 bits).
 */
#define VIV_DRAW_TYPE(x)		((x) & 0xff)
#define VIV_PRIM_POINTS			1
#define VIV_PRIM_LINES			2
#define VIV_PRIM_LINE_STRIP		3
#define VIV_PRIM_TRIANGLES		4
#define VIV_PRIM_TRIANGLE_STRIP		5
#define VIV_PRIM_TRIANGLE_FAN		6
#define VIV_PRIM_LINE_LOOP		7
#define VIV_PRIM_QUADS			8

/*
 * Vertex shader, primitive assembly, setup engine. Shader PCs count
 * 128-bit instructions. VS_INPUT and VS_OUTPUT hold one temporary register
 * number a byte: input i (vertex element i) is loaded into the register
 * of byte i, output 0 (the position) is taken from the register of byte
 * 0, the varyings from the next bytes.
 */
#define VIV_VS_END_PC			0x0800
#define VIV_VS_OUTPUT_COUNT		0x0804
#define VIV_VS_INPUT_COUNT		0x0808
#define   VIV_VS_INPUT_COUNT_COUNT(x)		((x) & 0xf)
#define VIV_VS_TEMP_REGISTER_CONTROL	0x080c
#define VIV_VS_OUTPUT(i)		(0x0810 + 4 * (i))
#define VIV_VS_INPUT(i)			(0x0820 + 4 * (i))
#define VIV_VS_START_PC			0x0838
/*
 * Viewport: window = NDC x scale + offset, per axis, float32 states
 * (drivers load them from 16.16 with the fixed-point flag or as floats).
 */
#define VIV_PA_VIEWPORT_SCALE_X		0x0a00
#define VIV_PA_VIEWPORT_SCALE_Y		0x0a04
#define VIV_PA_VIEWPORT_SCALE_Z		0x0a08
#define VIV_PA_VIEWPORT_OFFSET_X	0x0a0c
#define VIV_PA_VIEWPORT_OFFSET_Y	0x0a10
#define VIV_PA_VIEWPORT_OFFSET_Z	0x0a14
#define VIV_PA_CONFIG			0x0a34
#define   VIV_PA_CONFIG_CULL_FACE_MODE(x)	(((x) >> 8) & 0x3)
#define   VIV_PA_CULL_OFF			0
#define   VIV_PA_CONFIG_FILL_MODE(x)		(((x) >> 12) & 0x3)
#define   VIV_PA_FILL_SOLID			2
#define   VIV_PA_CONFIG_FILL_SOLID		(VIV_PA_FILL_SOLID << 12)
/*
 * The scissor: the rasteriser's only clip (it has no enable bit). Its
 * states hold float32 pixel coordinates: drivers load them from 16.16
 * values with LOAD_STATE's fixed-point flag, which converts to float.
 */
#define VIV_SE_SCISSOR_LEFT		0x0c00
#define VIV_SE_SCISSOR_TOP		0x0c04
#define VIV_SE_SCISSOR_RIGHT		0x0c08
#define VIV_SE_SCISSOR_BOTTOM		0x0c0c
#define VIV_VS_UNIFORM_BASE		0x0864
#define VIV_SH_ICACHE_CONTROL		0x0868
/* Cores with an instruction cache fetch shaders from these addresses. */
#define VIV_VS_INST_ADDR		0x086c
#define VIV_VS_NEWRANGE_LOW		0x0874
#define VIV_PS_NEWRANGE_LOW		0x087c
#define VIV_VS_ICACHE_PREFETCH		0x088c
#define VIV_VS_ICACHE_INVALIDATE	0x08b0
#define VIV_VS_ICACHE_COUNT		0x15604
#define VIV_SH_CONFIG			0x15600
#define VIV_PS_END_PC			0x1000
/* Temporary register holding the colour when the pixel shader ends. */
#define VIV_PS_OUTPUT_REG		0x1004
#define VIV_PS_START_PC			0x1018
#define VIV_PS_UNIFORM_BASE		0x1024
#define VIV_PS_INST_ADDR		0x1028
#define VIV_PS_ICACHE_PREFETCH		0x1048
#define VIV_PS_HALTI5_RANGE_HIGH	0x1090
#define VIV_PS_ICACHE_COUNT		0x1094

/*
 * HALTI5 (GC7000) shader interface. The instruction cache runs a shader's
 * instructions NEWRANGE_LOW to RANGE_HIGH - 1, 16 bytes each, from its
 * INST_ADDR. VS_HALTI5_INPUT and VS_HALTI5_OUTPUT hold one temporary
 * register number a byte, like VS_INPUT and VS_OUTPUT before them.
 * FE_HALTI5_ID_CONFIG names the temporaries that get the vertex and
 * instance id; VS_HALTI5_UNK008A0 sizes the VS output buffers;
 * GL_HALTI5_SH_SPECIALS names the point size and coordinate registers,
 * GL_HALTI5_SHADER_ATTRIBUTES the varyings' interpolation.
 */
#define VIV_FE_HALTI5_ID_CONFIG		0x07c4
#define VIV_VS_HALTI5_UNK008A0		0x08a0
#define VIV_VS_HALTI5_RANGE_HIGH	0x08bc
#define VIV_VS_HALTI5_INPUT(i)		(0x08c0 + 4 * (i))
#define VIV_VS_HALTI5_OUTPUT(i)		(0x08e0 + 4 * (i))
#define VIV_VS_HALTI5_REGS		8
#define VIV_GL_HALTI5_SH_SPECIALS	0x3888
#define VIV_GL_HALTI5_SHADER_ATTRIBUTES(i) (0x38c0 + 4 * (i))
#define VIV_GL_HALTI5_SHADER_ATTRIBUTES_N 16
/*
 * The HALTI5 unified uniform store: 512 vec4s of float32. A load to
 * SH_HALTI5_UNIFORMS + 4 k lands in word PS_UNIFORM_BASE x 4 + k of the
 * store, one to its mirror at SH_HALTI5_UNIFORMS_MIRROR + 4 k in word
 * VS_UNIFORM_BASE x 4 + k (the bases count vec4s); each shader reads its
 * uniform u at its base + u. (Mesa's etnaviv writes the VS uniforms
 * through the mirror and the PS uniforms through the store, both from
 * 0, after setting PS_UNIFORM_BASE past the VS's.)
 */
#define VIV_SH_HALTI5_UNIFORMS_MIRROR	0x34000
#define VIV_SH_HALTI5_UNIFORMS		0x36000
#define VIV_SH_HALTI5_UNIFORMS_WORDS	0x800

/* 2D drawing engine */
#define VIV_DE_SRC_ADDRESS		0x1200
#define VIV_DE_SRC_STRIDE		0x1204
#define   VIV_DE_STRIDE(x)			((x) & 0x3ffff)
#define VIV_DE_SRC_ROTATION_CONFIG	0x1208
#define VIV_DE_SRC_CONFIG		0x120c
#define   VIV_DE_SRC_CONFIG_PE10_FORMAT(x)	((x) & 0xf)
#define   VIV_DE_SRC_CONFIG_RELATIVE		BIT(6)
#define   VIV_DE_SRC_CONFIG_TILED		BIT(7)
#define   VIV_DE_SRC_CONFIG_LOCATION_STREAM	BIT(8)
#define   VIV_DE_SRC_CONFIG_FORMAT(x)		(((x) >> 24) & 0x1f)
#define VIV_DE_SRC_ORIGIN		0x1210
#define VIV_DE_DEST_ADDRESS		0x1228
#define VIV_DE_DEST_STRIDE		0x122c
#define VIV_DE_DEST_ROTATION_CONFIG	0x1230
#define VIV_DE_DEST_CONFIG		0x1234
#define   VIV_DE_DEST_CONFIG_FORMAT(x)		((x) & 0x1f)
#define   VIV_DE_DEST_CONFIG_TILED		BIT(8)
#define   VIV_DE_DEST_CONFIG_COMMAND(x)		(((x) >> 12) & 0xf)
#define   VIV_DE_DEST_CONFIG_GDI_STRE		BIT(24)
#define   VIV_DE_DEST_CONFIG_MINOR_TILED	BIT(26)
#define   VIV_DE_COMMAND_CLEAR			0
#define   VIV_DE_COMMAND_LINE			1
#define   VIV_DE_COMMAND_BIT_BLT		2
#define VIV_DE_PATTERN_ADDRESS		0x1238
#define VIV_DE_PATTERN_CONFIG		0x123c
#define VIV_DE_ROP			0x125c
#define VIV_DE_CLIP_TOP_LEFT		0x1260
#define VIV_DE_CLIP_BOTTOM_RIGHT	0x1264
#define   VIV_DE_CLIP_X(x)			((x) & 0x7fff)
#define   VIV_DE_CLIP_Y(x)			(((x) >> 16) & 0x7fff)
#define VIV_DE_CONFIG			0x126c
#define VIV_DE_UPLANE_ADDRESS		0x1284
#define VIV_DE_ROT_ANGLE		0x12bc
/* 2D pixel formats (DEST_CONFIG FORMAT, SRC_CONFIG SOURCE_FORMAT). */
#define VIV_DE_FORMAT_R5G6B5		4
#define VIV_DE_FORMAT_A8R8G8B8		6
#define VIV_DE_FORMAT_INDEX8		9
#define VIV_DE_FORMAT_MONOCHROME	10
#define VIV_DE_FORMAT_YV12		15
#define VIV_DE_FORMAT_A8		16
/* The 8x8 pattern a ROP may read from PATTERN_ADDRESS, at 32 bpp. */
#define VIV_DE_PATTERN_BYTES		(8 * 8 * 4)
/* DRAW_2D rectangle words: top-left, then bottom-right (exclusive). */
#define VIV_DE_RECT_X(x)		((x) & 0xffff)
#define VIV_DE_RECT_Y(x)		((x) >> 16)
#define VIV_DE_CLEAR_PIXEL_VALUE32	0x12c0

/*
 * Pixel engine. It renders to 4x4 tiled or 64x64 supertiled surfaces
 * only; the stride is that of a row of tiles. Multi-sampled targets are
 * twice as wide (2x) or twice as wide and high (4x) as the window.
 * PE_DEPTH_CONFIG and PE_COLOR_FORMAT are masked states.
 */
#define VIV_PE_DEPTH_CONFIG		0x1400
#define   VIV_PE_DEPTH_MODE_FIELD		0x00000003
#define   VIV_PE_DEPTH_MODE_MASK		BIT(3)
#define   VIV_PE_DEPTH_FORMAT_D24S8		BIT(4)	/* else D16 */
#define   VIV_PE_DEPTH_FORMAT_MASK		BIT(5)
#define   VIV_PE_DEPTH_FUNC_FIELD		0x00000700
#define   VIV_PE_DEPTH_FUNC_MASK		BIT(11)
#define   VIV_PE_DEPTH_WRITE_ENABLE		BIT(12)
#define   VIV_PE_DEPTH_WRITE_ENABLE_MASK	BIT(13)
#define   VIV_PE_DEPTH_EARLY_Z			BIT(16)
#define   VIV_PE_DEPTH_EARLY_Z_MASK		BIT(17)
#define   VIV_PE_DEPTH_UNK18			BIT(18)
#define   VIV_PE_DEPTH_UNK18_MASK		BIT(19)
#define   VIV_PE_DEPTH_ONLY_DEPTH		BIT(20)
#define   VIV_PE_DEPTH_ONLY_DEPTH_MASK		BIT(21)
#define   VIV_PE_DEPTH_DISABLE_ZS		BIT(24)
#define   VIV_PE_DEPTH_DISABLE_ZS_MASK		BIT(25)
#define   VIV_PE_DEPTH_SUPER_TILED		BIT(26)
#define   VIV_PE_DEPTH_SUPER_TILED_MASK		BIT(27)
#define   VIV_PE_DEPTH_MODE(x)			((x) & 0x3)
#define   VIV_PE_DEPTH_MODE_NONE		0
#define   VIV_PE_DEPTH_MODE_Z			1
#define   VIV_PE_DEPTH_FUNC(x)			(((x) >> 8) & 0x7)
#define   VIV_PE_DEPTH_FUNC_SHIFT		8
/* Depth test functions: pass when the new value is (func) the stored one. */
#define   VIV_COMPARE_NEVER			0
#define   VIV_COMPARE_LESS			1
#define   VIV_COMPARE_EQUAL			2
#define   VIV_COMPARE_LEQUAL			3
#define   VIV_COMPARE_GREATER			4
#define   VIV_COMPARE_NOTEQUAL			5
#define   VIV_COMPARE_GEQUAL			6
#define   VIV_COMPARE_ALWAYS			7
/* Float32: window depth (0 to 1) times this is the stored depth value. */
#define VIV_PE_DEPTH_NORMALIZE		0x140c
#define VIV_PE_DEPTH_ADDR		0x1410
#define VIV_PE_DEPTH_STRIDE		0x1414
#define VIV_PE_STENCIL_CONFIG		0x141c
#define   VIV_PE_STENCIL_MODE(x)		((x) & 0x3)
#define VIV_PE_ALPHA_OP			0x1420
#define   VIV_PE_ALPHA_OP_ALPHA_TEST		BIT(0)
#define VIV_PE_ALPHA_CONFIG		0x1428
#define   VIV_PE_ALPHA_CONFIG_BLEND_ENABLE_COLOR BIT(0)
#define VIV_PE_COLOR_FORMAT		0x142c
#define   VIV_PE_COLOR_FORMAT_FIELD		0x0000000f
#define   VIV_PE_COLOR_FORMAT_FORMAT_MASK	BIT(4)
#define   VIV_PE_COLOR_COMPONENTS_FIELD		0x00000f00
#define   VIV_PE_COLOR_COMPONENTS_MASK		BIT(12)
#define   VIV_PE_COLOR_SUPER_TILED_NEW		BIT(13)	/* not masked */
#define   VIV_PE_COLOR_OVERWRITE		BIT(16)
#define   VIV_PE_COLOR_OVERWRITE_MASK		BIT(17)
#define   VIV_PE_COLOR_SUPER_TILED		BIT(20)
#define   VIV_PE_COLOR_SUPER_TILED_MASK		BIT(21)
#define   VIV_PE_COLOR_FORMAT_EXT_FIELD		0x7f000000
#define   VIV_PE_COLOR_FORMAT_EXT_MASK		BIT(31)
/* Which of the four channels the pixel engine writes (0xf: all). */
#define   VIV_PE_COLOR_COMPONENTS(x)		(((x) >> 8) & 0xf)
#define   VIV_PE_COLOR_COMPONENTS_SHIFT		8
#define VIV_PE_COLOR_ADDR		0x1430
#define VIV_PE_COLOR_STRIDE		0x1434
#define VIV_PE_HDEPTH_ADDR		0x1458
#define VIV_PE_PIPE_COLOR_ADDR(i)	(0x1460 + 4 * (i))
#define VIV_PE_PIPE_DEPTH_ADDR(i)	(0x1480 + 4 * (i))
#define VIV_PE_PIPES			8
/* PE_COLOR_FORMAT FORMAT values (16 bits per pixel unless noted). */
#define VIV_PE_FORMAT_X4R4G4B4		0x0
#define VIV_PE_FORMAT_R5G6B5		0x4
#define VIV_PE_FORMAT_X8R8G8B8		0x5	/* 32 bits */
#define VIV_PE_FORMAT_A8R8G8B8		0x6	/* 32 bits */
#define VIV_PE_FORMAT_YUY2		0x7

/* Resolve engine */
#define VIV_RS_KICKER			0x1600
#define   VIV_RS_KICKER_START			BIT(0)
#define VIV_RS_CONFIG			0x1604
#define   VIV_RS_CONFIG_SWAP_RB			BIT(29)
#define   VIV_RS_CONFIG_FLIP			BIT(30)
#define   VIV_RS_CONFIG_SOURCE_FORMAT(x)	((x) & 0x1f)
#define   VIV_RS_CONFIG_DOWNSAMPLE_X		BIT(5)
#define   VIV_RS_CONFIG_DOWNSAMPLE_Y		BIT(6)
#define   VIV_RS_CONFIG_SOURCE_TILED		BIT(7)
#define   VIV_RS_CONFIG_DEST_FORMAT(x)		(((x) >> 8) & 0x1f)
#define   VIV_RS_CONFIG_DEST_TILED		BIT(14)
#define VIV_RS_SOURCE_ADDR		0x1608
#define VIV_RS_SOURCE_STRIDE		0x160c
#define VIV_RS_DEST_ADDR		0x1610
#define VIV_RS_DEST_STRIDE		0x1614
#define   VIV_RS_STRIDE(x)			((x) & 0x3ffff)
#define   VIV_RS_STRIDE_SUPERTILED_NEW		BIT(27)
#define   VIV_RS_STRIDE_TS_MODE			BIT(29)
#define   VIV_RS_STRIDE_MULTI			BIT(30)
#define   VIV_RS_STRIDE_SUPERTILED		BIT(31)
#define VIV_RS_WINDOW_SIZE		0x1620
#define   VIV_RS_WINDOW_WIDTH(x)		((x) & 0xffff)
#define   VIV_RS_WINDOW_HEIGHT(x)		((x) >> 16)
#define VIV_RS_DITHER(i)		(0x1630 + 4 * (i))
#define VIV_RS_CLEAR_CONTROL		0x163c
#define   VIV_RS_CLEAR_CONTROL_BITS(x)		((x) & 0xffff)
#define   VIV_RS_CLEAR_CONTROL_MODE(x)		(((x) >> 16) & 0x3)
#define VIV_RS_FILL_VALUE(i)		(0x1640 + 4 * (i))
#define VIV_TS_FLUSH_CACHE		0x1650
#define VIV_TS_MEM_CONFIG		0x1654
#define   VIV_TS_MEM_CONFIG_DEPTH_FAST_CLEAR	BIT(0)
#define   VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR	BIT(1)
#define   VIV_TS_MEM_CONFIG_DEPTH_16BPP		BIT(3)
#define   VIV_TS_MEM_CONFIG_DEPTH_AUTO_DISABLE	BIT(4)
#define   VIV_TS_MEM_CONFIG_COLOR_AUTO_DISABLE	BIT(5)
#define   VIV_TS_MEM_CONFIG_DEPTH_COMPRESSION	BIT(6)
#define   VIV_TS_MEM_CONFIG_COLOR_COMPRESSION	BIT(7)
#define VIV_TS_COLOR_STATUS_BASE	0x1658
#define VIV_TS_COLOR_SURFACE_BASE	0x165c
#define VIV_TS_COLOR_CLEAR_VALUE	0x1660
#define VIV_TS_DEPTH_STATUS_BASE	0x1664
#define VIV_TS_DEPTH_SURFACE_BASE	0x1668
#define VIV_TS_DEPTH_CLEAR_VALUE	0x166c
#define VIV_RS_EXTRA_CONFIG		0x16a0
#define VIV_RS_KICKER_INPLACE		0x16b0
/* Multi-pipe cores: per pixel pipe resolve addresses and TS states. */
#define VIV_RS_PIPE_SOURCE_ADDR(i)	(0x16c0 + 4 * (i))
#define VIV_RS_PIPE_DEST_ADDR(i)	(0x16e0 + 4 * (i))
#define VIV_TS_SAMPLER_STATUS_BASE(i)	(0x1740 + 4 * (i))

/* Resolve pixel formats used here (RS_CONFIG SOURCE/DEST_FORMAT). */
#define VIV_RS_FORMAT_R5G6B5		0x04
#define VIV_RS_FORMAT_X8R8G8B8		0x05
#define VIV_RS_FORMAT_A8R8G8B8		0x06

/*
 * Tile status: two bits per 4x4 tile of 32-bit pixels (64 bytes), so a
 * surface needs size / 256 bytes of tile status. The resolve engine's
 * clear pattern 0x55555555 marks every tile cleared.
 */
#define VIV_TS_TILE_BYTES		64
#define VIV_TS_STATE_NORMAL		0x0
#define VIV_TS_STATE_CLEARED		0x1
#define VIV_TS_CLEAR_PATTERN		0x55555555u
/* TS_FLUSH_CACHE: write back and empty the tile-status cache. */
#define VIV_TS_FLUSH_CACHE_FLUSH	BIT(0)

/*
 * Texture engine: 12 samplers (8 fragment, 4 vertex), each with a level
 * of detail address per mipmap level (14). A level of a w x h texture is
 * (w >> lod) x (h >> lod), at least 1 x 1, stored in 4x4 tiles (with
 * ADDRESSING_MODE tiled and the reset CONFIG1, whose alignment is four
 * pixels); a cube map keeps its six faces one after the other.
 */
#define VIV_TE_SAMPLER_CONFIG0(s)	(0x2000 + 4 * (s))
#define   VIV_TE_TYPE(x)			((x) & 0x7)
#define   VIV_TE_TYPE_NONE			0
#define   VIV_TE_TYPE_1D			1
#define   VIV_TE_TYPE_2D			2
#define   VIV_TE_TYPE_3D			3
#define   VIV_TE_TYPE_CUBE_MAP			5
#define   VIV_TE_FORMAT(x)			(((x) >> 13) & 0x1f)
#define   VIV_TE_FORMAT_SHIFT			13
#define   VIV_TE_ADDRESSING(x)			(((x) >> 20) & 0x3)
#define   VIV_TE_ADDRESSING_TILED		0
#define   VIV_TE_ADDRESSING_LINEAR		3
#define VIV_TE_SAMPLER_SIZE(s)		(0x2040 + 4 * (s))
#define   VIV_TE_SIZE_WIDTH(x)			((x) & 0xffff)
#define   VIV_TE_SIZE_HEIGHT(x)			((x) >> 16)
#define VIV_TE_SAMPLER_LOG_SIZE(s)	(0x2080 + 4 * (s))
#define VIV_TE_SAMPLER_LOD_CONFIG(s)	(0x20c0 + 4 * (s))
#define VIV_TE_SAMPLER_CONFIG1(s)	(0x21c0 + 4 * (s))
#define VIV_TE_SAMPLER_LOD_ADDR(lod, s)	(0x2400 + 0x40 * (lod) + 4 * (s))
#define VIV_TE_SAMPLER_LINEAR_STRIDE(lod, s) (0x2c00 + 0x40 * (lod) + 4 * (s))
#define VIV_TE_SAMPLERS			12
#define VIV_TE_LODS			14
/* Texture formats (CONFIG0 FORMAT). */
#define VIV_TEX_A8			0x01
#define VIV_TEX_L8			0x02
#define VIV_TEX_I8			0x03
#define VIV_TEX_A8L8			0x04
#define VIV_TEX_A4R4G4B4		0x05
#define VIV_TEX_X4R4G4B4		0x06
#define VIV_TEX_A8R8G8B8		0x07
#define VIV_TEX_X8R8G8B8		0x08
#define VIV_TEX_A8B8G8R8		0x09
#define VIV_TEX_X8B8G8R8		0x0a
#define VIV_TEX_R5G6B5			0x0b
#define VIV_TEX_A1R5G5B5		0x0c
#define VIV_TEX_X1R5G5B5		0x0d
#define VIV_TEX_YUY2			0x0e
#define VIV_TEX_UYVY			0x0f
#define VIV_TEX_D16			0x10
#define VIV_TEX_D24X8			0x11
#define VIV_TEX_DXT1			0x13	/* 8 bytes per 4x4 block */
#define VIV_TEX_DXT2_DXT3		0x14	/* 16 bytes per 4x4 block */
#define VIV_TEX_DXT4_DXT5		0x15	/* 16 bytes per 4x4 block */
#define VIV_TEX_E5B9G9R9		0x1d
#define VIV_TEX_ETC1			0x1e	/* 8 bytes per 4x4 block */

/*
 * BLT engine (cores with VIV_MINOR5_BLT_ENGINE, which have no RS): copies
 * and clears images between linear, tiled and supertiled layouts. Its
 * states are loaded inside a BLT_ENABLE bracket (1 ... 0); BLT_COMMAND
 * starts the operation. Strides hold the pixel format, the downsampling
 * and the layout next to the stride in bytes (of a row of pixels, of
 * tiles, or of supertiles divided by 16, as for the RS).
 */
#define VIV_BLT_SRC_ADDR		0x14000
#define VIV_BLT_SRC_STRIDE		0x14008
#define VIV_BLT_DEST_STRIDE		0x14024
#define   VIV_BLT_STRIDE(x)			((x) & 0xfffff)
#define   VIV_BLT_STRIDE_FORMAT(x)		(((x) >> 21) & 0x3f)
#define   VIV_BLT_STRIDE_FORMAT_SHIFT		21
#define   VIV_BLT_STRIDE_DOWNSAMPLE_X		BIT(27)	/* source only */
#define   VIV_BLT_STRIDE_DOWNSAMPLE_Y		BIT(28)	/* source only */
#define   VIV_BLT_STRIDE_TILING(x)		(((x) >> 29) & 0x3)
#define   VIV_BLT_STRIDE_TILING_SHIFT		29
#define   VIV_BLT_TILING_LINEAR			0
#define   VIV_BLT_TILING_TILED			3	/* 4x4, or 64x64 by config */
#define VIV_BLT_SRC_CONFIG		0x1400c
#define VIV_BLT_SRC_TS			0x14010
#define VIV_BLT_SRC_POS			0x14014
#define VIV_BLT_DEST_ADDR		0x14018
#define VIV_BLT_DEST_TS			0x14020
#define VIV_BLT_DEST_CONFIG		0x14028
#define VIV_BLT_DEST_POS		0x1402c
#define   VIV_BLT_POS_X(x)			((x) & 0xffff)
#define   VIV_BLT_POS_Y(x)			((x) >> 16)
#define VIV_BLT_IMAGE_SIZE		0x14030
#define   VIV_BLT_SIZE_WIDTH(x)			((x) & 0xffff)
#define   VIV_BLT_SIZE_HEIGHT(x)		((x) >> 16)
#define VIV_BLT_SRC_TS_CLEAR_VALUE0	0x14034
#define VIV_BLT_SRC_TS_CLEAR_VALUE1	0x14038
#define VIV_BLT_DEST_TS_CLEAR_VALUE0	0x1403c
#define VIV_BLT_DEST_TS_CLEAR_VALUE1	0x14040
#define VIV_BLT_CLEAR_COLOR0		0x14044
#define VIV_BLT_CLEAR_COLOR1		0x14048
#define VIV_BLT_CLEAR_BITS0		0x1404c
#define VIV_BLT_CLEAR_BITS1		0x14050
#define VIV_BLT_UNK14058		0x14058
#define VIV_BLT_UNK1405C		0x1405c
#define VIV_BLT_COMMAND			0x14060
#define   VIV_BLT_COMMAND_CLEAR_IMAGE		1
#define   VIV_BLT_COMMAND_COPY_IMAGE		2
#define VIV_BLT_CONFIG			0x14064
#define   VIV_BLT_CONFIG_SRC_ENDIAN(x)		(((x) >> 1) & 0x3)
#define   VIV_BLT_CONFIG_DEST_ENDIAN(x)		(((x) >> 3) & 0x3)
#define   VIV_BLT_CONFIG_CLEAR_BPP(x)		(((x) >> 7) & 0x7)	/* bytes - 1 */
#define   VIV_BLT_CONFIG_CLEAR_BPP_SHIFT	7
#define VIV_BLT_UNK1409C		0x1409c
#define VIV_BLT_UNK140A0		0x140a0
#define VIV_BLT_FENCE_OUT_ADDRESS	0x140a4
/*
 * BLT_SET_COMMAND: bit 0 writes back and empties the BLT engine's cache
 * and the tile-status cache (the end-of-job flush on BLT cores).
 */
#define VIV_BLT_SET_COMMAND		0x140ac
#define   VIV_BLT_SET_COMMAND_FLUSH		BIT(0)
#define VIV_BLT_ENABLE			0x140b8
#define   VIV_BLT_ENABLE_ENABLE			BIT(0)
#define VIV_BLT_SWIZZLE			0x140bc
/* Identity swizzle of source (bits 0-11) and destination (12-23). */
#define   VIV_BLT_SWIZZLE_IDENTITY		0x00688688
#define VIV_BLT_MIP_ADDR(i)		(0x140c0 + 4 * (i))
#define VIV_BLT_MIPS			13
/*
 * BLT_SRC_CONFIG and BLT_DEST_CONFIG (image configs): tile status use
 * and mode, compression, channel swizzle (identity: R0 G1 B2 A3), flip,
 * and supertiling of a tiled image.
 */
#define   VIV_BLT_IMAGE_TS			BIT(0)
#define   VIV_BLT_IMAGE_COMPRESSION		BIT(1)
#define   VIV_BLT_IMAGE_COMPRESSION_FORMAT	0x000000f0
#define   VIV_BLT_IMAGE_SRGB			BIT(8)
#define   VIV_BLT_IMAGE_SWIZ_FIELD		0x0001fe00
#define   VIV_BLT_IMAGE_SWIZ_IDENTITY		((0 << 9) | (1 << 11) | (2 << 13) | (3 << 15))
#define   VIV_BLT_IMAGE_TS_MODE			BIT(17)
#define   VIV_BLT_IMAGE_FLIP_Y			BIT(19)
#define   VIV_BLT_IMAGE_FROM_SUPER_TILED	BIT(21)
#define   VIV_BLT_IMAGE_UNK22			BIT(22)
#define   VIV_BLT_IMAGE_TO_SUPER_TILED		BIT(26)
/* BLT formats (the stride's FORMAT): those of the RS, and more. */
#define VIV_BLT_FORMAT_X4R4G4B4		0x00
#define VIV_BLT_FORMAT_A4R4G4B4		0x01
#define VIV_BLT_FORMAT_X1R5G5B5		0x02
#define VIV_BLT_FORMAT_A1R5G5B5		0x03
#define VIV_BLT_FORMAT_R5G6B5		0x04
#define VIV_BLT_FORMAT_X8R8G8B8		0x05
#define VIV_BLT_FORMAT_A8R8G8B8		0x06

/* Global states */
#define VIV_GL_PIPE_SELECT		0x3800
#define   VIV_PIPE_3D				0
#define   VIV_PIPE_2D				1
#define VIV_GL_EVENT			0x3804
#define   VIV_GL_EVENT_ID(x)			((x) & 0x1f)
#define   VIV_GL_EVENT_FROM_FE			BIT(5)
#define   VIV_GL_EVENT_FROM_PE			BIT(6)
#define VIV_GL_SEMAPHORE_TOKEN		0x3808
#define VIV_GL_FLUSH_CACHE		0x380c
#define   VIV_GL_FLUSH_CACHE_DEPTH		BIT(0)
#define   VIV_GL_FLUSH_CACHE_COLOR		BIT(1)
#define   VIV_GL_FLUSH_CACHE_PE2D		BIT(3)
#define VIV_GL_FLUSH_MMU		0x3810
/* MMUv1 TLB flush: FE, PE and the three other MMU clients. */
#define   VIV_GL_FLUSH_MMU_ALL			0x0000001f
#define VIV_GL_MULTI_SAMPLE_CONFIG	0x3818
/* Masked state: a field is written only when its mask bit is clear. */
#define   VIV_MSAA_SAMPLES_FIELD		0x00000003
#define   VIV_MSAA_SAMPLES_MASK			BIT(3)
#define   VIV_MSAA_ENABLES_FIELD		0x000000f0
#define   VIV_MSAA_ENABLES_MASK			BIT(8)
#define   VIV_MSAA_UNK12_FIELD			0x00007000
#define   VIV_MSAA_UNK12_MASK			BIT(15)
#define   VIV_MSAA_UNK16_FIELD			0x00070000
#define   VIV_MSAA_UNK16_MASK			BIT(19)
#define   VIV_MSAA_SAMPLES_NONE			0
#define   VIV_MSAA_SAMPLES_2X			1
#define   VIV_MSAA_SAMPLES_4X			2
/* A write of any value to the control stores the 64-bit sample count. */
#define VIV_GL_OCCLUSION_QUERY_ADDR	0x3824
#define VIV_GL_OCCLUSION_QUERY_CONTROL	0x3830
#define VIV_OCCLUSION_QUERY_BYTES	8
#define VIV_GL_CONTEXT_POINTER		0x3850
#define VIV_GL_FENCE_OUT_ADDRESS	0x3868
#define VIV_GL_STALL_TOKEN		0x3c00

/* Token of GL_SEMAPHORE_TOKEN, GL_STALL_TOKEN and the STALL command. */
#define VIV_TOKEN(from, to)		((from) | ((to) << 8))
#define VIV_TOKEN_FROM(x)		((x) & 0x1f)
#define VIV_TOKEN_TO(x)			(((x) >> 8) & 0x1f)
#define VIV_SYNC_FE			0x01
#define VIV_SYNC_RA			0x05
#define VIV_SYNC_PE			0x07
#define VIV_SYNC_DE			0x0b
#define VIV_SYNC_BLT			0x10

/*
 * Shader instruction memory in the state space, 16 bytes an instruction.
 * Cores with 512 (GC2000) keep a unified memory: the vertex shader's
 * instructions from SH_INST_MEM, the pixel shader's from its second half
 * (where drivers put them), each PC counting from its own start.
 * Uniforms (float32 vec4 each): VS_UNIFORMS and PS_UNIFORMS.
 */
#define VIV_SH_INST_MEM			0xc000
#define VIV_SH_INST_MEM_PS		0xd000
#define VIV_SH_INST_MEM_END		0xe000
#define VIV_SH_INST_BYTES		16
#define VIV_VS_UNIFORMS			0x5000
#define VIV_PS_UNIFORMS			0x7000
#define VIV_SH_UNIFORMS_VEC4		256

/* The state space: 64K 32-bit words. */
#define VIV_STATE_WORDS			0x10000

/* Chip feature bits (HI_CHIP_FEATURE) */
#define VIV_FEATURE_FAST_CLEAR		BIT(0)
#define VIV_FEATURE_PIPE_3D		BIT(2)
#define VIV_FEATURE_MSAA		BIT(7)
#define VIV_FEATURE_PIPE_2D		BIT(9)
#define VIV_FEATURE_PIPE_VG		BIT(26)
/* Minor features 0 */
#define VIV_MINOR0_2DPE20		BIT(7)
#define VIV_MINOR0_SUPER_TILED		BIT(12)
#define VIV_MINOR0_MC20			BIT(22)
/* Minor features 1 */
#define VIV_MINOR1_HALTI0		BIT(23)
#define VIV_MINOR1_MMU_VERSION		BIT(28)
/* Minor features 5 */
#define VIV_MINOR5_BLT_ENGINE		BIT(31)

/* FE command stream: opcode in bits 31:27, arguments padded to 64 bits. */
#define VIV_FE_OPCODE(w)		((w) >> 27)
#define VIV_FE_OP_LOAD_STATE		0x01
#define VIV_FE_OP_END			0x02
#define VIV_FE_OP_NOP			0x03
#define VIV_FE_OP_DRAW_2D		0x04
#define VIV_FE_OP_DRAW_PRIMITIVES	0x05
#define VIV_FE_OP_DRAW_INDEXED		0x06
#define VIV_FE_OP_WAIT			0x07
#define VIV_FE_OP_LINK			0x08
#define VIV_FE_OP_STALL			0x09
#define VIV_FE_OP_CALL			0x0a
#define VIV_FE_OP_RETURN		0x0b
#define VIV_FE_OP_CHIP_SELECT		0x0d

#define VIV_FE_LOAD_STATE_FIXP		BIT(26)
#define VIV_FE_LOAD_STATE_COUNT(w)	(((w) >> 16) & 0x3ff)	/* 0: 1024 */
#define VIV_FE_LOAD_STATE_OFFSET(w)	((w) & 0xffff)		/* in words */
#define VIV_FE_END_EVENT_ENABLE		BIT(8)
#define VIV_FE_DRAW_2D_COUNT(w)		(((w) >> 8) & 0xff)
#define VIV_FE_DRAW_2D_DATA_COUNT(w)	(((w) >> 16) & 0x7ff)
#define VIV_FE_PREFETCH(w)		((w) & 0xffff)

/* Command words; LOAD_STATE's first value follows in the same 64 bits. */
#define VIV_CMD_LOAD_STATE(state, count, fixp)				\
	((VIV_FE_OP_LOAD_STATE << 27) | ((fixp) ? VIV_FE_LOAD_STATE_FIXP : 0) | \
	 (((count) & 0x3ff) << 16) | (((state) >> 2) & 0xffff))
#define VIV_CMD_END			(VIV_FE_OP_END << 27)
#define VIV_CMD_NOP			(VIV_FE_OP_NOP << 27)
#define VIV_CMD_WAIT(cycles)		((VIV_FE_OP_WAIT << 27) | ((cycles) & 0xffff))
#define VIV_CMD_LINK(prefetch)		((VIV_FE_OP_LINK << 27) | ((prefetch) & 0xffff))
#define VIV_CMD_STALL			(VIV_FE_OP_STALL << 27)
#define VIV_CMD_CALL(prefetch)		((VIV_FE_OP_CALL << 27) | ((prefetch) & 0xffff))
#define VIV_CMD_RETURN			(VIV_FE_OP_RETURN << 27)
#define VIV_CMD_CHIP_SELECT(mask)	((VIV_FE_OP_CHIP_SELECT << 27) | ((mask) & 0xffff))
#define VIV_CMD_DRAW_PRIMITIVES		(VIV_FE_OP_DRAW_PRIMITIVES << 27)
#define VIV_CMD_DRAW_INDEXED		(VIV_FE_OP_DRAW_INDEXED << 27)
#define VIV_CMD_DRAW_2D(rects)		((VIV_FE_OP_DRAW_2D << 27) | (((rects) & 0xff) << 8))

/* Events: 30 ids, each with its own interrupt bit (bits 30, 31: errors). */
#define VIV_NUM_EVENTS			30

/*
 * Plain C, without kernel helpers: the tests build this header in user
 * space too.
 */

/**
 * viv_fixp_to_float() - convert a 16.16 fixed-point value as the FE does.
 * @fixp: two's complement 16.16 fixed-point value.
 *
 * The conversion LOAD_STATE applies with VIV_FE_LOAD_STATE_FIXP set: the
 * magnitude is truncated to a 24-bit mantissa.
 *
 * Return: @fixp as an IEEE 754 single precision bit pattern.
 */
static inline unsigned int viv_fixp_to_float(unsigned int fixp)
{
	unsigned int sign = fixp & 0x80000000u;
	unsigned int mag = sign ? -fixp : fixp;
	int msb;

	if (!mag)
		return 0;
	msb = 31 - __builtin_clz(mag);
	/* value = mag * 2^-16; mantissa from the bits below the top one */
	if (msb > 23)
		mag >>= msb - 23;
	else
		mag <<= 23 - msb;
	return sign | ((unsigned int)(msb - 16 + 127) << 23) | (mag & 0x7fffff);
}

/**
 * viv_masked_written() - bits a load writes into a state.
 * @state: byte address of the state.
 * @val: value loaded.
 * @masked: set to whether @state is a masked state.
 *
 * A masked state takes from a load only the fields whose mask bit the
 * loaded value leaves clear (fields without a mask bit: every load); its
 * other bits, mask bits included, keep their value.
 *
 * Return: for a masked state, the bits the load writes; else all bits.
 */
static inline unsigned int viv_masked_written(unsigned int state,
					      unsigned int val, int *masked)
{
	/* Fields of masked states, each with the bit that protects it. */
	static const struct {
		unsigned int state;
		unsigned int field;
		unsigned int mask;
	} fields[] = {
		{ VIV_GL_MULTI_SAMPLE_CONFIG, VIV_MSAA_SAMPLES_FIELD, VIV_MSAA_SAMPLES_MASK },
		{ VIV_GL_MULTI_SAMPLE_CONFIG, VIV_MSAA_ENABLES_FIELD, VIV_MSAA_ENABLES_MASK },
		{ VIV_GL_MULTI_SAMPLE_CONFIG, VIV_MSAA_UNK12_FIELD, VIV_MSAA_UNK12_MASK },
		{ VIV_GL_MULTI_SAMPLE_CONFIG, VIV_MSAA_UNK16_FIELD, VIV_MSAA_UNK16_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_MODE_FIELD, VIV_PE_DEPTH_MODE_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_FORMAT_D24S8, VIV_PE_DEPTH_FORMAT_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_FUNC_FIELD, VIV_PE_DEPTH_FUNC_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_WRITE_ENABLE,
		  VIV_PE_DEPTH_WRITE_ENABLE_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_EARLY_Z, VIV_PE_DEPTH_EARLY_Z_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_UNK18, VIV_PE_DEPTH_UNK18_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_ONLY_DEPTH, VIV_PE_DEPTH_ONLY_DEPTH_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_DISABLE_ZS, VIV_PE_DEPTH_DISABLE_ZS_MASK },
		{ VIV_PE_DEPTH_CONFIG, VIV_PE_DEPTH_SUPER_TILED,
		  VIV_PE_DEPTH_SUPER_TILED_MASK },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_FORMAT_FIELD,
		  VIV_PE_COLOR_FORMAT_FORMAT_MASK },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_COMPONENTS_FIELD,
		  VIV_PE_COLOR_COMPONENTS_MASK },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_SUPER_TILED_NEW, 0 },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_OVERWRITE, VIV_PE_COLOR_OVERWRITE_MASK },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_SUPER_TILED,
		  VIV_PE_COLOR_SUPER_TILED_MASK },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_FORMAT_EXT_FIELD,
		  VIV_PE_COLOR_FORMAT_EXT_MASK },
		{ 0 }
	};
	unsigned int i, written = 0;

	*masked = 0;
	for (i = 0; fields[i].state; i++) {
		if (fields[i].state != state)
			continue;
		*masked = 1;
		if (!(val & fields[i].mask))
			written |= fields[i].field;
	}
	return *masked ? written : ~0u;
}

/**
 * viv_masked_merge() - value a state holds after a load.
 * @state: byte address of the state.
 * @old: value before the load.
 * @val: value loaded.
 *
 * Return: @val, or for a masked state @old with the fields the load
 * writes (viv_masked_written()) taken from @val.
 */
static inline unsigned int viv_masked_merge(unsigned int state,
					    unsigned int old, unsigned int val)
{
	int masked;
	unsigned int written = viv_masked_written(state, val, &masked);

	return (old & ~written) | (val & written);
}

#endif /* _UGPU_HW_VIVANTE_REGS_H_ */
