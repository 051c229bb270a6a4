#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the test bed's debug kernel (KASAN, lockdep, kmemleak, ...) once
# and keep it in a cache outside the checkout. Usage:
#
#   build-debug-kernel.sh          build unless cached; print the directory
#   build-debug-kernel.sh --dir    only print the directory it would use
#   build-debug-kernel.sh --check  only merge the config and verify it
#
# The directory is $UGPU_CACHE/kernel-debug-<source version>-<config hash>
# and holds:
#   build/         the kbuild output tree (O=), the KDIR for our modules
#   mod/           modules_install output, mod/lib/modules/<release>/
#   bzImage        the kernel the VM boots
#   kernelrelease  its release string (uname -r)
#   build-time     how long the build took, in seconds
#
# The hash covers the config fragment and the recipe version below, so
# editing the fragment builds a new kernel (bump recipe when a change here
# changes what is built); the source version is the Debian package version
# of linux-source (or the kernel version of KSRC when it is not a
# package). Two builds of the same kernel take turns through a lock.
#
# Environment:
#   KSRC        kernel source (default /usr/src/linux-source-6.12; the
#               tarball beside it is extracted when the directory is
#               missing)
#   UGPU_CACHE  cache root (default /var/cache/ugpu when writable, else
#               ~/.cache/ugpu)
#   JOBS        make -j (default 2); the build runs under nice -n 19
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/debug-kernel.config
KSRC=${KSRC:-/usr/src/linux-source-6.12}
JOBS=${JOBS:-2}

mode=build
case ${1:-} in
"") ;;
--dir) mode=dir ;;
--check) mode=check ;;
*)
	echo "usage: $0 [--dir|--check]" >&2
	exit 2
	;;
esac

die() {
	echo "build-debug-kernel: $*" >&2
	exit 1
}

# Options the run relies on that the fragment cannot set directly
# (hidden symbols a driver selects, or ones another option implies).
# Each must end up y or m; the fragment's own lines are checked too.
required=(
	CONFIG_DRM CONFIG_DRM_GEM_SHMEM_HELPER CONFIG_DRM_SCHED CONFIG_DRM_EXEC
	CONFIG_DRM_VGEM CONFIG_DMA_SHARED_BUFFER CONFIG_SYNC_FILE CONFIG_SW_SYNC
	CONFIG_REGMAP CONFIG_REGMAP_MMIO CONFIG_GENERIC_ALLOCATOR
	CONFIG_DEV_COREDUMP CONFIG_MEMCG CONFIG_DEBUG_FS CONFIG_TRACEPOINTS
	CONFIG_REGULATOR CONFIG_RESET_CONTROLLER CONFIG_PM_DEVFREQ CONFIG_PM_OPP
	CONFIG_KASAN CONFIG_KASAN_GENERIC CONFIG_KASAN_INLINE
	CONFIG_KASAN_VMALLOC CONFIG_PROVE_LOCKING CONFIG_PROVE_RCU
	CONFIG_LOCKDEP CONFIG_DEBUG_ATOMIC_SLEEP CONFIG_DEBUG_OBJECTS
	CONFIG_DEBUG_OBJECTS_TIMERS CONFIG_DEBUG_OBJECTS_WORK
	CONFIG_DEBUG_OBJECTS_RCU_HEAD CONFIG_DEBUG_OBJECTS_FREE
	CONFIG_DEBUG_KMEMLEAK CONFIG_DEBUG_LIST CONFIG_DMA_API_DEBUG
	CONFIG_UBSAN CONFIG_UBSAN_BOUNDS CONFIG_FAULT_INJECTION
	CONFIG_FAILSLAB CONFIG_FAIL_PAGE_ALLOC CONFIG_FAULT_INJECTION_DEBUG_FS
	CONFIG_BLK_DEV_INITRD CONFIG_SERIAL_8250_CONSOLE CONFIG_DEVTMPFS
	CONFIG_TMPFS CONFIG_MODULES CONFIG_MODULE_UNLOAD CONFIG_NET CONFIG_UNIX
)
# Must stay off: the run would not see leaks, or every build would be
# slow for nothing.
forbidden=(CONFIG_DEBUG_KMEMLEAK_DEFAULT_OFF CONFIG_DEBUG_INFO_BTF
	   CONFIG_MODULE_SIG_FORCE)

# Verify a .config against the fragment and the lists above.
verify_config() {
	local config=$1 bad=0 key want got

	while IFS='=' read -r key want; do
		# =n lines only trim the build.
		[[ $want == n ]] && continue
		got=$(sed -n "s/^$key=//p" "$config")
		[[ -n $got ]] || got=n
		if [[ $want == m && $got == y ]] || [[ $got == "$want" ]]; then
			continue
		fi
		echo "build-debug-kernel: $key is $got, the fragment asks $want" >&2
		bad=1
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$fragment")
	for key in "${required[@]}"; do
		grep -qE "^$key=(y|m)$" "$config" && continue
		echo "build-debug-kernel: $key is not enabled" >&2
		bad=1
	done
	for key in "${forbidden[@]}"; do
		grep -qE "^$key=(y|m)$" "$config" || continue
		echo "build-debug-kernel: $key must be off" >&2
		bad=1
	done
	[[ $bad -eq 0 ]] || die "$config lacks required options (see above)"
}

if [[ -z ${UGPU_CACHE:-} ]]; then
	UGPU_CACHE=/var/cache/ugpu
	if ! mkdir -p "$UGPU_CACHE" 2>/dev/null || [[ ! -w $UGPU_CACHE ]]; then
		UGPU_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/ugpu
	fi
fi

pkg=$(basename "$KSRC")
srcver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
	srcver=$(make -s -C "$KSRC" kernelversion 2>/dev/null) ||
	srcver=unknown
srcver=${srcver//[^A-Za-z0-9.+-]/_}
recipe=1
hash=$( (cat "$fragment" && echo "recipe=$recipe") | sha256sum | cut -c1-12)
dir=$UGPU_CACHE/kernel-debug-$srcver-$hash

if [[ $mode == dir ]]; then
	echo "$dir"
	exit 0
fi

if [[ ! -f $KSRC/Makefile ]]; then
	[[ -r $KSRC.tar.xz ]] || die "$KSRC and $KSRC.tar.xz are both missing"
	echo "build-debug-kernel: extracting $KSRC.tar.xz" >&2
	sudo=()
	[[ -w $(dirname "$KSRC") ]] || sudo=(sudo)
	"${sudo[@]}" tar -C "$(dirname "$KSRC")" -xf "$KSRC.tar.xz"
fi

mkdir -p "$dir"
exec 8>"$dir/.lock"
if ! flock -n 8; then
	echo "build-debug-kernel: waiting for another build of $dir" >&2
	flock 8
fi

if [[ $mode == build && -f $dir/.complete ]]; then
	echo "$dir"
	exit 0
fi

obj=$dir/build
mkdir -p "$obj"
kmake=(make -C "$KSRC" O="$obj" -s)

# defconfig, then the fragment over it, then the defaults of whatever the
# fragment made visible.
"${kmake[@]}" defconfig >&2
"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
	"$fragment" >"$dir/merge.log" 2>&1 ||
	die "merge_config.sh failed, see $dir/merge.log"
"${kmake[@]}" olddefconfig >&2
verify_config "$obj/.config"
if [[ $mode == check ]]; then
	echo "build-debug-kernel: $obj/.config has every required option" >&2
	exit 0
fi

echo "build-debug-kernel: building in $obj (-j$JOBS, log $dir/build.log;" \
	"about an hour on two busy cores)" >&2
start=$(date +%s)
if ! nice -n 19 make -C "$KSRC" O="$obj" -j"$JOBS" bzImage modules \
	>"$dir/build.log" 2>&1; then
	tail -n 30 "$dir/build.log" >&2
	die "kernel build failed, see $dir/build.log"
fi
rm -rf "$dir/mod"
nice -n 19 make -C "$KSRC" O="$obj" -s INSTALL_MOD_PATH="$dir/mod" \
	modules_install >>"$dir/build.log" 2>&1 ||
	die "modules_install failed, see $dir/build.log"
end=$(date +%s)

release=$(cat "$obj/include/config/kernel.release")
cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage"
echo "$release" >"$dir/kernelrelease"
echo $((end - start)) >"$dir/build-time"
touch "$dir/.complete"
echo "build-debug-kernel: $release built in $((end - start))s" >&2
echo "$dir"
