#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the packages the build and the VM test bed need, only those that
# are missing, without prompting.
# Usage: install-deps.sh [--debug-kernel] [--arch ARCH --sysroot DIR
#                         [--no-kernel]] KVER
#
# KVER is the kernel release the modules are built for and the VM boots;
# the Makefile pins it. --debug-kernel adds what building the debug kernel
# from linux-source takes (make KERNEL=debug; BTF is off, so no pahole).
#
# --arch x86|arm64|arm is the architecture the VM runs (default x86). With
# --sysroot it is not the host's: the cross compiler and QEMU come from
# the host's packages; the target's kernel (image, modules, headers),
# static busybox and the libraries the tests and upstream IGT build and
# run with (with all they depend on, libc6-dev included) are Debian's
# packages of that architecture, downloaded with a private apt state (the
# host's dpkg is not told about the architecture) and unpacked into DIR,
# a cache outside the checkout that then works as the sysroot. --no-kernel leaves the target's kernel
# packages out: the kernel is built from linux-source instead
# (tools/vm/build-arm-kernel.sh), which takes the host's bc, bison and flex.
set -euo pipefail

usage="usage: $0 [--debug-kernel] [--arch ARCH --sysroot DIR [--no-kernel]] KVER"
debug_kernel=0
no_kernel=0
arch=x86
sysroot=
while [[ ${1:-} == --* ]]; do
	case $1 in
	--debug-kernel) debug_kernel=1 ;;
	--no-kernel) no_kernel=1 ;;
	--arch)
		arch=${2:?$usage}
		shift
		;;
	--sysroot)
		sysroot=${2:?$usage}
		shift
		;;
	*)
		echo "$usage" >&2
		exit 2
		;;
	esac
	shift
done
kver=${1:?$usage}
src_ver=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')
# Debian's ABI name: the release without its flavour (6.12.117+deb12).
kabi=$(echo "$kver" | sed -E 's/^([0-9.]+\+[a-z0-9]+)-.*/\1/')

case $arch in
x86) ;;
arm64)
	deb_arch=arm64
	triplet=aarch64-linux-gnu
	;;
arm)
	deb_arch=armhf
	triplet=arm-linux-gnueabihf
	;;
*)
	echo "install-deps: unknown architecture $arch" >&2
	exit 2
	;;
esac

pkgs=(
	"linux-source-$src_ver"
	busybox-static
	kmod
	libdrm-dev
	libpng-dev
	sparse
	cpio
	pkg-config
	gcc
	make
	libc6-dev
	xz-utils
	zstd
	# make bench: the raw figures (jq) into plots (gnuplot).
	jq
	gnuplot-nox
)
if [[ $arch == x86 ]]; then
	pkgs+=(qemu-system-x86)
else
	pkgs+=(qemu-system-arm)
fi
if [[ -z $sysroot ]]; then
	pkgs+=("linux-image-$kver-unsigned" "linux-headers-$kver")
	# Upstream IGT (tools/vm/build-igt.sh): meson, and the libraries its
	# library, runner and tests link.
	pkgs+=(meson ninja-build python3 libpciaccess-dev libkmod-dev
		libproc2-dev libdw-dev libpixman-1-dev libcairo2-dev libudev-dev
		libglib2.0-dev zlib1g-dev libjson-c-dev)
else
	# The target's headers run the host's kbuild programs; busybox-static
	# of the host lists the applets the target's one has.
	pkgs+=("linux-kbuild-$kabi" "linux-headers-$kabi-common"
		"gcc-$triplet" "libc6-dev-$deb_arch-cross")
fi
if [[ $debug_kernel -eq 1 ]]; then
	pkgs+=(bc bison flex libelf-dev libssl-dev)
fi
if [[ $no_kernel -eq 1 ]]; then
	pkgs+=(bc bison flex)
fi

installed() {
	local st

	st=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
	[[ $st == "install ok installed" ]]
}

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)

missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done

if [[ ${#missing[@]} -gt 0 ]]; then
	echo "install-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Package lists may be absent or stale on a fresh machine. A mirror
	# caught mid-sync fails one list while the rest are good: go on, and
	# let the install say what it cannot find.
	"${sudo[@]}" apt-get update -q ||
		echo "install-deps: some package lists did not update" >&2
	"${sudo[@]}" apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef \
		-o Dpkg::Options::=--force-confold \
		"${missing[@]}"
fi

# The target architecture's packages, unpacked into the sysroot, with
# every package they depend on (apt resolves them against an empty status
# file: nothing of the target is installed). A stamp per package records
# the version unpacked; a newer one is unpacked over it.
apt_dir=$sysroot/.apt
apt_opts=(-o "APT::Architecture=${deb_arch:-}"
	-o "APT::Architectures::=${deb_arch:-}"
	-o "Dir::State::Lists=$apt_dir/lists"
	-o "Dir::State::status=$apt_dir/status"
	-o "Dir::Cache=$apt_dir" -o Dir::Cache::pkgcache=
	-o Dir::Cache::srcpkgcache= -o Debug::NoLocking=1
	-o APT::Sandbox::User=root)

# "name version" of every package the named ones take to install.
closure() {
	apt-get -q "${apt_opts[@]}" install -s --no-install-recommends "$@" \
		2>/dev/null | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1 \2/p'
}

# "name version" of the named packages alone.
exact() {
	local p ver

	for p in "$@"; do
		ver=$(apt-cache "${apt_opts[@]}" show --no-all-versions "$p" \
			2>/dev/null | sed -n 's/^Version: //p' | head -n 1) || true
		[[ -n $ver ]] || return 1
		echo "$p $ver"
	done
}

# fetch_foreign [--exact] PACKAGE...: with --exact, without what they
# depend on (the kernel's packages: its image needs nothing to boot).
fetch_foreign() {
	local st=$sysroot/.stamps dl p ver all need=() resolve=closure

	if [[ $1 == --exact ]]; then
		resolve=exact
		shift
	fi

	mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$st"
	touch "$apt_dir/status"
	# The lists are refreshed when a package is missing from them or
	# its version is not the one unpacked.
	all=$("$resolve" "$@") || all=
	while read -r p ver; do
		[[ -n $p ]] || continue
		if [[ ! -e $st/$p || $(cat "$st/$p") != "$ver" ]]; then
			need+=("$p")
		fi
	done <<<"$all"
	[[ -n $all && ${#need[@]} -eq 0 ]] && return 0
	apt-get -q "${apt_opts[@]}" update >/dev/null ||
		echo "install-deps: some $deb_arch package lists did not update" >&2
	all=$("$resolve" "$@") || {
		echo "install-deps: cannot resolve $deb_arch packages $*" >&2
		apt-get -q "${apt_opts[@]}" install -s --no-install-recommends \
			"$@" >&2 || true
		exit 1
	}
	need=()
	while read -r p ver; do
		if [[ ! -e $st/$p || $(cat "$st/$p") != "$ver" ]]; then
			need+=("$p")
		fi
	done <<<"$all"
	[[ ${#need[@]} -eq 0 ]] && return 0
	echo "install-deps: fetching ${#need[@]} $deb_arch packages: ${need[*]}"
	dl=$(mktemp -d "$sysroot/.dl.XXXXXX")
	(cd "$dl" && apt-get -q "${apt_opts[@]}" download "${need[@]}" >/dev/null)
	for p in "${need[@]}"; do
		dpkg-deb -x "$dl/${p}"_*.deb "$sysroot"
		dpkg-deb -f "$dl/${p}"_*.deb Version >"$st/$p"
	done
	rm -rf "$dl"
	fix_links
}

# A library's development link may be absolute (libz.so ->
# /lib/<triplet>/libz.so.1): the linker would follow it to the host's
# root. Those that point into the sysroot are made relative.
fix_links() {
	local d l t

	for d in "$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet"; do
		[[ -d $d ]] || continue
		while IFS= read -r -d '' l; do
			t=$(readlink "$l")
			[[ -e $sysroot$t ]] || continue
			ln -sfn "$(realpath -s --relative-to="$(dirname "$l")" \
				"$sysroot$t")" "$l"
		done < <(find "$d" -type l -lname '/*' -print0)
	done
}

if [[ -z $sysroot ]]; then
	# The VM boots this file; the host may run any other kernel.
	[[ -r /boot/vmlinuz-$kver ]] || {
		echo "install-deps: /boot/vmlinuz-$kver is missing or unreadable" >&2
		exit 1
	}
else
	mkdir -p "$sysroot"
	# busybox and the libraries of the tests and tools; upstream IGT's
	# library and runner (tools/vm/build-igt.sh) take the rest, libc6-dev
	# included, since it is built with the sysroot as the compiler's.
	fetch_foreign busybox-static libdrm-dev libpng-dev zlib1g-dev \
		libpciaccess-dev libkmod-dev libproc2-dev libdw-dev \
		libpixman-1-dev libcairo2-dev libudev-dev libglib2.0-dev \
		libjson-c-dev
	[[ -x $sysroot/bin/busybox ]] || {
		echo "install-deps: $sysroot/bin/busybox is missing" >&2
		exit 1
	}
fi
if [[ -n $sysroot && $no_kernel -eq 0 ]]; then
	# armhf has no signed images, hence no -unsigned package.
	image=linux-image-$kver-unsigned
	[[ $arch == arm ]] && image=linux-image-$kver
	fetch_foreign --exact "$image" "linux-headers-$kver"
	# The headers' scripts/ and tools/ point at the target's kbuild
	# package; the host's one (same version) runs here instead.
	mkdir -p "$sysroot/usr/lib"
	ln -sfn "/usr/lib/linux-kbuild-$kabi" \
		"$sysroot/usr/lib/linux-kbuild-$kabi"
	# The package leaves modules.dep to its postinst; the initramfs
	# resolves the modules ours need with it.
	moddir=$sysroot/lib/modules/$kver
	if [[ ! -e $moddir/modules.dep ||
		$moddir/modules.order -nt $moddir/modules.dep ]]; then
		depmod -b "$sysroot" "$kver"
	fi
	for f in "$sysroot/boot/vmlinuz-$kver" \
		"$sysroot/usr/src/linux-headers-$kver/Makefile"; do
		[[ -r $f ]] || {
			echo "install-deps: $f is missing" >&2
			exit 1
		}
	done
fi

# checkpatch.pl lives in the kernel source, shipped as a tarball.
srcdir=/usr/src/linux-source-$src_ver
if [[ ! -x $srcdir/scripts/checkpatch.pl ]]; then
	tarball=$srcdir.tar.xz
	[[ -r $tarball ]] || {
		echo "install-deps: $tarball is missing" >&2
		exit 1
	}
	echo "install-deps: extracting $tarball"
	"${sudo[@]}" tar -C /usr/src -xf "$tarball"
fi
