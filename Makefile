# SPDX-License-Identifier: GPL-2.0-only
#
# Top-level build of the ugpu modules, the tests and the user tools, and the
# QEMU test bed:
#
#   make                  modules, tests and tools
#   make check            install missing packages, build, run every test in
#                         a VM (TESTS=<binary,...> SUBTEST=<name|glob>)
#   make run              boot the VM, print the GPUs, draw a picture on
#                         each device (Mali, Vivante, Adreno) into out/
#   make bench            boot the VM, time the basic operations of every
#                         device (ugpu-bench) and print the tables
#   make fuzz             boot the VM, run ugpu-fuzz (FUZZ_SECONDS=,
#                         FUZZ_ITERS=, FUZZ_SEED=) and its fault-injection
#                         walk, or replay FUZZ_SEED's iteration FUZZ_ITER;
#                         make check fuzzes FUZZ_CHECK_SECONDS (60) after
#                         the tests when TESTS and SUBTEST are unset
#   make shell            boot the VM with the modules loaded, busybox shell
#   make deps             only install missing packages
#   make checkpatch       checkpatch --strict over our C sources
#
# W=1 and C=2 are handed to kbuild.

# The one place the target kernel is pinned; override on the command line.
KVER ?= 6.12.117+deb12-amd64
KDIR ?= /usr/src/linux-headers-$(KVER)

# Modules in load order (unloaded in reverse): the core, the simulated
# GPUs, then the family drivers.
UGPU_MODULES := ugpu ugpu_sim ugpu_mali ugpu_vivante ugpu_adreno

BUILD ?= $(CURDIR)/build
OUT ?= $(CURDIR)/out
CHECKPATCH ?= /usr/src/linux-source-6.12/scripts/checkpatch.pl

# Per-subtest and whole-VM timeouts in seconds.
SUBTEST_TIMEOUT ?= 120
VM_TIMEOUT ?= 1800

# 1: boot without the modules that were not built instead of failing.
ALLOW_MISSING ?= 0
# Extra kernel command-line words for the VM.
VM_APPEND ?=

TESTS ?=
SUBTEST ?=

# Where the test binaries come from; igt-tests/ has its own Makefile.
IGT_DIR := $(CURDIR)/igt-tests
IGT_BUILD := $(IGT_DIR)/build

# Each demo draws a picture on every device of its family:
# <tool> -o DIR writes DIR/<device>-<what>.png, exit 77 without a device.
DEMO_TOOLS := mali-frame vivante-resolve adreno-blit
USER_TOOLS := ugpu-info ugpu-bench ugpu-fuzz $(DEMO_TOOLS)

# ugpu-fuzz: make fuzz runs FUZZ_SECONDS (default 300) unless FUZZ_ITERS
# is given; make check fuzzes FUZZ_CHECK_SECONDS after a full test run.
FUZZ_SEED ?=
FUZZ_ITERS ?=
FUZZ_ITER ?=
FUZZ_SECONDS ?= $(if $(FUZZ_ITERS)$(FUZZ_ITER),,300)
FUZZ_CHECK_SECONDS ?= $(if $(TESTS)$(SUBTEST),0,60)

KBUILD_FLAGS := $(if $(W),W=$(W)) $(if $(C),C=$(C)) $(if $(V),V=$(V))

VM_ENV := KVER='$(KVER)' BUILD='$(BUILD)' OUT='$(OUT)' \
	  UGPU_MODULES='$(UGPU_MODULES)' IGT_BUILD='$(IGT_BUILD)' \
	  USER_TOOLS='$(USER_TOOLS)' DEMO_TOOLS='$(DEMO_TOOLS)' \
	  ALLOW_MISSING='$(ALLOW_MISSING)' VM_APPEND='$(VM_APPEND)' \
	  SUBTEST_TIMEOUT='$(SUBTEST_TIMEOUT)' VM_TIMEOUT='$(VM_TIMEOUT)' \
	  TESTS='$(TESTS)' SUBTEST='$(SUBTEST)' \
	  FUZZ_SEED='$(FUZZ_SEED)' FUZZ_ITERS='$(FUZZ_ITERS)' \
	  FUZZ_ITER='$(FUZZ_ITER)' \
	  FUZZ_SECONDS='$(FUZZ_SECONDS)' \
	  FUZZ_CHECK_SECONDS='$(FUZZ_CHECK_SECONDS)'

.PHONY: all modules tests tools check run bench fuzz shell deps checkpatch clean

all: modules tests tools

# Builds started at the same time in this tree take turns: kbuild's
# intermediate files would otherwise be written by both. The lock belongs
# to the tree, whatever BUILD is.
LOCK = mkdir -p $(CURDIR)/build && flock $(CURDIR)/build/.build.lock

modules:
	$(LOCK) $(MAKE) -C $(KDIR) M=$(CURDIR) UGPU_SRC=$(CURDIR) \
		$(KBUILD_FLAGS) modules

tests:
	$(LOCK) $(MAKE) -C $(IGT_DIR)

tools:
	$(LOCK) $(MAKE) -C tools TOOLS='$(USER_TOOLS)'

deps:
	tools/install-deps.sh '$(KVER)'

# The VM targets install what is missing before they build anything.
check: deps
	$(MAKE) all
	$(VM_ENV) tools/vm/run-vm.sh check

run: deps
	$(MAKE) all
	$(VM_ENV) tools/vm/run-vm.sh run

bench: deps
	$(MAKE) all
	$(VM_ENV) tools/vm/run-vm.sh bench

# The VM's whole-run timeout grows with the time asked for.
fuzz: deps
	$(MAKE) all
	$(VM_ENV) VM_TIMEOUT='$(if $(FUZZ_SECONDS),$(shell echo $$(( $(FUZZ_SECONDS) + 900 ))),$(VM_TIMEOUT))' \
		tools/vm/run-vm.sh fuzz

shell: deps
	$(MAKE) all
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

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) UGPU_SRC=$(CURDIR) clean
	$(MAKE) -C $(IGT_DIR) clean
	$(MAKE) -C tools clean
	rm -rf $(BUILD) $(OUT)
