#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the packages the build and the VM test bed need, only those that
# are missing, without prompting. Usage: install-deps.sh [--debug-kernel] KVER
#
# KVER is the kernel release the modules are built for and the VM boots;
# the Makefile pins it. --debug-kernel adds what building the debug kernel
# from linux-source takes (make KERNEL=debug; BTF is off, so no pahole).
set -euo pipefail

debug_kernel=0
if [[ ${1:-} == --debug-kernel ]]; then
	debug_kernel=1
	shift
fi
kver=${1:?usage: $0 [--debug-kernel] KVER}
src_ver=$(echo "$kver" | sed -E 's/^([0-9]+\.[0-9]+).*/\1/')

pkgs=(
	"linux-image-$kver-unsigned"
	"linux-headers-$kver"
	"linux-source-$src_ver"
	qemu-system-x86
	busybox-static
	kmod
	libdrm-dev
	sparse
	cpio
	pkg-config
	gcc
	make
	libc6-dev
	xz-utils
	zstd
)
if [[ $debug_kernel -eq 1 ]]; then
	pkgs+=(bc bison flex libelf-dev libssl-dev)
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
	# Package lists may be absent or stale on a fresh machine.
	"${sudo[@]}" apt-get update -q
	"${sudo[@]}" apt-get install -y -q --no-install-recommends \
		-o Dpkg::Options::=--force-confdef \
		-o Dpkg::Options::=--force-confold \
		"${missing[@]}"
fi

# The VM boots this file; the host may run any other kernel.
[[ -r /boot/vmlinuz-$kver ]] || {
	echo "install-deps: /boot/vmlinuz-$kver is missing or unreadable" >&2
	exit 1
}

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
