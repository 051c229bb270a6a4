#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Pack the test VM's initramfs: static busybox, our modules, the in-kernel
# modules they need (resolved from the built .ko files, in load order),
# vgem and sw_sync, the simulated GPUs' firmware, the test binaries and
# user tools with their shared libraries, upstream IGT's tests, and /init.
#
# Environment (the Makefile sets all of it):
#   KVER          kernel release the VM boots
#   BUILD         output directory; the archive is $BUILD/initramfs.cpio
#   UGPU_MODULES  our modules in load order
#   IGT_BUILD     directory holding the test binaries
#   USER_TOOLS    $TOOLS_BUILD/<name>/<name> programs to install in /usr/bin
#   TOOLS_BUILD   where the tools were built (default: tools/)
#   VM_CROSS      1: the VM's architecture is not the host's
#   VM_SYSROOT    root of the VM's architecture's shared libraries and
#                 dynamic loader (default: the host's /)
#   VM_TRIPLET    its multiarch name (default: x86_64-linux-gnu)
#   VM_BUSYBOX    static busybox of the VM's architecture (default: the
#                 host's)
#   DEMO_TOOLS    those of them that "make run" runs after ugpu-info
#   ALLOW_MISSING 1: leave out modules that are not built instead of failing
#   UGPU_KO_DIR   where our built .ko files are (default: drivers/)
#   VM_MODROOT    root of the kernel's module tree, which is
#                 $VM_MODROOT/lib/modules/$KVER (default: the host's /)
#   SW_SYNC_KO    the sw_sync module for a kernel without it (loaded with
#                 the in-kernel modules) or empty
#   IGT_UPSTREAM  build tree of upstream IGT (tools/vm/build-igt.sh) or
#                 empty; its tests named in IGT_UPSTREAM_TESTS go to
#                 /igt/tests, its libraries to /igt/lib, its runner to
#                 /igt/runner
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${KVER:?}" "${BUILD:?}" "${UGPU_MODULES:?}"
IGT_BUILD=${IGT_BUILD:-$top/igt-tests/build}
ALLOW_MISSING=${ALLOW_MISSING:-0}
USER_TOOLS=${USER_TOOLS:-ugpu-info mali-frame}
DEMO_TOOLS=${DEMO_TOOLS:-mali-frame}
UGPU_KO_DIR=${UGPU_KO_DIR:-$top/drivers}
VM_MODROOT=${VM_MODROOT:-}
TOOLS_BUILD=${TOOLS_BUILD:-$top/tools}
VM_CROSS=${VM_CROSS:-0}
VM_BUSYBOX=${VM_BUSYBOX:-}

root=$BUILD/initramfs
moddir=$VM_MODROOT/lib/modules/$KVER
modprobe=(modprobe -S "$KVER")
[[ -n $VM_MODROOT ]] && modprobe+=(-d "$VM_MODROOT")

die() {
	echo "mkinitramfs: $*" >&2
	exit 1
}

[[ -d $moddir ]] || die "$moddir is missing"

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,proc,sys,dev,tmp,tests}
mkdir -p "$root"/lib/ugpu "$root"/lib/kdeps

# Shared libraries and the dynamic loader of a binary, at the paths the
# VM's loader looks: its own path, /lib/<triplet>, /usr/lib/<triplet>,
# /lib, /usr/lib. They are resolved from VM_SYSROOT (the host's root for
# x86) by walking DT_NEEDED as the loader does, the binary's RUNPATH
# first: readelf reads a foreign architecture's ELF too. IGT's own
# libraries, which the RUNPATH ($ORIGIN/../lib) finds, go under /igt as
# in its build tree.
libroot=${VM_SYSROOT:-}
[[ $libroot == / ]] && libroot=
triplet=${VM_TRIPLET:-x86_64-linux-gnu}
libdirs=("$libroot/lib/$triplet" "$libroot/usr/lib/$triplet" "$libroot/lib"
	"$libroot/usr/lib")
declare -A libs_done=()

# The file a path of the VM's root names, symbolic links followed inside
# that root (a sysroot's absolute link points into the sysroot).
resolve_in_root() {
	local p=$1 t n=0

	while [[ -L $p ]]; do
		t=$(readlink "$p")
		if [[ $t == /* ]]; then
			p=$libroot$t
		else
			p=$(dirname "$p")/$t
		fi
		((++n < 40)) || die "$1: too many symbolic links"
	done
	[[ -f $p ]] || return 1
	echo "$p"
}

# Copy host file $1 to the initramfs path $2 and what it needs.
install_lib() {
	local src dst=$2

	[[ -n ${libs_done[$dst]:-} ]] && return 0
	libs_done[$dst]=1
	src=$(resolve_in_root "$1") || die "$1 is missing"
	mkdir -p "$root$(dirname "$dst")"
	cp "$src" "$root$dst"
	copy_libs "$src"
}

# Copy shared library $1 (a DT_NEEDED name), found in the directories
# $2..., and what it needs.
install_needed() {
	local name=$1 dir path
	shift

	for dir in "$@"; do
		[[ -e $dir/$name ]] || continue
		path=$dir/$name
		if [[ -n ${IGT_UPSTREAM:-} && $path == "$IGT_UPSTREAM"/* ]]; then
			path=$(realpath -s "$path")
			install_lib "$path" "/igt/${path#"$IGT_UPSTREAM"/}"
		else
			install_lib "$path" "${path#"$libroot"}"
		fi
		return 0
	done
	return 1
}

copy_libs() {
	local f=$1 headers dyn interp lib rp dirs=()

	# Scripts have none.
	headers=$(LC_ALL=C readelf -lW "$f" 2>/dev/null) || return 0
	interp=$(sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p' \
		<<<"$headers")
	[[ -n $interp ]] && install_lib "$libroot$interp" "$interp"
	dyn=$(LC_ALL=C readelf -dW "$f")
	for rp in $(sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]$/\2/p' \
		<<<"$dyn" | tr ':' ' '); do
		dirs+=("${rp//\$ORIGIN/$(dirname "$f")}")
	done
	while read -r lib; do
		[[ -n $lib ]] || continue
		install_needed "$lib" "${dirs[@]}" "${libdirs[@]}" ||
			die "$f: shared library $lib not found"
	done < <(sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' <<<"$dyn")
}

# busybox provides the shell and every command /init uses. A foreign one
# cannot run here: the host's busybox of the same Debian package lists the
# applets.
busybox=$(command -v busybox) || die "busybox not found"
cp "${VM_BUSYBOX:-$busybox}" "$root/bin/busybox"
copy_libs "$root/bin/busybox"
while read -r applet; do
	[[ -e $root/$applet || -L $root/$applet ]] && continue
	mkdir -p "$root/$(dirname "$applet")"
	ln -s /bin/busybox "$root/$applet"
done < <("$busybox" --list-full)

# Copy a kernel module, uncompressed: busybox insmod reads plain ELF only.
copy_module() {
	local src=$1 dst=$2

	case $src in
	*.ko.xz) xz -dc "$src" >"$dst" ;;
	*.ko.zst) zstd -q -dc "$src" >"$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$dst" ;;
	*.ko) cp "$src" "$dst" ;;
	*) die "unknown module file $src" ;;
	esac
}

# Our modules, in load order.
ours=()
: >"$root/lib/ugpu/modules"
for m in $UGPU_MODULES; do
	ko=$(find -L "$UGPU_KO_DIR" -name "$m.ko" -print -quit)
	if [[ -z $ko ]]; then
		[[ $ALLOW_MISSING == 1 ]] || die "module $m.ko was not built"
		echo "mkinitramfs: warning: $m.ko not built, left out" >&2
		continue
	fi
	cp "$ko" "$root/lib/ugpu/$m.ko"
	echo "$m" >>"$root/lib/ugpu/modules"
	ours+=("$ko")
done

is_ours() {
	local m

	for m in $UGPU_MODULES; do
		[[ $1 == "$m" ]] && return 0
	done
	return 1
}

# In-kernel dependencies: modinfo gives the direct ones, modprobe resolves
# each to the full chain in load order; first occurrence wins, which keeps
# every module after the modules it needs.
declare -A seen=()
# Copy in-kernel module $1 and what it needs, not yet copied, to folder
# $2 of the initramfs, appending their names in load order to $2/order.
add_kmod() {
	local chain kind path name

	chain=$("${modprobe[@]}" --show-depends "$1") ||
		die "cannot resolve $1${3:+ (needed by $3)}"
	while read -r kind path _; do
		[[ $kind == insmod ]] || continue
		name=$(basename "$path")
		name=${name%%.ko*}
		[[ -n ${seen[$name]:-} ]] && continue
		seen[$name]=1
		copy_module "$path" "$root/$2/$name.ko"
		echo "$name" >>"$root/$2/order"
	done <<<"$chain"
}

: >"$root/lib/kdeps/order"
for ko in "${ours[@]}"; do
	deps=$(modinfo -F depends "$ko")
	for dep in ${deps//,/ }; do
		is_ours "$dep" && continue
		add_kmod "$dep" lib/kdeps "$(basename "$ko")"
	done
done
# vgem: the other driver the tests share buffers and fences with, and the
# benchmarks' anchor.
add_kmod vgem lib/kdeps
# The Mali driver's devfreq governor, loaded by name when the device
# registers: a module on some kernels, built in or absent on others.
if "${modprobe[@]}" --show-depends governor_simpleondemand >/dev/null 2>&1; then
	add_kmod governor_simpleondemand lib/kdeps
fi
if [[ -n ${SW_SYNC_KO:-} ]]; then
	cp "$SW_SYNC_KO" "$root/lib/kdeps/"
	basename "$SW_SYNC_KO" .ko >>"$root/lib/kdeps/order"
fi

# The simulated Adreno's SQE microcode and GMU firmware (a630_sqe.fw,
# a660_sqe.fw, a630_gmu.bin, a660_gmu.bin; test formats, not Qualcomm's),
# under the names the driver requests, as linux-firmware installs them.
fwgen=$top/tools/adreno-fw/adreno-fw
[[ -x $fwgen ]] || die "$fwgen was not built"
mkdir -p "$root/lib/firmware/qcom"
"$fwgen" "$root/lib/firmware/qcom" || die "$fwgen failed"

# Test binaries: every executable file directly in IGT_BUILD.
if [[ -d $IGT_BUILD ]]; then
	for t in "$IGT_BUILD"/*; do
		[[ -f $t && -x $t ]] || continue
		cp "$t" "$root/tests/"
		copy_libs "$t"
	done
fi
# igt_runner wants the list of a test directory's binaries, in the form
# IGT's build writes it.
(cd "$root/tests" && printf 'TESTLIST\n%s\nEND TESTLIST\n' \
	"$(find . -maxdepth 1 -type f -perm -u+x -printf '%P\n' |
		LC_ALL=C sort | paste -sd' ')") >"$root/tests/test-list.txt"

# Upstream IGT: the tests of the list (a name per line, perhaps with the
# subtests left out, # comments),
# its libraries where their RUNPATH finds them, and libgcc_s,
# which glibc loads for pthread_exit() and IGT's threads need.
if [[ -n ${IGT_UPSTREAM:-} ]]; then
	mkdir -p "$root/igt/tests"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$IGT_UPSTREAM_TESTS" |
		while read -r t excluded; do
			[[ -x $IGT_UPSTREAM/tests/$t ]] ||
				die "IGT test $t was not built"
			cp "$IGT_UPSTREAM/tests/$t" "$root/igt/tests/"
			copy_libs "$IGT_UPSTREAM/tests/$t"
			echo "$t" "$excluded"
		done >"$root/igt/list"
	install_needed libgcc_s.so.1 "${libdirs[@]}" ||
		die "libgcc_s.so.1 not found"
	# The runner, for running the tests as IGT's CI does; it reads the
	# names of the tests in its directory from test-list.txt.
	mkdir -p "$root/igt/runner"
	for r in igt_runner igt_resume igt_results; do
		[[ -x $IGT_UPSTREAM/runner/$r ]] || die "IGT's $r was not built"
		cp "$IGT_UPSTREAM/runner/$r" "$root/igt/runner/"
		copy_libs "$IGT_UPSTREAM/runner/$r"
	done
	{
		echo TESTLIST
		awk '{ print $1 }' "$root/igt/list" | tr '\n' ' '
		echo
		echo END TESTLIST
	} >"$root/igt/tests/test-list.txt"
fi

for t in $USER_TOOLS; do
	bin=$TOOLS_BUILD/$t/$t
	[[ -x $bin ]] || die "$bin was not built"
	cp "$bin" "$root/usr/bin/"
	copy_libs "$bin"
done
echo "$DEMO_TOOLS" | tr ' ' '\n' | sed '/^$/d' >"$root/lib/ugpu/demos"

install -m 0755 "$top/tools/vm/init" "$root/init"

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --quiet) >"$BUILD/initramfs.cpio"
nkdeps=$(wc -l <"$root/lib/kdeps/order")
ntests=$(find "$root/tests" -type f -perm -u+x | wc -l)
echo "mkinitramfs: $BUILD/initramfs.cpio ($nkdeps in-kernel modules," \
	"$ntests test binaries)"
