# SPDX-License-Identifier: GPL-2.0-only
#
# Top-level build of the ugpu modules, the tests and the user tools, and the
# QEMU test bed:
#
#   make                  modules, tests and tools
#   make check            install missing packages, build, run every test in
#                         a VM (TESTS=<binary,...> SUBTEST=<name|glob>),
#                         then upstream IGT's DRM core tests (TESTS=igt)
#   make run              boot the VM, print the GPUs, draw a picture on
#                         each device (Mali, Vivante, Adreno) into out/
#   make bench            boot the VM, time the basic operations of every
#                         device against anchors (ugpu-bench), print the
#                         tables and the goals, write out/bench.json and
#                         plots; BENCH=short is the quick mode of CI,
#                         BENCH_NODES=/dev/dri/renderD133,... times only
#                         those devices
#   make fuzz             boot the VM, run ugpu-fuzz (FUZZ_SECONDS=,
#                         FUZZ_ITERS=, FUZZ_SUBMITS=, FUZZ_SEED=) and its
#                         fault-injection walk, or replay FUZZ_SEED's
#                         iteration FUZZ_ITER;
#                         make check fuzzes FUZZ_CHECK_SECONDS (60) after
#                         the tests when TESTS and SUBTEST are unset
#   make shell            boot the VM with the modules loaded, busybox shell
#   make deps             only install missing packages
#   make checkpatch       checkpatch --strict over our C sources
#   make check-includes   fail if a test includes a simulator or driver
#                         header (make check runs it first)
#   make check-docs       fail if a subtest lacks its IGT documentation
#                         (igt_describe, testplan comment) or one names a
#                         subtest that does not exist (make check runs it)
#
# W=1 and C=2 are handed to kbuild. KERNEL=debug builds the modules for,
# and boots, the debug kernel (KASAN, lockdep, kmemleak, ...) instead of
# Debian's: see tools/vm/README.md.
#
# ARCH=arm64 or ARCH=arm (on an x86 host) cross-builds everything for,
# and boots, a kernel of that architecture in qemu-system-aarch64/-arm
# -M virt: Debian's for arm64; for arm one built once from linux-source
# and cached (KERNEL=source, tools/vm/build-arm-kernel.sh), or Debian's
# armmp with KERNEL=stock. KFLAVOUR picks the kernel flavour (arm64:
# 16k, the 16 KiB-page kernel; arm: lpae). "make deps" unpacks the
# target's packages under CROSS_CACHE. The objects and binaries of a
# cross build go to build-<arch>[-<flavour>]/, so builds for several
# targets coexist. VM_MEM=8G boots the VM with RAM above 4 GiB.
#
# make install [DESTDIR=] [KVER=$(uname -r)] installs the modules, the
# uapi header with a pkg-config file and the modprobe.d file that keeps
# the upstream drivers off the GPUs; make uninstall removes them. dkms.conf
# builds the modules with DKMS instead (make dkms-add puts the sources
# where DKMS wants them).

# The one place the target kernel is pinned (Debian's ABI name; the
# flavour follows from ARCH and KFLAVOUR); override on the command line.
KABI ?= 6.12.117+deb12
KERNEL ?=
KFLAVOUR ?=
CROSS_CACHE ?= /var/cache/ugpu

# kbuild's names for the architectures; the host's is the default.
arch_name = $(patsubst x86_64,x86,$(patsubst aarch64,arm64,$(patsubst \
	armhf,arm,$(patsubst armv7l,arm,$(1)))))
HOST_ARCH := $(call arch_name,$(shell uname -m))
ARCH ?= $(HOST_ARCH)
override ARCH := $(call arch_name,$(ARCH))
# Debian's kernel flavour and the cross compiler of each architecture.
ifeq ($(ARCH),x86)
KFLAVOUR_NAME := amd64
TRIPLET := x86_64-linux-gnu
else ifeq ($(ARCH),arm64)
KFLAVOUR_NAME := arm64$(if $(KFLAVOUR),-$(KFLAVOUR))
TRIPLET := aarch64-linux-gnu
else ifeq ($(ARCH),arm)
KFLAVOUR_NAME := armmp$(if $(KFLAVOUR),-$(KFLAVOUR))
TRIPLET := arm-linux-gnueabihf
else
$(error ARCH must be x86, arm64 or arm, not "$(ARCH)")
endif
ifneq ($(KFLAVOUR),)
ifeq ($(filter $(ARCH)-$(KFLAVOUR),arm64-16k arm-lpae),)
$(error KFLAVOUR $(KFLAVOUR) is not one of ARCH=$(ARCH)'s)
endif
endif
KVER ?= $(KABI)-$(KFLAVOUR_NAME)
# ARCH=arm boots a kernel built from linux-source (KERNEL=source, see
# tools/vm/build-arm-kernel.sh) unless KERNEL=stock asks for Debian's
# armmp: the mirrors' armhf index of the security suite, where Debian's
# 6.12 kernels are, cannot be relied on.
ifeq ($(KERNEL),)
KERNEL := $(if $(filter arm,$(ARCH)),source,stock)
endif
ifeq ($(KERNEL),source)
ifneq ($(ARCH),arm)
$(error KERNEL=source is for ARCH=arm only)
endif
endif

ifneq ($(ARCH),$(HOST_ARCH))
ifeq ($(KERNEL),debug)
$(error KERNEL=debug is built for the host's architecture only)
endif
CROSS_COMPILE ?= $(TRIPLET)-
# The target's kernel, headers, busybox and libdrm, unpacked from
# Debian's packages by tools/install-deps.sh.
SYSROOT := $(CROSS_CACHE)/$(ARCH)-$(KABI)
BUILD ?= $(CURDIR)/build-$(ARCH)$(if $(KFLAVOUR),-$(KFLAVOUR))
MOD_TREE := $(BUILD)/src
ifeq ($(KERNEL),source)
# Built once and cached like the debug kernel; its release is known
# only then.
ARM_KERNEL_DIR := $(shell $(CURDIR)/tools/vm/build-arm-kernel.sh \
	$(if $(KFLAVOUR),--$(KFLAVOUR)) --dir)
KDIR ?= $(ARM_KERNEL_DIR)/build
VM_KVER = $$(cat '$(ARM_KERNEL_DIR)/kernelrelease')
VM_KERNEL := $(ARM_KERNEL_DIR)/zImage
VM_MODROOT := $(ARM_KERNEL_DIR)/mod
KERNEL_DEP := arm-kernel
DEPS_KERNEL := --no-kernel
else
KDIR ?= $(SYSROOT)/usr/src/linux-headers-$(KVER)
VM_KVER = $(KVER)
VM_KERNEL := $(SYSROOT)/boot/vmlinuz-$(KVER)
VM_MODROOT := $(SYSROOT)
KERNEL_DEP :=
endif
KBUILD_ARCH := ARCH=$(ARCH) CROSS_COMPILE=$(CROSS_COMPILE)
# The tools are linked statically against the target's libdrm. The test
# binaries are linked against the target's shared libraries in the
# sysroot, which is the compiler's root (its libc6-dev): upstream IGT's
# library and what it needs (cairo, udev, kmod) ship no static archives.
# The initramfs takes the libraries they need from the sysroot.
CROSS_PKG_CONFIG := env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(TRIPLET)/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
	pkg-config
USER_FLAGS := CC=$(CROSS_COMPILE)gcc AR=$(CROSS_COMPILE)ar \
	PKG_CONFIG='$(CROSS_PKG_CONFIG) --static' LDFLAGS=-static
TEST_FLAGS := CC='$(CROSS_COMPILE)gcc --sysroot=$(SYSROOT)' \
	AR=$(CROSS_COMPILE)ar PKG_CONFIG='$(CROSS_PKG_CONFIG)'
# Upstream IGT's library, runner and listed tests, cross-built.
IGT_UPSTREAM_OUT := $(CURDIR)/build-$(ARCH)/igt-upstream
IGT_CROSS := --cross $(ARCH) $(TRIPLET) '$(SYSROOT)'
# The user-space programs do not depend on the flavour.
IGT_OUT := $(CURDIR)/build-$(ARCH)/igt-tests
IGT_OBJ := $(CURDIR)/build-$(ARCH)/igt-obj
TOOLS_OUT := $(CURDIR)/build-$(ARCH)/tools
VM_CROSS := 1
DEPS_ARCH := --arch $(ARCH) --sysroot '$(SYSROOT)' $(DEPS_KERNEL)
# TCG runs an arm64 guest's system calls several times slower than an
# x86 one's: a test opening 65534 files takes minutes.
SUBTEST_TIMEOUT ?= 600
VM_TIMEOUT ?= 3600
else ifeq ($(KERNEL),debug)
# Built once from the Debian kernel source (KVER's) and cached outside
# the tree by tools/vm/build-debug-kernel.sh, which "modules" runs first;
# its release is known only then, so the VM targets read it when they run.
DEBUG_KERNEL_DIR := $(shell $(CURDIR)/tools/vm/build-debug-kernel.sh --dir)
VM_KVER = $$(cat '$(DEBUG_KERNEL_DIR)/kernelrelease')
KDIR ?= $(DEBUG_KERNEL_DIR)/build
# Kbuild writes its objects next to the sources (6.12 has no MO=): the
# modules for this kernel are built in a tree of links to ours.
BUILD ?= $(CURDIR)/build-debug
MOD_TREE := $(BUILD)/src
VM_KERNEL := $(DEBUG_KERNEL_DIR)/bzImage
VM_MODROOT := $(DEBUG_KERNEL_DIR)/mod
KBUILD_ARCH :=
# KASAN, lockdep and kmemleak under TCG: several times slower, and the
# shadow memory and leak tracking need room.
SUBTEST_TIMEOUT ?= 600
VM_TIMEOUT ?= 7200
VM_MEM ?= 4096
KERNEL_DEP := debug-kernel
else ifeq ($(KERNEL),stock)
KDIR ?= /usr/src/linux-headers-$(KVER)
VM_KVER = $(KVER)
MOD_TREE := $(CURDIR)
VM_KERNEL := /boot/vmlinuz-$(KVER)
VM_MODROOT :=
KERNEL_DEP :=
KBUILD_ARCH :=
else
$(error KERNEL must be stock or debug, not "$(KERNEL)")
endif
IGT_DIR := $(CURDIR)/igt-tests
USER_FLAGS ?=
TEST_FLAGS ?= $(USER_FLAGS)
IGT_CROSS ?=
IGT_OUT ?= $(IGT_DIR)/build
IGT_OBJ ?= $(IGT_DIR)/.obj
TOOLS_OUT ?= $(CURDIR)/tools
VM_CROSS ?= 0
DEPS_ARCH ?= --arch $(ARCH)

# Modules in load order (unloaded in reverse): the core, the simulated
# GPUs, then the family drivers.
UGPU_MODULES := ugpu ugpu_sim ugpu_mali ugpu_vivante ugpu_adreno

BUILD ?= $(CURDIR)/build
OUT ?= $(CURDIR)/out
CHECKPATCH ?= /usr/src/linux-source-6.12/scripts/checkpatch.pl

# Per-subtest and whole-VM timeouts in seconds, VM memory in MiB.
SUBTEST_TIMEOUT ?= 120
VM_TIMEOUT ?= 1800
VM_MEM ?= 2048

# 1: boot without the modules that were not built instead of failing.
ALLOW_MISSING ?= 0
# Extra kernel command-line words for the VM.
VM_APPEND ?=

TESTS ?=
SUBTEST ?=

# Where the test binaries come from; igt-tests/ has its own Makefile.
IGT_BUILD = $(IGT_OUT)

# Upstream IGT, built from its snapshot beside the checkout for make
# check to run its DRM core tests (igt-tests/igt-upstream.list) on every
# device, for the host or, cross-built, for ARCH (build-<arch>/). ugpu's
# own tests build against its library too: without the snapshot (or
# IGT_SRC=) make check stops before the VM and says so; the modules and
# tools still build.
# igt-tests/ gets the copy of the source and the build tree (IGT_SRC and
# IGT_BUILD on its command line).
# A worktree looks beside its main checkout too, a local clone beside the
# checkout it was cloned from.
IGT_SRC_FOUND := $(firstword $(wildcard $(abspath $(CURDIR)/../shared/peers/igt-gpu-tools \
	$(shell git -C $(CURDIR) rev-parse --path-format=absolute \
	--git-common-dir 2>/dev/null)/../../shared/peers/igt-gpu-tools \
	$(shell git -C $(CURDIR) config --get remote.origin.url \
	2>/dev/null)/../shared/peers/igt-gpu-tools)) \
	$(abspath $(CURDIR)/../shared/peers/igt-gpu-tools))
IGT_SRC ?= $(IGT_SRC_FOUND)
IGT_UPSTREAM_OUT ?= $(CURDIR)/build/igt-upstream
IGT_UPSTREAM := $(if $(wildcard $(IGT_SRC)/meson.build),$(IGT_UPSTREAM_OUT)/build)
IGT_UPSTREAM_LIST := $(IGT_DIR)/igt-upstream.list
# A cross build builds only the library, the runner and these tests.
IGT_UPSTREAM_TARGETS := $(if $(IGT_CROSS),$(addprefix tests/,$(shell \
	sed -e 's/\#.*//' -e 's/[[:space:]].*//' '$(IGT_UPSTREAM_LIST)')))
# The kernel's sw_sync as a module where the kernel lacks it (Debian's);
# built from linux-source, as IGT's syncobj tests need its timelines.
KSRC ?= /usr/src/linux-source-6.12
SW_SYNC_OUT := $(BUILD)/sw_sync

# Each demo draws a picture on every device of its family:
# <tool> -o DIR writes DIR/<device>-<what>.png, exit 77 without a device.
DEMO_TOOLS := mali-frame vivante-resolve adreno-blit
USER_TOOLS := ugpu-info ugpu-bench ugpu-fuzz ugpu-coredump $(DEMO_TOOLS)
# Run on the host: the simulated GPUs' firmware for the VM's /lib/firmware.
FW_TOOLS := adreno-fw

# ugpu-fuzz: make fuzz runs FUZZ_SECONDS (default 300) unless FUZZ_ITERS
# or FUZZ_SUBMITS (structured submits) is given; make check fuzzes
# FUZZ_CHECK_SECONDS after a full test run.
FUZZ_SEED ?=
FUZZ_ITERS ?=
FUZZ_ITER ?=
FUZZ_SUBMITS ?=
FUZZ_SECONDS ?= $(if $(FUZZ_ITERS)$(FUZZ_ITER)$(FUZZ_SUBMITS),,300)
FUZZ_CHECK_SECONDS ?= $(if $(TESTS)$(SUBTEST),0,60)

KBUILD_FLAGS := $(KBUILD_ARCH) $(if $(W),W=$(W)) $(if $(C),C=$(C)) $(if $(V),V=$(V))

VM_ENV = KVER="$(VM_KVER)" BUILD='$(BUILD)' OUT='$(OUT)' \
	  KERNEL='$(KERNEL)' VM_KERNEL='$(VM_KERNEL)' \
	  VM_MODROOT='$(VM_MODROOT)' VM_MEM='$(VM_MEM)' \
	  UGPU_KO_DIR='$(MOD_TREE)/drivers' \
	  UGPU_MODULES='$(UGPU_MODULES)' IGT_BUILD='$(IGT_BUILD)' \
	  USER_TOOLS='$(USER_TOOLS)' DEMO_TOOLS='$(DEMO_TOOLS)' \
	  TOOLS_BUILD='$(TOOLS_OUT)' VM_ARCH='$(ARCH)' VM_CROSS='$(VM_CROSS)' \
	  VM_BUSYBOX='$(if $(SYSROOT),$(SYSROOT)/bin/busybox)' \
	  ALLOW_MISSING='$(ALLOW_MISSING)' VM_APPEND='$(VM_APPEND)' \
	  SUBTEST_TIMEOUT='$(SUBTEST_TIMEOUT)' VM_TIMEOUT='$(VM_TIMEOUT)' \
	  TESTS='$(TESTS)' SUBTEST='$(SUBTEST)' \
	  FUZZ_SEED='$(FUZZ_SEED)' FUZZ_ITERS='$(FUZZ_ITERS)' \
	  FUZZ_ITER='$(FUZZ_ITER)' FUZZ_SUBMITS='$(FUZZ_SUBMITS)' \
	  FUZZ_SECONDS='$(FUZZ_SECONDS)' \
	  FUZZ_CHECK_SECONDS='$(FUZZ_CHECK_SECONDS)' BENCH='$(BENCH)' \
	  BENCH_NODES='$(BENCH_NODES)' \
	  IGT_UPSTREAM='$(IGT_UPSTREAM)' \
	  IGT_UPSTREAM_TESTS='$(IGT_UPSTREAM_LIST)' \
	  VM_SYSROOT='$(SYSROOT)' VM_TRIPLET='$(TRIPLET)' \
	  SW_SYNC_KO="$$(cat '$(SW_SYNC_OUT)/module' 2>/dev/null)"

.PHONY: all modules tests tools check run bench fuzz shell deps checkpatch clean \
	check-includes check-docs \
	debug-kernel arm-kernel install uninstall dkms-add dkms-remove testbed igt-upstream \
	sw-sync

all: modules tests tools

# Builds started at the same time in this tree take turns: kbuild's
# intermediate files would otherwise be written by both. The lock belongs
# to the tree, whatever BUILD is.
LOCK = mkdir -p $(CURDIR)/build && flock $(CURDIR)/build/.build.lock

modules: $(KERNEL_DEP)
ifneq ($(MOD_TREE),$(CURDIR))
	$(LOCK) sh -c 'tools/vm/link-tree.sh $(CURDIR) $(MOD_TREE) && \
		$(MAKE) -C $(KDIR) M=$(MOD_TREE) UGPU_SRC=$(CURDIR) \
		$(KBUILD_FLAGS) modules'
else
	$(LOCK) $(MAKE) -C $(KDIR) M=$(CURDIR) UGPU_SRC=$(CURDIR) \
		$(KBUILD_FLAGS) modules
endif

# The debug kernel, built unless it is cached.
debug-kernel:
	tools/vm/build-debug-kernel.sh >/dev/null

# ARCH=arm's kernel, built unless it is cached.
arm-kernel:
	tools/vm/build-arm-kernel.sh $(if $(KFLAVOUR),--$(KFLAVOUR)) >/dev/null

# igt-tests/ gets upstream IGT's copied source and build tree, built
# first.
tests: igt-upstream
	$(LOCK) $(MAKE) -C $(IGT_DIR) $(TEST_FLAGS) B='$(IGT_OUT)' \
		O='$(IGT_OBJ)' IGT_SRC='$(IGT_UPSTREAM_OUT)/src' \
		IGT_BUILD='$(IGT_UPSTREAM_OUT)/build'

tools:
	$(LOCK) $(MAKE) -C tools $(USER_FLAGS) O='$(TOOLS_OUT)' \
		TOOLS='$(USER_TOOLS)'
	$(LOCK) $(MAKE) -C tools TOOLS='$(FW_TOOLS)'

# What the VM needs beyond the build: upstream IGT and sw_sync.
testbed: igt-upstream sw-sync

igt-upstream:
ifneq ($(IGT_UPSTREAM),)
	$(LOCK) tools/vm/build-igt.sh $(IGT_CROSS) '$(IGT_SRC)' \
		'$(IGT_UPSTREAM_OUT)' $(IGT_UPSTREAM_TARGETS) >/dev/null
else
	@echo "make: $(IGT_SRC) is missing: upstream IGT's tests will not run," \
		"and ugpu's tests cannot build (IGT_SRC= names a snapshot)" >&2
endif

# OUT/module names the module, or is empty for a kernel with sw_sync.
sw-sync:
	$(LOCK) tools/vm/build-sw-sync.sh '$(KSRC)' '$(KDIR)' '$(SW_SYNC_OUT)' \
		$(KBUILD_ARCH)

deps:
	tools/install-deps.sh $(if $(filter debug,$(KERNEL)),--debug-kernel) \
		$(DEPS_ARCH) '$(KVER)'

# The tests may not include the simulator's headers.
check-includes:
	tools/check-test-includes.sh $(CURDIR)

# The tests' documentation matches the subtests their binaries list:
# those the host's IGT build made of them (tools/vm/build-igt.sh). A cross
# build, whose binaries do not run here, leaves it to the native one: the
# sources are the same.
ifeq ($(IGT_CROSS),)
check-docs: igt-upstream
	IGT_SRC='$(IGT_SRC)' tools/check-test-docs.sh $(CURDIR) \
		'$(IGT_UPSTREAM)/tests/ugpu'
else
check-docs:
	@echo "make: check-docs runs in native builds only" >&2
endif

# The VM targets install what is missing before they build anything.
check: deps check-includes check-docs
	$(MAKE) all testbed
	$(VM_ENV) tools/vm/run-vm.sh check

run: deps
	$(MAKE) all testbed
	$(VM_ENV) tools/vm/run-vm.sh run

bench: deps
	$(MAKE) all testbed
	$(VM_ENV) tools/vm/run-vm.sh bench

# The VM's whole-run timeout grows with the time asked for; a run to a
# number of submits may take a second per submit.
fuzz: deps
	$(MAKE) all testbed
	$(VM_ENV) VM_TIMEOUT='$(if $(FUZZ_SECONDS),$(shell echo $$(( $(FUZZ_SECONDS) + 900 ))),$(if $(FUZZ_SUBMITS),$(shell echo $$(( $(FUZZ_SUBMITS) + 900 ))),$(VM_TIMEOUT)))' \
		tools/vm/run-vm.sh fuzz

shell: deps
	$(MAKE) all testbed
	$(VM_ENV) tools/vm/run-vm.sh shell

# The user tools call libdrm, whose API is CamelCase.
# Three exceptions, each to a convention checkpatch does not know: uapi
# headers cannot use BIT(), TRACE_EVENT() has its own layout, and the
# tools call libdrm's CamelCase functions.
checkpatch:
	@set -e; ls_c() { git ls-files -co --exclude-standard -- "$$@" | \
		grep -E '\.[ch]$$' | grep -v '_trace\.h$$' || true; }; \
	$(CHECKPATCH) --strict --no-tree --terse -f $$(ls_c drivers include); \
	$(CHECKPATCH) --strict --no-tree --terse --ignore BIT_MACRO \
		-f $$(ls_c uapi); \
	$(CHECKPATCH) --strict --no-tree --terse \
		--ignore PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE \
		-f $$(git ls-files -- '*_trace.h'); \
	$(CHECKPATCH) --strict --no-tree --terse --ignore CAMELCASE \
		-f $$(ls_c tools)

# ---- installing: modules for KVER, the uapi for user space.
PREFIX ?= /usr
DESTDIR ?=
UGPU_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(CURDIR)/dkms.conf)
MODDIR = $(DESTDIR)/lib/modules/$(KVER)/updates/ugpu
INSTALLED_KOS := core/ugpu mali/ugpu_mali vivante/ugpu_vivante \
	adreno/ugpu_adreno sim/ugpu_sim

# depmod only when installing into this system (a package's postinst
# runs it otherwise).
install: modules
	set -e; for m in $(INSTALLED_KOS); do \
		install -D -m 0644 $(MOD_TREE)/drivers/ugpu/$$m.ko \
			$(MODDIR)/$$(basename $$m).ko; \
	done
	install -D -m 0644 uapi/drm/ugpu_drm.h \
		$(DESTDIR)$(PREFIX)/include/ugpu/ugpu_drm.h
	mkdir -p $(DESTDIR)$(PREFIX)/share/pkgconfig
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(UGPU_VERSION)|' \
		packaging/ugpu.pc.in >$(DESTDIR)$(PREFIX)/share/pkgconfig/ugpu.pc
	install -D -m 0644 packaging/ugpu-blacklist.conf \
		$(DESTDIR)/etc/modprobe.d/ugpu.conf
	$(if $(DESTDIR),,depmod $(KVER))

uninstall:
	rm -f $(foreach m,$(INSTALLED_KOS),$(MODDIR)/$(notdir $(m)).ko)
	-rmdir $(MODDIR)
	rm -f $(DESTDIR)$(PREFIX)/include/ugpu/ugpu_drm.h \
		$(DESTDIR)$(PREFIX)/share/pkgconfig/ugpu.pc \
		$(DESTDIR)/etc/modprobe.d/ugpu.conf
	-rmdir $(DESTDIR)$(PREFIX)/include/ugpu
	$(if $(DESTDIR),,depmod $(KVER))

# DKMS wants the sources in /usr/src/<name>-<version>: the module sources
# only, with dkms.conf.
DKMS_SRC = $(DESTDIR)/usr/src/ugpu-$(UGPU_VERSION)
dkms-add:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	find Kbuild dkms.conf drivers include uapi -type f \
		\( -name '*.[ch]' -o -name Kbuild -o -name Makefile \
		-o -name dkms.conf \) ! -name '*.mod.c' | \
		tar -cf - -T - | tar -C $(DKMS_SRC) -xf -
	$(if $(DESTDIR),,dkms add ugpu/$(UGPU_VERSION))

dkms-remove:
	-dkms remove ugpu/$(UGPU_VERSION) --all
	rm -rf $(DKMS_SRC)

clean:
ifeq ($(MOD_TREE),$(CURDIR))
	$(MAKE) -C $(KDIR) M=$(CURDIR) UGPU_SRC=$(CURDIR) clean
endif
	$(MAKE) -C $(IGT_DIR) B='$(IGT_OUT)' O='$(IGT_OBJ)' clean
	$(if $(IGT_CROSS),rm -rf '$(IGT_UPSTREAM_OUT)')
	$(MAKE) -C tools O='$(TOOLS_OUT)' clean
	$(MAKE) -C tools TOOLS='$(FW_TOOLS)' clean
	rm -rf $(BUILD) $(OUT)
