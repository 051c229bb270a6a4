#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the 32-bit ARM kernel of the test bed (make check ARCH=arm) from
# linux-source once and keep it in a cache outside the checkout: a
# virt-only configuration (arm-kernel.config over allnoconfig), cross
# compiled. Usage:
#
#   build-arm-kernel.sh [--lpae] [--dir|--check]
#
#   (no option)  build unless cached; print the directory
#   --dir        only print the directory it would use
#   --check      only make the config and verify it
#   --lpae       the LPAE flavour (arm-kernel-lpae.config on top): RAM
#                above 4 GiB, as Debian's armmp-lpae
#
# The directory is $UGPU_CACHE/kernel-arm[-lpae]-<source version>-<hash>
# and holds build/ (the kbuild output tree, the KDIR of our modules),
# mod/lib/modules/<release>/, zImage, kernelrelease and build-time. The
# hash covers the fragments and the recipe version below. Two builds of
# the same kernel take turns through a lock.
#
# Environment: KSRC (default /usr/src/linux-source-6.12), UGPU_CACHE
# (default /var/cache/ugpu when writable, else ~/.cache/ugpu), JOBS
# (make -j, default 2; the build runs under nice -n 19), CROSS_COMPILE
# (default arm-linux-gnueabihf-).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
KSRC=${KSRC:-/usr/src/linux-source-6.12}
JOBS=${JOBS:-2}
CROSS_COMPILE=${CROSS_COMPILE:-arm-linux-gnueabihf-}

mode=build
flavour=
for a in "$@"; do
	case $a in
	--dir) mode=dir ;;
	--check) mode=check ;;
	--lpae) flavour=lpae ;;
	*)
		echo "usage: $0 [--lpae] [--dir|--check]" >&2
		exit 2
		;;
	esac
done

die() {
	echo "build-arm-kernel: $*" >&2
	exit 1
}

fragments=("$here/arm-kernel.config")
[[ -n $flavour ]] && fragments+=("$here/arm-kernel-$flavour.config")

# Hidden options the run relies on (selected by the fragment's drivers);
# each must end up y or m. Every line of the fragments must hold too (a
# later fragment's line overrides an earlier one's).
required=(
	CONFIG_DRM_GEM_SHMEM_HELPER CONFIG_DRM_SCHED CONFIG_DRM_EXEC
	CONFIG_REGMAP_MMIO CONFIG_GENERIC_ALLOCATOR CONFIG_DEV_COREDUMP
	CONFIG_PM_GENERIC_DOMAINS CONFIG_OF_RESERVED_MEM CONFIG_TRACEPOINTS
	CONFIG_ARM_GIC CONFIG_ARM_ARCH_TIMER CONFIG_IOMMU_API
)

verify_config() {
	local config=$1 bad=0 key want got

	while IFS='=' read -r key want; do
		[[ $want == n ]] && continue
		got=$(sed -n "s/^$key=//p" "$config")
		[[ -n $got ]] || got=n
		if [[ $want == m && $got == y ]] || [[ $got == "$want" ]]; then
			continue
		fi
		echo "build-arm-kernel: $key is $got, the fragment asks $want" >&2
		bad=1
	done < <(grep -hE '^CONFIG_[A-Z0-9_]+=' "${fragments[@]}" |
		awk -F= '{ want[$1] = $0 } END { for (k in want) print want[k] }')
	for key in "${required[@]}"; do
		grep -qE "^$key=(y|m)$" "$config" && continue
		echo "build-arm-kernel: $key is not enabled" >&2
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
hash=$( (cat "${fragments[@]}" && echo "recipe=$recipe") | sha256sum |
	cut -c1-12)
dir=$UGPU_CACHE/kernel-arm${flavour:+-$flavour}-$srcver-$hash

if [[ $mode == dir ]]; then
	echo "$dir"
	exit 0
fi

if [[ ! -f $KSRC/Makefile ]]; then
	[[ -r $KSRC.tar.xz ]] || die "$KSRC and $KSRC.tar.xz are both missing"
	echo "build-arm-kernel: extracting $KSRC.tar.xz" >&2
	sudo=()
	[[ -w $(dirname "$KSRC") ]] || sudo=(sudo)
	"${sudo[@]}" tar -C "$(dirname "$KSRC")" -xf "$KSRC.tar.xz"
fi

mkdir -p "$dir"
exec 8>"$dir/.lock"
if ! flock -n 8; then
	echo "build-arm-kernel: waiting for another build of $dir" >&2
	flock 8
fi

if [[ $mode == build && -f $dir/.complete ]]; then
	echo "$dir"
	exit 0
fi

obj=$dir/build
mkdir -p "$obj"
kmake=(make -C "$KSRC" O="$obj" ARCH=arm CROSS_COMPILE="$CROSS_COMPILE")
# allnoconfig with the fragments forced: only what is asked for, and
# what it selects.
cat "${fragments[@]}" >"$dir/fragment.config"
"${kmake[@]}" -s KCONFIG_ALLCONFIG="$dir/fragment.config" allnoconfig >&2
verify_config "$obj/.config"
if [[ $mode == check ]]; then
	echo "build-arm-kernel: $obj/.config has every required option" >&2
	exit 0
fi

echo "build-arm-kernel: building in $obj (-j$JOBS, log $dir/build.log)" >&2
start=$(date +%s)
if ! nice -n 19 "${kmake[@]}" -j"$JOBS" zImage modules \
	>"$dir/build.log" 2>&1; then
	tail -n 30 "$dir/build.log" >&2
	die "kernel build failed, see $dir/build.log"
fi
rm -rf "$dir/mod"
nice -n 19 "${kmake[@]}" -s INSTALL_MOD_PATH="$dir/mod" modules_install \
	>>"$dir/build.log" 2>&1 ||
	die "modules_install failed, see $dir/build.log"
end=$(date +%s)

release=$(cat "$obj/include/config/kernel.release")
cp "$obj/arch/arm/boot/zImage" "$dir/zImage"
echo "$release" >"$dir/kernelrelease"
echo $((end - start)) >"$dir/build-time"
touch "$dir/.complete"
echo "build-arm-kernel: $release built in $((end - start))s" >&2
echo "$dir"
