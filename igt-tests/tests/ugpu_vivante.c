// SPDX-License-Identifier: MIT
/*
 * ugpu_vivante: Vivante GCxxx cores behind the ugpu uapi. Identity of the
 * three simulated cores, the FE command stream and the kernel ring,
 * command stream validation, relocations (MMUv1) and per-file page tables
 * (MMUv2), the contiguous pool, user signals and events, resolves checked
 * against a reference (de)tiler, fast clear, MSAA downsampling, the
 * kernel's context switching, hangs and recovery, the 2D pipe, and 3D
 * draws of the GC2000 through the pixel engine's colour and depth caches.
 */
#include <endian.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <xf86drm.h>

#include "igt.h"
#include "ugpu_vivante.h"

/**
 * TEST: ugpu vivante
 * Description: Vivante GCxxx cores behind the ugpu uapi, on the three
 *   simulated boards' cores (GC2000, GC320, GC7000): identity and limits,
 *   the FE command stream and the kernel ring, command stream validation,
 *   relocations (MMUv1) and per-file page tables (MMUv2), the resolve, BLT
 *   and 2D engines checked against a reference (de)tiler, tile status and
 *   its cache, context switching, hangs and recovery, user signals and
 *   soft commands, timestamps, runtime power management and unbinding,
 *   and 3D draws through the pixel engine's colour and depth caches.
 * Category: Hardware building block
 * Mega feature: General Core features
 * Sub-category: Command submission
 * Functionality: Vivante command streams and engines
 * Feature: ugpu
 *
 * SUBTEST: identity
 * Description: Each of the three cores reports the Vivante family, its chip
 *   id and revision, MMU version, queue capabilities, seven feature words
 *   and its known limits (instructions, queues, pixel pipes, vertex
 *   streams, shader cores).
 * Functionality: device identification
 *
 * SUBTEST: identity-model
 * Description: What a core's identity decides, from public facts: the MMU
 *   version and the 3D and 2D queues follow the feature words, and the
 *   GC2000 r5108 and GC7000 r6214 report the corrected stream, thread,
 *   instruction, uniform and varying limits their chip specs misreport.
 * Functionality: device identification
 *
 * SUBTEST: fe-opcodes-gc2000
 * Description: On the GC2000 the FE runs NOP, WAIT, CHIP_SELECT, a
 *   fixed-point LOAD_STATE, a semaphore and stall, a LINK over an unknown
 *   opcode, draws, and a CALL to a subroutine that RETURNs; without the
 *   LINK the unknown opcode is rejected with EINVAL.
 *
 * SUBTEST: fe-opcodes-gc320
 * Description: The same FE commands on the 2D-only GC320, without the
 *   draws: all run, and an unknown opcode that is not jumped over is
 *   rejected with EINVAL.
 *
 * SUBTEST: fe-opcodes-gc7000
 * Description: The same FE commands on the GC7000, draws included: all run,
 *   and an unknown opcode that is not jumped over is rejected with EINVAL.
 *
 * SUBTEST: validator-gc2000
 * Description: The GC2000's stream validator rejects with EINVAL an
 *   unknown opcode, END, a LOAD_STATE past its state block, a LINK out of
 *   the buffer, kernel-owned states (interrupts, MMU, FE, events, pipe
 *   select), raw addresses or ones past a BO, a resolve leaving its BO and
 *   a draw for the other pipe.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-gc7000
 * Description: The same rejections on the GC7000 (MMUv2, BLT engine): each
 *   malformed or forbidden stream fails with EINVAL.
 * Functionality: command stream validation
 *
 * SUBTEST: reloc-mmuv1
 * Description: On the MMUv1 GC2000, resolve fills reach a normal and a
 *   contiguous BO through relocations: each window holds its fill value
 *   and the word after the first window is untouched.
 * Functionality: GPU address translation
 *
 * SUBTEST: clear-mmuv2
 * Description: The same fills on the MMUv2 GC7000, through its BLT engine
 *   and the file's own page tables.
 * Functionality: GPU address translation
 *
 * SUBTEST: mmuv2-isolation
 * Description: MMUv2 gives every file its own page tables: two files get
 *   BOs at the same GPU address, a fill by one leaves the other's memory
 *   alone, and an address only the other file maps is rejected.
 * Functionality: GPU address translation
 *
 * SUBTEST: wait-link-concurrent
 * Description: Six processes each run 25 fills on the GC2000 at the same
 *   time, every result checked: jobs of concurrent clients are appended to
 *   the kernel's WAIT/LINK ring without being lost or mixed up.
 *
 * SUBTEST: resolve-tiled-to-linear
 * Description: A resolve of a 64x64 A8R8G8B8 image from 4x4 tiles to
 *   linear on the GC2000 puts every pixel where the reference detiler says.
 *
 * SUBTEST: resolve-linear-to-tiled
 * Description: A resolve of a 64x64 A8R8G8B8 image from linear to 4x4
 *   tiles on the GC2000 puts every pixel where the reference tiler says.
 *
 * SUBTEST: resolve-supertiled-to-linear
 * Description: A copy of a 64x64 image from 64x64 supertiles to linear on
 *   the GC7000 (its BLT engine) puts every pixel where the reference
 *   detiler says.
 *
 * SUBTEST: resolve-linear-to-supertiled
 * Description: A copy of a 64x64 image from linear to 64x64 supertiles on
 *   the GC7000 (its BLT engine) puts every pixel where the reference tiler
 *   says.
 *
 * SUBTEST: resolve-16bpp-gc2000
 * Description: The resolve engine on R5G6B5 pixels: copies between linear
 *   and tiled move every pixel bit for bit and write nothing past the
 *   window, and a 48x8 fill writes the low half of the fill value into its
 *   window only.
 *
 * SUBTEST: blt-16bpp-gc7000
 * Description: The BLT engine on each 16-bit format (R5G6B5, A4R4G4B4,
 *   A1R5G5B5): copies between linear, tiled and supertiled move every pixel
 *   unchanged and nothing else, and a 48x8 clear writes its window only.
 *
 * SUBTEST: fast-clear
 * Description: A resolve of a supertiled surface under fast clear on the
 *   GC2000: tiles whose tile status says cleared read as the clear value,
 *   the others keep their pixels.
 * Functionality: tile status
 *
 * SUBTEST: msaa-downsample
 * Description: A 2x2 downsampling copy on the GC7000 of an image whose
 *   columns alternate two values gives their average in every pixel of the
 *   half-size result.
 *
 * SUBTEST: contig-pool
 * Description: Contiguous BOs are allocated until the pool fails with
 *   ENOMEM and reports less than 64 KiB free; freeing one makes room for
 *   another, and freeing all restores the pool's free size.
 * Functionality: memory management
 *
 * SUBTEST: events
 * Description: Soft commands after a GPU command (a 32-bit write and a
 *   signal set) run once the GPU got there: the wait returns, the GPU's
 *   fill and the write are both in the BO, and the auto-reset signal was
 *   consumed by the wait.
 * Functionality: soft commands and user signals
 *
 * SUBTEST: context-switch-gc2000
 * Description: Two contexts of two files with different resolve and MSAA
 *   state and shader instruction words (one LOAD_STATE across a 4 KiB
 *   boundary of the state space), interleaved on the GC2000: each fill
 *   uses its own context's value and each context finds its own words
 *   although the other changed them since, every kick switches context,
 *   and a third context starts from the reset state.
 * Functionality: context switching
 *
 * SUBTEST: context-switch-gc7000
 * Description: The same interleaving of two files' contexts on the GC7000,
 *   with the BLT engine's clear colour and bits as the context's state.
 * Functionality: context switching
 *
 * SUBTEST: context-switch-same-file-gc2000
 * Description: The interleaving on the GC2000 with two contexts of one
 *   file: state is kept per context, not per file or address space.
 * Functionality: context switching
 *
 * SUBTEST: context-switch-same-file-gc7000
 * Description: The interleaving on the GC7000 with two contexts of one
 *   file: state is kept per context, not per file or address space.
 * Functionality: context switching
 *
 * SUBTEST: hang-recovery
 * Description: A STALL nobody armed hangs the GC2000: the job fails with
 *   ETIMEDOUT, its devcoredump names the process and context, holds the
 *   registers and the stream as submitted and passes ugpu-coredump, and
 *   another file's fill then runs.
 * Functionality: hang detection and recovery
 *
 * SUBTEST: hang-ban
 * Description: Repeated hangs of one context on the GC7000: each fails with
 *   ETIMEDOUT and a devcoredump, the one at the ban threshold is flagged
 *   banned, the next submit fails, and another file's fill still runs.
 * Functionality: hang detection and recovery
 *
 * SUBTEST: fixed-point
 * Description: LOAD_STATE's fixed-point flag converts 16.16 values to
 *   single precision (1.5 and -2.0 as the core holds them); without the
 *   flag the value is stored as loaded.
 *
 * SUBTEST: context-masked-state
 * Description: Masked state across a context switch on the GC7000: a
 *   masked write of context A changes only the unmasked field of A's own
 *   value although B of another file loaded its own in between, and B
 *   finds its value again.
 * Functionality: context switching
 *
 * SUBTEST: context-masked-state-same-file
 * Description: The same masked write on the GC2000 with A and B two
 *   contexts of one file.
 * Functionality: context switching
 *
 * SUBTEST: hang-cases
 * Description: The known ways to hang the core (more VS inputs than vertex
 *   elements, a malformed scissor at 1920 wide, garbage tile status under fast
 *   clear, a tiled resolve not 16x4 aligned) each end with ETIMEDOUT, and
 *   the GC2000 then runs a fill.
 * Functionality: hang detection and recovery
 *
 * SUBTEST: mmu-fault-gc7000
 * Description: On MMUv2 a write to a GPU-read-only BO faults and that job
 *   fails with EFAULT; the same fill of another file into a writable BO
 *   lands.
 * Functionality: GPU address translation
 *
 * SUBTEST: signals
 * Description: User signals with the vendor's semantics: WAIT takes
 *   milliseconds, a manual-reset signal stays set until reset, an
 *   auto-reset one is consumed by a wait, and a signal exported as a
 *   sync_file wakes a poll in another process when set.
 * Functionality: soft commands and user signals
 *
 * SUBTEST: events-across-reset
 * Description: Soft commands (writes, a BO release, a signal set) behind an
 *   innocent job caught in another file's hang still run, in order, after
 *   the reset: the hung job fails with ETIMEDOUT, the fill and the last
 *   write land and the released BO is gone.
 * Functionality: hang detection and recovery
 *
 * SUBTEST: validator-big-stream
 * Description: A full-size stream of state loads then a fill is accepted,
 *   each byte validated once, and runs to its end; the same loads after a
 *   fill with a last LOAD_STATE claiming more than the buffer holds are
 *   rejected with EINVAL and nothing runs.
 * Functionality: command stream validation
 *
 * SUBTEST: stream-room-gc2000
 * Description: One context's streams in turn: nearly full, short (its
 *   end is not the long one's: an earlier fill does not run again), one
 *   rejected with EINVAL that runs nothing, short and long again; then
 *   four threads submitting streams of varied size to the same context at
 *   once, each fill landing with its own value.
 * Functionality: command stream validation
 *
 * SUBTEST: stream-room-gc7000
 * Description: One context's streams in turn: nearly full, short (its
 *   end is not the long one's: an earlier fill does not run again), one
 *   rejected with EINVAL that runs nothing, short and long again; then
 *   four threads submitting streams of varied size to the same context at
 *   once, each fill landing with its own value.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-rs-extent
 * Description: Resolve extents: fills and copies whose width (linear or
 *   tiled) takes them past their BO and an empty window are rejected; a
 *   fill and a tiled copy ending at the BO's last byte run and write
 *   exactly their window.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-rs-carryover
 * Description: A resolve kick is checked against the geometry its own
 *   submit loads: kicks relying on an earlier submit's window, or on one
 *   of a rejected submit that never ran, are rejected, and nothing is
 *   written.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-exec-order
 * Description: The validator follows LINK and CALL as the FE does:
 *   geometry loaded behind a LINK counts, and loops, a second CALL of a
 *   subroutine, a LINK into LOAD_STATE arguments and relocated non-address
 *   words are rejected.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-unlisted-states-gc2000
 * Description: On MMUv1, address states the validator does not check and
 *   states not known to be harmless are rejected even with a relocation
 *   into a BO of the submit, shader fetch addresses and instruction cache
 *   controls included.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-unlisted-states-gc7000
 * Description: On MMUv2, the same unchecked or unknown states are
 *   rejected, while shader fetch addresses and instruction cache controls
 *   are accepted.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-halti5-shader-states-gc2000
 * Description: On MMUv1 the GC7000's HALTI5 shader interface states
 *   (VS_HALTI5_INPUT/OUTPUT, their buffer sizing, instruction range,
 *   vertex and instance id registers, shader specials and attributes,
 *   SH_CONFIG, the unified uniforms and their mirror) are rejected: the
 *   GC2000 has none of them.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-halti5-shader-states-gc7000
 * Description: On MMUv2 the same HALTI5 shader interface states are
 *   accepted with any value, the whole uniform store in one load
 *   included; their unknown neighbours stay rejected, and so does a
 *   relocation into a uniform (it is not an address state).
 * Functionality: command stream validation
 *
 * SUBTEST: validator-readonly-mmuv1
 * Description: On MMUv1 a GPU-read-only BO is never a write target:
 *   resolve destination, tile status, render target, depth surface and
 *   query result in it are rejected, textures and vertices are accepted,
 *   and reading it works.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-2d-extent-gc320
 * Description: Each 2D clear, blit and pattern must stay in its BO (one
 *   ending at the BO's last byte runs and lands); rotation, stretch,
 *   planar formats, reversed rectangles, a missing destination and a
 *   read-only destination are rejected.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-many-bos
 * Description: A submit with the most BOs (1024) and a long stream of
 *   address states, each looked up among them: the fill at its end lands,
 *   and one address outside every BO is rejected with EINVAL.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-render-target-gc2000
 * Description: On MMUv1 a draw whose colour, depth or tile status target
 *   (stride, rows, columns, 16-bit, supertiled, MSAA, scissor, a pipe's
 *   address left out) reaches past its BO is rejected and not run; one that
 *   exactly fills it runs.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-render-target-gc7000
 * Description: The same render target cases on MMUv2: draws are accepted
 *   as long as their addresses lie in BOs of the submit, and run or fault.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-texture-gc2000
 * Description: On MMUv1 a draw whose texture (size, a level past its BO,
 *   cube map, format, configuration or a sampler's size left out) reaches
 *   past its BO is rejected and not run; textures that fit run.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-texture-gc7000
 * Description: The same texture cases on MMUv2: accepted, and run or
 *   fault.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-vertex-gc2000
 * Description: On MMUv1 a draw whose vertex fetch (first vertex, count,
 *   triangles, stride, a stride or base left out) reaches past its BO is
 *   rejected and not run; draws that fit exactly run.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-vertex-gc7000
 * Description: The same vertex fetch cases on MMUv2: accepted, and run or
 *   fault.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-indexed-gc2000
 * Description: On MMUv1 an indexed draw reaches its offset plus the largest
 *   index of its width (8 or 16 bits) and its indices lie in the index BO:
 *   draws just within run, one step beyond is rejected, and so are
 *   primitive restart and 32-bit indices.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-indexed-gc7000
 * Description: The same indexed draw cases on MMUv2: accepted, and run or
 *   fault.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-carryover-gc2000
 * Description: On MMUv1, draw state (scissor, MSAA, sampler size, vertex
 *   stride, addresses) loaded only by an earlier submit of the context
 *   counts at its worst: the draw is rejected.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-settings-gc2000
 * Description: On MMUv1, settings that bound draws take only values with a
 *   known bound: colour compression, unknown colour, MSAA or texture
 *   formats, the new supertiling, 3D or linear textures, vertex strides
 *   over 255 and an unknown index type are rejected; masked-off fields are
 *   not.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-settings-gc7000
 * Description: On MMUv2 the same draw settings are all accepted.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-query-gc2000
 * Description: The occlusion query's 64-bit result must lie in its BO: at
 *   the BO's last 8 bytes it runs, 4 bytes later it is rejected (GC2000).
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-query-gc7000
 * Description: The occlusion query's 64-bit result must lie in its BO: at
 *   the BO's last 8 bytes it runs, 4 bytes later it is rejected (GC7000).
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-scratch-gc2000
 * Description: A draw that loads no target address renders through the
 *   4 KiB scratch page: a 64x64 target that would reach past it is
 *   rejected, a 32x32 16-bit one that fits runs.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-3d-many-draws-gc2000
 * Description: A stream full of draws, each after a scissor and sampler
 *   change, is accepted, each byte validated once, and every draw runs;
 *   with one sampler too large for its BO before the middle draw it is
 *   rejected and none runs.
 * Functionality: command stream validation
 *
 * SUBTEST: 2d-fill-gc320
 * Description: Solid fills with START_DE on the GC320's 2D pipe write the
 *   fill value into their rectangle and nothing beside it.
 * Functionality: 2D engine
 *
 * SUBTEST: 2d-blit-16bpp-gc320
 * Description: A 2D bit blit of R5G6B5 pixels copies a 32x4 rectangle
 *   pixel for pixel and leaves the rest of each destination row alone.
 * Functionality: 2D engine
 *
 * SUBTEST: 2d-pipe-switch-gc2000
 * Description: On the GC2000, with a 3D and a 2D queue, 2D fills
 *   alternate with 3D resolve fills: every pipe switch leaves the next
 *   job's result right.
 * Functionality: 2D engine
 *
 * SUBTEST: huge-resolve-gc7000
 * Description: Four fills of 65535x65532 pixels with stride 0, accepted
 *   by the validator, either complete or end with ETIMEDOUT; meanwhile
 *   another device works, and jobs queued behind and after run within 2 s
 *   of its fence.
 * Functionality: bounded work
 *
 * SUBTEST: huge-2d-gc320
 * Description: 255 START_DE clears of 65535x65535 pixels with stride 0
 *   either complete or end with ETIMEDOUT; meanwhile another device works,
 *   and jobs queued behind and after run within 2 s of its fence.
 * Functionality: bounded work
 *
 * SUBTEST: 2d-clip-clear-gc320
 * Description: 2D clears are clipped by the clip window: only pixels of
 *   each rectangle inside it are written, and a later submit that loads no
 *   window is still clipped by the one the core keeps.
 * Functionality: 2D engine
 *
 * SUBTEST: 2d-clip-blit-gc320
 * Description: 2D blits are clipped by the clip window, each kept pixel
 *   reading what it would unclipped (absolute and relative source), and the
 *   window persists into a submit that loads none.
 * Functionality: 2D engine
 *
 * SUBTEST: 2d-clip-clear-gc2000
 * Description: The clipped 2D clears on the GC2000's 2D pipe: only pixels
 *   inside the window are written, in this submit and the next.
 * Functionality: 2D engine
 *
 * SUBTEST: 2d-clip-blit-gc2000
 * Description: The clipped 2D blits on the GC2000's 2D pipe: only pixels
 *   inside the window are written, from the right source pixels.
 * Functionality: 2D engine
 *
 * SUBTEST: 2d-clip-keeps-inside-bo
 * Description: On MMUv1 a clear running past its BO but clipped to it is
 *   accepted and writes nothing into the guard page after it; without a
 *   window in the submit, or with one that lets it out, it is rejected.
 * Functionality: command stream validation
 *
 * SUBTEST: mmuv1-unmap-scratch
 * Description: On MMUv1, GPU addresses never mapped or unmapped (a BO
 *   freed, the TLB flushed) read the scratch page: none shows the old data
 *   and no access reaches physical page 0.
 * Functionality: GPU address translation
 *
 * SUBTEST: tlb-flush-gc2000
 * Description: BO A is read by a resolve, freed, and BO B takes its GPU
 *   address on the GC2000 (MMUv1): the next resolve reads B, which takes
 *   the TLB flush after the page-table change.
 * Functionality: GPU address translation
 *
 * SUBTEST: tlb-flush-gc7000
 * Description: The same TLB check on the GC7000 (MMUv2): after B takes A's
 *   GPU address, the next copy reads B.
 * Functionality: GPU address translation
 *
 * SUBTEST: ring-space-gc2000
 * Description: Large jobs of several contexts on every queue fill the
 *   kernel ring's arena; jobs waiting for room hold up neither scheduling
 *   nor recovery: all complete with the right data, and only a hung job
 *   fails, with ETIMEDOUT.
 *
 * SUBTEST: ring-space-gc7000
 * Description: The same large jobs and hang on the GC7000's ring: all
 *   complete with the right data, only the hung job fails, and its context
 *   works afterwards.
 *
 * SUBTEST: core-clock-rate
 * Description: The timestamp frequency of each core is its board's core
 *   clock: 528 MHz (GC2000), 480 MHz (GC320) and 800 MHz (GC7000).
 * Functionality: timestamps
 *
 * SUBTEST: timestamp-wrap
 * Description: The GC7000's 32-bit cycle counter wraps every 5.37 s: after
 *   6 s unread, the timestamps still increase at 800 MHz across the wrap.
 * Functionality: timestamps
 *
 * SUBTEST: timestamp-reset
 * Description: A reset after a hang clears the core's cycle counter; the
 *   timestamp of the GC7000, kept powered, neither goes back nor jumps
 *   ahead and keeps its rate across it.
 * Functionality: timestamps
 *
 * SUBTEST: runtime-suspend-gc2000
 * Description: Idle for the autosuspend delay the GC2000 suspends (clocks
 *   and power off), stays so while idle, and the next submit resumes it and
 *   works; no register access reached it while off.
 * Functionality: runtime power management
 *
 * SUBTEST: runtime-suspend-gc320
 * Description: The same suspend and resume cycles on the GC320, its 2D fills
 *   right after each resume and no register access while off.
 * Functionality: runtime power management
 *
 * SUBTEST: runtime-suspend-gc7000
 * Description: The same suspend and resume cycles on the GC7000, its fills
 *   right after each resume and no register access while off.
 * Functionality: runtime power management
 *
 * SUBTEST: runtime-suspend-shared-domain
 * Description: The GC2000 and GC320 share a power domain: the GC2000
 *   suspends with the domain kept on by the GC320 and works after resuming;
 *   with both idle the domain goes off and both work again.
 * Functionality: runtime power management
 *
 * SUBTEST: idle-wait-gc2000
 * Description: An idle, powered GC2000 loops on its ring's WAIT, backing off
 *   (at most 150 commands in 80 ms) yet seeing the next submit; suspended
 *   it fetches nothing, and the next submit resumes it.
 * Functionality: runtime power management
 *
 * SUBTEST: idle-wait-gc7000
 * Description: The same idle WAIT loop and suspended silence on the GC7000,
 *   with submits before and after both seen.
 * Functionality: runtime power management
 *
 * SUBTEST: ts-cache-kernel-flush-gc2000
 * Description: The kernel flushes the TS cache at the end of a job: after a
 *   resolve through an all-cleared tile status and the CPU marking every
 *   tile normal, the next job's resolve reads the pattern.
 * Functionality: tile status
 *
 * SUBTEST: ts-cache-kernel-flush-gc7000
 * Description: The same end-of-job TS flush on the GC7000, its BLT copy
 *   reading the source's tile status.
 * Functionality: tile status
 *
 * SUBTEST: ts-cache-user-flush-gc2000
 * Description: In one stream, a resolve, a fill of the tile status, a
 *   flush, stall and TS_FLUSH_CACHE, then the resolve again: the second
 *   resolve sees the new status.
 * Functionality: tile status
 *
 * SUBTEST: ts-cache-user-no-flush-gc2000
 * Description: The same stream without the TS flush: the second resolve
 *   still reads the cached status and gives the clear colour.
 * Functionality: tile status
 *
 * SUBTEST: ts-cache-user-flush-gc7000
 * Description: On the GC7000 a BLT flush between a tile status fill and
 *   the next copy makes the copy see the new status.
 * Functionality: tile status
 *
 * SUBTEST: ts-cache-user-no-flush-gc7000
 * Description: On the GC7000 without the BLT flush the next copy still
 *   reads the cached status and gives the clear colour.
 * Functionality: tile status
 *
 * SUBTEST: ts-flush-order-gc7000
 * Description: A TS flush right after a copy, alone or after only a
 *   colour/depth flush, locks the core up (ETIMEDOUT); after the flush and
 *   an RA to PE stall it works.
 * Functionality: tile status
 *
 * SUBTEST: draw-color-kernel-flush-gc2000
 * Description: A triangle drawn by a vertex shader (MOV of the position
 *   input) and a pixel shader (MOV of a uniform colour) in a stream with
 *   no flush: after the job the target has the colour exactly inside the
 *   triangle and the clear value elsewhere, which the colour cache holds
 *   back until the kernel's end-of-job flush.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-color-supertiled-gc2000
 * Description: The same triangle into a 64x64 supertiled colour target
 *   (PE_COLOR_FORMAT SUPER_TILED): each pixel where the supertiling puts
 *   it, after the kernel's end-of-job flush.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-depth-kernel-flush-gc2000
 * Description: A triangle at depth 0.25, then the whole target as an
 *   indexed strip at 0.5, LESS with depth writes, no flush: the D16 depth
 *   target and the colours show the triangle in front, through the depth
 *   cache and the kernel's end-of-job flush.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-resolve-no-flush-gc2000
 * Description: A resolve of the colour target after a draw in the same
 *   stream, without a colour flush: it copies the stale memory (the clear
 *   value everywhere); the target has the draw after the job.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-resolve-flush-no-stall-gc2000
 * Description: The same with a colour flush but no stall on the pixel
 *   engine before the resolve: still the stale memory.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-resolve-flush-stall-gc2000
 * Description: The same with a colour flush and an RA to PE semaphore and
 *   stall: the resolve copies the drawn triangle.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-color-kernel-flush-gc7000
 * Description: The triangle of draw-color-kernel-flush-gc2000 on the
 *   GC7000's HALTI5 interface: shaders fetched from a BO through
 *   VS_INST_ADDR/PS_INST_ADDR, VS_HALTI5_INPUT/OUTPUT, the colour from the
 *   unified uniforms at the PS uniform base (a VS uniform of another
 *   colour below it); no flush in the stream: the kernel's end-of-job
 *   flush puts the pixels in memory.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-depth-kernel-flush-gc7000
 * Description: The depth case of draw-depth-kernel-flush-gc2000 on the
 *   GC7000's HALTI5 interface, the colour changed between the draws
 *   through the unified uniforms.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-blt-no-flush-gc7000
 * Description: A BLT copy of the colour target after a GC7000 draw in the
 *   same stream, without a colour flush: the BLT engine reads memory, so
 *   it copies the clear value everywhere; the target has the draw after
 *   the job.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: draw-blt-flush-stall-gc7000
 * Description: The same with a colour flush and an RA to PE semaphore and
 *   stall before the BLT copy: it copies the drawn triangle.
 * Functionality: 3D pixel engine caches
 *
 * SUBTEST: blt-copy-linear-gc7000
 * Description: BLT copies out of and into a linear image: the whole image
 *   out, a 16x8 window back in, every pixel where the layout puts it and
 *   the rest untouched.
 * Functionality: BLT engine
 *
 * SUBTEST: blt-copy-tiled-gc7000
 * Description: BLT copies out of and into a 4x4 tiled image: every pixel
 *   where the reference tiler puts it and the rest untouched.
 * Functionality: BLT engine
 *
 * SUBTEST: blt-copy-supertiled-gc7000
 * Description: BLT copies out of and into a 64x64 supertiled image: every
 *   pixel where the reference tiler puts it and the rest untouched.
 * Functionality: BLT engine
 *
 * SUBTEST: blt-clear-gc7000
 * Description: A BLT clear of a window of a tiled image: the channels the
 *   clear bits select take the clear colour, alpha keeps its value, nothing
 *   outside the window changes.
 * Functionality: BLT engine
 *
 * SUBTEST: validator-blt-extent-gc7000
 * Description: BLT destinations and sources are checked up to the last byte
 *   of their window (linear, tiled, moved, downsampled): accepted at the end
 *   of the BO, rejected one row or pixel past; carried geometry and unknown
 *   bits or commands are rejected.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-rs-on-blt-core-gc7000
 * Description: On the GC7000, which has the BLT engine and no resolve
 *   engine, RS operations, states and addresses are rejected and nothing is
 *   written; its own engine works.
 * Functionality: command stream validation
 *
 * SUBTEST: validator-blt-on-rs-core-gc2000
 * Description: On the GC2000, which has the resolve engine and no BLT, BLT
 *   operations, states and addresses are rejected and nothing is written;
 *   its own engine works.
 * Functionality: command stream validation
 *
 * SUBTEST: unbind-contexts-gc7000
 * Description: Unbinding the GC7000 with two contexts of a file alive, a
 *   hung job and one behind it: both jobs end with an error, the contexts
 *   are released once, and after rebinding new contexts start from reset.
 * Functionality: device unbind
 *
 * SUBTEST: no-bus-errors
 * Description: Run last: over the whole run no Vivante core saw a register
 *   access with its clocks or power off.
 * Functionality: runtime power management
 */

static struct ugpu_device_info devs[UGPU_MAX_DEVICES];
static int num_devs;

#define W	64
#define H	64
#define CPP	4
#define LSTRIDE	(W * CPP)
#define TSTRIDE	(W / 4 * 16 * CPP)

static uint64_t param(int fd, uint32_t p)
{
	return ugpu_get_param(fd, p, 0);
}

/* First device of @model, skipping when there is none. */
static int find_model(uint32_t model)
{
	int i, fd;

	for (i = 0; i < num_devs; i++) {
		fd = ugpu_open_minor(devs[i].minor);
		if (param(fd, DRM_UGPU_PARAM_CHIP_MODEL) == model) {
			close(fd);
			return devs[i].minor;
		}
		close(fd);
	}
	igt_skip("no GC%x\n", model);
	return -1;
}

static bool has_3d(int fd)
{
	return ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 0) &
	       DRM_UGPU_QUEUE_CAP_CMDBUF_3D;
}

static void test_identity(void)
{
	static const struct {
		uint32_t model, rev, mmu, caps0;
	} want[] = {
		{ 0x2000, 0x5108, 1, DRM_UGPU_QUEUE_CAP_CMDBUF_3D },
		{ 0x320, 0x5007, 1, DRM_UGPU_QUEUE_CAP_CMDBUF_2D },
		{ 0x7000, 0x6214, 2, DRM_UGPU_QUEUE_CAP_CMDBUF_3D },
	};
	unsigned int i;

	igt_assert_lte(3, num_devs);
	for (i = 0; i < 3; i++) {
		int fd = ugpu_open_minor(find_model(want[i].model));

		igt_assert_eq(param(fd, DRM_UGPU_PARAM_FAMILY), DRM_UGPU_FAMILY_VIVANTE);
		igt_assert_eq_u32(param(fd, DRM_UGPU_PARAM_CHIP_REVISION), want[i].rev);
		igt_assert_eq_u32(param(fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION),
				  want[i].mmu);
		igt_assert_eq(param(fd, DRM_UGPU_PARAM_NUM_FEATURE_WORDS), 7);
		igt_assert_eq_u32(ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, 0),
				  want[i].caps0);
		igt_assert(param(fd, DRM_UGPU_PARAM_CHIP_ID) ==
			   ((uint64_t)want[i].model << 32 | want[i].rev));
		if (want[i].model == 0x2000) {
			igt_assert_eq(param(fd, DRM_UGPU_PARAM_VIVANTE_INSTRUCTION_COUNT), 512);
			igt_assert_eq(param(fd, DRM_UGPU_PARAM_NUM_QUEUES), 2);
			igt_assert_eq(param(fd, DRM_UGPU_PARAM_VIVANTE_PIXEL_PIPES), 2);
		}
		if (want[i].model == 0x7000) {
			igt_assert_eq(param(fd, DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT), 16);
			igt_assert_eq(param(fd, DRM_UGPU_PARAM_VIVANTE_SHADER_CORE_COUNT), 4);
		}
		close(fd);
	}
}

/*
 * What a core's identity decides, from public facts. Feature word 0 bit 2
 * is the 3D pipe, bit 9 the 2D pipe, each a queue; word 2 (minor features
 * 1) bit 28 is MMUv2. Some cores' HI_CHIP_SPECS* cannot encode or
 * misreport a limit: the GC7000 r6214 of the i.MX8MQ has 16 vertex
 * streams, 1024 threads, 512 instructions, 320 uniforms and 16 varyings;
 * the GC2000 r5108 of the i.MX6Q encodes its 512 instructions as 0, and
 * position takes one of its 8 varyings.
 */
static void test_identity_model(void)
{
	static const struct {
		uint32_t model, rev;
		uint32_t streams, threads, instructions, constants, varyings;
	} cores[] = {
		{ 0x2000, 0x5108, 0, 0, 512, 0, 7 },
		{ 0x7000, 0x6214, 16, 1024, 512, 320, 16 },
	};
	unsigned int i, q, checked = 0;

	for (i = 0; i < (unsigned int)num_devs; i++) {
		int fd = ugpu_open_minor(devs[i].minor);
		uint64_t f0 = ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 0);
		uint64_t f2 = ugpu_get_param(fd, DRM_UGPU_PARAM_FEATURES, 2);
		uint32_t model = param(fd, DRM_UGPU_PARAM_CHIP_MODEL);
		uint32_t rev = param(fd, DRM_UGPU_PARAM_CHIP_REVISION);
		uint32_t want_caps[2], nq = 0;

		igt_info("%s: GC%x rev %#x\n", devs[i].name, model, rev);
		igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_CHIP_ID),
				  (uint64_t)model << 32 | rev);
		igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION),
				  f2 & (1u << 28) ? 2 : 1);
		if (f0 & (1u << 2))
			want_caps[nq++] = DRM_UGPU_QUEUE_CAP_CMDBUF_3D;
		if (f0 & (1u << 9))
			want_caps[nq++] = DRM_UGPU_QUEUE_CAP_CMDBUF_2D;
		igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_NUM_QUEUES), nq);
		for (q = 0; q < nq; q++)
			igt_assert_eq_u64(ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, q),
					  want_caps[q]);

		for (q = 0; q < ARRAY_SIZE(cores); q++) {
			if (cores[q].model != model || cores[q].rev != rev)
				continue;
			checked++;
			if (cores[q].streams)
				igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT),
						  cores[q].streams);
			if (cores[q].threads)
				igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_VIVANTE_THREAD_COUNT),
						  cores[q].threads);
			igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_VIVANTE_INSTRUCTION_COUNT),
					  cores[q].instructions);
			if (cores[q].constants)
				igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_VIVANTE_NUM_CONSTANTS),
						  cores[q].constants);
			igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_VIVANTE_VARYINGS_COUNT),
					  cores[q].varyings);
		}
		close(fd);
	}
	igt_require_f(checked, "none of the cores with corrected limits\n");
}

/* LOAD_STATE of @n consecutive states. */
static void viv_ls_n(struct viv_stream *s, uint32_t state, unsigned int n,
		     const uint32_t *vals)
{
	unsigned int i;

	igt_assert(n && n <= 1023 && s->n + n + 2 <= VIV_STREAM_WORDS);
	s->w[s->n++] = VIV_CMD_LOAD_STATE(state, n, false);
	for (i = 0; i < n; i++)
		s->w[s->n++] = vals[i];
	if (s->n & 1)
		s->w[s->n++] = 0;
}

/*
 * A consistent draw state: one element, one VS input, shaders, scissor;
 * and what MMUv1 needs to bound a draw that uses no BO (all addresses
 * the scratch page): the scissor from 0 (right and bottom loaded raw, so
 * as the float32 the rasteriser reads they are below one pixel), colour and depth formats
 * (tiled), strides and no MSAA, fast clear off, every sampler's size
 * (1 x 1), every vertex stride 0 and 8-bit indices.
 */
static void draw_state(struct viv_stream *s)
{
	static const uint32_t zero[VIV_TE_SAMPLERS];

	viv_ls(s, VIV_FE_VERTEX_ELEMENT_CONFIG(0), 0x0c000000);
	viv_ls(s, VIV_VS_INPUT_COUNT, 1);
	viv_ls(s, VIV_VS_END_PC, 2);
	viv_ls(s, VIV_PS_END_PC, 2);
	viv_ls(s, VIV_SE_SCISSOR_LEFT, 0);
	viv_ls(s, VIV_SE_SCISSOR_TOP, 0);
	viv_ls(s, VIV_SE_SCISSOR_RIGHT, (64 << 16) - 1);
	viv_ls(s, VIV_SE_SCISSOR_BOTTOM, (64 << 16) - 1);
	viv_ls(s, VIV_TS_MEM_CONFIG, 0);
	viv_ls(s, VIV_GL_MULTI_SAMPLE_CONFIG, 0);
	viv_ls(s, VIV_PE_COLOR_FORMAT, VIV_PE_FORMAT_A8R8G8B8);
	viv_ls(s, VIV_PE_DEPTH_CONFIG, 0);
	viv_ls(s, VIV_PE_COLOR_STRIDE, 0);
	viv_ls(s, VIV_PE_DEPTH_STRIDE, 0);
	viv_ls_n(s, VIV_TE_SAMPLER_SIZE(0), VIV_TE_SAMPLERS, zero);
	viv_ls(s, VIV_FE_VERTEX_STREAM_CONTROL, 0);
	viv_ls_n(s, VIV_FE_VERTEX_STREAMS_CONTROL(0), VIV_FE_VERTEX_STREAMS, zero);
	viv_ls(s, VIV_FE_INDEX_STREAM_CONTROL, VIV_FE_INDEX_TYPE_U8);
}

static void test_opcodes(int minor)
{
	static struct viv_stream s;
	struct viv_env e;
	unsigned int link, target, call;

	viv_env_open(&e, minor);
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_NOP, 0);
	viv_emit(&s, VIV_CMD_WAIT(16), 0);
	viv_emit(&s, VIV_CMD_CHIP_SELECT(1), 0);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_LEFT, 1, true), 0x10000);
	viv_sem_stall(&s, VIV_SYNC_FE, VIV_SYNC_PE);
	/* LINK over a poisoned command to the next one. */
	link = s.n;
	viv_emit(&s, VIV_CMD_LINK(2), 0);
	viv_emit(&s, 0x70000000, 0);	/* unknown opcode, skipped */
	target = s.n;
	s.w[link + 1] = 0;
	s.relocs[s.nrelocs++] = (struct drm_ugpu_reloc){
		.cmdbuf_offset = (link + 1) * 4, .bo_index = 0,
		.bo_offset = target * 4 };
	if (has_3d(e.fd)) {
		draw_state(&s);
		viv_emit(&s, VIV_CMD_DRAW_PRIMITIVES, 4);
		viv_emit(&s, 0, 3);
		viv_emit(&s, VIV_CMD_DRAW_INDEXED, 4);
		viv_emit(&s, 0, 3);
		viv_emit(&s, 0, 0);
	}
	viv_emit(&s, VIV_CMD_NOP, 0);
	/* The FE never reaches the skipped word (it would hang on it). */
	igt_assert_eq(viv_run(&e, &s, NULL, 0, DRM_UGPU_QUEUE_AUTO), 0);

	/* Without the LINK, the unknown opcode is rejected. */
	s.w[link] = VIV_CMD_NOP;
	s.nrelocs--;
	igt_assert_eq(viv_exec(&e, &s, NULL, 0, DRM_UGPU_QUEUE_AUTO, NULL), -EINVAL);

	/* CALL a subroutine that RETURNs. */
	viv_reset_stream(&s);
	call = s.n;
	viv_emit(&s, VIV_CMD_CALL(2), 0);
	viv_emit(&s, 0, 0);
	viv_emit(&s, VIV_CMD_LINK(2), 0);	/* over the subroutine */
	target = s.n;
	viv_emit(&s, VIV_CMD_NOP, 0);
	viv_emit(&s, VIV_CMD_RETURN, 0);
	s.relocs[s.nrelocs++] = (struct drm_ugpu_reloc){
		.cmdbuf_offset = (call + 1) * 4, .bo_index = 0,
		.bo_offset = target * 4 };
	s.relocs[s.nrelocs++] = (struct drm_ugpu_reloc){
		.cmdbuf_offset = (call + 5) * 4, .bo_index = 0,
		.bo_offset = (target + 4) * 4 };
	viv_emit(&s, VIV_CMD_NOP, 0);
	viv_emit(&s, VIV_CMD_NOP, 0);
	igt_assert_eq(viv_run(&e, &s, NULL, 0, DRM_UGPU_QUEUE_AUTO), 0);
	viv_env_close(&e);
}

static void expect_reject(struct viv_env *e, struct viv_stream *s,
			  struct ugpu_bo **bos, unsigned int n, uint32_t queue,
			  const char *what)
{
	int ret = viv_exec(e, s, bos, n, queue, NULL);

	igt_assert_f(ret == -EINVAL, "%s: %d\n", what, ret);
}

static void test_validator(int minor)
{
	static const uint32_t forbidden[] = {
		VIV_HI_INTR_ENBL, VIV_MMUV2_CONFIGURATION, VIV_FE_COMMAND_ADDRESS,
		VIV_FE_COMMAND_CONTROL, VIV_GL_EVENT, VIV_GL_PIPE_SELECT,
		VIV_GL_FLUSH_MMU, VIV_MC_MMU_FE_PAGE_TABLE,
	};
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;
	unsigned int i;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 4096, 0);

	viv_reset_stream(&s);
	viv_emit(&s, 0x70000000, 0);
	expect_reject(&e, &s, NULL, 0, 0, "unknown opcode");

	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_END, 0);
	expect_reject(&e, &s, NULL, 0, 0, "END");

	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_RS_DITHER(0), 4, false), 0);
	expect_reject(&e, &s, NULL, 0, 0, "overrun");

	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_LINK(2), 0x1000);
	expect_reject(&e, &s, NULL, 0, 0, "LINK out");

	for (i = 0; i < sizeof(forbidden) / sizeof(forbidden[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, forbidden[i], 0);
		expect_reject(&e, &s, NULL, 0, 0, "forbidden state");
	}

	/* A raw address (no relocation, or outside every BO). */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_RS_DEST_ADDR, 0x1000);
	expect_reject(&e, &s, &bo, 1, 0, "raw address");
	viv_reset_stream(&s);
	viv_ls(&s, VIV_PE_COLOR_ADDR, (uint32_t)(bo->va + bo->size + 4096));
	expect_reject(&e, &s, &bo, 1, 0, "address past BO");

	/* A resolve leaving its BO, from its last 4 KiB (CPU pages may be larger). */
	viv_reset_stream(&s);
	viv_clear(&s, 1, bo->size - 4096, VIV_LINEAR, LSTRIDE, W, H, 0);
	expect_reject(&e, &s, &bo, 1, 0, "RS out of BO");

	/* Draws of the other pipe. */
	viv_reset_stream(&s);
	if (has_3d(e.fd))
		viv_emit(&s, VIV_CMD_DRAW_2D(0), 0);
	else
		viv_emit(&s, VIV_CMD_DRAW_PRIMITIVES, 4), viv_emit(&s, 0, 3);
	expect_reject(&e, &s, NULL, 0, 0, "wrong pipe");

	ugpu_bo_free(bo);
	viv_env_close(&e);
}

static void check_fill(struct ugpu_bo *bo, uint64_t off, uint32_t stride,
		       uint32_t w, uint32_t h, uint32_t val)
{
	uint32_t x, y;

	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			igt_assert_f(ugpu_bo_read32(bo, off + y * stride + x * 4) == val,
				     "(%u,%u) %#x != %#x\n", x, y,
				     ugpu_bo_read32(bo, off + y * stride + x * 4), val);
}

static void test_reloc_clear(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, DRM_UGPU_BO_CONTIGUOUS);
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	memset(bo[0]->map, 0, 64 << 10);
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, H, 0xff112233);
	viv_clear(&s, 2, 4096, VIV_LINEAR, LSTRIDE, W, 16, 0xff445566);
	igt_assert_eq(viv_run(&e, &s, bo, 2, DRM_UGPU_QUEUE_AUTO), 0);
	check_fill(bo[0], 0, LSTRIDE, W, H, 0xff112233);
	check_fill(bo[1], 4096, LSTRIDE, W, 16, 0xff445566);
	igt_assert_eq_u32(ugpu_bo_read32(bo[0], LSTRIDE * H), 0);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

static void fill_pattern(struct ugpu_bo *bo, enum viv_layout l, uint32_t stride)
{
	uint32_t x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			ugpu_bo_write32(bo, viv_ref_offset(l, stride, x, y, CPP),
					0xff000000 | y << 8 | x | (x ^ y) << 16);
}

static void check_pattern(struct ugpu_bo *bo, enum viv_layout l, uint32_t stride)
{
	uint32_t x, y, got, want;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			got = ugpu_bo_read32(bo, viv_ref_offset(l, stride, x, y, CPP));
			want = 0xff000000 | y << 8 | x | (x ^ y) << 16;
			igt_assert_f(got == want, "(%u,%u): %#x != %#x\n",
				     x, y, got, want);
		}
}

static void test_resolve(int minor, enum viv_layout from, enum viv_layout to)
{
	static const uint32_t stride[] = { LSTRIDE, TSTRIDE, TSTRIDE };
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	memset(bo[1]->map, 0, 64 << 10);
	fill_pattern(bo[0], from, stride[from]);
	viv_reset_stream(&s);
	viv_resolve(&s, 1, 0, from, stride[from], 2, 0, to, stride[to], W, H, 0);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_pattern(bo[1], to, stride[to]);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/* Fast clear: TS cleared with 0x55555555, reads give the clear value. */
static void test_fast_clear(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[3];
	struct viv_env e;
	uint32_t x, y;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);	/* supertiled surface */
	bo[1] = ugpu_bo_new(e.fd, 4096, 0);		/* tile status */
	bo[2] = ugpu_bo_new(e.fd, 64 << 10, 0);	/* linear result */
	ugpu_bo_map(bo[0]);
	fill_pattern(bo[0], VIV_SUPERTILED, TSTRIDE);
	viv_reset_stream(&s);
	viv_clear(&s, 2, 0, VIV_LINEAR, 64, 16, 1, VIV_TS_CLEAR_PATTERN);
	/* Tiles of the first 32 rows stay valid: mark them normal again. */
	viv_clear(&s, 2, 0, VIV_LINEAR, 64, 8, 1, 0);
	viv_ls_reloc(&s, VIV_TS_COLOR_STATUS_BASE, 2, 0);
	viv_ls_reloc(&s, VIV_TS_COLOR_SURFACE_BASE, 1, 0);
	viv_ls(&s, VIV_TS_COLOR_CLEAR_VALUE, 0xff00ff00);
	viv_ls(&s, VIV_TS_MEM_CONFIG, VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR);
	viv_resolve(&s, 1, 0, VIV_SUPERTILED, TSTRIDE, 3, 0, VIV_LINEAR,
		    LSTRIDE, W, H, 0);
	viv_ls(&s, VIV_TS_MEM_CONFIG, 0);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), 0);
	ugpu_bo_map(bo[2]);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			uint32_t off = viv_ref_offset(VIV_SUPERTILED, TSTRIDE, x, y, 4);
			uint32_t want = off / 64 < 128 ?
				0xff000000 | y << 8 | x | (x ^ y) << 16 : 0xff00ff00;

			igt_assert_eq_u32(ugpu_bo_read32(bo[2], y * LSTRIDE + x * 4),
					  want);
		}
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	ugpu_bo_free(bo[2]);
	viv_env_close(&e);
}

/* MSAA 2x2: a doubled window averaged down. */
/* A 16-bit pixel of a test image, different at every (x, y) of 64x64. */
static uint16_t px16(uint32_t x, uint32_t y)
{
	return (uint16_t)(0x8000 | (y & 0x3f) << 6 | (x & 0x3f)) ^ 0x2a5;
}

static uint16_t read16(struct ugpu_bo *bo, uint64_t off)
{
	return *(volatile uint16_t *)((char *)bo->map + off);
}

/*
 * The resolve engine on 16-bit pixels (R5G6B5, its format 4: two bytes a
 * pixel, a 4x4 tile of 32 bytes). A copy between two layouts puts every
 * pixel where the layout's definition says, bit for bit, and writes
 * nothing else of its window's destination; a fill writes the low half
 * of the fill value (loaded replicated, as drivers do for 16-bit
 * formats) into every pixel of its window and nothing beside it.
 * @super: also to and from 64x64 supertiles. A core with the BLT engine
 * does the same through it, for each of its 16-bit formats (R5G6B5,
 * A4R4G4B4, A1R5G5B5: the copy moves pixels unchanged).
 */
static void test_resolve_16bpp(int minor, bool super)
{
	static const uint32_t blt_formats[] = {
		VIV_BLT_FORMAT_R5G6B5, VIV_BLT_FORMAT_A4R4G4B4,
		VIV_BLT_FORMAT_A1R5G5B5,
	};
	static const struct {
		enum viv_layout from, to;
	} cases[] = {
		{ VIV_TILED, VIV_LINEAR }, { VIV_LINEAR, VIV_TILED },
		{ VIV_SUPERTILED, VIV_LINEAR }, { VIV_LINEAR, VIV_SUPERTILED },
	};
	const uint32_t ls = W * 2, ts = W / 4 * 16 * 2;
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;
	unsigned int i, x, y;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	for (i = 0; i < ARRAY_SIZE(cases) * ARRAY_SIZE(blt_formats); i++) {
		enum viv_layout f = cases[i % ARRAY_SIZE(cases)].from;
		enum viv_layout t = cases[i % ARRAY_SIZE(cases)].to;
		uint32_t sst = f == VIV_LINEAR ? ls : ts;
		uint32_t dst = t == VIV_LINEAR ? ls : ts;
		uint32_t cfg = VIV_RS_FORMAT_R5G6B5 | VIV_RS_FORMAT_R5G6B5 << 8;

		if (!super && (f == VIV_SUPERTILED || t == VIV_SUPERTILED))
			continue;
		/* The RS has one 16-bit format here. */
		if (!e.blt && i >= ARRAY_SIZE(cases))
			break;
		memset(bo[0]->map, 0, 64 << 10);
		memset(bo[1]->map, 0xa5, 64 << 10);
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				*(volatile uint16_t *)((char *)bo[0]->map +
					viv_ref_offset(f, sst, x, y, 2)) = px16(x, y);
		if (f != VIV_LINEAR)
			cfg |= VIV_RS_CONFIG_SOURCE_TILED;
		if (t != VIV_LINEAR)
			cfg |= VIV_RS_CONFIG_DEST_TILED;
		viv_reset_stream(&s);
		if (e.blt) {
			uint32_t fmt = blt_formats[i / ARRAY_SIZE(cases)];
			struct viv_blt_img si = {
				.bo = 1, .l = f, .stride = sst, .format = fmt,
			};
			struct viv_blt_img di = {
				.bo = 2, .l = t, .stride = dst, .format = fmt,
			};

			viv_blt_copy(&s, &si, &di, W, H, 0,
				     VIV_BLT_SWIZZLE_IDENTITY);
			goto run;
		}
		viv_ls(&s, VIV_RS_CONFIG, cfg);
		viv_ls_reloc(&s, VIV_RS_SOURCE_ADDR, 1, 0);
		viv_ls(&s, VIV_RS_SOURCE_STRIDE, sst |
		       (f == VIV_SUPERTILED ? VIV_RS_STRIDE_SUPERTILED : 0));
		viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 2, 0);
		viv_ls(&s, VIV_RS_DEST_STRIDE, dst |
		       (t == VIV_SUPERTILED ? VIV_RS_STRIDE_SUPERTILED : 0));
		viv_ls(&s, VIV_RS_WINDOW_SIZE, W | H << 16);
		viv_ls(&s, VIV_RS_CLEAR_CONTROL, 0);
		viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
run:
		igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++) {
				uint16_t got = read16(bo[1], viv_ref_offset(t, dst, x, y, 2));

				igt_assert_f(got == px16(x, y),
					     "case %u (%u,%u): %#x, expected %#x\n",
					     i, x, y, got, px16(x, y));
			}
		/* The window is the whole 64x64 image: 8 KiB, then untouched. */
		igt_assert_eq_u32(ugpu_bo_read32(bo[1], W * H * 2), 0xa5a5a5a5);
	}

	/* A 48x8 fill of a linear 16-bit surface: magenta, 0xf81f. */
	memset(bo[1]->map, 0xa5, 64 << 10);
	viv_reset_stream(&s);
	if (e.blt) {
		struct viv_blt_img di = {
			.bo = 2, .l = VIV_LINEAR, .stride = ls,
			.format = VIV_BLT_FORMAT_R5G6B5,
		};

		viv_blt_clear(&s, &di, 48, 8, 0xf81ff81f, 0xffffffff);
	} else {
		viv_ls(&s, VIV_RS_CONFIG, VIV_RS_FORMAT_R5G6B5 |
		       VIV_RS_FORMAT_R5G6B5 << 8);
		viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 2, 0);
		viv_ls(&s, VIV_RS_DEST_STRIDE, ls);
		viv_ls(&s, VIV_RS_WINDOW_SIZE, 48 | 8 << 16);
		viv_ls(&s, VIV_RS_FILL_VALUE(0), 0xf81ff81f);
		viv_ls(&s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
		viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
	}
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	for (y = 0; y < 12; y++)
		for (x = 0; x < W; x++) {
			uint16_t got = read16(bo[1], y * ls + x * 2);
			uint16_t want = x < 48 && y < 8 ? 0xf81f : 0xa5a5;

			igt_assert_f(got == want, "fill (%u,%u): %#x, expected %#x\n",
				     x, y, got, want);
		}

	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

static void test_msaa(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;
	uint32_t x, y;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	bo[1] = ugpu_bo_new(e.fd, 16 << 10, 0);
	ugpu_bo_map(bo[0]);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			ugpu_bo_write32(bo[0], viv_ref_offset(VIV_TILED, TSTRIDE, x, y, 4),
					(x & 1) ? 0x40404040 : 0x80808080);
	viv_reset_stream(&s);
	viv_resolve(&s, 1, 0, VIV_TILED, TSTRIDE, 2, 0, VIV_LINEAR, 128, W, H,
		    VIV_RS_CONFIG_DOWNSAMPLE_X | VIV_RS_CONFIG_DOWNSAMPLE_Y);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	ugpu_bo_map(bo[1]);
	check_fill(bo[1], 0, 128, W / 2, H / 2, 0x60606060);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

static void test_contig_pool(int minor)
{
	struct drm_ugpu_bo_create arg;
	uint32_t handles[1024];
	uint64_t size, free0;
	int fd, n = 0, ret;

	fd = ugpu_open_minor(minor);
	size = param(fd, DRM_UGPU_PARAM_CONTIG_POOL_SIZE);
	igt_require(size);
	free0 = param(fd, DRM_UGPU_PARAM_CONTIG_POOL_FREE);
	for (;;) {
		memset(&arg, 0, sizeof(arg));
		arg.size = 64 << 10;
		arg.flags = DRM_UGPU_BO_CONTIGUOUS;
		ret = __ugpu_bo_create(fd, &arg);
		if (ret)
			break;
		igt_assert(n < 1024);
		handles[n++] = arg.handle;
	}
	igt_assert_eq(ret, -ENOMEM);
	igt_assert_lt(param(fd, DRM_UGPU_PARAM_CONTIG_POOL_FREE), 64 << 10);
	igt_assert(n > 0);
	gem_close(fd, handles[0]);
	memset(&arg, 0, sizeof(arg));
	arg.size = 64 << 10;
	arg.flags = DRM_UGPU_BO_CONTIGUOUS;
	igt_assert_eq(__ugpu_bo_create(fd, &arg), 0);
	handles[0] = arg.handle;
	while (n--)
		gem_close(fd, handles[n]);
	igt_assert_eq(param(fd, DRM_UGPU_PARAM_CONTIG_POOL_FREE), free0);
	close(fd);
}

/* Soft commands behind a GPU command run when the GPU gets there. */
static void test_events(int minor)
{
	static struct viv_stream s;
	struct drm_ugpu_cmd_buf buf = { 0 };
	struct ugpu_submit sub;
	struct ugpu_bo *bo;
	struct viv_env e;
	uint32_t sig, c;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 4096, 0);
	ugpu_bo_map(bo);
	sig = ugpu_signal_create(e.fd, 0);
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, 256, 64, 4, 0x12345678);
	memcpy(e.cmd->map, s.w, s.n * 4);
	buf.handle = e.cmd->handle;
	buf.size = s.n * 4;
	buf.relocs = (uintptr_t)s.relocs;
	buf.reloc_count = s.nrelocs;

	ugpu_submit_init(&sub, e.ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_cmd(&sub, DRM_UGPU_CMD_WRITE32, bo->handle, 2048, 0xcafe, 1);
	ugpu_submit_cmd(&sub, DRM_UGPU_CMD_SIGNAL_SET, sig, 0, 0, 2);
	ugpu_submit_bo(&sub, e.cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&sub, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit(e.fd, &sub);
	igt_assert_eq(__ugpu_signal_wait(e.fd, sig, 5000), 0);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x12345678);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 2048), 0xcafe);
	/* Automatic reset: the wait consumed it. */
	igt_assert_eq(__ugpu_signal_wait(e.fd, sig, 10), -ETIMEDOUT);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * Keep the core powered (power/control "on") while a test reads what the
 * simulated core holds (vivante_state, vivante_mem): a core that lost
 * power holds its reset state and no page-table registers.
 */
static void hold_power(int fd, bool on)
{
	ugpu_power_write(fd, "control", on ? "on" : "auto");
}

/* A state of the simulated core, through its vivante_state debugfs file. */
static uint32_t sim_state(int fd, uint32_t state)
{
	char path[PATH_MAX], buf[32];

	igt_require(ugpu_sim_debugfs_path(fd, "vivante_state", path, sizeof(path)));
	snprintf(buf, sizeof(buf), "%#x", state);
	igt_assert_eq(ugpu_file_write(path, buf), 0);
	igt_assert(ugpu_file_read(path, buf, sizeof(buf)) > 0);
	return strtoul(buf, NULL, 0);
}

/* A further context on the file of @file, with its own command BO. */
static void viv_env_open_ctx(struct viv_env *e, const struct viv_env *file)
{
	e->fd = file->fd;
	e->ctx = ugpu_ctx_create(e->fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	e->cmd = ugpu_bo_new(e->fd, sizeof(((struct viv_stream *)0)->w), 0);
	ugpu_bo_map(e->cmd);
}

static void viv_env_close_ctx(struct viv_env *e)
{
	ugpu_bo_free(e->cmd);
	ugpu_ctx_destroy(e->fd, e->ctx);
}

/*
 * Two contexts with different resolve state, interleaved: each kick uses
 * its own context's fill value although the other context changed it
 * since. The contexts belong to two files or, with @same_file, to one:
 * state is kept per context, not per file or address space. A third
 * context then starts from the reset state, not from what the others left.
 */
/*
 * Shader instruction words (the state space's instruction memory from
 * 0xc000): plain states, which a LOAD_STATE of several loads at once.
 * The four from 0xcff8 straddle a 4 KiB boundary of the state space.
 */
#define CTX_RUN_STATE	0xcff8
#define CTX_RUN_WORDS	4

static uint32_t ctx_run_value(int ctx, unsigned int i)
{
	return 0x5a000000 | ctx << 8 | i;
}

static void test_context_switch(int minor, bool same_file)
{
	static struct viv_stream s;
	unsigned int k;
	struct ugpu_bo *bo[2];
	struct viv_env e[2], fresh;
	long long switches;
	int i, round;

	for (i = 0; i < 2; i++) {
		if (same_file && i)
			viv_env_open_ctx(&e[i], &e[0]);
		else
			viv_env_open(&e[i], minor);
		if (!i)
			hold_power(e[0].fd, true);
		bo[i] = ugpu_bo_new(e[i].fd, 64 << 10, 0);
		ugpu_bo_map(bo[i]);
		viv_reset_stream(&s);
		if (e[0].blt) {
			viv_ls(&s, VIV_BLT_IMAGE_SIZE, 8 | 4 << 16);
			viv_ls(&s, VIV_BLT_CLEAR_COLOR0, 0xff000000 + i + 1);
			viv_ls(&s, VIV_BLT_CLEAR_BITS0, 0xffffffff);
		} else {
			viv_ls(&s, VIV_RS_CONFIG, VIV_RS_FORMAT_A8R8G8B8 |
			       VIV_RS_FORMAT_A8R8G8B8 << 8);
			viv_ls(&s, VIV_RS_WINDOW_SIZE, 8 | 4 << 16);
			viv_ls(&s, VIV_RS_FILL_VALUE(0), 0xff000000 + i + 1);
			viv_ls(&s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
		}
		viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0x11 << i);
		/* One LOAD_STATE of CTX_RUN_WORDS words; the count is even. */
		s.w[s.n++] = VIV_CMD_LOAD_STATE(CTX_RUN_STATE, CTX_RUN_WORDS,
						false);
		for (k = 0; k < CTX_RUN_WORDS; k++)
			s.w[s.n++] = ctx_run_value(i, k);
		s.w[s.n++] = 0;
		igt_assert_eq(viv_run(&e[i], &s, NULL, 0, 0), 0);
	}
	switches = viv_stat(e[0].fd, "context_switches");
	for (round = 0; round < 3; round++) {
		for (i = 0; i < 2; i++) {
			memset(bo[i]->map, 0, 64 << 10);
			/*
			 * The kick loads its geometry (the validator checks
			 * only against what the stream loads) but not the
			 * fill value (BLT: clear colour and bits) nor the
			 * MSAA state: those come from the context.
			 */
			viv_reset_stream(&s);
			if (e[0].blt) {
				struct viv_blt_img d = {
					.l = VIV_LINEAR, .stride = LSTRIDE,
					.format = VIV_BLT_FORMAT_A8R8G8B8,
				};

				viv_ls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
				viv_ls(&s, VIV_BLT_CONFIG,
				       3 << VIV_BLT_CONFIG_CLEAR_BPP_SHIFT);
				viv_ls(&s, VIV_BLT_DEST_STRIDE, viv_blt_stride(&d));
				viv_ls(&s, VIV_BLT_DEST_CONFIG,
				       viv_blt_config(&d, true));
				viv_ls_reloc(&s, VIV_BLT_DEST_ADDR, 1, 0);
				viv_ls(&s, VIV_BLT_DEST_POS, 0);
				viv_ls(&s, VIV_BLT_IMAGE_SIZE,
				       W | (16 + 16 * i) << 16);
				viv_ls(&s, VIV_BLT_COMMAND,
				       VIV_BLT_COMMAND_CLEAR_IMAGE);
				viv_ls(&s, VIV_BLT_ENABLE, 0);
			} else {
				viv_ls(&s, VIV_RS_CONFIG, VIV_RS_FORMAT_A8R8G8B8 |
				       VIV_RS_FORMAT_A8R8G8B8 << 8);
				viv_ls(&s, VIV_RS_WINDOW_SIZE,
				       W | (16 + 16 * i) << 16);
				viv_ls(&s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
				viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 1, 0);
				viv_ls(&s, VIV_RS_DEST_STRIDE, LSTRIDE);
				viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
			}
			igt_assert_eq(viv_run(&e[i], &s, &bo[i], 1, 0), 0);
			check_fill(bo[i], 0, LSTRIDE, W, 16 + 16 * i,
				   0xff000000 + i + 1);
			igt_assert_eq_u32(ugpu_bo_read32(bo[i], LSTRIDE * (16 + 16 * i)), 0);
			igt_assert_eq_u32(sim_state(e[i].fd, VIV_GL_MULTI_SAMPLE_CONFIG),
					  0x11 << i);
			for (k = 0; k < CTX_RUN_WORDS; k++)
				igt_assert_eq_u32(sim_state(e[i].fd,
							    CTX_RUN_STATE + 4 * k),
						  ctx_run_value(i, k));
		}
	}
	igt_info("context switches: %lld, restore bytes max %lld total %lld\n",
		 viv_stat(e[0].fd, "context_switches"),
		 viv_stat(e[0].fd, "restore_max"),
		 viv_stat(e[0].fd, "restore_bytes"));
	/* Every kick came after the other context's. */
	igt_assert_lte(switches + 6, viv_stat(e[0].fd, "context_switches"));

	/* A new context finds the reset state, whatever ran before. */
	if (same_file)
		viv_env_open_ctx(&fresh, &e[0]);
	else
		viv_env_open(&fresh, minor);
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_NOP, 0);
	igt_assert_eq(viv_run(&fresh, &s, NULL, 0, 0), 0);
	igt_assert_eq_u32(sim_state(fresh.fd, VIV_GL_MULTI_SAMPLE_CONFIG), 0);
	igt_assert_eq_u32(sim_state(fresh.fd, e[0].blt ? VIV_BLT_CLEAR_COLOR0 :
				    VIV_RS_FILL_VALUE(0)), 0);
	igt_assert_eq_u32(sim_state(fresh.fd, e[0].blt ? VIV_BLT_IMAGE_SIZE :
				    VIV_RS_WINDOW_SIZE), 0);
	for (k = 0; k < CTX_RUN_WORDS; k++)
		igt_assert_eq_u32(sim_state(fresh.fd, CTX_RUN_STATE + 4 * k), 0);
	if (same_file)
		viv_env_close_ctx(&fresh);
	else
		viv_env_close(&fresh);

	hold_power(e[0].fd, false);
	for (i = 1; i >= 0; i--) {
		ugpu_bo_free(bo[i]);
		if (same_file && i)
			viv_env_close_ctx(&e[i]);
		else
			viv_env_close(&e[i]);
	}
}

/*
 * The dump of hang number @hangs of @e, the stream @s: the core's format,
 * naming this process and context, the core's registers before the reset
 * (the FE busy), the stream as submitted and the context's hang count.
 */
static void check_hang_dump(struct viv_env *e, const struct viv_stream *s,
			    unsigned int hangs)
{
	unsigned int threshold = ugpu_module_param("ugpu", "ban_threshold", 3);
	const struct ugpu_coredump_cmdbuf *cmd;
	const uint8_t *data;
	struct ugpu_dump d;
	char name[64];
	uint8_t *buf;
	size_t len;

	igt_assert(ugpu_device_sysfs_name(e->fd, name, sizeof(name)));
	len = ugpu_devcd_read(name, &buf);
	igt_assert_f(len, "no devcoredump of %s\n", name);
	ugpu_coredump_parse(buf, len, &d);
	igt_assert_eq_u32(le32toh(d.hdr->family), DRM_UGPU_FAMILY_VIVANTE);
	igt_assert_eq_u32(le32toh(d.hdr->chip_model),
			  param(e->fd, DRM_UGPU_PARAM_CHIP_MODEL));
	igt_assert_eq_u32(le32toh(d.hdr->pid), getpid());
	igt_assert_eq_u32(le32toh(d.hdr->ctx), e->ctx);
	igt_assert_eq((int32_t)le32toh(d.hdr->error), -ETIMEDOUT);
	igt_assert_eq_u32(le32toh(d.hdr->hangs), hangs);
	igt_assert_eq_u32(!!(le32toh(d.hdr->flags) & UGPU_COREDUMP_BANNED),
			  hangs == threshold);
	igt_assert_eq_u32(ugpu_coredump_reg(&d, VIV_HI_CHIP_MODEL),
			  param(e->fd, DRM_UGPU_PARAM_CHIP_MODEL));
	igt_assert_eq_u32(ugpu_coredump_reg(&d, VIV_HI_IDLE_STATE) &
			  VIV_HI_IDLE_STATE_FE, 0);
	cmd = ugpu_coredump_cmdbuf(&d, &data);
	igt_assert_eq_u32(le32toh(cmd->bo), 0);
	igt_assert_eq_u64(le64toh(cmd->iova), e->cmd->va);
	igt_assert_eq_u32(le32toh(cmd->length), s->n * 4);
	igt_assert(!memcmp(data, s->w, s->n * 4));
	igt_assert_eq_u64(le64toh(ugpu_coredump_bo(&d, e->cmd->handle)->size),
			  e->cmd->size);
	igt_assert_f(ugpu_coredump_tool_ok(buf, len), "ugpu-coredump rejects it\n");
	free(buf);
}

/* A STALL nobody armed hangs the core; recovery fails only that job. */
static void test_hang(int minor, bool ban)
{
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e, good;
	int i, n = ban ? 4 : 1, status, ret;

	viv_env_open(&e, minor);
	viv_env_open(&good, minor);
	bo = ugpu_bo_new(good.fd, 64 << 10, 0);
	ugpu_bo_map(bo);
	for (i = 0; i < n; i++) {
		viv_reset_stream(&s);
		viv_emit(&s, VIV_CMD_STALL, VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_RA));
		status = 0;
		ugpu_devcd_clear();
		ret = viv_exec(&e, &s, NULL, 0, 0, &status);
		if (ban && i == n - 1) {
			igt_assert(ret || status);
			break;
		}
		igt_assert_eq(ret, 0);
		igt_assert_f(status == -ETIMEDOUT, "status %d\n", status);
		check_hang_dump(&e, &s, i + 1);
	}
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff777777);
	igt_assert_eq(viv_run(&good, &s, &bo, 1, 0), 0);
	check_fill(bo, 0, LSTRIDE, W, 4, 0xff777777);
	ugpu_bo_free(bo);
	viv_env_close(&good);
	viv_env_close(&e);
}

/* 2D pipe: a solid fill with START_DE; on a 3D+2D core also pipe switches. */
static void test_2d(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;
	uint32_t q2d = 0, q, nq;
	int round;

	viv_env_open(&e, minor);
	nq = param(e.fd, DRM_UGPU_PARAM_NUM_QUEUES);
	for (q = 0; q < nq; q++)
		if (ugpu_get_param(e.fd, DRM_UGPU_PARAM_QUEUE_CAPS, q) &
		    DRM_UGPU_QUEUE_CAP_CMDBUF_2D)
			q2d = q;
	igt_require(ugpu_get_param(e.fd, DRM_UGPU_PARAM_QUEUE_CAPS, q2d) &
		    DRM_UGPU_QUEUE_CAP_CMDBUF_2D);
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo);
	for (round = 0; round < 2; round++) {
		memset(bo->map, 0, 64 << 10);
		viv_reset_stream(&s);
		viv_ls_reloc(&s, VIV_DE_DEST_ADDRESS, 1, 0);
		viv_ls(&s, VIV_DE_DEST_STRIDE, LSTRIDE);
		viv_ls(&s, VIV_DE_DEST_CONFIG, VIV_DE_FORMAT_A8R8G8B8 |
		       VIV_DE_COMMAND_CLEAR << 12);
		viv_ls(&s, VIV_DE_CLEAR_PIXEL_VALUE32, 0xff0000ff + round);
		viv_de_clip(&s, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
		viv_emit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
		viv_emit(&s, 0, 32 | 8 << 16);
		igt_assert_eq(viv_run(&e, &s, &bo, 1, q2d), 0);
		check_fill(bo, 0, LSTRIDE, 32, 8, 0xff0000ff + round);
		igt_assert_eq_u32(ugpu_bo_read32(bo, 32 * 4), 0);
		if (nq > 1) {
			/* Back to 3D in between. */
			viv_reset_stream(&s);
			viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0);
			igt_assert_eq(viv_run(&e, &s, &bo, 1, 0), 0);
		}
	}
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * A 2D bit blit between surfaces of a 16-bit format (R5G6B5: two bytes a
 * pixel): a 32 x 4 rectangle copies 64 bytes of each row, pixel for
 * pixel, and leaves the rest of each destination row alone.
 */
static uint32_t queue_2d(int fd);

static void test_2d_blit_16bpp(int minor)
{
	const uint32_t stride = 256, fmt = VIV_DE_FORMAT_R5G6B5;
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;
	uint32_t q, x, y;

	viv_env_open(&e, minor);
	q = queue_2d(e.fd);
	bo[0] = ugpu_bo_new(e.fd, 4096, 0);	/* destination */
	bo[1] = ugpu_bo_new(e.fd, 4096, 0);	/* source */
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	memset(bo[0]->map, 0xa5, 4096);
	for (y = 0; y < 8; y++)
		for (x = 0; x < stride / 2; x++)
			*(volatile uint16_t *)((char *)bo[1]->map + y * stride +
					       x * 2) = px16(x, y);

	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_DE_DEST_ADDRESS, 1, 0);
	viv_ls(&s, VIV_DE_DEST_STRIDE, stride);
	viv_ls_reloc(&s, VIV_DE_SRC_ADDRESS, 2, 0);
	viv_ls(&s, VIV_DE_SRC_STRIDE, stride);
	viv_ls(&s, VIV_DE_SRC_CONFIG, fmt | fmt << 24 | VIV_DE_SRC_CONFIG_RELATIVE);
	viv_ls(&s, VIV_DE_SRC_ORIGIN, 0);
	viv_ls(&s, VIV_DE_DEST_CONFIG, fmt | VIV_DE_COMMAND_BIT_BLT << 12);
	viv_de_clip(&s, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
	viv_emit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
	viv_emit(&s, 0, 32 | 4 << 16);
	/* The engine writes through its cache: flush it to memory. */
	viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_PE2D);
	igt_assert_eq(viv_run(&e, &s, bo, 2, q), 0);
	for (y = 0; y < 8; y++)
		for (x = 0; x < stride / 2; x++) {
			uint16_t got = read16(bo[0], y * stride + x * 2);
			uint16_t want = x < 32 && y < 4 ? px16(x, y) : 0xa5a5;

			igt_assert_f(got == want, "(%u,%u): %#x, expected %#x\n",
				     x, y, got, want);
		}
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/*
 * MMUv2: every file has its own page tables. Two files get BOs at the
 * same GPU address, yet a resolve of one leaves the other's memory alone,
 * and an address only the other file maps is rejected.
 */
static void test_isolation(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *a, *b;
	struct viv_env ea, eb;

	viv_env_open(&ea, minor);
	viv_env_open(&eb, minor);
	a = ugpu_bo_new(ea.fd, 64 << 10, 0);
	b = ugpu_bo_new(eb.fd, 16 << 10, 0);
	igt_assert(a->va == b->va);
	ugpu_bo_map(a);
	memset(a->map, 0x5a, 64 << 10);

	viv_reset_stream(&s);
	viv_ls(&s, VIV_RS_DEST_ADDR, (uint32_t)a->va + (32 << 10));
	expect_reject(&eb, &s, &b, 1, 0, "other file's address");

	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, H, 0xff00ff00);
	igt_assert_eq(viv_run(&eb, &s, &b, 1, 0), 0);
	ugpu_bo_map(b);
	check_fill(b, 0, LSTRIDE, W, H, 0xff00ff00);
	check_fill(a, 0, LSTRIDE, W, H, 0x5a5a5a5a);
	ugpu_bo_free(a);
	ugpu_bo_free(b);
	viv_env_close(&ea);
	viv_env_close(&eb);
}

static void test_concurrent(int minor)
{
	igt_fork(child, 6) {
		static struct viv_stream s;
		struct ugpu_bo *bo;
		struct viv_env e;
		int i;

		viv_env_open(&e, minor);
		bo = ugpu_bo_new(e.fd, 64 << 10, 0);
		ugpu_bo_map(bo);
		for (i = 0; i < 25; i++) {
			viv_reset_stream(&s);
			viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4,
				  0xff000000 | child << 8 | i);
			igt_assert_eq(viv_run(&e, &s, &bo, 1, 0), 0);
			check_fill(bo, 0, LSTRIDE, W, 4,
				   0xff000000 | child << 8 | i);
		}
		ugpu_bo_free(bo);
		viv_env_close(&e);
	}
	igt_waitchildren();
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The ways the seed says the core hangs: each is caught and recovered. */
static void test_hang_cases(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;
	int c;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[1]);
	for (c = 0; c < 4; c++) {
		viv_reset_stream(&s);
		switch (c) {
		case 0:	/* more VS inputs than vertex elements */
			draw_state(&s);
			viv_ls(&s, VIV_VS_INPUT_COUNT, 2);
			viv_emit(&s, VIV_CMD_DRAW_PRIMITIVES, 4);
			viv_emit(&s, 0, 3);
			break;
		case 1:	/* SE_SCISSOR (x << 16) | 5 at 1920 wide */
			draw_state(&s);
			viv_ls(&s, VIV_SE_SCISSOR_RIGHT, 1920 << 16 | 5);
			viv_emit(&s, VIV_CMD_DRAW_PRIMITIVES, 4);
			viv_emit(&s, 0, 3);
			break;
		case 2:	/* garbage tile status under a fast-cleared surface */
			memset(bo[1]->map, 0xff, 4096);
			viv_ls_reloc(&s, VIV_TS_COLOR_STATUS_BASE, 2, 0);
			viv_ls_reloc(&s, VIV_TS_COLOR_SURFACE_BASE, 1, 0);
			viv_ls(&s, VIV_TS_MEM_CONFIG, VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR);
			viv_resolve(&s, 1, 0, VIV_TILED, TSTRIDE, 1, 32 << 10,
				    VIV_LINEAR, LSTRIDE, W, 16, 0);
			break;
		case 3:	/* tiled resolve not 16x4 aligned */
			viv_resolve(&s, 1, 0, VIV_TILED, TSTRIDE, 2, 0, VIV_LINEAR,
				    LSTRIDE, 40, 6, 0);
			break;
		}
		igt_assert_f(viv_run(&e, &s, bo, 2, 0) == -ETIMEDOUT, "case %d\n", c);
		/* A new context: the old one is near its ban. */
		ugpu_ctx_destroy(e.fd, e.ctx);
		e.ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);
	}
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff123456);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	ugpu_bo_map(bo[0]);
	check_fill(bo[0], 0, LSTRIDE, W, 4, 0xff123456);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/* LOAD_STATE's fixed-point flag converts 16.16 to single precision. */
static void test_fixp(int minor)
{
	static struct viv_stream s;
	struct viv_env e;

	viv_env_open(&e, minor);
	hold_power(e.fd, true);
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_LEFT, 2, true), 0x00018000);
	viv_emit(&s, 0xfffe0000, 0);	/* 1.5 and -2.0 */
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, false), 0x00018000);
	igt_assert_eq(viv_run(&e, &s, NULL, 0, 0), 0);
	igt_assert_eq_u32(sim_state(e.fd, VIV_SE_SCISSOR_LEFT), 0x3fc00000);
	igt_assert_eq_u32(sim_state(e.fd, VIV_SE_SCISSOR_TOP), 0xc0000000);
	igt_assert_eq_u32(sim_state(e.fd, VIV_SE_SCISSOR_RIGHT), 0x00018000);
	hold_power(e.fd, false);
	viv_env_close(&e);
}

/*
 * Masked state across a context switch: A's masked write changes only the
 * unmasked field of A's own value, although B loaded another in between.
 * With @same_file, A and B are two contexts of one file.
 */
static void test_masked_switch(int minor, bool same_file)
{
	static struct viv_stream s;
	struct viv_env a, b;

	viv_env_open(&a, minor);
	hold_power(a.fd, true);
	if (same_file)
		viv_env_open_ctx(&b, &a);
	else
		viv_env_open(&b, minor);
	viv_reset_stream(&s);
	viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0x12);
	igt_assert_eq(viv_run(&a, &s, NULL, 0, 0), 0);
	viv_reset_stream(&s);
	viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0x31);
	igt_assert_eq(viv_run(&b, &s, NULL, 0, 0), 0);
	igt_assert_eq_u32(sim_state(a.fd, VIV_GL_MULTI_SAMPLE_CONFIG), 0x31);
	viv_reset_stream(&s);
	viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0xf0 | VIV_MSAA_SAMPLES_MASK);
	igt_assert_eq(viv_run(&a, &s, NULL, 0, 0), 0);
	igt_assert_eq_u32(sim_state(a.fd, VIV_GL_MULTI_SAMPLE_CONFIG), 0xf2);
	/* And B finds its own value again. */
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_NOP, 0);
	igt_assert_eq(viv_run(&b, &s, NULL, 0, 0), 0);
	igt_assert_eq_u32(sim_state(b.fd, VIV_GL_MULTI_SAMPLE_CONFIG), 0x31);
	hold_power(a.fd, false);
	if (same_file)
		viv_env_close_ctx(&b);
	else
		viv_env_close(&b);
	viv_env_close(&a);
}

/* MMUv2: a write to a GPU-read-only BO faults; only that job fails. */
static void test_mmu_fault(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *ro, *rw;
	struct viv_env e, other;

	viv_env_open(&e, minor);
	viv_env_open(&other, minor);
	ro = ugpu_bo_new(e.fd, 64 << 10, DRM_UGPU_BO_GPU_READONLY);
	rw = ugpu_bo_new(other.fd, 64 << 10, 0);
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff0000ff);
	igt_assert_eq(viv_run(&e, &s, &ro, 1, 0), -EFAULT);
	igt_assert_eq(viv_run(&other, &s, &rw, 1, 0), 0);
	ugpu_bo_map(rw);
	check_fill(rw, 0, LSTRIDE, W, 4, 0xff0000ff);
	ugpu_bo_free(ro);
	ugpu_bo_free(rw);
	viv_env_close(&other);
	viv_env_close(&e);
}

/* The vendor's USER_SIGNAL semantics on the uniform uapi. */
static void test_signals(int minor)
{
	struct drm_ugpu_signal_export exp = { 0 };
	uint32_t manual, autor;
	double t;
	int fd;

	fd = ugpu_open_minor(minor);
	manual = ugpu_signal_create(fd, DRM_UGPU_SIGNAL_MANUAL_RESET);
	autor = ugpu_signal_create(fd, 0);

	/* WAIT takes milliseconds. */
	t = now_s();
	igt_assert_eq(__ugpu_signal_wait(fd, manual, 100), -ETIMEDOUT);
	igt_assert(now_s() - t >= 0.095);

	ugpu_signal_set(fd, manual, 1);
	igt_assert_eq(__ugpu_signal_wait(fd, manual, 0), 0);
	igt_assert_eq(__ugpu_signal_wait(fd, manual, 0), 0);
	ugpu_signal_set(fd, manual, 0);
	igt_assert_eq(__ugpu_signal_wait(fd, manual, 0), -ETIMEDOUT);

	ugpu_signal_set(fd, autor, 1);
	igt_assert_eq(__ugpu_signal_wait(fd, autor, 0), 0);
	igt_assert_eq(__ugpu_signal_wait(fd, autor, 0), -ETIMEDOUT);

	/* Shared with another process as a sync_file. */
	exp.handle = manual;
	exp.flags = DRM_UGPU_SIGNAL_EXPORT_SYNC_FILE;
	igt_assert_eq(__ugpu_signal_export(fd, &exp), 0);
	igt_fork(child, 1) {
		struct pollfd p = { .fd = exp.fd, .events = POLLIN };

		igt_assert_eq(poll(&p, 1, 5000), 1);
	}
	usleep(50000);
	ugpu_signal_set(fd, manual, 1);
	igt_waitchildren();
	close(exp.fd);
	__ugpu_signal_destroy(fd, manual);
	__ugpu_signal_destroy(fd, autor);
	close(fd);
}

/*
 * Events (write data, signal, free) queued behind an innocent job that is
 * caught in another file's hang still run, in order, after the reset.
 */
static void test_events_reset(int minor)
{
	static struct viv_stream hang, s;
	struct drm_ugpu_cmd_buf buf = { 0 };
	struct drm_ugpu_bo_info info = { 0 };
	struct ugpu_bo *bo, *tmp;
	struct ugpu_submit sub;
	struct viv_env bad, e;
	uint32_t sig, hs, c;
	int status;

	viv_env_open(&bad, minor);
	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 4096, 0);
	tmp = ugpu_bo_new(e.fd, 4096, 0);
	ugpu_bo_map(bo);
	sig = ugpu_signal_create(e.fd, DRM_UGPU_SIGNAL_MANUAL_RESET);

	viv_reset_stream(&hang);
	viv_emit(&hang, VIV_CMD_STALL, VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_RA));
	memcpy(bad.cmd->map, hang.w, hang.n * 4);
	buf.handle = bad.cmd->handle;
	buf.size = hang.n * 4;
	ugpu_submit_init(&sub, bad.ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_bo(&sub, bad.cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	hs = ugpu_syncobj_create(bad.fd, false);
	ugpu_submit_out_sync(&sub, hs, 0);
	ugpu_submit(bad.fd, &sub);

	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, 256, 64, 4, 0x0badcafe);
	memcpy(e.cmd->map, s.w, s.n * 4);
	buf.handle = e.cmd->handle;
	buf.size = s.n * 4;
	buf.relocs = (uintptr_t)s.relocs;
	buf.reloc_count = s.nrelocs;
	ugpu_submit_init(&sub, e.ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_cmd(&sub, DRM_UGPU_CMD_WRITE32, bo->handle, 2048, 1, 1);
	ugpu_submit_cmd(&sub, DRM_UGPU_CMD_WRITE32, bo->handle, 2048, 2, 2);
	ugpu_submit_cmd(&sub, DRM_UGPU_CMD_BO_RELEASE, tmp->handle, 0, 0, 4);
	ugpu_submit_cmd(&sub, DRM_UGPU_CMD_SIGNAL_SET, sig, 0, 0, 8);
	ugpu_submit_bo(&sub, e.cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&sub, bo->handle, DRM_UGPU_SUBMIT_BO_WRITE);
	ugpu_submit(e.fd, &sub);

	igt_assert_eq(__ugpu_signal_wait(e.fd, sig, 10000), 0);
	status = ugpu_syncobj_wait_status(bad.fd, hs);
	igt_assert_eq(status, -ETIMEDOUT);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0x0badcafe);
	igt_assert_eq_u32(ugpu_bo_read32(bo, 2048), 2);
	/* The handle goes just after the release's fence signalled. */
	ugpu_wait_handle_closed(e.fd, tmp->handle);
	info.handle = tmp->handle;
	igt_assert_eq(__ugpu_bo_info(e.fd, &info), -ENOENT);
	ugpu_bo_free(bo);
	free(tmp);
	viv_env_close(&e);
	viv_env_close(&bad);
}

static void expect_device_works(struct viv_env *e, struct ugpu_bo *bo,
				uint32_t queue);

/*
 * A command buffer of plain states filling the stream (shader instruction
 * memory, 1023 states a LOAD_STATE), then a resolve fill: accepted whole,
 * each of its bytes validated once, and run to its end (the fill lands).
 * The same loads with a resolve fill first and a last LOAD_STATE that
 * claims more states than the buffer holds: -EINVAL, and nothing of it
 * runs. The validator's speed is measured by ugpu-bench (make bench).
 */
static void test_validator_big_stream(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;
	long long b0, b1;
	unsigned int i, n;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo);
	memset(bo->map, 0, 64 << 10);

	viv_reset_stream(&s);
	/* Room for the fill's 7 loads (each 2 words) at the end. */
	while (s.n + 1024 + 14 <= VIV_STREAM_WORDS) {
		s.w[s.n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
		for (i = 0; i < 1023; i++)
			s.w[s.n++] = i;
	}
	/* One shorter load (an odd count keeps 64-bit alignment) fills up. */
	n = VIV_STREAM_WORDS - 14 - s.n - 1;
	n -= !(n & 1);
	s.w[s.n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, n, false);
	for (i = 0; i < n; i++)
		s.w[s.n++] = i;
	viv_clear(&s, 1, 0, VIV_LINEAR, 256, 64, 4, 0x0badcafe);
	igt_assert_lte(VIV_STREAM_WORDS - 2, s.n);
	b0 = viv_stat(e.fd, "validated_bytes");
	igt_assert_eq(viv_run(&e, &s, &bo, 1, 0), 0);
	check_fill(bo, 0, 256, 64, 4, 0x0badcafe);
	b1 = viv_stat(e.fd, "validated_bytes");
	if (b0 >= 0)
		igt_assert_eq(b1 - b0, (long long)s.n * 4);

	/* The fill first, then the loads, the last one cut short. */
	memset(bo->map, 0, 64 << 10);
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, 256, 64, 4, 0x0badcafe);
	while (s.n + 1024 <= VIV_STREAM_WORDS) {
		s.w[s.n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
		for (i = 0; i < 1023; i++)
			s.w[s.n++] = i;
	}
	s.w[s.n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
	while (s.n < VIV_STREAM_WORDS)
		s.w[s.n++] = 0;
	igt_assert_eq(viv_exec(&e, &s, &bo, 1, 0, NULL), -EINVAL);
	check_fill(bo, 0, 256, 64, 4, 0);

	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/* Plain loads of @words words (whole 1024-word LOAD_STATEs) into @s. */
static void pad_loads(struct viv_stream *s, unsigned int words)
{
	unsigned int i;

	while (words >= 1024 && s->n + 1024 <= VIV_STREAM_WORDS) {
		s->w[s->n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
		for (i = 0; i < 1023; i++)
			s->w[s->n++] = i;
		words -= 1024;
	}
}

struct room_thread {
	pthread_t thread;
	struct viv_env e;	/* the shared file and context, its own cmd BO */
	struct ugpu_bo *bo;
	unsigned int id;
	int ret;		/* 0, a negative errno, or 1: a wrong fill */
};

/* Streams of varied size on a context other threads submit to as well. */
static void *room_thread_run(void *arg)
{
	struct room_thread *t = arg;
	struct viv_stream *s = malloc(sizeof(*s));
	unsigned int i, x;
	uint32_t val;
	int status;

	if (!s) {
		t->ret = -ENOMEM;
		return NULL;
	}
	for (i = 0; i < 12 && !t->ret; i++) {
		val = 0xff000000 | t->id << 8 | i;
		viv_reset_stream(s);
		pad_loads(s, ((i + t->id) % 4) * 1024);
		viv_clear(s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, val);
		t->ret = viv_exec(&t->e, s, &t->bo, 1, 0, &status) ?: status;
		for (x = 0; x < W * 4 && !t->ret; x++)
			if (ugpu_bo_read32(t->bo, x / W * LSTRIDE + x % W * 4) != val)
				t->ret = 1;
	}
	free(s);
	return NULL;
}

/*
 * One context's streams, big after small and small after big, a rejected
 * one between them, then four threads submitting to the same context at
 * once: each job runs its own stream and nothing of an earlier one.
 */
static void test_stream_room(int minor)
{
	static struct viv_stream s;
	struct room_thread t[4];
	struct ugpu_bo *bo[2];
	struct viv_env e;
	unsigned int i;

	viv_env_open(&e, minor);
	for (i = 0; i < 2; i++) {
		bo[i] = ugpu_bo_new(e.fd, 64 << 10, 0);
		ugpu_bo_map(bo[i]);
		memset(bo[i]->map, 0, 64 << 10);
	}

	/* Nearly full, the fill of bo[0] last. */
	viv_reset_stream(&s);
	pad_loads(&s, VIV_STREAM_WORDS - 1024);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff000001);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[0], 0, LSTRIDE, W, 4, 0xff000001);

	/* Short: its end is not the long stream's. */
	memset(bo[0]->map, 0, 64 << 10);
	viv_reset_stream(&s);
	viv_clear(&s, 2, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff000002);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[1], 0, LSTRIDE, W, 4, 0xff000002);
	check_fill(bo[0], 0, LSTRIDE, W, 4, 0);

	/* A fill, then a load cut short: rejected, and nothing runs. */
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff000003);
	pad_loads(&s, 2048);
	s.w[s.n++] = VIV_CMD_LOAD_STATE(VIV_SH_INST_MEM, 1023, false);
	s.w[s.n++] = 0;
	igt_assert_eq(viv_exec(&e, &s, bo, 2, 0, NULL), -EINVAL);
	check_fill(bo[0], 0, LSTRIDE, W, 4, 0);

	/* Short, then long again: the room grows. */
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff000004);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[0], 0, LSTRIDE, W, 4, 0xff000004);
	viv_reset_stream(&s);
	pad_loads(&s, VIV_STREAM_WORDS - 1024);
	viv_clear(&s, 2, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff000005);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[1], 0, LSTRIDE, W, 4, 0xff000005);
	check_fill(bo[0], 0, LSTRIDE, W, 4, 0xff000004);

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		t[i].e = e;
		t[i].e.cmd = ugpu_bo_new(e.fd, sizeof(s.w), 0);
		ugpu_bo_map(t[i].e.cmd);
		t[i].bo = ugpu_bo_new(e.fd, 64 << 10, 0);
		ugpu_bo_map(t[i].bo);
		t[i].id = i;
		t[i].ret = 0;
	}
	for (i = 0; i < ARRAY_SIZE(t); i++)
		igt_assert_eq(pthread_create(&t[i].thread, NULL,
					     room_thread_run, &t[i]), 0);
	for (i = 0; i < ARRAY_SIZE(t); i++)
		pthread_join(t[i].thread, NULL);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		igt_assert_f(t[i].ret == 0, "thread %u: %d\n", i, t[i].ret);
		ugpu_bo_free(t[i].bo);
		ugpu_bo_free(t[i].e.cmd);
	}

	expect_device_works(&e, bo[0], 0);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/*
 * Expected-value helpers below follow the hardware description: a linear
 * surface of stride S touched by a w x h window ends at (h - 1) * S +
 * w * bpp; a 4x4-tiled one at (h / 4 - 1) * S + (w / 4) * 16 * bpp.
 */

/* A legitimate clear that still works: the device survived. */
static void expect_device_works(struct viv_env *e, struct ugpu_bo *bo,
				uint32_t queue)
{
	static struct viv_stream s;

	ugpu_bo_map(bo);
	memset(bo->map, 0, 4096);
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, 256, 64, 4, 0xff5a5a5a);
	igt_assert_eq(viv_run(e, &s, &bo, 1, queue), 0);
	check_fill(bo, 0, 256, 64, 4, 0xff5a5a5a);
}

/*
 * Resolve extents: the width term counts, and a window ending exactly at
 * the end of its BO is fine.
 */
static void test_rs_extent(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;
	uint32_t x, y;
	uint64_t o;

	viv_env_open(&e, minor);
	bo[0] = ugpu_bo_new(e.fd, 4096, 0);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	/* The last 4 KiB of bo[0]: CPU pages may be larger. */
	o = bo[0]->size - 4096;

	/* 4 rows of 16 bytes but 1024 pixels wide: 3 * 16 + 4096 bytes. */
	viv_reset_stream(&s);
	viv_clear(&s, 1, o, VIV_LINEAR, 16, 1024, 4, 0xff000000);
	expect_reject(&e, &s, bo, 1, 0, "clear wider than its BO");

	/* A copy whose source is wider than its BO. */
	viv_reset_stream(&s);
	viv_resolve(&s, 1, o, VIV_LINEAR, 16, 2, 0, VIV_LINEAR, 4096,
		    1024, 4, 0);
	expect_reject(&e, &s, bo, 2, 0, "source wider than its BO");

	/* Tiled: 1 row of tiles, 256 tiles of 64 bytes = 16 KiB. */
	viv_reset_stream(&s);
	viv_resolve(&s, 2, 0, VIV_TILED, 64, 1, o, VIV_LINEAR, 16,
		    1024, 4, 0);
	expect_reject(&e, &s, bo, 2, 0, "tiled source wider than its BO");

	/* An empty window: what the engine does with it is not known. */
	viv_reset_stream(&s);
	viv_clear(&s, 1, o, VIV_LINEAR, 16, 0, 4, 0xff000000);
	expect_reject(&e, &s, bo, 1, 0, "empty window");

	/* Exactly to the last byte: 4 rows of 64 pixels at offset 3 KiB. */
	ugpu_bo_map(bo[0]);
	memset(bo[0]->map, 0, bo[0]->size);
	viv_reset_stream(&s);
	viv_clear(&s, 1, o + 3072, VIV_LINEAR, 256, 64, 4, 0xff00ff00);
	igt_assert_eq(viv_run(&e, &s, bo, 1, 0), 0);
	check_fill(bo[0], o + 3072, 256, 64, 4, 0xff00ff00);
	igt_assert_eq_u32(ugpu_bo_read32(bo[0], o + 3068), 0);

	/* A tiled copy ending at the last byte of the 4 KiB BO. */
	ugpu_bo_map(bo[1]);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 64; x++)
			ugpu_bo_write32(bo[1], viv_ref_offset(VIV_TILED, 1024, x, y, 4),
					0xff000000 | y << 8 | x);
	viv_reset_stream(&s);
	viv_resolve(&s, 2, 0, VIV_TILED, 1024, 1, o + 3072, VIV_LINEAR, 256,
		    64, 4, 0);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 64; x++)
			igt_assert_eq_u32(ugpu_bo_read32(bo[0], o + 3072 + y * 256 + x * 4),
					  0xff000000 | y << 8 | x);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/*
 * A kick is checked against the geometry its own stream loads: one that
 * relies on geometry an earlier submit left is rejected, even when that
 * geometry would fit. What earlier submits loaded need not be what the
 * hardware holds: a submit whose first command loads a small window and
 * whose second is rejected never runs, the hardware keeps the big window
 * of the submit before.
 */
static void test_rs_carryover(int minor)
{
	static struct viv_stream s, bad;
	struct drm_ugpu_cmd_buf buf[2] = { 0 };
	struct ugpu_bo *small, *big;
	struct ugpu_submit sub;
	struct viv_env e;
	unsigned int c, i;

	viv_env_open(&e, minor);
	small = ugpu_bo_new(e.fd, 4096, 0);
	big = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(small);
	ugpu_bo_map(big);

	/* Valid: 64 x 4 of 256 bytes, which would fit the small BO too. */
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff112233);
	igt_assert_eq(viv_run(&e, &s, &big, 1, 0), 0);
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 1, 0);
	viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
	expect_reject(&e, &s, &small, 1, 0, "kick on carried geometry");

	/* The hardware's window: 64 x 64, 64 KiB. */
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, H, 0xff112233);
	igt_assert_eq(viv_run(&e, &s, &big, 1, 0), 0);

	/* A submit that loads 8 x 4 and is rejected as a whole. */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_RS_WINDOW_SIZE, 8 | 4 << 16);
	viv_reset_stream(&bad);
	viv_emit(&bad, VIV_CMD_END, 0);
	memcpy(e.cmd->map, s.w, s.n * 4);
	memcpy((char *)e.cmd->map + 4096, bad.w, bad.n * 4);
	buf[0].handle = e.cmd->handle;
	buf[0].size = s.n * 4;
	buf[1].handle = e.cmd->handle;
	buf[1].offset = 4096;
	buf[1].size = bad.n * 4;
	ugpu_submit_init(&sub, e.ctx);
	for (i = 0; i < 2; i++) {
		c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
		sub.cmds[c].buf_count = 1;
		sub.cmds[c].bufs = (uintptr_t)&buf[i];
	}
	ugpu_submit_bo(&sub, e.cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	igt_assert_eq(__ugpu_submit(e.fd, &sub), -EINVAL);

	/* The 64 x 64 window must not be kicked into the 4 KiB BO. */
	memset(small->map, 0, 4096);
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 1, 0);
	viv_ls(&s, VIV_RS_DEST_STRIDE, LSTRIDE);
	viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
	expect_reject(&e, &s, &small, 1, 0, "kick on a window never loaded");
	igt_assert_eq_u32(ugpu_bo_read32(small, 0), 0);

	/* A kick without a window in a submit with everything else. */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_RS_CONFIG, VIV_RS_FORMAT_A8R8G8B8 |
	       VIV_RS_FORMAT_A8R8G8B8 << 8);
	viv_ls(&s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
	viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 1, 0);
	viv_ls(&s, VIV_RS_DEST_STRIDE, LSTRIDE);
	viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
	expect_reject(&e, &s, &small, 1, 0, "kick without a window");

	expect_device_works(&e, small, 0);
	check_fill(big, 0, LSTRIDE, W, H, 0xff112233);
	ugpu_bo_free(small);
	ugpu_bo_free(big);
	viv_env_close(&e);
}

/*
 * The walk follows LINK and CALL as the FE does: geometry loaded by the
 * code a LINK jumps to counts, loops and second CALLs are rejected.
 */
static void test_exec_order(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;
	unsigned int to_x, to_y, to_end, y, x, call;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 4096, 0);

	/*
	 * In stream order the kick at Y follows a 64 x 4 window; the FE
	 * runs X first, which loads 64 x 64 (64 KiB) for the BO's last
	 * 4 KiB.
	 */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_RS_CONFIG, VIV_RS_FORMAT_A8R8G8B8 |
	       VIV_RS_FORMAT_A8R8G8B8 << 8);
	viv_ls_reloc(&s, VIV_RS_DEST_ADDR, 1, bo->size - 4096);
	viv_ls(&s, VIV_RS_DEST_STRIDE, 256);
	viv_ls(&s, VIV_RS_CLEAR_CONTROL, 0xffff | 1 << 16);
	viv_ls(&s, VIV_RS_WINDOW_SIZE, 64 | 4 << 16);
	to_x = viv_jump(&s, VIV_CMD_LINK(2), 0);
	y = s.n;
	viv_ls(&s, VIV_RS_KICKER, VIV_RS_KICKER_START);
	to_end = viv_jump(&s, VIV_CMD_LINK(2), 0);
	x = s.n;
	viv_ls(&s, VIV_RS_WINDOW_SIZE, 64 | 64 << 16);
	to_y = viv_jump(&s, VIV_CMD_LINK(2), 0);
	viv_jump_patch(&s, to_x, x);
	viv_jump_patch(&s, to_y, y);
	viv_jump_patch(&s, to_end, s.n);
	viv_emit(&s, VIV_CMD_NOP, 0);
	expect_reject(&e, &s, &bo, 1, 0, "geometry loaded behind a LINK");

	/* A LINK back to itself: the stream never ends. */
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_NOP, 0);
	viv_jump(&s, VIV_CMD_LINK(2), 0);
	expect_reject(&e, &s, NULL, 0, 0, "loop");

	/* A subroutine called twice. */
	viv_reset_stream(&s);
	call = viv_jump(&s, VIV_CMD_CALL(2), 0);
	viv_emit(&s, 0, 0);
	viv_jump(&s, VIV_CMD_CALL(2), 0);
	viv_emit(&s, 0, 0);
	to_end = viv_jump(&s, VIV_CMD_LINK(2), 0);
	viv_jump_patch(&s, call, s.n);
	viv_jump_patch(&s, call + 4, s.n);
	viv_emit(&s, VIV_CMD_NOP, 0);
	viv_emit(&s, VIV_CMD_RETURN, 0);
	viv_jump_patch(&s, to_end, s.n);
	viv_emit(&s, VIV_CMD_NOP, 0);
	expect_reject(&e, &s, NULL, 0, 0, "second CALL");

	/* A LINK into the arguments of a LOAD_STATE that ran. */
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_RS_FILL_VALUE(0), 3, false), 0);
	viv_emit(&s, VIV_CMD_NOP, 0);
	to_x = viv_jump(&s, VIV_CMD_LINK(2), 0);
	viv_jump_patch(&s, to_x, 2);
	expect_reject(&e, &s, NULL, 0, 0, "LINK into arguments");

	/* Relocated words must be consumed as addresses. */
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_RS_FILL_VALUE(0), 1, 0);
	expect_reject(&e, &s, &bo, 1, 0, "relocated fill value");
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_RS_DEST_STRIDE, 1, 0);
	expect_reject(&e, &s, &bo, 1, 0, "relocated stride");

	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * States that hold addresses the validator does not check, or that are
 * not known to be harmless, are rejected even with a relocation into a
 * BO of the submit.
 */
static void test_unlisted_states(int minor)
{
	static const uint32_t states[] = {
		VIV_RS_PIPE_SOURCE_ADDR(0), VIV_RS_PIPE_DEST_ADDR(1),
		VIV_DE_UPLANE_ADDRESS, VIV_TS_SAMPLER_STATUS_BASE(0),
		VIV_PE_HDEPTH_ADDR, VIV_TE_SAMPLER_LOD_ADDR(0, 12),
		VIV_TE_SAMPLER_LOD_ADDR(13, 15), 0x1500, 0x14800, 0x15c00,
		0x1c040, 0x10800, 0x14600,
	};
	/* Shaders fetched from memory: MMUv2 only. */
	static const uint32_t v1_states[] = {
		VIV_VS_INST_ADDR, VIV_PS_INST_ADDR,
	};
	static const uint32_t plain[] = {
		VIV_RS_EXTRA_CONFIG, VIV_RS_KICKER_INPLACE, VIV_DE_ROT_ANGLE,
		VIV_DE_CONFIG, VIV_DE_SRC_ROTATION_CONFIG, 0x3a00,
		VIV_TE_SAMPLER_CONFIG1(0), VIV_TE_SAMPLER_LINEAR_STRIDE(0, 0),
		0x1454, 0x1720,
	};
	static const uint32_t v1_plain[] = {
		VIV_SH_ICACHE_CONTROL, VIV_VS_ICACHE_PREFETCH,
		VIV_PS_ICACHE_PREFETCH, VIV_VS_ICACHE_INVALIDATE,
	};
	static struct viv_stream s;
	bool mmuv1;
	struct ugpu_bo *bo;
	struct viv_env e;
	unsigned int i;

	viv_env_open(&e, minor);
	mmuv1 = param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1;
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		viv_reset_stream(&s);
		viv_ls_reloc(&s, states[i], 1, 0);
		igt_assert_f(viv_exec(&e, &s, &bo, 1, 0, NULL) == -EINVAL,
			     "address state %#x\n", states[i]);
	}
	for (i = 0; i < sizeof(v1_states) / sizeof(v1_states[0]); i++) {
		viv_reset_stream(&s);
		viv_ls_reloc(&s, v1_states[i], 1, 0);
		igt_assert_f(viv_exec(&e, &s, &bo, 1, 0, NULL) ==
			     (mmuv1 ? -EINVAL : 0),
			     "address state %#x\n", v1_states[i]);
	}
	for (i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, plain[i], 1);
		igt_assert_f(viv_exec(&e, &s, &bo, 1, 0, NULL) == -EINVAL,
			     "state %#x\n", plain[i]);
	}
	for (i = 0; i < sizeof(v1_plain) / sizeof(v1_plain[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, v1_plain[i], 0);
		igt_assert_f(viv_exec(&e, &s, &bo, 1, 0, NULL) ==
			     (mmuv1 ? -EINVAL : 0), "state %#x\n", v1_plain[i]);
	}
	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * The HALTI5 shader interface Mesa's etnaviv loads for every GC7000 draw
 * (etnaviv_emit.c): settings without addresses, allowed on MMUv2 only.
 */
static void test_halti5_shader_states(int minor)
{
	static const uint32_t states[] = {
		VIV_FE_HALTI5_ID_CONFIG, VIV_VS_HALTI5_UNK008A0,
		VIV_VS_HALTI5_RANGE_HIGH, VIV_VS_HALTI5_INPUT(0),
		VIV_VS_HALTI5_INPUT(VIV_VS_HALTI5_REGS - 1),
		VIV_VS_HALTI5_OUTPUT(0),
		VIV_VS_HALTI5_OUTPUT(VIV_VS_HALTI5_REGS - 1),
		VIV_GL_HALTI5_SH_SPECIALS, VIV_GL_HALTI5_SHADER_ATTRIBUTES(0),
		VIV_GL_HALTI5_SHADER_ATTRIBUTES(VIV_GL_HALTI5_SHADER_ATTRIBUTES_N - 1),
		VIV_SH_CONFIG, VIV_SH_HALTI5_UNIFORMS_MIRROR,
		VIV_SH_HALTI5_UNIFORMS_MIRROR + 4 * (VIV_SH_HALTI5_UNIFORMS_WORDS - 1),
		VIV_SH_HALTI5_UNIFORMS,
		VIV_SH_HALTI5_UNIFORMS + 4 * (VIV_SH_HALTI5_UNIFORMS_WORDS - 1),
	};
	/* Unknown neighbours: rejected on every core. */
	static const uint32_t unknown[] = {
		0x07c0, 0x08b8, 0x3884, 0x3900, 0x15608,
		VIV_SH_HALTI5_UNIFORMS_MIRROR - 4,
		VIV_SH_HALTI5_UNIFORMS + 4 * VIV_SH_HALTI5_UNIFORMS_WORDS,
	};
	static uint32_t vals[1023];
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;
	unsigned int i;
	int want;

	viv_env_open(&e, minor);
	want = param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1 ? -EINVAL : 0;
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	for (i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, states[i], 0);
		viv_ls(&s, states[i], 0xffffffff);
		igt_assert_f(viv_exec(&e, &s, &bo, 1, 0, NULL) == want,
			     "state %#x\n", states[i]);
	}
	/* Long runs: the first words of the mirror, the last of the store. */
	for (i = 0; i < 1023; i++)
		vals[i] = 0x3f800000 + i;
	viv_reset_stream(&s);
	viv_ls_n(&s, VIV_SH_HALTI5_UNIFORMS_MIRROR, 1023, vals);
	viv_ls_n(&s, VIV_SH_HALTI5_UNIFORMS +
		 4 * (VIV_SH_HALTI5_UNIFORMS_WORDS - 1023), 1023, vals);
	igt_assert_eq(viv_exec(&e, &s, &bo, 1, 0, NULL), want);
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, unknown[i], 0);
		igt_assert_f(viv_exec(&e, &s, &bo, 1, 0, NULL) == -EINVAL,
			     "state %#x\n", unknown[i]);
	}
	/* A uniform is no address state: a relocation into it is refused. */
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_SH_HALTI5_UNIFORMS, 1, 0);
	igt_assert_eq(viv_exec(&e, &s, &bo, 1, 0, NULL), -EINVAL);
	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/* MMUv1: a GPU-read-only BO is never the target of a GPU write. */
static void test_readonly(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;

	viv_env_open(&e, minor);
	igt_require(param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, DRM_UGPU_BO_GPU_READONLY);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	memset(bo[0]->map, 0x77, 64 << 10);

	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff0000ff);
	expect_reject(&e, &s, bo, 1, 0, "resolve into a read-only BO");
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_TS_COLOR_STATUS_BASE, 1, 0);
	expect_reject(&e, &s, bo, 1, 0, "tile status in a read-only BO");
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_PE_PIPE_COLOR_ADDR(1), 1, 0);
	expect_reject(&e, &s, bo, 1, 0, "render target in a read-only BO");
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_TS_DEPTH_SURFACE_BASE, 1, 0);
	expect_reject(&e, &s, bo, 1, 0, "depth surface in a read-only BO");
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_GL_OCCLUSION_QUERY_ADDR, 1, 0);
	expect_reject(&e, &s, bo, 1, 0, "query result in a read-only BO");
	igt_assert_eq_u32(ugpu_bo_read32(bo[0], 0), 0x77777777);

	/* Textures and vertices may live there. */
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_TE_SAMPLER_LOD_ADDR(3, 2), 1, 0);
	viv_ls_reloc(&s, VIV_FE_VERTEX_STREAMS_BASE_ADDR(1), 1, 0);
	igt_assert_eq(viv_run(&e, &s, bo, 1, 0), 0);

	/* Reading it is fine. */
	memset(bo[1]->map, 0, 64 << 10);
	viv_reset_stream(&s);
	viv_resolve(&s, 1, 0, VIV_LINEAR, LSTRIDE, 2, 0, VIV_LINEAR, LSTRIDE,
		    W, 4, 0);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[1], 0, LSTRIDE, W, 4, 0x77777777);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/* The first queue of @fd with a 2D pipe. */
static uint32_t queue_2d(int fd)
{
	uint32_t q, nq = param(fd, DRM_UGPU_PARAM_NUM_QUEUES);

	for (q = 0; q < nq; q++)
		if (ugpu_get_param(fd, DRM_UGPU_PARAM_QUEUE_CAPS, q) &
		    DRM_UGPU_QUEUE_CAP_CMDBUF_2D)
			return q;
	igt_skip("no 2D queue\n");
	return 0;
}

/*
 * The 2D engine touches the whole rectangle of each DRAW_2D, in the
 * destination and, for a blit, in the source: A8R8G8B8 (4 bytes per
 * pixel), rows of the stride. Each must stay in its BO; one ending at
 * the last byte of its BO is fine.
 */
static void test_2d_extent(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[3];
	struct viv_env e;
	uint32_t q, x, y;
	uint64_t o;

	viv_env_open(&e, minor);
	q = queue_2d(e.fd);
	bo[0] = ugpu_bo_new(e.fd, 4096, 0);	/* destination */
	bo[1] = ugpu_bo_new(e.fd, 4096, 0);	/* source */
	bo[2] = ugpu_bo_new(e.fd, 4096, DRM_UGPU_BO_GPU_READONLY);
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	/* The last 4 KiB of each BO: CPU pages may be larger. */
	o = bo[0]->size - 4096;

	/* Clear 17 rows of 256 bytes: 16 rows fit in 4 KiB. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_ls(&s, VIV_DE_CLEAR_PIXEL_VALUE32, 0xff00ff00);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 64, 17);
	expect_reject(&e, &s, bo, 1, q, "clear past the destination");

	/* One row, but 2048 pixels wide. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 2048, 1);
	expect_reject(&e, &s, bo, 1, q, "clear wider than the destination");

	/* A blit from a source with a 64 KiB stride. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 2, o, 65536);
	viv_de_rect(&s, VIV_DE_COMMAND_BIT_BLT, 0, 0, 64, 4);
	expect_reject(&e, &s, bo, 2, q, "blit past the source");

	/* A blit whose source origin moves it out of its BO. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 2, o, 256);
	viv_ls(&s, VIV_DE_SRC_ORIGIN, 0 | 60 << 16);
	viv_de_rect(&s, VIV_DE_COMMAND_BIT_BLT, 0, 0, 64, 4);
	expect_reject(&e, &s, bo, 2, q, "blit with the source moved out");

	/* A pattern (8 x 8 x 4 bytes) starting 64 bytes before the end. */
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_DE_PATTERN_ADDRESS, 1, o + 4096 - 64);
	expect_reject(&e, &s, bo, 1, q, "pattern past its BO");

	/* Rotation, mirroring, tiling, planar formats, other commands. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_ls(&s, VIV_DE_DEST_CONFIG, VIV_DE_FORMAT_YV12);
	viv_emit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
	viv_emit(&s, 0, 1 | 1 << 16);
	expect_reject(&e, &s, bo, 1, q, "planar destination");
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_ls(&s, VIV_DE_DEST_CONFIG, VIV_DE_FORMAT_A8R8G8B8 | 4 << 12);
	viv_emit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
	viv_emit(&s, 0, 1 | 1 << 16);
	expect_reject(&e, &s, bo, 1, q, "stretch blit");
	viv_reset_stream(&s);
	viv_ls(&s, VIV_DE_ROT_ANGLE, 4);
	expect_reject(&e, &s, bo, 1, q, "rotation");

	/* Reversed rectangle (x1 < x0). */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 8, 0, 0, 1);
	expect_reject(&e, &s, bo, 1, q, "reversed rectangle");

	/* Without its destination loaded in this submit. */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_DE_DEST_STRIDE, 256);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 1, 1);
	expect_reject(&e, &s, bo, 1, q, "no destination");

	/* Read-only BOs are sources, never destinations (MMUv1). */
	if (param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1) {
		viv_reset_stream(&s);
		viv_de_surfaces(&s, 3, o, 256, 0, 0, 0);
		viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 1, 1);
		expect_reject(&e, &s, bo, 3, q, "read-only destination");
	}

	/* At the edge: 16 rows of 64 bytes ending at the last byte of each. */
	memset(bo[0]->map, 0, bo[0]->size);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++)
			ugpu_bo_write32(bo[1], o + 3072 + y * 64 + x * 4,
					0xff000000 | y << 8 | x);
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o + 3072, 64, 2, o + 3072, 64);
	viv_ls(&s, VIV_DE_ROP, 0xcc | 0xcc << 8 | 3 << 20);
	viv_de_clip(&s, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
	viv_de_rect(&s, VIV_DE_COMMAND_BIT_BLT, 0, 0, 16, 16);
	igt_assert_eq(viv_run(&e, &s, bo, 2, q), 0);
	for (y = 0; y < 16; y++)
		for (x = 0; x < 16; x++)
			igt_assert_eq_u32(ugpu_bo_read32(bo[0], o + 3072 + y * 64 + x * 4),
					  0xff000000 | y << 8 | x);
	igt_assert_eq_u32(ugpu_bo_read32(bo[0], o + 3068), 0);

	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	ugpu_bo_free(bo[2]);
	viv_env_close(&e);
}

/*
 * A submit with the most BOs and a long stream of address states: each
 * address is looked up among 1024 BOs. Only the result is checked; the
 * time it takes is for make bench.
 */
static void test_many_bos(int minor)
{
	/* The most BOs a submit takes, with the command BO; 440 KiB of stream. */
	enum { NBOS = 1023, WORDS = 110 << 10 };
	struct drm_ugpu_submit_bo *list;
	struct drm_ugpu_cmd_buf buf = { 0 };
	struct drm_ugpu_cmd cmd = { 0 };
	struct drm_ugpu_sync out = { 0 };
	struct drm_ugpu_submit arg = { 0 };
	struct ugpu_bo **bos, *cmdbo;
	uint32_t *w, n = 0, i;
	long long ns0, ns1;
	struct viv_env e;

	viv_env_open(&e, minor);
	igt_require(param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 2);
	bos = calloc(NBOS, sizeof(*bos));
	list = calloc(NBOS + 1, sizeof(*list));
	igt_assert(bos && list);
	for (i = 0; i < NBOS; i++) {
		bos[i] = ugpu_bo_new(e.fd, 4096, 0);
		list[i + 1].handle = bos[i]->handle;
		list[i + 1].flags = DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE;
	}
	cmdbo = ugpu_bo_new(e.fd, WORDS * 4, 0);
	w = ugpu_bo_map(cmdbo);
	list[0].handle = cmdbo->handle;
	list[0].flags = DRM_UGPU_SUBMIT_BO_READ;

	/* Runs of address states, each pointing into another BO. */
	for (i = 0; n + 1024 <= WORDS - 64; i++) {
		uint32_t j;

		w[n++] = VIV_CMD_LOAD_STATE(e.blt ? VIV_BLT_DEST_ADDR :
					    VIV_RS_DEST_ADDR, 1, false);
		w[n++] = (uint32_t)bos[(i * 7) % NBOS]->va + 64;
		w[n++] = VIV_CMD_LOAD_STATE(VIV_TS_COLOR_SURFACE_BASE, 1, false);
		w[n++] = (uint32_t)bos[(i * 13) % NBOS]->va;
		for (j = 0; j < 1020; j += 2) {
			w[n++] = VIV_CMD_LOAD_STATE(VIV_DE_SRC_ADDRESS, 1, false);
			w[n++] = (uint32_t)bos[(i + j) % NBOS]->va + j;
		}
	}
	/* Then a clear of the last BO, which must land. */
	if (e.blt) {
		static const uint32_t blt[][2] = {
			{ VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE },
			{ VIV_BLT_CONFIG, 3 << VIV_BLT_CONFIG_CLEAR_BPP_SHIFT },
			{ VIV_BLT_DEST_STRIDE, 256 | VIV_BLT_FORMAT_A8R8G8B8 <<
					       VIV_BLT_STRIDE_FORMAT_SHIFT },
			{ VIV_BLT_DEST_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY },
			{ VIV_BLT_DEST_ADDR, 0 },
			{ VIV_BLT_DEST_POS, 0 },
			{ VIV_BLT_IMAGE_SIZE, 64 | 16 << 16 },
			{ VIV_BLT_CLEAR_COLOR0, 0xff0f0f0f },
			{ VIV_BLT_CLEAR_BITS0, 0xffffffff },
			{ VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE },
			{ VIV_BLT_ENABLE, 0 },
		};

		for (i = 0; i < ARRAY_SIZE(blt); i++) {
			w[n++] = VIV_CMD_LOAD_STATE(blt[i][0], 1, false);
			w[n++] = blt[i][0] == VIV_BLT_DEST_ADDR ?
				 (uint32_t)bos[NBOS - 1]->va : blt[i][1];
		}
		goto submit;
	}
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_CONFIG, 1, false);
	w[n++] = VIV_RS_FORMAT_A8R8G8B8 | VIV_RS_FORMAT_A8R8G8B8 << 8;
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_DEST_ADDR, 1, false);
	w[n++] = (uint32_t)bos[NBOS - 1]->va;
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_DEST_STRIDE, 1, false);
	w[n++] = 256;
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_WINDOW_SIZE, 1, false);
	w[n++] = 64 | 16 << 16;
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_FILL_VALUE(0), 1, false);
	w[n++] = 0xff0f0f0f;
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_CLEAR_CONTROL, 1, false);
	w[n++] = 0xffff | 1 << 16;
	w[n++] = VIV_CMD_LOAD_STATE(VIV_RS_KICKER, 1, false);
	w[n++] = VIV_RS_KICKER_START;

submit:
	buf.handle = cmdbo->handle;
	buf.size = n * 4;
	cmd.type = DRM_UGPU_CMD_HW;
	cmd.buf_count = 1;
	cmd.bufs = (uintptr_t)&buf;
	out.handle = ugpu_syncobj_create(e.fd, false);
	arg.ctx = e.ctx;
	arg.cmds = (uintptr_t)&cmd;
	arg.cmd_count = 1;
	arg.bos = (uintptr_t)list;
	arg.bo_count = NBOS + 1;
	arg.out_syncs = (uintptr_t)&out;
	arg.out_sync_count = 1;
	ns0 = viv_stat(e.fd, "validate_ns");
	igt_assert_eq(igt_ioctl(e.fd, DRM_IOCTL_UGPU_SUBMIT, &arg), 0);
	ns1 = viv_stat(e.fd, "validate_ns");
	igt_assert_eq(ugpu_syncobj_wait_status(e.fd, out.handle), 1);
	igt_info("%u words, %d BOs: validated in %.3f ms\n", n, NBOS,
		 (ns1 - ns0) / 1e6);
	ugpu_bo_map(bos[NBOS - 1]);
	check_fill(bos[NBOS - 1], 0, 256, 64, 16, 0xff0f0f0f);

	/* One address outside every BO among them is still found out. */
	w[3] = (uint32_t)(bos[NBOS - 1]->va + bos[NBOS - 1]->size);
	igt_assert_eq(igt_ioctl(e.fd, DRM_IOCTL_UGPU_SUBMIT, &arg), -1);
	igt_assert_eq(errno, EINVAL);

	ugpu_syncobj_destroy(e.fd, out.handle);
	for (i = 0; i < NBOS; i++)
		ugpu_bo_free(bos[i]);
	ugpu_bo_free(cmdbo);
	free(bos);
	free(list);
	viv_env_close(&e);
}

/* Submit @s on @e's context without waiting; returns a sync_file. */
static int viv_submit_async(struct viv_env *e, struct viv_stream *s)
{
	struct drm_ugpu_cmd_buf buf = {
		.handle = e->cmd->handle,
		.size = s->n * 4,
	};
	struct ugpu_submit sub;
	uint32_t sync, c;
	int fd;

	memcpy(e->cmd->map, s->w, s->n * 4);
	ugpu_submit_init(&sub, e->ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_bo(&sub, e->cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	sync = ugpu_syncobj_create(e->fd, false);
	ugpu_submit_out_sync(&sub, sync, 0);
	ugpu_submit(e->fd, &sub);
	/* Syncobj ioctls stop working once the device is gone. */
	igt_assert_eq(drmSyncobjExportSyncFile(e->fd, sync, &fd), 0);
	ugpu_syncobj_destroy(e->fd, sync);
	return fd;
}

/*
 * Unbind with contexts that outlive the device: two contexts of one file
 * with state loaded, a hung job of one and a job of the other behind it.
 * Both jobs end with an error, the contexts are released once (the driver
 * frees their state at removal, not when the file closes later), and the
 * device works with new contexts once bound again.
 */
static void test_unbind(int minor)
{
	struct drm_ugpu_ctx_destroy cd = { 0 };
	static struct viv_stream s;
	struct viv_env e[2];
	int fence[2], i, st;
	struct pollfd pfd;
	char name[64];

	igt_require(getuid() == 0);
	for (i = 0; i < num_devs; i++)
		if (devs[i].minor == minor)
			break;
	igt_assert(i < num_devs);
	snprintf(name, sizeof(name), "%s", devs[i].name);

	viv_env_open(&e[0], minor);
	viv_env_open_ctx(&e[1], &e[0]);
	ugpu_device_unbind_init(e[0].fd);
	for (i = 0; i < 2; i++) {
		viv_reset_stream(&s);
		viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0x11 << i);
		viv_ls(&s, e[0].blt ? VIV_BLT_CLEAR_COLOR0 : VIV_RS_FILL_VALUE(0),
		       0xff000000 + i);
		igt_assert_eq(viv_run(&e[i], &s, NULL, 0, 0), 0);
	}

	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_STALL, VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_RA));
	fence[0] = viv_submit_async(&e[0], &s);
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_NOP, 0);
	fence[1] = viv_submit_async(&e[1], &s);

	ugpu_device_unbind();

	for (i = 0; i < 2; i++) {
		pfd.fd = fence[i];
		pfd.events = POLLIN;
		igt_assert_eq(poll(&pfd, 1, UGPU_WAIT_MS), 1);
		/* Hang detection may beat the unbind to the hung job. */
		st = ugpu_sync_file_status(fence[i]);
		igt_assert_f(st == -ENODEV || st == -ETIMEDOUT || (i && st == 1),
			     "job %d: %d\n", i, st);
		close(fence[i]);
	}
	/* The handle stays; the file's close releases the context. */
	cd.handle = e[1].ctx;
	igt_assert_eq(igt_ioctl(e[0].fd, DRM_IOCTL_UGPU_CTX_DESTROY, &cd), -1);
	igt_assert_eq(errno, ENODEV);
	for (i = 0; i < 2; i++) {
		munmap(e[i].cmd->map, e[i].cmd->size);
		free(e[i].cmd);
	}
	igt_assert_eq(close(e[0].fd), 0);

	ugpu_device_rebind();
	minor = ugpu_wait_for_device(DRM_UGPU_FAMILY_VIVANTE, name);
	/* Later subtests look devices up by their new minor. */
	num_devs = ugpu_enumerate(DRM_UGPU_FAMILY_VIVANTE, devs,
				  UGPU_MAX_DEVICES);

	/* New contexts on the new device start from the reset state. */
	viv_env_open(&e[0], minor);
	viv_env_open_ctx(&e[1], &e[0]);
	hold_power(e[0].fd, true);
	for (i = 0; i < 2; i++) {
		viv_reset_stream(&s);
		if (!i)
			viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0x22);
		else
			viv_emit(&s, VIV_CMD_NOP, 0);
		igt_assert_eq(viv_run(&e[i], &s, NULL, 0, 0), 0);
	}
	igt_assert_eq_u32(sim_state(e[1].fd, VIV_GL_MULTI_SAMPLE_CONFIG), 0);
	hold_power(e[0].fd, false);
	viv_env_close_ctx(&e[1]);
	viv_env_close(&e[0]);
}

/*
 * Bounded simulator work. The resolve engine's window and the 2D engine's
 * rectangles are 16 bits each way, and a linear destination with stride 0
 * puts every row on the same 256 KiB: four resolve fills of 65535 x 65532
 * pixels, or 255 START_DE clears of 65535 x 65535, are 17 Gpixels or more
 * in a command the validator accepts, hours for a simulator. Either the command
 * completes or the job timeout ends it with -ETIMEDOUT; meanwhile another
 * Vivante device's commands complete, and the machine stays responsive
 * (the test bed fails on a soft lockup, a hung task or an RCU stall).
 * Once the command's fence has signalled the engine must be free: another
 * client's command queued behind it, and a command after it, complete
 * within HUGE_AFTER_MS.
 */
#define HUGE_W		65535
#define HUGE_H		65532
#define HUGE_SIZE	(256 << 10)
#define HUGE_AFTER_MS	2000

/* Another Vivante device with a 3D pipe, or -1. */
static int other_device(int minor)
{
	int i, fd;
	bool ok;

	for (i = 0; i < num_devs; i++) {
		if (devs[i].minor == minor)
			continue;
		fd = ugpu_open_minor(devs[i].minor);
		ok = has_3d(fd);
		close(fd);
		if (ok)
			return devs[i].minor;
	}
	return -1;
}

/*
 * Submit @s with @bo (index 1) on @e's context and @queue; returns the
 * out syncobj.
 */
static uint32_t huge_submit(struct viv_env *e, struct viv_stream *s,
			    struct ugpu_bo *bo, uint32_t queue)
{
	struct drm_ugpu_cmd_buf buf = {
		.handle = e->cmd->handle,
		.size = s->n * 4,
		.relocs = (uintptr_t)s->relocs,
		.reloc_count = s->nrelocs,
	};
	struct ugpu_submit sub;
	uint32_t sync, c;

	memcpy(e->cmd->map, s->w, s->n * 4);
	ugpu_submit_init(&sub, e->ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].queue = queue;
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_bo(&sub, e->cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&sub, bo->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	sync = ugpu_syncobj_create(e->fd, false);
	ugpu_submit_out_sync(&sub, sync, 0);
	ugpu_submit(e->fd, &sub);
	return sync;
}

struct small {
	struct viv_env e;
	struct ugpu_bo *bo;
	uint32_t sync;
	uint32_t fill;
};

/* START_DE clears of @count rectangles @w x @h at BO 1, stride @stride. */
static void de_clear(struct viv_stream *s, uint32_t stride, unsigned int count,
		     uint32_t w, uint32_t h, uint32_t fill)
{
	unsigned int i;

	viv_ls_reloc(s, VIV_DE_DEST_ADDRESS, 1, 0);
	viv_ls(s, VIV_DE_DEST_STRIDE, stride);
	viv_ls(s, VIV_DE_DEST_CONFIG,
	       VIV_DE_FORMAT_A8R8G8B8 | VIV_DE_COMMAND_CLEAR << 12);
	viv_ls(s, VIV_DE_CLEAR_PIXEL_VALUE32, fill);
	viv_de_clip(s, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
	viv_emit(s, VIV_CMD_DRAW_2D(count), 0xdeaddeed);
	for (i = 0; i < count; i++)
		viv_emit(s, 0, w | h << 16);
}

/*
 * Submit a 64 x 4 fill of @fill (by the resolve engine, or by START_DE
 * with @de) on a new file of @minor; no wait.
 */
static void small_submit(struct small *sm, int minor, bool de, uint32_t fill)
{
	static struct viv_stream s;

	viv_env_open(&sm->e, minor);
	sm->fill = fill;
	sm->bo = ugpu_bo_new(sm->e.fd, 64 << 10, 0);
	ugpu_bo_map(sm->bo);
	memset(sm->bo->map, 0, 64 << 10);
	viv_reset_stream(&s);
	if (de)
		de_clear(&s, LSTRIDE, 1, W, 4, fill);
	else
		viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, fill);
	sm->sync = huge_submit(&sm->e, &s, sm->bo,
			       de ? queue_2d(sm->e.fd) : 0);
}

/* Wait for it, check it, release it. */
static void small_finish(struct small *sm)
{
	igt_assert_eq(ugpu_syncobj_wait_status(sm->e.fd, sm->sync), 1);
	check_fill(sm->bo, 0, LSTRIDE, W, 4, sm->fill);
	ugpu_syncobj_destroy(sm->e.fd, sm->sync);
	ugpu_bo_free(sm->bo);
	viv_env_close(&sm->e);
}

static void test_huge(int minor, bool de)
{
	static struct viv_stream s;
	int other = other_device(minor), status;
	struct small behind, after, elsewhere;
	struct ugpu_bo *bo;
	struct viv_env e;
	double t0, t1;
	unsigned int i;
	uint32_t sync;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, HUGE_SIZE, 0);
	ugpu_bo_map(bo);
	memset(bo->map, 0, HUGE_SIZE);
	viv_reset_stream(&s);
	if (de) {
		de_clear(&s, 0, 255, HUGE_W, HUGE_W, 0xff123456);
	} else {
		for (i = 0; i < 4; i++)
			viv_clear(&s, 1, 0, VIV_LINEAR, 0, HUGE_W, HUGE_H,
				  0xff123456);
	}

	t0 = now_s();
	sync = huge_submit(&e, &s, bo, de ? queue_2d(e.fd) : 0);
	small_submit(&behind, minor, de, 0xff000200);
	if (other >= 0) {
		for (i = 0; i < 3; i++) {
			small_submit(&elsewhere, other, false, 0xff000100 + i);
			small_finish(&elsewhere);
		}
	}

	status = ugpu_syncobj_wait_status(e.fd, sync);
	t1 = now_s();
	igt_info("%s: status %d after %.2f s\n",
		 de ? "255 START_DE clears" : "4 resolve fills", status, t1 - t0);
	igt_assert_f(status == 1 || status == -ETIMEDOUT,
		     "huge command: fence status %d\n", status);
	if (status == 1)
		igt_assert_eq_u32(ugpu_bo_read32(bo, (HUGE_W - 1) * 4),
				  0xff123456);
	small_finish(&behind);
	small_submit(&after, minor, de, 0xff000300);
	small_finish(&after);
	igt_info("then two commands in %.2f s\n", now_s() - t1);
	igt_assert_f(now_s() - t1 < HUGE_AFTER_MS / 1000.0,
		     "the engine stayed busy %.2f s after the fence\n",
		     now_s() - t1);
	ugpu_syncobj_destroy(e.fd, sync);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}


/* Fill a mapped BO with one 32-bit value. */
static void memset32_words(struct ugpu_bo *bo, uint32_t val)
{
	uint64_t i;

	for (i = 0; i < bo->size; i += 4)
		ugpu_bo_write32(bo, i, val);
}

/* A value of the simulated core's vivante_stats debugfs file. */
static long long sim_stat(int fd, const char *key)
{
	char path[PATH_MAX], buf[4096], *p;

	igt_require(ugpu_sim_debugfs_path(fd, "vivante_stats", path, sizeof(path)));
	memset(buf, 0, sizeof(buf));
	igt_assert(ugpu_file_read(path, buf, sizeof(buf) - 1) > 0);
	p = strstr(buf, key);
	igt_assert_f(p, "no %s in vivante_stats\n", key);
	return strtoll(p + strlen(key) + 1, NULL, 0);
}

/*
 * A 32-bit read at GPU address @addr through the simulated core's MMU, as
 * its memory clients read (vivante_mem debugfs file); @fault gets the
 * fault code, 0 when the address translated.
 */
static uint32_t sim_mem(int fd, uint32_t addr, int *fault)
{
	char path[PATH_MAX], buf[64], *end;
	uint32_t val;

	igt_require(ugpu_sim_debugfs_path(fd, "vivante_mem", path, sizeof(path)));
	snprintf(buf, sizeof(buf), "%#x", addr);
	igt_assert_eq(ugpu_file_write(path, buf), 0);
	memset(buf, 0, sizeof(buf));
	igt_assert(ugpu_file_read(path, buf, sizeof(buf) - 1) > 0);
	val = strtoul(buf, &end, 0);
	*fault = strtol(end, NULL, 0);
	return val;
}

/*
 * MMUv1: GPU address of the first page holding @magic in its first two
 * words, searched in the first 16 MiB of the window past the kernel
 * region (BOs of a file are only handles there; the shared table decides).
 */
static uint32_t find_mmuv1_page(int fd, uint32_t magic)
{
	uint32_t addr;
	int fault;

	for (addr = VIV_MMUV1_WINDOW_START + (2 << 20);
	     addr < VIV_MMUV1_WINDOW_START + (18 << 20); addr += 4096)
		if (sim_mem(fd, addr, &fault) == magic && !fault &&
		    sim_mem(fd, addr + 4, &fault) == magic && !fault)
			return addr;
	igt_assert_f(0, "BO with %#x not found in the MMUv1 window\n", magic);
	return 0;
}

/* A job that touches no BO: it runs the TLB flush pending page-table changes ask for. */
static void viv_run_nop(struct viv_env *e)
{
	static struct viv_stream s;

	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_NOP, 0);
	igt_assert_eq(viv_run(e, &s, NULL, 0, 0), 0);
}

/*
 * MMUv1 has no present bit: an entry of 0 sends an access to physical page
 * 0. Addresses that map nothing -- never mapped, or unmapped -- lead to the
 * scratch page instead: no access reaches page 0, none sees the old data.
 */
static void test_mmuv1_unmap(int minor)
{
	const uint32_t magic = 0xa11ce5a5;
	struct ugpu_bo *a;
	struct viv_env e;
	long long wild;
	uint32_t addr, val;
	void *keep;
	int fault;

	viv_env_open(&e, minor);
	igt_require(param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1);
	hold_power(e.fd, true);
	wild = sim_stat(e.fd, "wild_accesses");

	/* The top of the window was never mapped. */
	val = sim_mem(e.fd, 0xfffff000, &fault);
	igt_assert_eq(fault, 0);
	igt_assert_eq(sim_stat(e.fd, "wild_accesses"), wild);

	a = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(a);
	memset32_words(a, magic);
	addr = find_mmuv1_page(e.fd, magic);
	/* A CPU mapping keeps A's pages (and data) alive past the unmap. */
	keep = ugpu_mmap(e.fd, a->mmap_offset, a->size, PROT_READ);
	ugpu_bo_free(a);
	/* Any job flushes the TLB after the table changed. */
	viv_run_nop(&e);

	for (val = 0; val < (64 << 10); val += 4096) {
		igt_assert_neq_u32(sim_mem(e.fd, addr + val, &fault), magic);
		igt_assert_eq(fault, 0);
	}
	igt_assert_f(sim_stat(e.fd, "wild_accesses") == wild,
		     "an unmapped address reached physical page 0 (at %#llx)\n",
		     sim_stat(e.fd, "wild_addr"));
	munmap(keep, 64 << 10);
	hold_power(e.fd, false);
	viv_env_close(&e);
}

/*
 * The 2D clip window (DE_CLIP_TOP_LEFT to DE_CLIP_BOTTOM_RIGHT, bottom
 * right exclusive): the engine writes only the pixels of a rectangle
 * inside it. A blit's kept pixels read what they would unclipped: the
 * source origin plus their offset in the rectangle, or, with a relative
 * source, their own position moved by the origin.
 */
#define CLIP_W		64	/* A8R8G8B8 pixels a row: stride 256 */
#define CLIP_H		16

struct clip_op {
	uint32_t x0, y0, x1, y1;	/* the rectangle, exclusive */
	uint32_t color;			/* clears */
	bool relative;			/* blits: the source mode */
	uint32_t ox, oy;		/* blits: the source origin */
};

static uint32_t clip_src_px(uint32_t x, uint32_t y)
{
	return 0xff000000 | y << 8 | x;
}

/* What the engine leaves in @img (CLIP_W x CLIP_H) after @op. */
static void clip_apply(uint32_t *img, const struct clip_op *op, bool blit,
		       uint32_t cx0, uint32_t cy0, uint32_t cx1, uint32_t cy1)
{
	uint32_t x, y;

	for (y = op->y0; y < op->y1; y++)
		for (x = op->x0; x < op->x1; x++) {
			if (x < cx0 || x >= cx1 || y < cy0 || y >= cy1)
				continue;
			if (!blit)
				img[y * CLIP_W + x] = op->color;
			else if (op->relative)
				img[y * CLIP_W + x] =
					clip_src_px(op->ox + x, op->oy + y);
			else
				img[y * CLIP_W + x] =
					clip_src_px(op->ox + x - op->x0,
						    op->oy + y - op->y0);
		}
}

static void clip_emit(struct viv_stream *s, const struct clip_op *op,
		      unsigned int n, bool blit)
{
	unsigned int i;

	if (blit) {
		viv_ls(s, VIV_DE_SRC_CONFIG, VIV_DE_FORMAT_A8R8G8B8 |
		       VIV_DE_FORMAT_A8R8G8B8 << 24 |
		       (op->relative ? VIV_DE_SRC_CONFIG_RELATIVE : 0));
		viv_ls(s, VIV_DE_SRC_ORIGIN, op->ox | op->oy << 16);
	} else {
		viv_ls(s, VIV_DE_CLEAR_PIXEL_VALUE32, op->color);
	}
	viv_ls(s, VIV_DE_DEST_CONFIG, VIV_DE_FORMAT_A8R8G8B8 |
	       (blit ? VIV_DE_COMMAND_BIT_BLT : VIV_DE_COMMAND_CLEAR) << 12);
	viv_emit(s, VIV_CMD_DRAW_2D(n), 0xdeaddeed);
	for (i = 0; i < n; i++)
		viv_emit(s, op[i].x0 | op[i].y0 << 16, op[i].x1 | op[i].y1 << 16);
}

static void clip_check(struct ugpu_bo *bo, const uint32_t *img)
{
	uint32_t x, y;

	for (y = 0; y < CLIP_H; y++)
		for (x = 0; x < CLIP_W; x++) {
			uint32_t got = ugpu_bo_read32(bo, (y * CLIP_W + x) * 4);

			igt_assert_f(got == img[y * CLIP_W + x],
				     "(%u,%u): %#x, expected %#x\n", x, y, got,
				     img[y * CLIP_W + x]);
		}
}

static void test_2d_clip(int minor, bool blit)
{
	/* Two draws, each partly outside the window, and one wholly so. */
	const struct clip_op ops[] = {
		{ 4, 0, 20, 6, 0xff112233, false, 3, 1 },
		{ 50, 0, 60, 2, 0xff112233, false, 3, 1 },
		{ 30, 4, 60, 9, 0xff445566, true, 2, 5 },
	};
	const uint32_t cx0 = 8, cy0 = 2, cx1 = 40, cy1 = 10;
	static uint32_t img[CLIP_W * CLIP_H];
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct clip_op full;
	struct viv_env e;
	uint32_t q, i;

	viv_env_open(&e, minor);
	q = queue_2d(e.fd);
	/* The window must stay loaded between the two submits below. */
	hold_power(e.fd, true);
	bo[0] = ugpu_bo_new(e.fd, CLIP_W * CLIP_H * 4, 0);	/* destination */
	bo[1] = ugpu_bo_new(e.fd, CLIP_W * CLIP_H * 4, 0);	/* source */
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	for (i = 0; i < CLIP_W * CLIP_H; i++) {
		img[i] = 0xa5a5a5a5 ^ i;
		ugpu_bo_write32(bo[0], i * 4, img[i]);
		ugpu_bo_write32(bo[1], i * 4,
				clip_src_px(i % CLIP_W, i / CLIP_W));
	}

	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, 0, CLIP_W * 4, blit ? 2 : 0, 0, CLIP_W * 4);
	viv_de_clip(&s, cx0, cy0, cx1, cy1);
	clip_emit(&s, &ops[0], 2, blit);
	clip_emit(&s, &ops[2], 1, blit);
	viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_PE2D);
	igt_assert_eq(viv_run(&e, &s, bo, 2, q), 0);
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		clip_apply(img, &ops[i], blit, cx0, cy0, cx1, cy1);
	clip_check(bo[0], img);

	/*
	 * The window persists: a submit that does not load one is still
	 * clipped by it (the validator bounds the whole rectangle then).
	 */
	full = (struct clip_op){ 0, 0, CLIP_W, CLIP_H, 0xff778899, true, 0, 0 };
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, 0, CLIP_W * 4, blit ? 2 : 0, 0, CLIP_W * 4);
	clip_emit(&s, &full, 1, blit);
	viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_PE2D);
	igt_assert_eq(viv_run(&e, &s, bo, 2, q), 0);
	clip_apply(img, &full, blit, cx0, cy0, cx1, cy1);
	clip_check(bo[0], img);

	hold_power(e.fd, false);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/*
 * MMUv1: a clear whose rectangle runs past the end of its destination BO,
 * with a clip window that keeps what is drawn inside, is accepted and
 * writes nothing past the BO: the guard page after it, read through the
 * GPU's MMU, never holds the clear colour. Without a window loaded in the
 * submit (even with one left in the core from before), or with one that
 * lets the rectangle out, the same rectangle is rejected.
 */
static void test_2d_clip_inside_bo(int minor)
{
	const uint32_t magic = 0xc11b5eed, color = 0xff5a7e11;
	static struct viv_stream s;
	uint32_t q, x, y, addr, end;
	struct ugpu_bo *bo;
	struct viv_env e;
	uint64_t o;
	int fault;

	viv_env_open(&e, minor);
	igt_require(param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1);
	q = queue_2d(e.fd);
	hold_power(e.fd, true);
	bo = ugpu_bo_new(e.fd, 4096, 0);
	ugpu_bo_map(bo);
	memset32_words(bo, magic);
	addr = find_mmuv1_page(e.fd, magic);
	end = addr + bo->size;
	/* The last 4 rows of 256 bytes (CPU pages may be larger). */
	o = bo->size - 1024;

	/* 80 x 8 pixels from the last 4 rows: clipped to 64 x 4. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_ls(&s, VIV_DE_CLEAR_PIXEL_VALUE32, color);
	viv_de_clip(&s, 0, 0, 64, 4);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 80, 8);
	viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_PE2D);
	igt_assert_eq(viv_run(&e, &s, &bo, 1, q), 0);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 64; x++)
			igt_assert_eq_u32(ugpu_bo_read32(bo, o + y * 256 + x * 4),
					  color);
	igt_assert_eq_u32(ugpu_bo_read32(bo, o - 4), magic);
	/* Past the BO: its guard page, all the unclipped rectangle reaches. */
	for (x = 0; x < 4096; x += 4) {
		igt_assert_f(sim_mem(e.fd, end + x, &fault) != color,
			     "clear written %u bytes past its BO\n", x);
		igt_assert_eq(fault, 0);
	}

	/* The core keeps that window, but this submit loads none. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 80, 8);
	expect_reject(&e, &s, &bo, 1, q, "no clip window in the submit");
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_ls(&s, VIV_DE_CLIP_TOP_LEFT, 0);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 80, 8);
	expect_reject(&e, &s, &bo, 1, q, "clip top-left alone");
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_ls(&s, VIV_DE_CLIP_BOTTOM_RIGHT, 64 | 4 << 16);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 80, 8);
	expect_reject(&e, &s, &bo, 1, q, "clip bottom-right alone");
	/* One row or one pixel too many. */
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_de_clip(&s, 0, 0, 64, 5);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 80, 8);
	expect_reject(&e, &s, &bo, 1, q, "clip window a row past the BO");
	viv_reset_stream(&s);
	viv_de_surfaces(&s, 1, o, 256, 0, 0, 0);
	viv_de_clip(&s, 0, 0, 65, 4);
	viv_de_rect(&s, VIV_DE_COMMAND_CLEAR, 0, 0, 80, 8);
	expect_reject(&e, &s, &bo, 1, q, "clip window a pixel past the BO");

	hold_power(e.fd, false);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * The GPU caches translations. Map A, resolve from it; unmap A, map B at
 * the same GPU address, resolve from it again: the second resolve reads
 * B, which needs the TLB flush the kernel emits after a table change.
 */
static void test_tlb_flush(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[2];
	struct viv_env e;
	uint32_t addr = 0;
	uint64_t va;
	bool mmuv1;
	void *keep;
	int i, fault;

	viv_env_open(&e, minor);
	/* Powering down would drop stale translations and hide a missing flush. */
	hold_power(e.fd, true);
	mmuv1 = param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1;
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[1]);
	memset(bo[1]->map, 0, 64 << 10);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[0]);
	memset32_words(bo[0], 0xff0000aa);
	va = bo[0]->va;
	if (mmuv1)
		addr = find_mmuv1_page(e.fd, 0xff0000aa);

	viv_reset_stream(&s);
	viv_resolve(&s, 1, 0, VIV_TILED, TSTRIDE, 2, 0, VIV_LINEAR, LSTRIDE,
		    W, H, 0);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[1], 0, LSTRIDE, W, H, 0xff0000aa);

	/*
	 * A CPU mapping keeps A's pages alive (B cannot get them), not its
	 * GPU mapping. The job's hold on that ends a little after its fence.
	 */
	keep = ugpu_mmap(e.fd, bo[0]->mmap_offset, bo[0]->size, PROT_READ);
	if (mmuv1) {
		/*
		 * The shared table gives B A's range once A's mapping is gone,
		 * which is when the job holding it has been freed: wait until
		 * the range no longer leads to A (a NOP job flushes the TLB).
		 */
		ugpu_bo_free(bo[0]);
		for (i = 0; i < 200; i++) {
			viv_run_nop(&e);
			if (sim_mem(e.fd, addr, &fault) != 0xff0000aa)
				break;
			usleep(10000);
		}
		bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	}
	for (i = 0; !mmuv1 && i < 200; i++) {
		ugpu_bo_free(bo[0]);
		bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
		if (bo[0]->va == va)
			break;
		usleep(10000);
	}
	igt_assert_f(mmuv1 || bo[0]->va == va, "VA %#llx not reused\n",
		     (unsigned long long)va);
	ugpu_bo_map(bo[0]);
	memset32_words(bo[0], 0xff0000bb);

	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_fill(bo[1], 0, LSTRIDE, W, H, 0xff0000bb);
	if (mmuv1) {
		/* B took A's place in the shared table. */
		igt_assert_eq_u32(sim_mem(e.fd, addr, &fault), 0xff0000bb);
		igt_assert_eq(fault, 0);
	}
	munmap(keep, 64 << 10);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	hold_power(e.fd, false);
	viv_env_close(&e);
}

/* Stream words of a large job; under the validator's limit. */
#define BIG_WORDS	(480 << 8)
/* State words a large job loads: every state from 0x4000 on. */
/* Words of the uniform states at 0x4000, which the validator allows. */
#define BIG_STATE_FIRST	0x1000
#define BIG_STATE_END	0x2000

/*
 * A large stream: the 4096 uniform states from 0x4000 (so a context switch
 * to its context restores them all), loaded again until the stream is large (a
 * LOAD_STATE of 1024 values is quicker to run than as many NOPs), then a
 * clear of BO 1 to @fill and, with @hang, a STALL nobody armed.
 */
static void big_exec(struct viv_env *e, struct ugpu_bo *cmd, struct ugpu_bo *dst,
		     uint32_t queue, uint32_t fill, bool hang, uint32_t *sync)
{
	static struct viv_stream tail;
	uint32_t *w = cmd->map;
	struct drm_ugpu_cmd_buf buf = { .handle = cmd->handle };
	struct ugpu_submit sub;
	unsigned int n = 0, i, st, c;

	viv_reset_stream(&tail);
	if (ugpu_get_param(e->fd, DRM_UGPU_PARAM_QUEUE_CAPS, queue) &
	    DRM_UGPU_QUEUE_CAP_CMDBUF_3D) {
		viv_clear(&tail, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, fill);
	} else {
		/* The 2D pipe: a solid fill of the same 64x4 pixels. */
		viv_ls_reloc(&tail, VIV_DE_DEST_ADDRESS, 1, 0);
		viv_ls(&tail, VIV_DE_DEST_STRIDE, LSTRIDE);
		viv_ls(&tail, VIV_DE_DEST_CONFIG,
		       VIV_DE_FORMAT_A8R8G8B8 | VIV_DE_COMMAND_CLEAR << 12);
		viv_ls(&tail, VIV_DE_CLEAR_PIXEL_VALUE32, fill);
		viv_de_clip(&tail, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
		viv_emit(&tail, VIV_CMD_DRAW_2D(1), 0);
		viv_emit(&tail, 0, W | 4 << 16);
	}
	if (hang)
		viv_emit(&tail, VIV_CMD_STALL, VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_RA));
	st = BIG_STATE_FIRST;
	while (n + 1026 + tail.n < BIG_WORDS) {
		w[n++] = VIV_CMD_LOAD_STATE(st << 2, 1024, false);
		for (i = 0; i < 1024; i++)
			w[n++] = fill ^ (st + i);
		w[n++] = 0;
		st += 1024;
		if (st >= BIG_STATE_END)
			st = BIG_STATE_FIRST;
	}
	while (n + tail.n < BIG_WORDS) {
		w[n++] = VIV_CMD_NOP;
		w[n++] = 0;
	}
	for (i = 0; i < tail.nrelocs; i++)
		tail.relocs[i].cmdbuf_offset += n * 4;
	memcpy(w + n, tail.w, tail.n * 4);
	n += tail.n;

	buf.size = n * 4;
	buf.relocs = (uintptr_t)tail.relocs;
	buf.reloc_count = tail.nrelocs;
	ugpu_submit_init(&sub, e->ctx);
	c = ugpu_submit_cmd(&sub, DRM_UGPU_CMD_HW, 0, 0, 0, 0);
	sub.cmds[c].queue = queue;
	sub.cmds[c].buf_count = 1;
	sub.cmds[c].bufs = (uintptr_t)&buf;
	ugpu_submit_bo(&sub, cmd->handle, DRM_UGPU_SUBMIT_BO_READ);
	ugpu_submit_bo(&sub, dst->handle,
		       DRM_UGPU_SUBMIT_BO_READ | DRM_UGPU_SUBMIT_BO_WRITE);
	*sync = ugpu_syncobj_create(e->fd, false);
	ugpu_submit_out_sync(&sub, *sync, 0);
	igt_assert_eq(__ugpu_submit(e->fd, &sub), 0);
}

static int big_wait(struct viv_env *e, uint32_t sync)
{
	int st = ugpu_syncobj_wait_status(e->fd, sync);

	ugpu_syncobj_destroy(e->fd, sync);
	return st == 1 ? 0 : st;
}

/*
 * The kernel copies each job into an arena of its ring: large jobs of
 * several contexts (each with a restore of every state they loaded) on
 * every queue fill it. Jobs that find no room wait without holding up the
 * scheduler or recovery: concurrent large jobs all complete, and a hang
 * while the arena is full is recovered with only the hung job failing.
 */
static void test_ring_space(int minor)
{
	struct ugpu_bo *cmd[3], *dst[3];
	struct viv_env e[3];
	long long parked;
	uint32_t sync[3], nq;
	int i;

	viv_env_open(&e[0], minor);
	parked = viv_stat(e[0].fd, "parked_jobs");
	igt_require(parked >= 0);
	nq = param(e[0].fd, DRM_UGPU_PARAM_NUM_QUEUES);
	viv_env_close(&e[0]);
	/* Four streams on all queues; a fifth context hangs among them. */
	igt_fork(child, 5) {
		struct ugpu_bo *c, *d;
		struct viv_env ce;

		viv_env_open(&ce, minor);
		c = ugpu_bo_new(ce.fd, BIG_WORDS * 4, 0);
		d = ugpu_bo_new(ce.fd, 64 << 10, 0);
		ugpu_bo_map(c);
		ugpu_bo_map(d);
		if (child == 4) {
			big_exec(&ce, c, d, 0, 0xff0000d0, true, &sync[0]);
			igt_assert_eq(big_wait(&ce, sync[0]), -ETIMEDOUT);
		}
		for (i = 0; i < 2; i++) {
			big_exec(&ce, c, d, child % nq,
				 0xff000000 | child << 8 | i, false, &sync[0]);
			igt_assert_eq(big_wait(&ce, sync[0]), 0);
			check_fill(d, 0, LSTRIDE, W, 4, 0xff000000 | child << 8 | i);
		}
		ugpu_bo_free(c);
		ugpu_bo_free(d);
		viv_env_close(&ce);
	}
	igt_waitchildren();

	/*
	 * A finishes; B (another context) hangs at its end while C (a
	 * third) waits for arena space behind it.
	 */
	for (i = 0; i < 3; i++) {
		viv_env_open(&e[i], minor);
		cmd[i] = ugpu_bo_new(e[i].fd, BIG_WORDS * 4, 0);
		dst[i] = ugpu_bo_new(e[i].fd, 64 << 10, 0);
		ugpu_bo_map(cmd[i]);
		ugpu_bo_map(dst[i]);
	}
	big_exec(&e[0], cmd[0], dst[0], 0, 0xff0000a0, false, &sync[0]);
	igt_assert_eq(big_wait(&e[0], sync[0]), 0);
	big_exec(&e[1], cmd[1], dst[1], 0, 0xff0000b0, true, &sync[1]);
	big_exec(&e[2], cmd[2], dst[2], nq - 1, 0xff0000c0, false, &sync[2]);
	igt_assert_eq(big_wait(&e[1], sync[1]), -ETIMEDOUT);
	igt_assert_eq(big_wait(&e[2], sync[2]), 0);
	check_fill(dst[0], 0, LSTRIDE, W, 4, 0xff0000a0);
	check_fill(dst[2], 0, LSTRIDE, W, 4, 0xff0000c0);
	/* The device still works, for the context that hung too. */
	big_exec(&e[1], cmd[1], dst[1], 0, 0xff0000b1, false, &sync[1]);
	igt_assert_eq(big_wait(&e[1], sync[1]), 0);
	check_fill(dst[1], 0, LSTRIDE, W, 4, 0xff0000b1);
	/*
	 * With two queues the arena is usually full at some point and jobs
	 * wait for space; whether they do depends on how fast this machine
	 * submits, so it is reported, and what is asserted is that every
	 * job completed with the right data and error either way.
	 */
	igt_info("jobs that waited for ring space: %lld\n",
		 viv_stat(e[0].fd, "parked_jobs") - parked);
	for (i = 0; i < 3; i++) {
		ugpu_bo_free(cmd[i]);
		ugpu_bo_free(dst[i]);
		viv_env_close(&e[i]);
	}
}

/*
 * 3D draws and the validator. On MMUv2 every file has its own page
 * tables: a 3D address only has to lie in a BO of the submit, and a draw
 * reaching past it is accepted (it faults at worst). On MMUv1 a draw is
 * checked with everything it reaches, computed here from the hardware
 * description, not from the driver:
 *
 * - render targets are 4x4 tiled (or 64x64 supertiled), the stride is a
 *   row of tiles; pixels lie in the scissor, whose edges the rasteriser
 *   reads as float32 (drivers load them from 16.16 with the fixed-point
 *   flag), an edge at x - 2^-16 giving x pixels; 2x MSAA doubles the
 *   width, 4x also the height; tile status is 2 bits per 64-byte tile;
 * - a texture level l of w x h is (w >> l) x (h >> l), at least 1 x 1,
 *   in 4x4 tiles, six of them for a cube map;
 * - the FE reads vertex v of a stream at base + v x stride, up to 255 +
 *   16 bytes on (element START is 8 bits, an element 4 x 32 bits); N
 *   points use N vertices, N triangles 3N; an indexed draw's vertices are
 *   its index values plus its offset, bounded by the index width only.
 *
 * States a draw depends on that the stream did not load count at their
 * worst (addresses: the 4 KiB scratch page); the tests check that what
 * an earlier submit loaded does not count.
 */
#define RT		64				/* window, pixels */
#define RT_STRIDE	(RT / 4 * 16 * 4)		/* tiled, 32 bits */
#define RT_BYTES	(RT / 4 * RT_STRIDE)		/* 16 KiB */
#define SCRATCH		4096
#define VTX_REACH	(255 + 16)

/* Submit BO indices of a scene (relocations count from 1). */
enum { SC_COLOR = 1, SC_DEPTH, SC_TEX, SC_VTX, SC_IDX, SC_TS, SC_NUM = SC_TS };

/* Everything a test varies in a scene of one draw. */
struct scene {
	unsigned int pipes, streams;
	uint32_t cols, rows;		/* scissor */
	int32_t left;			/* left edge, 16.16 */
	int msaa;			/* samples field, -1: not loaded */
	uint32_t cformat, cstride, dconfig, dstride;
	uint32_t ts;			/* TS_MEM_CONFIG */
	uint32_t ts_off;		/* colour tile status in SC_TS */
	bool ts_surface;		/* TS_COLOR_SURFACE_BASE loaded */
	uint32_t skip;			/* an address state left out, or 0 */
	int tex_cfg;			/* sampler 0 CONFIG0, -1: not loaded */
	uint32_t tex_size;
	uint32_t lod1_bo, lod1_off;	/* sampler 0 level 1, bo 0: left out */
	bool no_scissor;
	int no_size;			/* a sampler whose size is left out */
	uint32_t vstride;
	uint32_t skip_ctl;		/* a stream control left out, or 0 */
	uint32_t itype;
	bool halti5;			/* d3_*(): HALTI5 shader interface */
};

static void scene_init(struct scene *sc, int fd)
{
	memset(sc, 0, sizeof(*sc));
	sc->pipes = param(fd, DRM_UGPU_PARAM_VIVANTE_PIXEL_PIPES);
	sc->streams = param(fd, DRM_UGPU_PARAM_VIVANTE_STREAM_COUNT);
	sc->pipes = sc->pipes < 1 ? 1 : sc->pipes > 8 ? 8 : sc->pipes;
	sc->streams = sc->streams < 1 ? 1 : sc->streams > 8 ? 8 : sc->streams;
	sc->cols = RT;
	sc->rows = RT;
	sc->msaa = VIV_MSAA_SAMPLES_NONE;
	sc->cformat = VIV_PE_FORMAT_A8R8G8B8;
	sc->cstride = RT_STRIDE;
	sc->dconfig = VIV_PE_DEPTH_FORMAT_D24S8 | 1;	/* Z test */
	sc->dstride = RT_STRIDE;
	sc->tex_cfg = VIV_TE_TYPE_2D | VIV_TEX_A8R8G8B8 << VIV_TE_FORMAT_SHIFT;
	sc->tex_size = RT | RT << 16;
	sc->no_size = -1;
	sc->vstride = 16;
	sc->itype = VIV_FE_INDEX_TYPE_U8;
}

/*
 * Where each scene buffer starts in its BO: at the end, so that "past its
 * BO" means past the buffer's end also when the BO was rounded up to a
 * CPU page larger than 4 KiB. Set by scene_open().
 */
static uint64_t scene_base[SC_NUM + 1];

static void scene_addr(struct viv_stream *s, const struct scene *sc,
		       uint32_t state, uint32_t bo, uint64_t off)
{
	if (state != sc->skip)
		viv_ls_reloc(s, state, bo, scene_base[bo] + off);
}

/* The states of a scene: every target, texture and stream in its BO. */
static void scene_emit(struct viv_stream *s, const struct scene *sc)
{
	uint32_t sizes[VIV_TE_SAMPLERS] = { sc->tex_size };
	unsigned int i;

	viv_ls(s, VIV_FE_VERTEX_ELEMENT_CONFIG(0), 0x0c000000);
	viv_ls(s, VIV_VS_INPUT_COUNT, 1);
	viv_ls(s, VIV_VS_END_PC, 2);
	viv_ls(s, VIV_PS_END_PC, 2);
	if (!sc->no_scissor) {
		viv_emit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_LEFT, 1, true),
			 (uint32_t)sc->left);
		viv_emit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_TOP, 1, true), 0);
		viv_emit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
			 (sc->cols << 16) - 1);
		viv_emit(s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_BOTTOM, 1, true),
			 (sc->rows << 16) - 1);
	}
	if (sc->msaa >= 0)
		viv_ls(s, VIV_GL_MULTI_SAMPLE_CONFIG, sc->msaa | 0xf0);
	viv_ls(s, VIV_PE_COLOR_FORMAT, sc->cformat);
	viv_ls(s, VIV_PE_COLOR_STRIDE, sc->cstride);
	viv_ls(s, VIV_PE_DEPTH_CONFIG, sc->dconfig);
	viv_ls(s, VIV_PE_DEPTH_STRIDE, sc->dstride);
	scene_addr(s, sc, VIV_PE_COLOR_ADDR, SC_COLOR, 0);
	scene_addr(s, sc, VIV_PE_DEPTH_ADDR, SC_DEPTH, 0);
	for (i = 0; i < sc->pipes; i++) {
		scene_addr(s, sc, VIV_PE_PIPE_COLOR_ADDR(i), SC_COLOR, 0);
		scene_addr(s, sc, VIV_PE_PIPE_DEPTH_ADDR(i), SC_DEPTH, 0);
	}
	viv_ls(s, VIV_TS_MEM_CONFIG, sc->ts);
	if (sc->ts) {
		scene_addr(s, sc, VIV_TS_COLOR_STATUS_BASE, SC_TS, sc->ts_off);
		if (sc->ts_surface)
			scene_addr(s, sc, VIV_TS_COLOR_SURFACE_BASE, SC_COLOR, 0);
	}

	if (sc->tex_cfg >= 0)
		viv_ls(s, VIV_TE_SAMPLER_CONFIG0(0), sc->tex_cfg);
	for (i = 0; i < VIV_TE_SAMPLERS; i++)
		if ((int)i != sc->no_size)
			viv_ls(s, VIV_TE_SAMPLER_SIZE(i), sizes[i]);
	scene_addr(s, sc, VIV_TE_SAMPLER_LOD_ADDR(0, 0), SC_TEX, 0);
	if (sc->lod1_bo)
		scene_addr(s, sc, VIV_TE_SAMPLER_LOD_ADDR(1, 0), sc->lod1_bo,
			   sc->lod1_off);

	if (sc->skip_ctl != VIV_FE_VERTEX_STREAM_CONTROL)
		viv_ls(s, VIV_FE_VERTEX_STREAM_CONTROL, sc->vstride);
	scene_addr(s, sc, VIV_FE_VERTEX_STREAM_BASE_ADDR, SC_VTX, 0);
	for (i = 0; i < sc->streams; i++) {
		if (sc->skip_ctl != VIV_FE_VERTEX_STREAMS_CONTROL(i))
			viv_ls(s, VIV_FE_VERTEX_STREAMS_CONTROL(i), sc->vstride);
		scene_addr(s, sc, VIV_FE_VERTEX_STREAMS_BASE_ADDR(i), SC_VTX, 0);
	}
	viv_ls(s, VIV_FE_INDEX_STREAM_CONTROL, sc->itype);
	scene_addr(s, sc, VIV_FE_INDEX_STREAM_BASE_ADDR, SC_IDX, 0);
}

static void draw(struct viv_stream *s, uint32_t type, uint32_t start,
		 uint32_t count)
{
	viv_emit(s, VIV_CMD_DRAW_PRIMITIVES, type);
	viv_emit(s, start, count);
}

static void draw_indexed(struct viv_stream *s, uint32_t type, uint32_t start,
			 uint32_t count, uint32_t offset)
{
	viv_emit(s, VIV_CMD_DRAW_INDEXED, type);
	viv_emit(s, start, count);
	viv_emit(s, offset, 0);
}

/* Draws the simulated core has run. */
static long long sim_draws(int fd)
{
	char path[PATH_MAX], buf[512], *p;

	igt_require(ugpu_sim_debugfs_path(fd, "vivante_stats", path, sizeof(path)));
	igt_assert(ugpu_file_read(path, buf, sizeof(buf)) > 0);
	p = strstr(buf, "draws:");
	igt_assert(p);
	return strtoll(p + strlen("draws:"), NULL, 0);
}

struct scene_env {
	struct viv_env e;
	bool mmuv1;
	struct ugpu_bo *bo[SC_NUM];
};

/* Colour, depth, texture, vertex, index and tile status BOs. */
static void scene_open(struct scene_env *se, int minor, uint32_t color,
		       uint32_t depth, uint32_t tex, uint32_t vtx, uint32_t idx)
{
	const uint32_t size[SC_NUM] = { color, depth, tex, vtx, idx, 4096 };
	unsigned int i;

	viv_env_open(&se->e, minor);
	igt_require(has_3d(se->e.fd));
	se->mmuv1 = param(se->e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1;
	for (i = 0; i < SC_NUM; i++) {
		se->bo[i] = ugpu_bo_new(se->e.fd, size[i], 0);
		ugpu_bo_map(se->bo[i]);
		memset(se->bo[i]->map, 0, se->bo[i]->size);
		scene_base[i + 1] = se->bo[i]->size - size[i];
	}
}

static void scene_close(struct scene_env *se)
{
	unsigned int i;

	expect_device_works(&se->e, se->bo[SC_TS - 1], 0);
	for (i = 0; i < SC_NUM; i++)
		ugpu_bo_free(se->bo[i]);
	viv_env_close(&se->e);
}

/*
 * Submit @s: a draw that @fits runs on every core (the simulated core
 * counts it); one that does not is -EINVAL on MMUv1 and accepted on
 * MMUv2, where it runs or faults.
 */
static void expect_draw(struct scene_env *se, struct viv_stream *s, bool fits,
			const char *what)
{
	long long draws = sim_draws(se->e.fd);
	int status = 0, ret;

	ret = viv_exec(&se->e, s, se->bo, SC_NUM, 0, &status);
	if (se->mmuv1 && !fits) {
		igt_assert_f(ret == -EINVAL, "%s: %d\n", what, ret);
		igt_assert_eq(sim_draws(se->e.fd), draws);
		return;
	}
	igt_assert_f(ret == 0, "%s: submit %d\n", what, ret);
	if (!fits && status == -EFAULT)
		return;
	igt_assert_f(status == 0, "%s: status %d\n", what, status);
	igt_assert_eq(sim_draws(se->e.fd), draws + 1);
}

/* One scene, one draw of @count points (vertices 0 .. count - 1). */
static void expect_scene(struct scene_env *se, const struct scene *sc,
			 bool fits, const char *what)
{
	static struct viv_stream s;

	viv_reset_stream(&s);
	scene_emit(&s, sc);
	draw(&s, VIV_PRIM_POINTS, 0, 3);
	expect_draw(se, &s, fits, what);
}

/*
 * Bytes a target of @w x @h pixels reaches, whole tiles: the offset of
 * the last pixel of its last tile, from the reference tiler.
 */
static uint64_t rt_bytes(enum viv_layout l, uint32_t stride, uint32_t w,
			 uint32_t h, uint32_t cpp)
{
	uint32_t a = l == VIV_SUPERTILED ? 64 : 4;

	w = (w + a - 1) / a * a;
	h = (h + a - 1) / a * a;
	return viv_ref_offset(l, stride, w - 1, h - 1, cpp) + cpp;
}

static void test_3d_rt(int minor)
{
	struct scene_env se;
	struct scene sc;

	scene_open(&se, minor, RT_BYTES, RT_BYTES, RT_BYTES, 4096, 4096);
	igt_assert_eq(rt_bytes(VIV_TILED, RT_STRIDE, RT, RT, 4), RT_BYTES);

	scene_init(&sc, se.e.fd);
	expect_scene(&se, &sc, true, "64 x 64 target filling its BO");

	/* One more byte of stride, one more row or column of pixels. */
	sc.cstride = RT_STRIDE + 1;
	igt_assert_lt(RT_BYTES, rt_bytes(VIV_TILED, sc.cstride, RT, RT, 4));
	expect_scene(&se, &sc, false, "colour stride");
	scene_init(&sc, se.e.fd);
	sc.dstride = RT_STRIDE + 1;
	expect_scene(&se, &sc, false, "depth stride");
	scene_init(&sc, se.e.fd);
	sc.rows = RT + 1;
	igt_assert_lt(RT_BYTES, rt_bytes(VIV_TILED, RT_STRIDE, RT, RT + 1, 4));
	expect_scene(&se, &sc, false, "rows");
	scene_init(&sc, se.e.fd);
	sc.cols = RT + 1;
	igt_assert_lt(RT_BYTES, rt_bytes(VIV_TILED, RT_STRIDE, RT + 1, RT, 4));
	expect_scene(&se, &sc, false, "columns");

	/* 16-bit formats halve it: 65 rows of them fit. */
	scene_init(&sc, se.e.fd);
	sc.rows = RT + 1;
	sc.cformat = VIV_PE_FORMAT_R5G6B5;
	sc.dconfig = 1;
	sc.cstride = sc.dstride = RT_STRIDE / 2;
	igt_assert_lte(rt_bytes(VIV_TILED, RT_STRIDE / 2, RT, RT + 1, 2),
		       RT_BYTES);
	expect_scene(&se, &sc, true, "16-bit targets");

	/* Supertiled: one 64 x 64 supertile; 65 columns take two. */
	scene_init(&sc, se.e.fd);
	sc.cformat |= VIV_PE_COLOR_SUPER_TILED;
	igt_assert_eq(rt_bytes(VIV_SUPERTILED, RT_STRIDE, RT, RT, 4), RT_BYTES);
	expect_scene(&se, &sc, true, "supertiled");
	sc.cols = RT + 1;
	expect_scene(&se, &sc, false, "supertiled, 65 columns");

	/* 2x MSAA doubles the width: the 64 x 64 window needs 32 KiB. */
	scene_init(&sc, se.e.fd);
	sc.msaa = VIV_MSAA_SAMPLES_2X;
	sc.cols = sc.rows = RT / 2;
	igt_assert_eq(rt_bytes(VIV_TILED, RT_STRIDE, RT, RT / 2, 4),
		      RT_BYTES / 2);
	expect_scene(&se, &sc, true, "2x MSAA, 32 x 32");
	sc.msaa = VIV_MSAA_SAMPLES_4X;
	expect_scene(&se, &sc, true, "4x MSAA, 32 x 32");
	sc.cols = RT / 2 + 1;
	expect_scene(&se, &sc, false, "4x MSAA, 33 x 32");
	/* MSAA not loaded counts as 4x. */
	sc.cols = RT;
	sc.msaa = -1;
	expect_scene(&se, &sc, false, "MSAA not loaded");

	/* Pixels left of the target would be written before it. */
	scene_init(&sc, se.e.fd);
	sc.left = -(1 << 16);
	expect_scene(&se, &sc, false, "scissor from -1");

	/* Every pixel pipe's address: one left out is the scratch page. */
	scene_init(&sc, se.e.fd);
	sc.skip = VIV_PE_PIPE_COLOR_ADDR(sc.pipes - 1);
	expect_scene(&se, &sc, false, "last pipe's colour address left out");
	sc.skip = VIV_PE_DEPTH_ADDR;
	expect_scene(&se, &sc, false, "depth address left out");

	/*
	 * Fast clear: the tile status of 16 KiB is 64 bytes, and the
	 * surface it describes; the core reads it (zeroed: valid tiles).
	 */
	scene_init(&sc, se.e.fd);
	sc.ts = VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR;
	sc.ts_off = 4096 - RT_BYTES / 256;
	sc.ts_surface = true;
	expect_scene(&se, &sc, true, "fast clear");
	sc.ts_off++;
	expect_scene(&se, &sc, false, "tile status past its BO");
	sc.ts_off--;
	sc.ts_surface = false;
	expect_scene(&se, &sc, false, "tile status surface left out");
	scene_close(&se);
}

static void test_3d_texture(int minor)
{
	struct scene_env se;
	struct scene sc;

	/* Level 0 fills the texture BO, level 1 (4 KiB) the tile status BO. */
	scene_open(&se, minor, RT_BYTES, RT_BYTES, RT_BYTES, 4096, 4096);
	scene_init(&sc, se.e.fd);
	sc.lod1_bo = SC_TS;
	expect_scene(&se, &sc, true, "two levels filling their BOs");
	sc.lod1_off = 64;
	expect_scene(&se, &sc, false, "level 1 past its BO");
	/* Left out, level 1 is the scratch page: it fits. */
	sc.lod1_bo = 0;
	expect_scene(&se, &sc, true, "level 1 left out");

	sc.lod1_bo = SC_TS;
	sc.lod1_off = 0;
	sc.tex_size = RT | (RT + 1) << 16;
	expect_scene(&se, &sc, false, "one more row");
	sc.tex_size = (RT + 1) | RT << 16;
	expect_scene(&se, &sc, false, "one more column");
	sc.tex_size = RT | RT << 16;
	sc.tex_cfg = VIV_TE_TYPE_CUBE_MAP | VIV_TEX_A8R8G8B8 << VIV_TE_FORMAT_SHIFT;
	expect_scene(&se, &sc, false, "cube map: six faces");
	/* Type and format not loaded: a cube map of 32-bit texels. */
	sc.tex_cfg = -1;
	expect_scene(&se, &sc, false, "configuration not loaded");
	sc.tex_cfg = VIV_TE_TYPE_2D | VIV_TEX_R5G6B5 << VIV_TE_FORMAT_SHIFT;
	sc.tex_size = RT | (2 * RT) << 16;
	expect_scene(&se, &sc, true, "16 bits, twice as high");
	sc.tex_cfg = VIV_TE_TYPE_2D | VIV_TEX_A8R8G8B8 << VIV_TE_FORMAT_SHIFT;
	expect_scene(&se, &sc, false, "32 bits, twice as high");

	/* Every sampler's size, even unused. */
	scene_init(&sc, se.e.fd);
	sc.no_size = VIV_TE_SAMPLERS - 1;
	expect_scene(&se, &sc, false, "a sampler's size left out");
	scene_close(&se);
}

static void test_3d_vertex(int minor)
{
	static struct viv_stream s;
	struct scene_env se;
	struct scene sc;
	/* Points of 16-byte vertices an 8 KiB BO holds, with the reach. */
	uint32_t n = (8192 - VTX_REACH) / 16 + 1;

	scene_open(&se, minor, RT_BYTES, RT_BYTES, RT_BYTES, 8192, 4096);
	scene_init(&sc, se.e.fd);
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, n);
	expect_draw(&se, &s, true, "points filling the BO");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 1, n);
	expect_draw(&se, &s, false, "one vertex later");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, n + 1);
	expect_draw(&se, &s, false, "one point more");
	/* N triangles use 3N vertices. */
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_TRIANGLES, n % 3, n / 3);
	expect_draw(&se, &s, true, "triangles filling the BO");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_TRIANGLES, n % 3 + 1, n / 3);
	expect_draw(&se, &s, false, "triangles one vertex later");
	/* One more byte of stride. */
	sc.vstride = 17;
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, n);
	expect_draw(&se, &s, false, "stride");

	/* A stride left out counts at 255: fewer vertices fit. */
	scene_init(&sc, se.e.fd);
	sc.skip_ctl = VIV_FE_VERTEX_STREAMS_CONTROL(sc.streams - 1);
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, (8192 - VTX_REACH) / 255 + 1);
	expect_draw(&se, &s, true, "a stride left out, few points");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, (8192 - VTX_REACH) / 255 + 2);
	expect_draw(&se, &s, false, "a stride left out, one point more");

	/* A stream's base left out: the scratch page. */
	scene_init(&sc, se.e.fd);
	sc.skip = VIV_FE_VERTEX_STREAMS_BASE_ADDR(sc.streams - 1);
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, (SCRATCH - VTX_REACH) / 16 + 1);
	expect_draw(&se, &s, true, "a base left out, a page's worth");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw(&s, VIV_PRIM_POINTS, 0, (SCRATCH - VTX_REACH) / 16 + 2);
	expect_draw(&se, &s, false, "a base left out, past the page");
	scene_close(&se);
}

/*
 * Indexed draws: the indices the client may rewrite after validation
 * name the vertices, so only their width bounds the fetch on MMUv1:
 * 8-bit indices reach vertex offset + 255, 16-bit offset + 65535, 32-bit
 * ones are rejected.
 */
static void test_3d_indexed(int minor)
{
	static struct viv_stream s;
	struct scene_env se;
	struct scene sc;
	/* With 16-byte vertices an 8 KiB BO holds offsets up to this one. */
	uint32_t off = (8192 - VTX_REACH) / 16 - 255;

	scene_open(&se, minor, RT_BYTES, RT_BYTES, RT_BYTES, 8192, 4096);
	scene_init(&sc, se.e.fd);
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 0, 1, off);
	expect_draw(&se, &s, true, "8-bit indices");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 0, 1, off + 1);
	expect_draw(&se, &s, false, "8-bit indices, offset + 1");
	/* The indices themselves: from the first index, count of them. */
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 4096 - 3, 1, 0);
	expect_draw(&se, &s, true, "last three indices of the BO");
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 4096 - 2, 1, 0);
	expect_draw(&se, &s, false, "indices past the BO");

	/* 16 bits: with stride 0 every index reads the same vertex. */
	sc.itype = VIV_FE_INDEX_TYPE_U16;
	sc.vstride = 0;
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 0, 1, 0);
	expect_draw(&se, &s, true, "16-bit indices, stride 0");
	sc.vstride = 1;
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 0, 1, 0);
	expect_draw(&se, &s, 65535 + VTX_REACH <= 8192, "16-bit indices");

	/* With restart, how many indices the FE reads is not known. */
	sc.itype = VIV_FE_INDEX_TYPE_U16 | VIV_FE_INDEX_PRIMITIVE_RESTART;
	sc.vstride = 0;
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 0, 1, 0);
	expect_draw(&se, &s, false, "primitive restart");
	sc.itype = VIV_FE_INDEX_TYPE_U32;
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draw_indexed(&s, VIV_PRIM_TRIANGLES, 0, 1, 0);
	expect_draw(&se, &s, false, "32-bit indices");
	scene_close(&se);
}

/*
 * What a draw depends on counts only when its own submit loaded it: the
 * same states loaded by an earlier submit of the context (so that the
 * context state holds them) do not.
 */
static void test_3d_carryover(int minor)
{
	static struct viv_stream s;
	struct scene_env se;
	struct scene sc;
	unsigned int i;

	scene_open(&se, minor, RT_BYTES, RT_BYTES, RT_BYTES, 4096, 4096);
	for (i = 0; i < 5; i++) {
		scene_init(&sc, se.e.fd);
		expect_scene(&se, &sc, true, "all loaded");
		switch (i) {
		case 0:
			sc.no_scissor = true;
			break;
		case 1:
			sc.msaa = -1;
			break;
		case 2:
			sc.no_size = 0;
			break;
		case 3:
			sc.skip_ctl = VIV_FE_VERTEX_STREAM_CONTROL;
			break;
		default:
			/* Addresses are never carried: the scratch page. */
			sc.skip = VIV_PE_PIPE_DEPTH_ADDR(0);
			break;
		}
		viv_reset_stream(&s);
		scene_emit(&s, &sc);
		draw(&s, VIV_PRIM_POINTS, 0, 100);
		expect_draw(&se, &s, false, "state of an earlier submit");
	}
	scene_close(&se);
}

/*
 * MMUv1: the settings draws are bounded by take only values with a
 * known bound (MMUv2: any).
 */
static void test_3d_settings(int minor)
{
	static const struct {
		uint32_t state, val;
	} bad[] = {
		{ VIV_TS_MEM_CONFIG, VIV_TS_MEM_CONFIG_COLOR_COMPRESSION },
		{ VIV_PE_COLOR_FORMAT, 0x8 },
		{ VIV_PE_COLOR_FORMAT, 0x01000000 },
		{ VIV_PE_COLOR_FORMAT, VIV_PE_COLOR_SUPER_TILED_NEW },
		{ VIV_GL_MULTI_SAMPLE_CONFIG, 3 },
		{ VIV_TE_SAMPLER_CONFIG0(3),
		  VIV_TE_TYPE_3D | VIV_TEX_A8 << VIV_TE_FORMAT_SHIFT },
		{ VIV_TE_SAMPLER_CONFIG0(3), VIV_TE_TYPE_2D |
		  VIV_TEX_A8 << VIV_TE_FORMAT_SHIFT | VIV_TE_ADDRESSING_LINEAR << 20 },
		{ VIV_TE_SAMPLER_CONFIG0(3), VIV_TE_TYPE_2D | 0x12 << VIV_TE_FORMAT_SHIFT },
		{ VIV_FE_VERTEX_STREAMS_CONTROL(2), 0x100 },
		{ VIV_FE_INDEX_STREAM_CONTROL, 3 },
	};
	static const struct {
		uint32_t state, val;
	} good[] = {
		/* Masked fields left alone are not loaded. */
		{ VIV_PE_COLOR_FORMAT, 0x8 | VIV_PE_COLOR_FORMAT_FORMAT_MASK },
		{ VIV_PE_COLOR_FORMAT, 0x01000000 | VIV_PE_COLOR_FORMAT_EXT_MASK },
		{ VIV_GL_MULTI_SAMPLE_CONFIG, 3 | VIV_MSAA_SAMPLES_MASK },
		{ VIV_TE_SAMPLER_CONFIG0(3),
		  VIV_TE_TYPE_CUBE_MAP | VIV_TEX_ETC1 << VIV_TE_FORMAT_SHIFT },
		{ VIV_TE_SAMPLER_CONFIG0(4), 0 },	/* an unused sampler */
		{ VIV_FE_VERTEX_STREAMS_CONTROL(2), 0x00ff00ff },
		{ VIV_FE_INDEX_STREAM_CONTROL, VIV_FE_INDEX_TYPE_U32 |
		  VIV_FE_INDEX_PRIMITIVE_RESTART },
	};
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;
	bool mmuv1;
	unsigned int i;

	viv_env_open(&e, minor);
	mmuv1 = param(e.fd, DRM_UGPU_PARAM_VIVANTE_MMU_VERSION) == 1;
	bo = ugpu_bo_new(e.fd, 4096, 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, bad[i].state, bad[i].val);
		igt_assert_f(viv_exec(&e, &s, NULL, 0, 0, NULL) ==
			     (mmuv1 ? -EINVAL : 0), "%#x = %#x\n",
			     bad[i].state, bad[i].val);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		viv_reset_stream(&s);
		viv_ls(&s, good[i].state, good[i].val);
		igt_assert_f(viv_exec(&e, &s, NULL, 0, 0, NULL) == 0,
			     "%#x = %#x\n", good[i].state, good[i].val);
	}
	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * The occlusion query writes 64 bits at its address when the control is
 * written: those 8 bytes must be in the BO on every core.
 */
static void test_3d_query(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 4096, 0);
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_GL_OCCLUSION_QUERY_ADDR, 1, bo->size - 8);
	viv_ls(&s, VIV_GL_OCCLUSION_QUERY_CONTROL, 0x1df5e76);
	igt_assert_eq(viv_run(&e, &s, &bo, 1, 0), 0);
	viv_reset_stream(&s);
	viv_ls_reloc(&s, VIV_GL_OCCLUSION_QUERY_ADDR, 1, bo->size - 4);
	expect_reject(&e, &s, &bo, 1, 0, "query past its BO");
	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * Before, a draw that loaded no target address rendered through the
 * scratch page with whatever stride and scissor the stream loaded: a
 * 64 x 64 target reaches 16 KiB past it, into the BOs that follow in
 * MMUv1's shared address space. Now each target it may use must fit.
 */
static void test_3d_scratch(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo;
	struct viv_env e;

	viv_env_open(&e, minor);
	bo = ugpu_bo_new(e.fd, 4096, 0);
	/* Only states streams could always load. */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_FE_VERTEX_ELEMENT_CONFIG(0), 0x0c000000);
	viv_ls(&s, VIV_VS_INPUT_COUNT, 1);
	viv_ls(&s, VIV_VS_END_PC, 2);
	viv_ls(&s, VIV_PS_END_PC, 2);
	viv_ls(&s, VIV_SE_SCISSOR_LEFT, 0);
	viv_ls(&s, VIV_SE_SCISSOR_TOP, 0);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
		 (RT << 16) - 1);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_BOTTOM, 1, true),
		 (RT << 16) - 1);
	viv_ls(&s, VIV_TS_MEM_CONFIG, 0);
	viv_ls(&s, VIV_PE_COLOR_STRIDE, RT_STRIDE);
	viv_ls(&s, VIV_PE_DEPTH_STRIDE, 0);
	draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
	expect_reject(&e, &s, NULL, 0, 0, "target through the scratch page");
	/* 32 x 32 of 16 bits fits in the page. */
	viv_reset_stream(&s);
	draw_state(&s);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
		 (RT / 2 << 16) - 1);
	viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_BOTTOM, 1, true),
		 (RT / 2 << 16) - 1);
	viv_ls(&s, VIV_GL_MULTI_SAMPLE_CONFIG, 0);
	viv_ls(&s, VIV_PE_COLOR_FORMAT, VIV_PE_FORMAT_R5G6B5);
	viv_ls(&s, VIV_PE_DEPTH_CONFIG, 0);
	viv_ls(&s, VIV_PE_COLOR_STRIDE, RT / 2 / 4 * 16 * 2);
	viv_ls(&s, VIV_PE_DEPTH_STRIDE, RT / 2 / 4 * 16 * 2);
	draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
	igt_assert_eq(viv_run(&e, &s, NULL, 0, 0), 0);
	expect_device_works(&e, bo, 0);
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * MMUv1's draw checks at their most expensive, a stream full of draws,
 * each after a change of the scissor and of a sampler (render targets
 * and all 12 samplers' mip chains are checked again at each): accepted,
 * each byte validated once, and every draw runs (the simulated core's
 * draw count: a simulator-only observation, the core draws nothing a
 * test could read). With one sampler made too large for its BO before
 * the middle draw: -EINVAL, and none of it runs. The cost of a draw's
 * checks is measured by ugpu-bench (make bench).
 */
static void test_3d_many_draws(int minor)
{
	static struct viv_stream s;
	struct scene_env se;
	struct scene sc;
	long long b0, b1, d0, draws = 0;
	unsigned int bad = 0;

	scene_open(&se, minor, RT_BYTES, RT_BYTES, RT_BYTES, 4096, 4096);
	igt_require(se.mmuv1);
	scene_init(&sc, se.e.fd);
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	while (s.n + 8 <= VIV_STREAM_WORDS) {
		viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
			 ((RT - draws % 2) << 16) - 1);
		viv_ls(&s, VIV_TE_SAMPLER_SIZE(1), draws % 2);
		draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
		draws++;
	}
	b0 = viv_stat(se.e.fd, "validated_bytes");
	d0 = sim_draws(se.e.fd);
	igt_assert_eq(viv_run(&se.e, &s, se.bo, SC_NUM, 0), 0);
	igt_assert_eq(sim_draws(se.e.fd), d0 + draws);
	b1 = viv_stat(se.e.fd, "validated_bytes");
	if (b0 >= 0)
		igt_assert_eq(b1 - b0, (long long)s.n * 4);

	/*
	 * The same with sampler 0 made 128x128 (64 KiB of 32-bit texels in
	 * its 16 KiB BO) before the middle draw.
	 */
	viv_reset_stream(&s);
	scene_emit(&s, &sc);
	draws = 0;
	while (s.n + 10 <= VIV_STREAM_WORDS) {
		if (draws == 400) {
			viv_ls(&s, VIV_TE_SAMPLER_SIZE(0), 2 * RT | 2 * RT << 16);
			bad = s.n;
		}
		viv_emit(&s, VIV_CMD_LOAD_STATE(VIV_SE_SCISSOR_RIGHT, 1, true),
			 ((RT - draws % 2) << 16) - 1);
		viv_ls(&s, VIV_TE_SAMPLER_SIZE(1), draws % 2);
		draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
		draws++;
	}
	igt_assert(bad);
	d0 = sim_draws(se.e.fd);
	igt_assert_eq(viv_exec(&se.e, &s, se.bo, SC_NUM, 0, NULL), -EINVAL);
	igt_assert_eq(sim_draws(se.e.fd), d0);
	scene_close(&se);
}

/*
 * Board resources. The upstream devicetree gives the i.MX6Q's GC2000
 * (gpu_3d) and GC320 (gpu_2d) and the i.MX8MQ's GC7000 their clocks; the
 * "core" clock runs at 528 MHz (mmdc_ch0_axi), 480 MHz (pll3_usb_otg)
 * and 800 MHz (assigned-clock-rates), and it drives the timestamps.
 */
static void test_core_clock(void)
{
	static const struct {
		uint32_t model;
		uint64_t hz;
	} want[] = {
		{ 0x2000, 528000000 },
		{ 0x320, 480000000 },
		{ 0x7000, 800000000 },
	};
	unsigned int i;

	for (i = 0; i < 3; i++) {
		int fd = ugpu_open_minor(find_model(want[i].model));

		igt_assert_eq_u64(param(fd, DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY),
				  want[i].hz);
		close(fd);
	}
}

/* Set runtime PM control of device @minor to @val; the old one in @old. */
static void pm_control(int minor, const char *val, char old[16])
{
	char path[256];
	int i;

	for (i = 0; i < num_devs && devs[i].minor != minor; i++)
		;
	igt_assert(i < num_devs);
	snprintf(path, sizeof(path),
		 "/sys/bus/platform/devices/%s/power/control", devs[i].name);
	if (old) {
		memset(old, 0, 16);
		igt_assert_lt(0, ugpu_file_read(path, old, 15));
		old[strcspn(old, "\n")] = 0;
	}
	igt_assert_eq(ugpu_file_write(path, val), 0);
}

/*
 * Timestamps @ts[0] and @ts[1] read between CPU times @t[0] and @t[1],
 * and @t[2] and @t[3]: they increase, and at @freq they span the time
 * between, within 1% and 5 ms (as ugpu_core's timestamp-rate).
 */
static void check_ts_rate(const uint64_t ts[2], const uint64_t t[4],
			  uint64_t freq)
{
	double gpu_ns = (double)(ts[1] - ts[0]) * 1e9 / freq;
	double min_ns = (t[2] - t[1]) * 0.99;
	double max_ns = (t[3] - t[0]) * 1.01 + 5e6;

	igt_info("timestamps %llu, %llu: %.3f ms, CPU saw %.3f to %.3f ms\n",
		 (unsigned long long)ts[0], (unsigned long long)ts[1],
		 gpu_ns / 1e6, (t[2] - t[1]) / 1e6, (t[3] - t[0]) / 1e6);
	igt_assert_lt_u64(ts[0], ts[1]);
	igt_assert_f(gpu_ns >= min_ns && gpu_ns <= max_ns,
		     "%.0f ns of timestamps, not in [%.0f, %.0f]\n",
		     gpu_ns, min_ns, max_ns);
}

/*
 * The timestamp is the core's cycle counter, 32 bits wide: at the
 * GC7000's 800 MHz it wraps every 5.37 s. Kept powered (runtime PM
 * "on", so it neither suspends nor resets) and left alone for 6 s, it
 * wraps with nobody reading the timestamp; the two timestamps around
 * that are still 6 s of core cycles apart, not 0.6 s.
 */
static void test_timestamp_wrap(void)
{
	int fd, minor = find_model(0x7000);
	uint64_t freq, t[4], ts[2];
	char old[16];

	pm_control(minor, "on", old);
	fd = ugpu_open_minor(minor);
	freq = param(fd, DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY);
	igt_assert_eq_u64(freq, 800000000);
	t[0] = ugpu_nsec_now();
	ts[0] = param(fd, DRM_UGPU_PARAM_TIMESTAMP);
	t[1] = ugpu_nsec_now();
	usleep(6000000);
	t[2] = ugpu_nsec_now();
	ts[1] = param(fd, DRM_UGPU_PARAM_TIMESTAMP);
	t[3] = ugpu_nsec_now();
	close(fd);
	pm_control(minor, old, NULL);
	check_ts_rate(ts, t, freq);
}

/*
 * A reset (recovery from a hang) clears the core's cycle counter; the
 * timestamp neither goes back nor jumps ahead (by what the counter held,
 * up to a wrap): it keeps the rate across the reset. The core is kept
 * powered, so the reset is the only thing that clears the counter.
 */
static void test_timestamp_reset(void)
{
	static struct viv_stream s;
	int status = 0, minor = find_model(0x7000);
	uint64_t freq, t[4], ts[2];
	struct viv_env e;
	char old[16];

	pm_control(minor, "on", old);
	viv_env_open(&e, minor);
	freq = param(e.fd, DRM_UGPU_PARAM_TIMESTAMP_FREQUENCY);
	t[0] = ugpu_nsec_now();
	ts[0] = param(e.fd, DRM_UGPU_PARAM_TIMESTAMP);
	t[1] = ugpu_nsec_now();
	viv_reset_stream(&s);
	viv_emit(&s, VIV_CMD_STALL, VIV_TOKEN(VIV_SYNC_FE, VIV_SYNC_RA));
	igt_assert_eq(viv_exec(&e, &s, NULL, 0, 0, &status), 0);
	igt_assert_f(status == -ETIMEDOUT, "status %d\n", status);
	t[2] = ugpu_nsec_now();
	ts[1] = param(e.fd, DRM_UGPU_PARAM_TIMESTAMP);
	t[3] = ugpu_nsec_now();
	viv_env_close(&e);
	ugpu_devcd_clear();
	pm_control(minor, old, NULL);
	check_ts_rate(ts, t, freq);
}

/* Fill @bo with @fill on the GPU: a resolve fill, or a 2D clear. */
static void gpu_fill(struct viv_env *e, struct ugpu_bo *bo, uint32_t fill)
{
	static struct viv_stream s;

	memset(bo->map, 0, 64 << 10);
	viv_reset_stream(&s);
	if (has_3d(e->fd)) {
		viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, fill);
	} else {
		viv_ls_reloc(&s, VIV_DE_DEST_ADDRESS, 1, 0);
		viv_ls(&s, VIV_DE_DEST_STRIDE, LSTRIDE);
		viv_ls(&s, VIV_DE_DEST_CONFIG, VIV_DE_FORMAT_A8R8G8B8 |
		       VIV_DE_COMMAND_CLEAR << 12);
		viv_ls(&s, VIV_DE_CLEAR_PIXEL_VALUE32, fill);
		viv_de_clip(&s, 0, 0, VIV_DE_CLIP_MAX, VIV_DE_CLIP_MAX);
		viv_emit(&s, VIV_CMD_DRAW_2D(1), 0xdeaddeed);
		viv_emit(&s, 0, W | 4 << 16);
	}
	igt_assert_eq(viv_run(e, &s, &bo, 1, 0), 0);
	check_fill(bo, 0, LSTRIDE, W, 4, fill);
}

/*
 * Runtime PM: once idle for the autosuspend delay the core is suspended
 * (clocks stopped, power domain off, so it lost every register), and the
 * next submit powers it up again and finds it working: the driver set up
 * the MMU and the ring again. No register access ever reached the block
 * while it was unclocked or unpowered.
 */
static void test_runtime_suspend(int minor)
{
	char old_delay[32], control[32];
	struct ugpu_bo *bo;
	struct viv_env e;
	int round;

	viv_env_open(&e, minor);
	igt_assert_eq(ugpu_sim_bus_errors(e.fd), 0);
	ugpu_power_read(e.fd, "control", control, sizeof(control));
	igt_assert_f(!strcmp(control, "auto"), "runtime PM is %s\n", control);
	ugpu_power_read(e.fd, "autosuspend_delay_ms", old_delay, sizeof(old_delay));
	ugpu_power_write(e.fd, "autosuspend_delay_ms", "20");

	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo);
	for (round = 0; round < 3; round++) {
		gpu_fill(&e, bo, 0xff102030 + round);
		igt_assert_f(ugpu_wait_runtime_status(e.fd, "suspended", 5000),
			     "still powered after the autosuspend delay\n");
		/* Suspended stays suspended while nothing is submitted. */
		usleep(100000);
		igt_assert(ugpu_wait_runtime_status(e.fd, "suspended", 0));
	}
	/* A pause longer than the delay between submits, then back to back. */
	for (round = 0; round < 4; round++)
		gpu_fill(&e, bo, 0xff405060 + round);

	ugpu_power_write(e.fd, "autosuspend_delay_ms", old_delay);
	ugpu_bo_free(bo);
	igt_assert_eq(ugpu_sim_bus_errors(e.fd), 0);
	viv_env_close(&e);
}

/*
 * An idle core. Powered, its FE sits in the ring's WAIT/LINK loop and
 * fetches the WAIT again and again, as silicon does: the driver hands it
 * work by replacing the WAIT in memory, with no register access. That
 * loop backs off while it finds nothing new, so over 80 ms it runs a few
 * dozen times at most (each pass fetches the WAIT and its LINK), not
 * once every WAIT delay; a submit after it is still seen. Suspended
 * (clocks stopped, power off), the core fetches nothing at all, and the
 * next submit powers it up and works.
 */
static void test_idle_wait(int minor)
{
	char old_delay[32];
	long long c0, c1;
	struct ugpu_bo *bo;
	struct viv_env e;

	viv_env_open(&e, minor);
	ugpu_power_read(e.fd, "autosuspend_delay_ms", old_delay, sizeof(old_delay));
	/* Powered through the first part. */
	ugpu_power_write(e.fd, "autosuspend_delay_ms", "2000");
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo);

	gpu_fill(&e, bo, 0xff0a0b0c);
	igt_assert(ugpu_wait_runtime_status(e.fd, "active", 0));
	c0 = sim_stat(e.fd, "commands");
	usleep(80000);
	c1 = sim_stat(e.fd, "commands");
	igt_info("FE commands in 80 ms of WAIT: %lld\n", c1 - c0);
	igt_assert_f(c1 - c0 <= 150,
		     "the idle FE ran %lld commands in 80 ms\n", c1 - c0);
	gpu_fill(&e, bo, 0xff0d0e0f);

	ugpu_power_write(e.fd, "autosuspend_delay_ms", "20");
	igt_assert(ugpu_wait_runtime_status(e.fd, "suspended", 5000));
	c0 = sim_stat(e.fd, "commands");
	usleep(200000);
	c1 = sim_stat(e.fd, "commands");
	igt_assert(ugpu_wait_runtime_status(e.fd, "suspended", 0));
	igt_assert_eq(c1 - c0, 0);
	gpu_fill(&e, bo, 0xff102030);

	ugpu_power_write(e.fd, "autosuspend_delay_ms", old_delay);
	ugpu_bo_free(bo);
	igt_assert_eq(ugpu_sim_bus_errors(e.fd), 0);
	viv_env_close(&e);
}

/*
 * The i.MX6Q's GC2000 and GC320 share a power domain: while the GC320 is
 * kept powered the GC2000 suspends with the domain on (clocks stopped,
 * registers kept) and must still work after resuming; once both are
 * idle the domain goes off, and both work again afterwards.
 */
static void test_shared_domain(void)
{
	char old_delay[2][32];
	struct ugpu_bo *bo[2];
	struct viv_env e[2];
	int i;

	viv_env_open(&e[0], find_model(0x2000));
	viv_env_open(&e[1], find_model(0x320));
	for (i = 0; i < 2; i++) {
		igt_assert_eq(ugpu_sim_bus_errors(e[i].fd), 0);
		ugpu_power_read(e[i].fd, "autosuspend_delay_ms", old_delay[i],
			   sizeof(old_delay[i]));
		ugpu_power_write(e[i].fd, "autosuspend_delay_ms", "20");
		bo[i] = ugpu_bo_new(e[i].fd, 64 << 10, 0);
		ugpu_bo_map(bo[i]);
	}

	hold_power(e[1].fd, true);
	gpu_fill(&e[0], bo[0], 0xff112233);
	igt_assert(ugpu_wait_runtime_status(e[0].fd, "suspended", 5000));
	igt_assert(ugpu_wait_runtime_status(e[1].fd, "active", 0));
	gpu_fill(&e[0], bo[0], 0xff445566);
	gpu_fill(&e[1], bo[1], 0xff778899);
	hold_power(e[1].fd, false);

	for (i = 0; i < 2; i++)
		igt_assert(ugpu_wait_runtime_status(e[i].fd, "suspended", 5000));
	gpu_fill(&e[1], bo[1], 0xffaabbcc);
	gpu_fill(&e[0], bo[0], 0xffddeeff);

	for (i = 0; i < 2; i++) {
		ugpu_power_write(e[i].fd, "autosuspend_delay_ms", old_delay[i]);
		ugpu_bo_free(bo[i]);
		igt_assert_eq(ugpu_sim_bus_errors(e[i].fd), 0);
		viv_env_close(&e[i]);
	}
}

/*
 * Tile status through the TS cache. The surface (bo 1, supertiled W x H)
 * holds the pattern, its tile status (bo 2) W * H * 4 / 256 bytes, one
 * 64-byte cache line; the resolve (to bo 3, linear) -- on a BLT core
 * the BLT copy -- reads it through the tile-status cache.
 */
#define TS_BYTES	(W * H * CPP / VIV_TS_TILE_BYTES / 4)
#define TS_CLEAR	0xff00ff00u

static void ts_resolve(struct viv_stream *s)
{
	/* The BLT engine reads the source's tile status itself. */
	if (s->blt) {
		struct viv_blt_img src = {
			.bo = 1, .l = VIV_SUPERTILED, .stride = TSTRIDE,
			.format = VIV_BLT_FORMAT_A8R8G8B8, .ts_bo = 2,
			.ts_clear = TS_CLEAR,
		};
		struct viv_blt_img dst = {
			.bo = 3, .l = VIV_LINEAR, .stride = LSTRIDE,
			.format = VIV_BLT_FORMAT_A8R8G8B8,
		};

		s->engine_used = true;
		viv_blt_copy(s, &src, &dst, W, H, 0, VIV_BLT_SWIZZLE_IDENTITY);
		return;
	}
	viv_ls_reloc(s, VIV_TS_COLOR_STATUS_BASE, 2, 0);
	viv_ls_reloc(s, VIV_TS_COLOR_SURFACE_BASE, 1, 0);
	viv_ls(s, VIV_TS_COLOR_CLEAR_VALUE, TS_CLEAR);
	viv_ls(s, VIV_TS_MEM_CONFIG, VIV_TS_MEM_CONFIG_COLOR_FAST_CLEAR);
	viv_resolve(s, 1, 0, VIV_SUPERTILED, TSTRIDE, 3, 0, VIV_LINEAR,
		    LSTRIDE, W, H, 0);
	viv_ls(s, VIV_TS_MEM_CONFIG, 0);
}

/* The resolved picture: all the clear colour, or all the pattern. */
static void check_resolved(struct ugpu_bo *bo, bool cleared)
{
	uint32_t x, y, got, want;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			got = ugpu_bo_read32(bo, y * LSTRIDE + x * 4);
			want = cleared ? TS_CLEAR :
			       0xff000000 | y << 8 | x | (x ^ y) << 16;
			igt_assert_f(got == want, "(%u,%u): %#x != %#x (%s)\n",
				     x, y, got, want,
				     cleared ? "cleared" : "surface");
		}
}

static void ts_bos(struct viv_env *e, struct ugpu_bo *bo[3], uint8_t ts)
{
	bo[0] = ugpu_bo_new(e->fd, 64 << 10, 0);	/* supertiled surface */
	bo[1] = ugpu_bo_new(e->fd, 4096, 0);		/* tile status */
	bo[2] = ugpu_bo_new(e->fd, 64 << 10, 0);	/* linear result */
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	ugpu_bo_map(bo[2]);
	fill_pattern(bo[0], VIV_SUPERTILED, TSTRIDE);
	memset(bo[1]->map, ts, 4096);
	memset(bo[2]->map, 0, 64 << 10);
}

/*
 * The kernel's end-of-job TS flush: a job resolves through an all-cleared
 * tile status, the CPU then marks every tile normal, and the next job's
 * resolve must see that. Without the flush at the end of the first job
 * the TS cache would still hold the old status and give the clear colour.
 * Runtime PM stays on, so no power cycle empties the cache in between.
 */
static void test_ts_cache_kernel(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[3];
	struct viv_env e;

	viv_env_open(&e, minor);
	hold_power(e.fd, true);
	ts_bos(&e, bo, VIV_TS_CLEAR_PATTERN & 0xff);
	viv_reset_stream(&s);
	ts_resolve(&s);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), 0);
	check_resolved(bo[2], true);

	memset(bo[1]->map, 0, 4096);
	memset(bo[2]->map, 0, 64 << 10);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), 0);
	check_resolved(bo[2], false);

	hold_power(e.fd, false);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	ugpu_bo_free(bo[2]);
	viv_env_close(&e);
}

/*
 * The user's TS flush: in one stream, a resolve through an all-cleared
 * tile status, a resolve fill marking every tile normal (straight to
 * memory), then the resolve again. Only a TS_FLUSH_CACHE in between --
 * after the colour/depth flush and the RA to PE stall that must precede
 * it -- lets the second resolve see the new status; without it the
 * pipes still read the cached one. On a BLT core the fill goes through
 * the BLT's cache and its flush (BLT_SET_COMMAND) is the TS flush.
 */
static void test_ts_cache_user(int minor, bool flush)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[3];
	struct viv_env e;

	viv_env_open(&e, minor);
	hold_power(e.fd, true);
	ts_bos(&e, bo, VIV_TS_CLEAR_PATTERN & 0xff);
	viv_reset_stream(&s);
	ts_resolve(&s);
	/* Mark every tile normal: a 16-pixel row of zeroes is 64 bytes. */
	viv_clear(&s, 2, 0, VIV_LINEAR, 64, TS_BYTES / 4, 1, 0);
	if (flush && s.blt) {
		viv_blt_flush(&s);
	} else if (flush) {
		viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_COLOR |
		       VIV_GL_FLUSH_CACHE_DEPTH);
		viv_ls(&s, VIV_GL_SEMAPHORE_TOKEN,
		       VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
		viv_ls(&s, VIV_GL_STALL_TOKEN, VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
		viv_ls(&s, VIV_TS_FLUSH_CACHE, VIV_TS_FLUSH_CACHE_FLUSH);
	}
	/* The first result is overwritten: only the second one counts. */
	ts_resolve(&s);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), 0);
	check_resolved(bo[2], !flush);
	/* The tile status in memory is what the fill wrote, either way. */
	igt_assert_eq_u32(ugpu_bo_read32(bo[1], 0), 0);
	igt_assert_eq_u32(ugpu_bo_read32(bo[1], TS_BYTES - 4), 0);

	hold_power(e.fd, false);
	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	ugpu_bo_free(bo[2]);
	viv_env_close(&e);
}

/*
 * A TS flush right after a resolve, without the colour/depth flush and
 * the RA to PE stall before it, locks the core up; with them it works
 * (and the kernel's own TS flush at the end of every 3D job depends on
 * the same order).
 */
static void test_ts_flush_order(int minor)
{
	static struct viv_stream s;
	struct ugpu_bo *bo[3];
	struct viv_env e;

	viv_env_open(&e, minor);
	ts_bos(&e, bo, 0);
	viv_reset_stream(&s);
	ts_resolve(&s);
	viv_ls(&s, VIV_TS_FLUSH_CACHE, VIV_TS_FLUSH_CACHE_FLUSH);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), -ETIMEDOUT);
	ugpu_ctx_destroy(e.fd, e.ctx);
	e.ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);

	/* A colour/depth flush alone is not enough. */
	viv_reset_stream(&s);
	ts_resolve(&s);
	viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_COLOR |
	       VIV_GL_FLUSH_CACHE_DEPTH);
	viv_ls(&s, VIV_TS_FLUSH_CACHE, VIV_TS_FLUSH_CACHE_FLUSH);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), -ETIMEDOUT);
	ugpu_ctx_destroy(e.fd, e.ctx);
	e.ctx = ugpu_ctx_create(e.fd, DRM_UGPU_CTX_PRIORITY_MEDIUM);

	viv_reset_stream(&s);
	ts_resolve(&s);
	viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_COLOR |
	       VIV_GL_FLUSH_CACHE_DEPTH);
	viv_ls(&s, VIV_GL_SEMAPHORE_TOKEN, VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
	viv_ls(&s, VIV_GL_STALL_TOKEN, VIV_TOKEN(VIV_SYNC_RA, VIV_SYNC_PE));
	viv_ls(&s, VIV_TS_FLUSH_CACHE, VIV_TS_FLUSH_CACHE_FLUSH);
	igt_assert_eq(viv_run(&e, &s, bo, 3, 0), 0);
	check_resolved(bo[2], false);

	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	ugpu_bo_free(bo[2]);
	viv_env_close(&e);
}

/*
 * The BLT engine (cores with minor features 5 bit 31, which have no RS).
 * A copy moves a window between two images; each pixel lands where the
 * destination layout's definition puts it (the library's tiler, after
 * the tiling functions of the hardware notes), and what lies around the
 * window keeps its value. The results reach memory through the kernel's
 * BLT flush at the end of the job.
 */
static uint32_t blt_px(uint32_t x, uint32_t y)
{
	return 0xff000000 | y << 8 | x | (x ^ y) << 16;
}

static const uint32_t blt_stride[] = { LSTRIDE, TSTRIDE, TSTRIDE };

static void test_blt_copy(int minor, enum viv_layout l)
{
	static struct viv_stream s;
	struct viv_blt_img src = {
		.bo = 1, .l = l, .stride = blt_stride[l],
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	struct viv_blt_img dst = {
		.bo = 2, .l = VIV_LINEAR, .stride = LSTRIDE,
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	struct ugpu_bo *bo[2];
	struct viv_env e;
	uint32_t x, y;

	viv_env_open(&e, minor);
	igt_require(e.blt);
	bo[0] = ugpu_bo_new(e.fd, 64 << 10, 0);
	bo[1] = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo[0]);
	ugpu_bo_map(bo[1]);
	fill_pattern(bo[0], l, blt_stride[l]);
	memset(bo[1]->map, 0, 64 << 10);

	/* The whole image out of its layout into a linear one. */
	viv_reset_stream(&s);
	viv_blt_copy(&s, &src, &dst, W, H, 0, VIV_BLT_SWIZZLE_IDENTITY);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	check_pattern(bo[1], VIV_LINEAR, LSTRIDE);
	igt_assert_eq_u32(ugpu_bo_read32(bo[1], LSTRIDE * H), 0);

	/*
	 * Back into the layout, a 16x8 window from (8, 4) of the linear
	 * image to (32, 16) of a cleared one; the rest stays 0x5a5a5a5a.
	 */
	memset(bo[0]->map, 0x5a, 64 << 10);
	src = dst;
	src.bo = 2;
	src.x = 8;
	src.y = 4;
	dst = (struct viv_blt_img){
		.bo = 1, .l = l, .stride = blt_stride[l],
		.format = VIV_BLT_FORMAT_A8R8G8B8, .x = 32, .y = 16,
	};
	viv_reset_stream(&s);
	viv_blt_copy(&s, &src, &dst, 16, 8, 0, VIV_BLT_SWIZZLE_IDENTITY);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			uint32_t got = ugpu_bo_read32(bo[0],
				viv_ref_offset(l, blt_stride[l], x, y, CPP));
			bool in = x >= 32 && x < 48 && y >= 16 && y < 24;
			uint32_t want = in ? blt_px(x - 32 + 8, y - 16 + 4) :
				       0x5a5a5a5a;

			igt_assert_f(got == want, "(%u,%u): %#x != %#x\n",
				     x, y, got, want);
		}

	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/*
 * A clear of a window of a tiled image: the bits CLEAR_BITS selects take
 * the clear colour's, the others (here alpha) keep theirs; nothing
 * outside the window changes.
 */
static void test_blt_clear(int minor)
{
	static struct viv_stream s;
	struct viv_blt_img dst = {
		.bo = 1, .l = VIV_TILED, .stride = TSTRIDE,
		.format = VIV_BLT_FORMAT_A8R8G8B8, .x = 4, .y = 8,
	};
	struct ugpu_bo *bo;
	struct viv_env e;
	uint32_t x, y;

	viv_env_open(&e, minor);
	igt_require(e.blt);
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo);
	fill_pattern(bo, VIV_TILED, TSTRIDE);
	viv_reset_stream(&s);
	viv_blt_clear(&s, &dst, 40, 20, 0x11223344, 0x00ffffff);
	igt_assert_eq(viv_run(&e, &s, &bo, 1, 0), 0);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			uint32_t got = ugpu_bo_read32(bo,
				viv_ref_offset(VIV_TILED, TSTRIDE, x, y, CPP));
			bool in = x >= 4 && x < 44 && y >= 8 && y < 28;
			uint32_t want = in ? 0xff223344 : blt_px(x, y);

			igt_assert_f(got == want, "(%u,%u): %#x != %#x\n",
				     x, y, got, want);
		}
	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/* A clear of 16 pixels by @h rows of an image at @off of BO 1. */
static void blt_extent_clear(struct viv_stream *s, uint64_t off,
			     enum viv_layout l, uint32_t stride, uint32_t h)
{
	struct viv_blt_img dst = {
		.bo = 1, .off = off, .l = l, .stride = stride,
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};

	viv_reset_stream(s);
	viv_blt_clear(s, &dst, 16, h, 0xff0000ff, 0xffffffff);
}

/*
 * The validator checks what a BLT operation touches: the destination
 * from its address to the last byte of the window (rows of the stride,
 * tiles, supertiles), the source likewise, against the BO each address
 * points into -- accepted at exactly the end, rejected one row past.
 * Geometry must come from the same submit; unknown bits are rejected.
 */
static void test_blt_extent(int minor)
{
	const uint64_t size = 64 << 10;
	static struct viv_stream s;
	struct viv_blt_img src, dst;
	struct ugpu_bo *bo[2];
	struct viv_env e;

	viv_env_open(&e, minor);
	igt_require(e.blt);
	bo[0] = ugpu_bo_new(e.fd, size, 0);
	bo[1] = ugpu_bo_new(e.fd, size, 0);
	ugpu_bo_map(bo[0]);

	/* Linear, 4 rows of 256 bytes, 16 pixels: 3 * 256 + 64 bytes. */
	blt_extent_clear(&s, size - 3 * 256 - 64, VIV_LINEAR, 256, 4);
	igt_assert_eq(viv_run(&e, &s, bo, 1, 0), 0);
	igt_assert_eq_u32(ugpu_bo_read32(bo[0], size - 4), 0xff0000ff);
	blt_extent_clear(&s, size - 3 * 256 - 64 + 256, VIV_LINEAR, 256, 4);
	expect_reject(&e, &s, bo, 1, 0, "BLT destination one row past");
	blt_extent_clear(&s, size - 3 * 256 - 64 + 4, VIV_LINEAR, 256, 4);
	expect_reject(&e, &s, bo, 1, 0, "BLT destination one pixel past");

	/* Tiled, 8 rows: two rows of tiles, 4 tiles of 64 bytes in the last. */
	blt_extent_clear(&s, size - 1024 - 256, VIV_TILED, 1024, 8);
	igt_assert_eq(viv_run(&e, &s, bo, 1, 0), 0);
	blt_extent_clear(&s, size - 1024 - 256 + 1024, VIV_TILED, 1024, 8);
	expect_reject(&e, &s, bo, 1, 0, "BLT tiled destination one row past");

	/* The position moves the window: one row down is one row past. */
	dst = (struct viv_blt_img){
		.bo = 1, .off = size - 3 * 256 - 64, .l = VIV_LINEAR,
		.stride = 256, .format = VIV_BLT_FORMAT_A8R8G8B8, .y = 1,
	};
	viv_reset_stream(&s);
	viv_blt_clear(&s, &dst, 16, 4, 0, 0xffffffff);
	expect_reject(&e, &s, bo, 1, 0, "BLT destination moved past");

	/* A copy's source: exactly at the end, then one row past. */
	src = (struct viv_blt_img){
		.bo = 2, .off = size - 3 * 256 - 64, .l = VIV_LINEAR,
		.stride = 256, .format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	dst = (struct viv_blt_img){
		.bo = 1, .l = VIV_LINEAR, .stride = 256,
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	viv_reset_stream(&s);
	viv_blt_copy(&s, &src, &dst, 16, 4, 0, VIV_BLT_SWIZZLE_IDENTITY);
	igt_assert_eq(viv_run(&e, &s, bo, 2, 0), 0);
	src.off += 256;
	viv_reset_stream(&s);
	viv_blt_copy(&s, &src, &dst, 16, 4, 0, VIV_BLT_SWIZZLE_IDENTITY);
	expect_reject(&e, &s, bo, 2, 0, "BLT source one row past");
	/* Downsampling: the source window is the one the size gives. */
	src.off -= 256;
	viv_reset_stream(&s);
	viv_blt_copy(&s, &src, &dst, 16, 8, VIV_BLT_STRIDE_DOWNSAMPLE_X |
		     VIV_BLT_STRIDE_DOWNSAMPLE_Y, VIV_BLT_SWIZZLE_IDENTITY);
	expect_reject(&e, &s, bo, 2, 0, "BLT downsampled source past");

	/* Geometry of an earlier submit does not count. */
	viv_reset_stream(&s);
	viv_ls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls_reloc(&s, VIV_BLT_DEST_ADDR, 1, 0);
	viv_ls(&s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
	viv_ls(&s, VIV_BLT_ENABLE, 0);
	expect_reject(&e, &s, bo, 1, 0, "BLT geometry of an earlier submit");

	/* Bits and commands the checks do not know. */
	blt_extent_clear(&s, 0, VIV_LINEAR, 256, 4);
	viv_ls(&s, VIV_BLT_DEST_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY |
	       VIV_BLT_IMAGE_FLIP_Y);
	viv_ls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(&s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
	viv_ls(&s, VIV_BLT_ENABLE, 0);
	expect_reject(&e, &s, bo, 1, 0, "BLT flip");
	blt_extent_clear(&s, 0, VIV_LINEAR, 256, 4);
	viv_ls(&s, VIV_BLT_CONFIG, 1u << 5);
	viv_ls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(&s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
	viv_ls(&s, VIV_BLT_ENABLE, 0);
	expect_reject(&e, &s, bo, 1, 0, "BLT config bit 5");
	blt_extent_clear(&s, 0, VIV_LINEAR, 256, 4);
	viv_ls(&s, VIV_BLT_DEST_CONFIG, VIV_BLT_IMAGE_SWIZ_IDENTITY |
	       VIV_BLT_IMAGE_TS);
	viv_ls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(&s, VIV_BLT_COMMAND, VIV_BLT_COMMAND_CLEAR_IMAGE);
	viv_ls(&s, VIV_BLT_ENABLE, 0);
	expect_reject(&e, &s, bo, 1, 0, "BLT destination tile status");
	blt_extent_clear(&s, 0, VIV_LINEAR, 256, 4);
	viv_ls(&s, VIV_BLT_ENABLE, VIV_BLT_ENABLE_ENABLE);
	viv_ls(&s, VIV_BLT_COMMAND, 4);		/* in-place resolve */
	viv_ls(&s, VIV_BLT_ENABLE, 0);
	expect_reject(&e, &s, bo, 1, 0, "BLT in-place command");
	viv_reset_stream(&s);
	viv_ls(&s, VIV_BLT_MIP_ADDR(0), (uint32_t)bo[0]->va);
	expect_reject(&e, &s, bo, 1, 0, "BLT mipmap address");

	/* And the device still works. */
	blt_extent_clear(&s, 0, VIV_LINEAR, 256, 4);
	igt_assert_eq(viv_run(&e, &s, bo, 1, 0), 0);
	igt_assert_eq_u32(ugpu_bo_read32(bo[0], 0), 0xff0000ff);

	ugpu_bo_free(bo[0]);
	ugpu_bo_free(bo[1]);
	viv_env_close(&e);
}

/*
 * A core has the RS or the BLT engine, not both: the other engine's
 * states are rejected (on silicon they would do nothing, and a stream
 * relying on them would leave its results unwritten).
 */
static void test_other_engine(int minor, bool blt_core)
{
	static const uint32_t rs_states[] = {
		VIV_RS_KICKER, VIV_RS_CONFIG, VIV_RS_WINDOW_SIZE,
		VIV_RS_FILL_VALUE(0), VIV_RS_CLEAR_CONTROL, VIV_RS_DITHER(0),
	};
	static const uint32_t blt_states[] = {
		VIV_BLT_ENABLE, VIV_BLT_COMMAND, VIV_BLT_SET_COMMAND,
		VIV_BLT_CONFIG, VIV_BLT_IMAGE_SIZE, VIV_BLT_CLEAR_COLOR0,
		VIV_BLT_SWIZZLE,
	};
	const uint32_t *states = blt_core ? rs_states : blt_states;
	unsigned int i, n = blt_core ? ARRAY_SIZE(rs_states) :
					ARRAY_SIZE(blt_states);
	static struct viv_stream s;
	struct viv_blt_img dst = {
		.bo = 1, .l = VIV_LINEAR, .stride = LSTRIDE,
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	struct ugpu_bo *bo;
	struct viv_env e;

	viv_env_open(&e, minor);
	igt_assert_eq(e.blt, blt_core);
	bo = ugpu_bo_new(e.fd, 64 << 10, 0);
	ugpu_bo_map(bo);
	memset(bo->map, 0, 64 << 10);

	/* A whole operation of the other engine. */
	viv_reset_stream(&s);
	if (blt_core) {
		s.blt = false;	/* the RS clear a GC2000 would take */
		viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff00ff00);
		s.engine_used = false;
	} else {
		viv_blt_clear(&s, &dst, W, 4, 0xff00ff00, 0xffffffff);
	}
	expect_reject(&e, &s, &bo, 1, 0, "the other engine's operation");
	for (i = 0; i < n; i++) {
		viv_reset_stream(&s);
		viv_ls(&s, states[i], 0);
		expect_reject(&e, &s, &bo, 1, 0, "the other engine's state");
	}
	viv_reset_stream(&s);
	viv_ls_reloc(&s, blt_core ? VIV_RS_DEST_ADDR : VIV_BLT_DEST_ADDR, 1, 0);
	expect_reject(&e, &s, &bo, 1, 0, "the other engine's address");

	/* The core's own engine works, and nothing else was written. */
	igt_assert_eq_u32(ugpu_bo_read32(bo, 0), 0);
	viv_reset_stream(&s);
	viv_clear(&s, 1, 0, VIV_LINEAR, LSTRIDE, W, 4, 0xff0000ff);
	igt_assert_eq(viv_run(&e, &s, &bo, 1, 0), 0);
	check_fill(bo, 0, LSTRIDE, W, 4, 0xff0000ff);
	igt_assert_eq_u32(ugpu_bo_read32(bo, LSTRIDE * 4), 0);

	ugpu_bo_free(bo);
	viv_env_close(&e);
}

/*
 * Draws the simulated GC2000 rasterises, computed from the hardware's
 * description (the ISA and state documentation), not the simulator:
 *
 * - a shader instruction is 128 bits: word 0 has the opcode (bits 0-5),
 *   DST_USE (bit 12), the destination temporary (16-22) and its written
 *   components (23-26); word 3 SRC2_USE (bit 3), the source register
 *   (4-12), its swizzle (14-21, 2 bits a component) and register group
 *   (28-30: 0 temporary, 2 uniform). MOV (opcode 9) copies source 2;
 *   NOP is all zero;
 * - the GC2000 runs shaders from its unified instruction states, the
 *   vertex shader's from 0xc000, the pixel shader's from 0xd000, each PC
 *   counting from there; byte i of VS_INPUT names the temporary vertex
 *   element i is loaded into, byte 0 of VS_OUTPUT the one that holds the
 *   position, PS_OUTPUT_REG the one that holds the colour; uniforms are
 *   vec4s of float32 from VS_UNIFORMS and PS_UNIFORMS;
 * - the window position is NDC x scale + offset (PA_VIEWPORT_*); a pixel
 *   is drawn when its centre is inside the triangle (no test puts a
 *   centre on an edge: checked) and the scissor;
 * - colour channels r, g, b, a become round(c x 255) in bits 16, 8, 0, 24
 *   of an A8R8G8B8 pixel; D16 depth is round(z x PE_DEPTH_NORMALIZE);
 *   targets are 4x4 tiled (the reference tiler);
 * - the pixel engine holds pixels in its colour and depth caches; memory
 *   has them after GL_FLUSH_CACHE COLOR (DEPTH) and a stall on the PE,
 *   which the kernel emits at the end of every job.
 *
 * The GC7000 (HALTI5, Mesa's etnaviv emit path) draws the same with its
 * own shader interface:
 *
 * - its instruction cache fetches a shader's instructions NEWRANGE_LOW to
 *   HALTI5_RANGE_HIGH - 1 from GPU memory at VS_INST_ADDR / PS_INST_ADDR;
 * - VS_HALTI5_INPUT and VS_HALTI5_OUTPUT replace VS_INPUT and VS_OUTPUT
 *   (same byte layout), PS_OUTPUT_REG stays;
 * - uniforms live in one unified store: a load to SH_HALTI5_UNIFORMS + 4k
 *   lands at PS_UNIFORM_BASE x 4 + k, one to its mirror at
 *   VS_UNIFORM_BASE x 4 + k (bases in vec4s), and each shader reads its
 *   uniform u at its base + u. Mesa writes the VS's through the mirror,
 *   the PS's through the store, both from 0, with the PS base after the
 *   VS's uniforms; so do these tests, with a VS uniform of another
 *   colour below the PS base.
 */
#define ISA_OP_MOV	0x09
#define ISA_DST_USE	(1u << 12)
#define ISA_SRC2_USE	(1u << 3)
#define ISA_GROUP_TEMP	0u
#define ISA_GROUP_UNIF	2u
#define ISA_SWIZ_XYZW	(0u | 1u << 2 | 2u << 4 | 3u << 6)
#define D3_CLEAR	0x11223344u
#define D3_F32_NORM16	0x477fff00u	/* 65535.0f */
/* HALTI5: where the shaders are in the vertex BO (after the vertices). */
#define D3_VS_OFF	4096
#define D3_PS_OFF	(4096 + 64)

/* One MOV of all four components: temporary @dst = @group register @src. */
static void isa_mov(uint32_t w[4], uint32_t dst, uint32_t group, uint32_t src)
{
	w[0] = ISA_OP_MOV | ISA_DST_USE | dst << 16 | 0xfu << 23;
	w[1] = 0;
	w[2] = 0;
	w[3] = ISA_SRC2_USE | src << 4 | ISA_SWIZ_XYZW << 14 | group << 28;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

/* A triangle in window coordinates, quarter pixels. */
struct d3_tri {
	int32_t x[3], y[3];
};

/* A triangle of 1233 pixels, and a small one of 39 (3 x 3 tiles). */
static const struct d3_tri d3_big = {
	{ 4 * 6 + 1, 4 * 58, 4 * 21 }, { 4 * 4, 4 * 13 + 1, 4 * 54 + 1 } };
static const struct d3_tri d3_small = {
	{ 4 * 10 + 1, 4 * 19 + 1, 4 * 12 + 1 }, { 4 * 9, 4 * 11 + 1, 4 * 18 } };

static int64_t d3_edge(const struct d3_tri *t, int a, int b, int64_t px,
		       int64_t py)
{
	return (int64_t)(t->x[b] - t->x[a]) * (py - t->y[a]) -
	       (int64_t)(t->y[b] - t->y[a]) * (px - t->x[a]);
}

/* Pixel (@x, @y)'s centre lies inside @t; it lies on no edge. */
static bool d3_inside(const struct d3_tri *t, uint32_t x, uint32_t y)
{
	int64_t px = 4 * x + 2, py = 4 * y + 2;
	int64_t e0 = d3_edge(t, 0, 1, px, py), e1 = d3_edge(t, 1, 2, px, py);
	int64_t e2 = d3_edge(t, 2, 0, px, py);

	igt_assert(e0 && e1 && e2);
	return (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
}

/* Vertex @i of the stream: window (@qx, @qy) quarter pixels, depth @z. */
static void d3_vertex(struct scene_env *se, unsigned int i, int32_t qx,
		      int32_t qy, float z)
{
	/* Viewport scale 32 and offset 32: NDC = (window - 32) / 32. */
	float v[4] = { (qx / 4.0f - 32) / 32, (qy / 4.0f - 32) / 32, z, 1 };
	unsigned int c;

	for (c = 0; c < 4; c++)
		ugpu_bo_write32(se->bo[SC_VTX - 1],
				scene_base[SC_VTX] + i * 16 + c * 4, f32_bits(v[c]));
}

static void d3_tri_vertices(struct scene_env *se, unsigned int first,
			    const struct d3_tri *t, float z)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		d3_vertex(se, first + k, t->x[k], t->y[k], z);
}

/* The whole 64 x 64 target as a strip of two triangles from vertex @first. */
static void d3_quad_vertices(struct scene_env *se, unsigned int first, float z)
{
	d3_vertex(se, first, 0, 0, z);
	d3_vertex(se, first + 1, 4 * RT, 0, z);
	d3_vertex(se, first + 2, 0, 4 * RT, z);
	d3_vertex(se, first + 3, 4 * RT, 4 * RT, z);
}

/* The vertex shader "NOP; MOV t1, t0" and the pixel shader "MOV t0, u0". */
static void d3_shaders(uint32_t vs[8], uint32_t ps[4])
{
	memset(vs, 0, 8 * sizeof(*vs));
	isa_mov(&vs[4], 1, ISA_GROUP_TEMP, 0);
	isa_mov(ps, 0, ISA_GROUP_UNIF, 0);
}

/*
 * The pixel shader's uniform colour (r, g, b, a): its uniform 0, on
 * HALTI5 through the unified store at the PS base.
 */
static void d3_color(struct viv_stream *s, const struct scene *sc,
		     const float rgba[4])
{
	uint32_t u[4];
	unsigned int c;

	for (c = 0; c < 4; c++)
		u[c] = f32_bits(rgba[c]);
	viv_ls_n(s, sc->halti5 ? VIV_SH_HALTI5_UNIFORMS : VIV_PS_UNIFORMS, 4, u);
}

static uint32_t d3_unorm8(float c)
{
	return (uint32_t)(c * 255 + 0.5f);
}

static uint32_t d3_pixel(const float rgba[4])
{
	return d3_unorm8(rgba[3]) << 24 | d3_unorm8(rgba[0]) << 16 |
	       d3_unorm8(rgba[1]) << 8 | d3_unorm8(rgba[2]);
}

/*
 * The states of a draw on the scene's 64 x 64 targets: one float vertex
 * element (x, y, z, w) loaded into t0, a vertex shader "NOP; MOV t1, t0"
 * with t1 the position, a pixel shader "MOV t0, u0" with t0 the colour,
 * solid fill, the viewport, colour written (supertiled with @super),
 * depth as @dconfig.
 */
static void d3_emit(struct viv_stream *s, struct scene *sc, bool super,
		    uint32_t dconfig)
{
	/* HALTI5: a VS uniform the PS must not read (its base is past it). */
	static const uint32_t vs_uniform[4] = {
		0x3f800000, 0x3f800000, 0x3f800000, 0x3f800000 };
	uint32_t vs[8], ps[4];

	sc->cformat = VIV_PE_FORMAT_A8R8G8B8 | 0xf << VIV_PE_COLOR_COMPONENTS_SHIFT |
		      (super ? VIV_PE_COLOR_SUPER_TILED : 0);
	sc->dconfig = dconfig;
	sc->dstride = RT / 4 * 16 * 2;
	scene_emit(s, sc);
	viv_ls(s, VIV_FE_VERTEX_ELEMENT_CONFIG(0),
	       VIV_FE_DATA_TYPE_FLOAT | 16u << 24);
	viv_ls(s, VIV_VS_OUTPUT_COUNT, 1);
	viv_ls(s, VIV_VS_TEMP_REGISTER_CONTROL, 2);
	if (sc->halti5) {
		/* Mesa's HALTI5 order: icache ranges, code, uniforms, prefetch. */
		viv_ls(s, VIV_VS_HALTI5_INPUT(0), 0);
		viv_ls(s, VIV_VS_HALTI5_OUTPUT(0), 1);
		viv_ls(s, VIV_VS_NEWRANGE_LOW, 0);
		viv_ls(s, VIV_VS_HALTI5_RANGE_HIGH, 2);
		viv_ls_reloc(s, VIV_VS_INST_ADDR, SC_VTX,
			     scene_base[SC_VTX] + D3_VS_OFF);
		viv_ls(s, VIV_SH_CONFIG, 2);
		viv_ls(s, VIV_SH_ICACHE_CONTROL, 1);
		viv_ls(s, VIV_VS_ICACHE_COUNT, 1);
		viv_ls(s, VIV_PS_NEWRANGE_LOW, 0);
		viv_ls(s, VIV_PS_HALTI5_RANGE_HIGH, 1);
		viv_ls_reloc(s, VIV_PS_INST_ADDR, SC_VTX,
			     scene_base[SC_VTX] + D3_PS_OFF);
		viv_ls(s, VIV_PS_ICACHE_COUNT, 0);
		viv_ls(s, VIV_VS_UNIFORM_BASE, 0);
		viv_ls(s, VIV_PS_UNIFORM_BASE, 1);
		viv_ls_n(s, VIV_SH_HALTI5_UNIFORMS_MIRROR, 4, vs_uniform);
		viv_ls(s, VIV_VS_ICACHE_PREFETCH, 0);
		viv_ls(s, VIV_PS_ICACHE_PREFETCH, 0);
	} else {
		d3_shaders(vs, ps);
		viv_ls(s, VIV_VS_INPUT(0), 0);
		viv_ls(s, VIV_VS_OUTPUT(0), 1);
		viv_ls_n(s, VIV_SH_INST_MEM, 8, vs);
		viv_ls(s, VIV_VS_START_PC, 0);
		viv_ls(s, VIV_VS_END_PC, 2);
		viv_ls_n(s, VIV_SH_INST_MEM_PS, 4, ps);
		viv_ls(s, VIV_PS_START_PC, 0);
		viv_ls(s, VIV_PS_END_PC, 1);
	}
	viv_ls(s, VIV_PS_OUTPUT_REG, 0);
	viv_ls(s, VIV_PA_CONFIG, VIV_PA_CONFIG_FILL_SOLID);
	viv_emit(s, VIV_CMD_LOAD_STATE(VIV_PA_VIEWPORT_SCALE_X, 1, true), 32 << 16);
	viv_emit(s, VIV_CMD_LOAD_STATE(VIV_PA_VIEWPORT_SCALE_Y, 1, true), 32 << 16);
	viv_emit(s, VIV_CMD_LOAD_STATE(VIV_PA_VIEWPORT_SCALE_Z, 1, true), 1 << 15);
	viv_emit(s, VIV_CMD_LOAD_STATE(VIV_PA_VIEWPORT_OFFSET_X, 1, true), 32 << 16);
	viv_emit(s, VIV_CMD_LOAD_STATE(VIV_PA_VIEWPORT_OFFSET_Y, 1, true), 32 << 16);
	viv_emit(s, VIV_CMD_LOAD_STATE(VIV_PA_VIEWPORT_OFFSET_Z, 1, true), 1 << 15);
	viv_ls(s, VIV_PE_DEPTH_NORMALIZE, D3_F32_NORM16);
}

/*
 * A scene on core @model (GC2000, or GC7000 with the HALTI5 interface and
 * its shaders in the vertex BO): colour cleared to D3_CLEAR, depth to
 * 0xffff (1.0).
 */
static void d3_open(struct scene_env *se, struct scene *sc, uint32_t model)
{
	uint32_t vs[8], ps[4];
	unsigned int i;

	scene_open(se, find_model(model), RT_BYTES, RT_BYTES, RT_BYTES, 8192,
		   4096);
	hold_power(se->e.fd, true);
	scene_init(sc, se->e.fd);
	sc->halti5 = model == 0x7000;
	memset32_words(se->bo[SC_COLOR - 1], D3_CLEAR);
	memset(se->bo[SC_DEPTH - 1]->map, 0xff, se->bo[SC_DEPTH - 1]->size);
	d3_shaders(vs, ps);
	for (i = 0; sc->halti5 && i < 8; i++)
		ugpu_bo_write32(se->bo[SC_VTX - 1],
				scene_base[SC_VTX] + D3_VS_OFF + 4 * i, vs[i]);
	for (i = 0; sc->halti5 && i < 4; i++)
		ugpu_bo_write32(se->bo[SC_VTX - 1],
				scene_base[SC_VTX] + D3_PS_OFF + 4 * i, ps[i]);
}

static void d3_close(struct scene_env *se)
{
	hold_power(se->e.fd, false);
	scene_close(se);
}

static void d3_run(struct scene_env *se, struct viv_stream *s)
{
	int status = -1;

	igt_assert_eq(viv_exec(&se->e, s, se->bo, SC_NUM, 0, &status), 0);
	igt_assert_eq(status, 0);
}

/*
 * The colour target, in layout @l, holds @in inside @t and @out elsewhere
 * (a 64 x 64 supertiled target has the stride of a tiled one: a row of
 * supertiles divided by 16).
 */
static void d3_check_color(struct scene_env *se, enum viv_layout l,
			   const struct d3_tri *t, uint32_t in, uint32_t out)
{
	uint32_t x, y, got, want;

	for (y = 0; y < RT; y++)
		for (x = 0; x < RT; x++) {
			got = ugpu_bo_read32(se->bo[SC_COLOR - 1], scene_base[SC_COLOR] +
					     viv_ref_offset(l, RT_STRIDE, x, y, 4));
			want = d3_inside(t, x, y) ? in : out;
			igt_assert_f(got == want, "colour (%u,%u): %#x != %#x\n",
				     x, y, got, want);
		}
}

/*
 * A triangle, the job ends, the CPU reads the target: the stream has no
 * flush, so the pixels are in memory only because the kernel flushes the
 * colour cache at the end of the job.
 */
static void test_draw_color(uint32_t model, enum viv_layout l)
{
	static const float red[4] = { 1.0f, 0.5f, 0.25f, 1.0f };
	static struct viv_stream s;
	struct scene_env se;
	struct scene sc;

	d3_open(&se, &sc, model);
	d3_tri_vertices(&se, 0, &d3_big, 0.0f);
	viv_reset_stream(&s);
	d3_emit(&s, &sc, l == VIV_SUPERTILED, 0);
	d3_color(&s, &sc, red);
	draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
	d3_run(&se, &s);
	igt_assert_eq_u32(d3_pixel(red), 0xffff8040);
	d3_check_color(&se, l, &d3_big, d3_pixel(red), D3_CLEAR);
	d3_close(&se);
}

/*
 * Depth: the triangle at depth 0.25, then the whole target (an indexed
 * strip) at 0.5, both LESS with writes: the triangle keeps its colour and
 * depth, the rest takes the second draw's; no flush in the stream.
 */
static void test_draw_depth(uint32_t model)
{
	static const float near_c[4] = { 0.0f, 1.0f, 0.0f, 1.0f };
	static const float far_c[4] = { 0.0f, 0.0f, 1.0f, 0.5f };
	static const uint8_t idx[4] = { 0, 1, 2, 3 };
	static struct viv_stream s;
	uint32_t zcfg = VIV_PE_DEPTH_MODE_Z | VIV_PE_DEPTH_WRITE_ENABLE |
			VIV_COMPARE_LESS << VIV_PE_DEPTH_FUNC_SHIFT;
	struct scene_env se;
	struct scene sc;
	uint32_t x, y, got, want;

	d3_open(&se, &sc, model);
	/* NDC z -0.5 and 0: window 0.25 and 0.5 (scale and offset 0.5). */
	d3_tri_vertices(&se, 0, &d3_big, -0.5f);
	d3_quad_vertices(&se, 4, 0.0f);
	memcpy((uint8_t *)se.bo[SC_IDX - 1]->map + scene_base[SC_IDX], idx,
	       sizeof(idx));
	viv_reset_stream(&s);
	d3_emit(&s, &sc, false, zcfg);
	d3_color(&s, &sc, near_c);
	draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
	d3_color(&s, &sc, far_c);
	draw_indexed(&s, VIV_PRIM_TRIANGLE_STRIP, 0, 2, 4);
	d3_run(&se, &s);

	d3_check_color(&se, VIV_TILED, &d3_big, d3_pixel(near_c),
		       d3_pixel(far_c));
	for (y = 0; y < RT; y++)
		for (x = 0; x < RT; x++) {
			uint64_t off = scene_base[SC_DEPTH] +
				       viv_ref_offset(VIV_TILED, RT / 4 * 16 * 2,
						      x, y, 2);
			uint8_t *p = (uint8_t *)se.bo[SC_DEPTH - 1]->map + off;

			got = p[0] | p[1] << 8;
			/* round(0.25 x 65535), round(0.5 x 65535) */
			want = d3_inside(&d3_big, x, y) ? 16384 : 32768;
			igt_assert_f(got == want, "depth (%u,%u): %u != %u\n",
				     x, y, got, want);
		}
	d3_close(&se);
}

enum d3_sync { D3_NO_FLUSH, D3_FLUSH_NO_STALL, D3_FLUSH_STALL };

/*
 * A small triangle, then in the same stream a resolve of the colour
 * target to a linear copy (on the GC7000, with @blt, a BLT copy): only
 * after a colour flush and a stall on the PE does the resolve (which
 * reads memory, like the BLT engine) see the pixels; before, it copies
 * what memory held. Either way the kernel's end-of-job flush puts the
 * pixels into the target.
 */
static void test_draw_resolve(enum d3_sync sync, bool blt)
{
	static const float col[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
	struct viv_blt_img bsrc = {
		.bo = SC_COLOR, .l = VIV_TILED, .stride = RT_STRIDE,
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	struct viv_blt_img bdst = {
		.bo = SC_TEX, .l = VIV_LINEAR, .stride = RT * 4,
		.format = VIV_BLT_FORMAT_A8R8G8B8,
	};
	static struct viv_stream s;
	struct scene_env se;
	struct scene sc;
	uint32_t x, y, got, want;

	d3_open(&se, &sc, blt ? 0x7000 : 0x2000);
	bsrc.off = scene_base[SC_COLOR];
	bdst.off = scene_base[SC_TEX];
	memset(se.bo[SC_TEX - 1]->map, 0, se.bo[SC_TEX - 1]->size);
	d3_tri_vertices(&se, 0, &d3_small, 0.0f);
	viv_reset_stream(&s);
	d3_emit(&s, &sc, false, 0);
	d3_color(&s, &sc, col);
	draw(&s, VIV_PRIM_TRIANGLES, 0, 1);
	if (sync != D3_NO_FLUSH)
		viv_ls(&s, VIV_GL_FLUSH_CACHE, VIV_GL_FLUSH_CACHE_COLOR);
	if (sync == D3_FLUSH_STALL)
		viv_sem_stall(&s, VIV_SYNC_RA, VIV_SYNC_PE);
	if (blt)
		viv_blt_copy(&s, &bsrc, &bdst, RT, RT, 0,
			     VIV_BLT_SWIZZLE_IDENTITY);
	else
		viv_resolve(&s, SC_COLOR, scene_base[SC_COLOR], VIV_TILED,
			    RT_STRIDE, SC_TEX, scene_base[SC_TEX], VIV_LINEAR,
			    RT * 4, RT, RT, 0);
	d3_run(&se, &s);

	for (y = 0; y < RT; y++)
		for (x = 0; x < RT; x++) {
			got = ugpu_bo_read32(se.bo[SC_TEX - 1],
					     scene_base[SC_TEX] + y * RT * 4 + x * 4);
			want = sync == D3_FLUSH_STALL && d3_inside(&d3_small, x, y) ?
			       d3_pixel(col) : D3_CLEAR;
			igt_assert_f(got == want, "resolved (%u,%u): %#x != %#x\n",
				     x, y, got, want);
		}
	d3_check_color(&se, VIV_TILED, &d3_small, d3_pixel(col), D3_CLEAR);
	d3_close(&se);
}

/* No Vivante core saw a register access with its clocks or power off. */
static void test_no_bus_errors(void)
{
	static struct ugpu_device_info now[UGPU_MAX_DEVICES];
	int i, n;

	/* Enumerate again: unbinding moved a device to another minor. */
	n = ugpu_enumerate(DRM_UGPU_FAMILY_VIVANTE, now, UGPU_MAX_DEVICES);
	igt_assert_eq(n, num_devs);
	for (i = 0; i < n; i++) {
		int fd = ugpu_open_minor(now[i].minor);

		igt_assert_eq(ugpu_sim_bus_errors(fd), 0);
		close(fd);
	}
}

igt_main
{
	igt_fixture {
		num_devs = ugpu_enumerate(DRM_UGPU_FAMILY_VIVANTE, devs,
					  UGPU_MAX_DEVICES);
		igt_require_f(num_devs > 0, "no Vivante device\n");
	}

	igt_describe("Each core's family, chip id, MMU version, queues and known limits.");
	igt_subtest("identity")
		test_identity();

	igt_describe("Decisions and corrected limits that follow a core's identity.");
	igt_subtest("identity-model")
		test_identity_model();

	igt_describe("FE commands run, LINK, CALL and RETURN included; unknown opcodes refused.");
	igt_subtest("fe-opcodes-gc2000")
		test_opcodes(find_model(0x2000));
	igt_describe("FE commands run on the 2D-only core; unknown opcodes refused.");
	igt_subtest("fe-opcodes-gc320")
		test_opcodes(find_model(0x320));
	igt_describe("FE commands run, LINK, CALL and RETURN included; unknown opcodes refused.");
	igt_subtest("fe-opcodes-gc7000")
		test_opcodes(find_model(0x7000));

	igt_describe("Malformed streams and kernel-owned states are rejected with EINVAL.");
	igt_subtest("validator-gc2000")
		test_validator(find_model(0x2000));
	igt_describe("Malformed streams and kernel-owned states are rejected with EINVAL.");
	igt_subtest("validator-gc7000")
		test_validator(find_model(0x7000));

	igt_describe("Fills through relocations land in a normal and a contiguous BO.");
	igt_subtest("reloc-mmuv1")
		test_reloc_clear(find_model(0x2000));
	igt_describe("Fills through per-file page tables land in a normal and a contiguous BO.");
	igt_subtest("clear-mmuv2")
		test_reloc_clear(find_model(0x7000));
	igt_describe("Two files' BOs at one GPU address stay apart.");
	igt_subtest("mmuv2-isolation")
		test_isolation(find_model(0x7000));

	igt_describe("Six processes' fills through the kernel ring all land.");
	igt_subtest("wait-link-concurrent")
		test_concurrent(find_model(0x2000));

	igt_describe("Resolve from 4x4 tiles to linear, checked against the reference.");
	igt_subtest("resolve-tiled-to-linear")
		test_resolve(find_model(0x2000), VIV_TILED, VIV_LINEAR);
	igt_describe("Resolve from linear to 4x4 tiles, checked against the reference.");
	igt_subtest("resolve-linear-to-tiled")
		test_resolve(find_model(0x2000), VIV_LINEAR, VIV_TILED);
	igt_describe("Copy from 64x64 supertiles to linear, checked against the reference.");
	igt_subtest("resolve-supertiled-to-linear")
		test_resolve(find_model(0x7000), VIV_SUPERTILED, VIV_LINEAR);
	igt_describe("Copy from linear to 64x64 supertiles, checked against the reference.");
	igt_subtest("resolve-linear-to-supertiled")
		test_resolve(find_model(0x7000), VIV_LINEAR, VIV_SUPERTILED);
	igt_describe("Resolve copies between layouts and a fill, 16-bit pixels.");
	igt_subtest("resolve-16bpp-gc2000")
		test_resolve_16bpp(find_model(0x2000), false);
	igt_describe("BLT copies between layouts and a clear, 16-bit formats.");
	igt_subtest("blt-16bpp-gc7000")
		test_resolve_16bpp(find_model(0x7000), true);
	igt_describe("Fast-cleared tiles read as the clear value, the others keep their pixels.");
	igt_subtest("fast-clear")
		test_fast_clear(find_model(0x2000));
	igt_describe("A 2x2 downsampling copy averages the samples.");
	igt_subtest("msaa-downsample")
		test_msaa(find_model(0x7000));

	igt_describe("The contiguous pool runs out with ENOMEM and recovers all it lent.");
	igt_subtest("contig-pool")
		test_contig_pool(find_model(0x2000));
	igt_describe("Soft commands behind a GPU command run when the GPU gets there.");
	igt_subtest("events")
		test_events(find_model(0x2000));

	igt_describe("Two files' contexts keep their own state when interleaved.");
	igt_subtest("context-switch-gc2000")
		test_context_switch(find_model(0x2000), false);
	igt_describe("Two files' contexts keep their own state when interleaved.");
	igt_subtest("context-switch-gc7000")
		test_context_switch(find_model(0x7000), false);
	igt_describe("Two contexts of one file keep their own state when interleaved.");
	igt_subtest("context-switch-same-file-gc2000")
		test_context_switch(find_model(0x2000), true);
	igt_describe("Two contexts of one file keep their own state when interleaved.");
	igt_subtest("context-switch-same-file-gc7000")
		test_context_switch(find_model(0x7000), true);

	igt_describe("A hang fails only its job, with ETIMEDOUT and a devcoredump.");
	igt_subtest("hang-recovery")
		test_hang(find_model(0x2000), false);
	igt_describe("A context that hangs up to the ban threshold is banned; others work.");
	igt_subtest("hang-ban")
		test_hang(find_model(0x7000), true);

	igt_describe("LOAD_STATE's fixed-point flag converts 16.16 to single precision.");
	igt_subtest("fixed-point")
		test_fixp(find_model(0x2000));
	igt_describe("A masked write changes only its field of its own context's value.");
	igt_subtest("context-masked-state")
		test_masked_switch(find_model(0x7000), false);
	igt_describe("A masked write changes its own context's value, one file.");
	igt_subtest("context-masked-state-same-file")
		test_masked_switch(find_model(0x2000), true);
	igt_describe("Each known way to hang the core ends with ETIMEDOUT and recovers.");
	igt_subtest("hang-cases")
		test_hang_cases(find_model(0x2000));
	igt_describe("A write to a GPU-read-only BO faults with EFAULT; others work.");
	igt_subtest("mmu-fault-gc7000")
		test_mmu_fault(find_model(0x7000));
	igt_describe("User signals: millisecond waits, manual and auto reset, sync_file export.");
	igt_subtest("signals")
		test_signals(find_model(0x2000));
	igt_describe("Soft commands behind an innocent job run, in order, after a reset.");
	igt_subtest("events-across-reset")
		test_events_reset(find_model(0x2000));
	igt_describe("A full-size stream is validated once and runs; a cut one is rejected.");
	igt_subtest("validator-big-stream")
		test_validator_big_stream(find_model(0x2000));

	igt_describe("Streams of one context, big and small, alone and from four threads, run as sent.");
	igt_subtest("stream-room-gc2000")
		test_stream_room(find_model(0x2000));
	igt_describe("Streams of one context, big and small, alone and from four threads, run as sent.");
	igt_subtest("stream-room-gc7000")
		test_stream_room(find_model(0x7000));

	igt_describe("Resolve windows must stay in their BOs, up to the last byte.");
	igt_subtest("validator-rs-extent")
		test_rs_extent(find_model(0x2000));
	igt_describe("A resolve kick counts only geometry its own submit loads.");
	igt_subtest("validator-rs-carryover")
		test_rs_carryover(find_model(0x2000));
	igt_describe("The validator walks LINK and CALL as the FE runs them.");
	igt_subtest("validator-exec-order")
		test_exec_order(find_model(0x2000));
	igt_describe("Unchecked or unknown states are rejected (MMUv1).");
	igt_subtest("validator-unlisted-states-gc2000")
		test_unlisted_states(find_model(0x2000));
	igt_describe("Unchecked or unknown states are rejected (MMUv2).");
	igt_subtest("validator-unlisted-states-gc7000")
		test_unlisted_states(find_model(0x7000));
	igt_describe("HALTI5 shader interface states are rejected on MMUv1.");
	igt_subtest("validator-halti5-shader-states-gc2000")
		test_halti5_shader_states(find_model(0x2000));
	igt_describe("HALTI5 shader interface states are accepted on MMUv2.");
	igt_subtest("validator-halti5-shader-states-gc7000")
		test_halti5_shader_states(find_model(0x7000));
	igt_describe("A GPU-read-only BO is never a write target (MMUv1).");
	igt_subtest("validator-readonly-mmuv1")
		test_readonly(find_model(0x2000));
	igt_describe("2D clears, blits and patterns must stay in their BOs.");
	igt_subtest("validator-2d-extent-gc320")
		test_2d_extent(find_model(0x320));
	igt_describe("Address states looked up among 1024 BOs; a stray one is rejected.");
	igt_subtest("validator-many-bos")
		test_many_bos(find_model(0x7000));

	igt_describe("Draws whose render targets leave their BOs are rejected (MMUv1).");
	igt_subtest("validator-3d-render-target-gc2000")
		test_3d_rt(find_model(0x2000));
	igt_describe("Draws with any render target extent are accepted (MMUv2).");
	igt_subtest("validator-3d-render-target-gc7000")
		test_3d_rt(find_model(0x7000));
	igt_describe("Draws whose textures leave their BOs are rejected (MMUv1).");
	igt_subtest("validator-3d-texture-gc2000")
		test_3d_texture(find_model(0x2000));
	igt_describe("Draws with any texture extent are accepted (MMUv2).");
	igt_subtest("validator-3d-texture-gc7000")
		test_3d_texture(find_model(0x7000));
	igt_describe("A draw whose vertex fetch leaves its BO is rejected (MMUv1).");
	igt_subtest("validator-3d-vertex-gc2000")
		test_3d_vertex(find_model(0x2000));
	igt_describe("Draws with any vertex fetch extent are accepted (MMUv2).");
	igt_subtest("validator-3d-vertex-gc7000")
		test_3d_vertex(find_model(0x7000));
	igt_describe("Indexed draws are bounded by index width and offset (MMUv1).");
	igt_subtest("validator-3d-indexed-gc2000")
		test_3d_indexed(find_model(0x2000));
	igt_describe("Indexed draws of any extent are accepted (MMUv2).");
	igt_subtest("validator-3d-indexed-gc7000")
		test_3d_indexed(find_model(0x7000));
	igt_describe("Draw state of an earlier submit counts at its worst (MMUv1).");
	igt_subtest("validator-3d-carryover-gc2000")
		test_3d_carryover(find_model(0x2000));
	igt_describe("Draw settings without a known bound are rejected (MMUv1).");
	igt_subtest("validator-3d-settings-gc2000")
		test_3d_settings(find_model(0x2000));
	igt_describe("Draw settings are all accepted (MMUv2).");
	igt_subtest("validator-3d-settings-gc7000")
		test_3d_settings(find_model(0x7000));
	igt_describe("The occlusion query result must lie in its BO.");
	igt_subtest("validator-3d-query-gc2000")
		test_3d_query(find_model(0x2000));
	igt_describe("The occlusion query result must lie in its BO.");
	igt_subtest("validator-3d-query-gc7000")
		test_3d_query(find_model(0x7000));
	igt_describe("A draw through the scratch page must fit in it.");
	igt_subtest("validator-3d-scratch-gc2000")
		test_3d_scratch(find_model(0x2000));
	igt_describe("A stream full of draws is validated once and all run.");
	igt_subtest("validator-3d-many-draws-gc2000")
		test_3d_many_draws(find_model(0x2000));

	igt_describe("2D solid fills write their rectangle only.");
	igt_subtest("2d-fill-gc320")
		test_2d(find_model(0x320));
	igt_describe("A 2D blit of R5G6B5 pixels copies its rectangle only.");
	igt_subtest("2d-blit-16bpp-gc320")
		test_2d_blit_16bpp(find_model(0x320));
	igt_describe("2D fills alternating with 3D fills on one core.");
	igt_subtest("2d-pipe-switch-gc2000")
		test_2d(find_model(0x2000));

	igt_describe("Over 17 Gpixels of fills finish or time out; the engine is free after.");
	igt_subtest("huge-resolve-gc7000")
		test_huge(find_model(0x7000), false);
	igt_describe("Over 17 Gpixels of 2D clears finish or time out; the engine is free after.");
	igt_subtest("huge-2d-gc320")
		test_huge(find_model(0x320), true);


	igt_describe("2D clears write only inside the clip window, which persists.");
	igt_subtest("2d-clip-clear-gc320")
		test_2d_clip(find_model(0x320), false);
	igt_describe("2D blits write only inside the clip window, which persists.");
	igt_subtest("2d-clip-blit-gc320")
		test_2d_clip(find_model(0x320), true);
	igt_describe("2D clears write only inside the clip window, which persists.");
	igt_subtest("2d-clip-clear-gc2000")
		test_2d_clip(find_model(0x2000), false);
	igt_describe("2D blits write only inside the clip window, which persists.");
	igt_subtest("2d-clip-blit-gc2000")
		test_2d_clip(find_model(0x2000), true);
	igt_describe("A clear clipped to its BO is accepted and stays inside it (MMUv1).");
	igt_subtest("2d-clip-keeps-inside-bo")
		test_2d_clip_inside_bo(find_model(0x320));

	igt_describe("Unmapped MMUv1 addresses read the scratch page, never page 0.");
	igt_subtest("mmuv1-unmap-scratch")
		test_mmuv1_unmap(find_model(0x2000));
	igt_describe("After a BO takes a freed BO's GPU address, the GPU reads the new one.");
	igt_subtest("tlb-flush-gc2000")
		test_tlb_flush(find_model(0x2000));
	igt_describe("After a BO takes a freed BO's GPU address, the GPU reads the new one.");
	igt_subtest("tlb-flush-gc7000")
		test_tlb_flush(find_model(0x7000));
	igt_describe("Large jobs filling the ring's arena all complete; a hang recovers.");
	igt_subtest("ring-space-gc2000")
		test_ring_space(find_model(0x2000));
	igt_describe("Large jobs filling the ring's arena all complete; a hang recovers.");
	igt_subtest("ring-space-gc7000")
		test_ring_space(find_model(0x7000));
	igt_describe("Each core's timestamp frequency is its board's core clock.");
	igt_subtest("core-clock-rate")
		test_core_clock();

	igt_describe("Timestamps keep their rate across the cycle counter's wrap.");
	igt_subtest("timestamp-wrap")
		test_timestamp_wrap();
	igt_describe("Timestamps keep their rate across a reset.");
	igt_subtest("timestamp-reset")
		test_timestamp_reset();
	igt_describe("The idle core suspends and works again on the next submit.");
	igt_subtest("runtime-suspend-gc2000")
		test_runtime_suspend(find_model(0x2000));
	igt_describe("The idle core suspends and works again on the next submit.");
	igt_subtest("runtime-suspend-gc320")
		test_runtime_suspend(find_model(0x320));
	igt_describe("The idle core suspends and works again on the next submit.");
	igt_subtest("runtime-suspend-gc7000")
		test_runtime_suspend(find_model(0x7000));
	igt_describe("Two cores of one power domain suspend and resume, both working.");
	igt_subtest("runtime-suspend-shared-domain")
		test_shared_domain();
	igt_describe("The idle FE's WAIT loop backs off; suspended, it fetches nothing.");
	igt_subtest("idle-wait-gc2000")
		test_idle_wait(find_model(0x2000));
	igt_describe("The idle FE's WAIT loop backs off; suspended, it fetches nothing.");
	igt_subtest("idle-wait-gc7000")
		test_idle_wait(find_model(0x7000));
	igt_describe("The kernel's end-of-job TS flush: the next job sees new tile status.");
	igt_subtest("ts-cache-kernel-flush-gc2000")
		test_ts_cache_kernel(find_model(0x2000));
	igt_describe("The kernel's end-of-job TS flush: the next job sees new tile status.");
	igt_subtest("ts-cache-kernel-flush-gc7000")
		test_ts_cache_kernel(find_model(0x7000));
	igt_describe("A TS flush in the stream makes the next resolve see new tile status.");
	igt_subtest("ts-cache-user-flush-gc2000")
		test_ts_cache_user(find_model(0x2000), true);
	igt_describe("Without a TS flush the next resolve reads the cached tile status.");
	igt_subtest("ts-cache-user-no-flush-gc2000")
		test_ts_cache_user(find_model(0x2000), false);
	igt_describe("A BLT flush in the stream makes the next copy see new tile status.");
	igt_subtest("ts-cache-user-flush-gc7000")
		test_ts_cache_user(find_model(0x7000), true);
	igt_describe("Without a BLT flush the next copy reads the cached tile status.");
	igt_subtest("ts-cache-user-no-flush-gc7000")
		test_ts_cache_user(find_model(0x7000), false);
	igt_describe("A TS flush needs the cache flush and RA to PE stall before it.");
	igt_subtest("ts-flush-order-gc7000")
		test_ts_flush_order(find_model(0x7000));

	igt_describe("BLT copy out of and into a linear image.");
	igt_subtest("blt-copy-linear-gc7000")
		test_blt_copy(find_model(0x7000), VIV_LINEAR);
	igt_describe("BLT copy out of and into a 4x4 tiled image.");
	igt_subtest("blt-copy-tiled-gc7000")
		test_blt_copy(find_model(0x7000), VIV_TILED);
	igt_describe("BLT copy out of and into a 64x64 supertiled image.");
	igt_subtest("blt-copy-supertiled-gc7000")
		test_blt_copy(find_model(0x7000), VIV_SUPERTILED);
	igt_describe("BLT clear of a window, with channel bits.");
	igt_subtest("blt-clear-gc7000")
		test_blt_clear(find_model(0x7000));
	igt_describe("BLT images checked with their full extent.");
	igt_subtest("validator-blt-extent-gc7000")
		test_blt_extent(find_model(0x7000));
	igt_describe("RS states on a core with the BLT engine are rejected.");
	igt_subtest("validator-rs-on-blt-core-gc7000")
		test_other_engine(find_model(0x7000), true);
	igt_describe("BLT states on a core with the RS are rejected.");
	igt_subtest("validator-blt-on-rs-core-gc2000")
		test_other_engine(find_model(0x2000), false);

	igt_describe("A draw's pixels reach memory through the kernel's end-of-job colour flush.");
	igt_subtest("draw-color-kernel-flush-gc2000")
		test_draw_color(0x2000, VIV_TILED);
	igt_describe("The same draw into a 64x64 supertiled colour target.");
	igt_subtest("draw-color-supertiled-gc2000")
		test_draw_color(0x2000, VIV_SUPERTILED);
	igt_describe("Depth test and writes through the depth cache, flushed by the kernel.");
	igt_subtest("draw-depth-kernel-flush-gc2000")
		test_draw_depth(0x2000);
	igt_describe("A resolve after a draw without a colour flush copies stale memory.");
	igt_subtest("draw-resolve-no-flush-gc2000")
		test_draw_resolve(D3_NO_FLUSH, false);
	igt_describe("A colour flush without a stall on the PE is not enough for a resolve.");
	igt_subtest("draw-resolve-flush-no-stall-gc2000")
		test_draw_resolve(D3_FLUSH_NO_STALL, false);
	igt_describe("After a colour flush and an RA to PE stall a resolve copies the draw.");
	igt_subtest("draw-resolve-flush-stall-gc2000")
		test_draw_resolve(D3_FLUSH_STALL, false);
	igt_describe("A GC7000 draw (shaders from memory) reaches memory through the kernel's flush.");
	igt_subtest("draw-color-kernel-flush-gc7000")
		test_draw_color(0x7000, VIV_TILED);
	igt_describe("GC7000 depth test and writes through the depth cache, flushed by the kernel.");
	igt_subtest("draw-depth-kernel-flush-gc7000")
		test_draw_depth(0x7000);
	igt_describe("A BLT copy after a GC7000 draw without a colour flush copies stale memory.");
	igt_subtest("draw-blt-no-flush-gc7000")
		test_draw_resolve(D3_NO_FLUSH, true);
	igt_describe("After a colour flush and an RA to PE stall a BLT copy sees the draw.");
	igt_subtest("draw-blt-flush-stall-gc7000")
		test_draw_resolve(D3_FLUSH_STALL, true);

	/* Last: the device comes back under another minor. */
	igt_describe("Unbind with live contexts and jobs; the device works after rebind.");
	igt_subtest("unbind-contexts-gc7000")
		test_unbind(find_model(0x7000));
	/* After everything: the whole run caused no bus error. */
	igt_describe("No core saw a register access with its clocks or power off.");
	igt_subtest("no-bus-errors")
		test_no_bus_errors();
}
