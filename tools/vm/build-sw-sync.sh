#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the kernel's sw_sync as a module (ugpu_test_sw_sync.ko) for a
# kernel configured without CONFIG_SW_SYNC, as the Debian kernels are:
# IGT's syncobj tests and ugpu's queue-limit test create fences with it.
# Usage: build-sw-sync.sh KSRC KDIR OUT [kbuild arguments...]
#
# KSRC is linux-source (its drivers/dma-buf), KDIR the headers of the
# kernel the module is for, OUT the build directory. OUT/module then holds
# the module's path, or nothing when the kernel has sw_sync built in.
set -euo pipefail

usage="usage: $0 KSRC KDIR OUT [kbuild arguments...]"
ksrc=${1:?$usage}
kdir=${2:?$usage}
out=${3:?$usage}
shift 3
here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "build-sw-sync: $*" >&2
	exit 1
}

config=$kdir/include/config/auto.conf
[[ -f $config ]] || die "$config is missing"
mkdir -p "$out"
: >"$out/module"
grep -q '^CONFIG_SW_SYNC=y' "$config" && exit 0
grep -q '^CONFIG_SYNC_FILE=y' "$config" || die "the kernel has no SYNC_FILE"
for f in sw_sync.c sync_debug.c sync_debug.h sync_trace.h; do
	[[ -f $ksrc/drivers/dma-buf/$f ]] || die "$ksrc/drivers/dma-buf/$f is missing"
	cmp -s "$ksrc/drivers/dma-buf/$f" "$out/$f.orig" 2>/dev/null && continue
	cp "$ksrc/drivers/dma-buf/$f" "$out/$f.orig"
	cp "$ksrc/drivers/dma-buf/$f" "$out/$f"
	# The trace header names its folder in the kernel tree; here it is
	# the module's own.
	[[ $f == sync_trace.h ]] &&
		sed -i 's|^#define TRACE_INCLUDE_PATH .*|#define TRACE_INCLUDE_PATH .|' \
			"$out/$f"
done
for f in Kbuild sw_sync_module.c; do
	cmp -s "$here/sw_sync/$f" "$out/$f" || cp "$here/sw_sync/$f" "$out/$f"
done
make -C "$kdir" M="$out" "$@" modules >"$out/build.log" 2>&1 ||
	die "build failed, see $out/build.log"
echo "$out/ugpu_test_sw_sync.ko" >"$out/module"
