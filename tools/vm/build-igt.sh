#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build upstream IGT GPU Tools (the library, igt_runner and the DRM core
# tests) from a source snapshot, out of tree, for the test VM.
# Usage: build-igt.sh [--cross ARCH TRIPLET SYSROOT] SNAPSHOT OUT [TARGET...]
#
# SNAPSHOT is never written to: it is copied to OUT/src once, configured
# into OUT/build and built with ninja. A later run only calls ninja, which
# does nothing when nothing changed; a different snapshot (its file list,
# sizes and times) or other arguments start over. Prints OUT/build on
# success.
#
# --cross builds for ARCH (arm64 or arm) with TRIPLET-gcc against the
# target's libraries unpacked in SYSROOT (tools/install-deps.sh), through a
# meson cross file written to OUT/cross.ini. Only the library and the
# runner are built then, and the TARGETs (ninja's names, e.g.
# tests/core_getversion): the tests are many and cost minutes each under
# a cross compiler on a small machine. Natively every target is built,
# ugpu's tests (igt-tests/) among them.
set -euo pipefail

usage="usage: $0 [--cross ARCH TRIPLET SYSROOT] SNAPSHOT OUT [TARGET...]"
arch=
if [[ ${1:-} == --cross ]]; then
	arch=${2:?$usage}
	triplet=${3:?$usage}
	sysroot=${4:?$usage}
	shift 4
fi
snap=${1:?$usage}
out=${2:?$usage}
shift 2
targets=("$@")

die() {
	echo "build-igt: $*" >&2
	exit 1
}

[[ -f $snap/meson.build ]] || die "$snap is not an IGT source tree"
command -v meson >/dev/null || die "meson is missing (make deps)"

cross=()
if [[ -n $arch ]]; then
	case $arch in
	arm64) cpu=aarch64 ;;
	arm) cpu=arm ;;
	*) die "unknown architecture $arch" ;;
	esac
	[[ -e $sysroot/usr/include/stdio.h ]] ||
		die "$sysroot has no libc6-dev (make deps ARCH=$arch)"
	command -v "$triplet-gcc" >/dev/null || die "$triplet-gcc is missing"
	cross=(--cross-file "$out/cross.ini")
	# The targets named by libigt's and the runner's own meson files.
	targets=(lib/libigt.so.0 runner/igt_runner runner/igt_resume
		runner/igt_results "${targets[@]}")
fi

stamp=$( (cd "$snap" && find . -type f -printf '%P %s %T@\n' |
	LC_ALL=C sort; [[ -z $arch ]] || echo "$arch $triplet $sysroot") |
	md5sum | cut -d' ' -f1)
if [[ $(cat "$out/stamp" 2>/dev/null) != "$stamp" ]]; then
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$snap" "$out/src"
	if [[ -n $arch ]]; then
		# The compiler takes the sysroot as its root: the target's
		# libc6-dev and libraries, and their pkg-config files, whose
		# paths pkg-config prefixes with it.
		cat >"$out/cross.ini" <<-EOF
			[binaries]
			c = ['$triplet-gcc', '--sysroot=$sysroot']
			ar = '$triplet-gcc-ar'
			strip = '$triplet-strip'
			pkgconfig = 'pkg-config'

			[properties]
			sys_root = '$sysroot'
			pkg_config_libdir = ['$sysroot/usr/lib/$triplet/pkgconfig', '$sysroot/usr/share/pkgconfig']

			[host_machine]
			system = 'linux'
			cpu_family = '$cpu'
			cpu = '$cpu'
			endian = 'little'
		EOF
	fi
	# The snapshot may sit inside another git checkout: the version hash
	# is given, or meson would ask git. The test-plan documentation reads
	# tests/intel/, which the snapshot does not have; libdrm's vendor
	# drivers are not needed by any test that runs on ugpu.
	meson setup "${cross[@]}" "$out/build" "$out/src" \
		-Dlibdrm_drivers= -Dtests=enabled -Drunner=enabled \
		-Dlibunwind=disabled -Ddocs=disabled -Dman=disabled \
		-Dtestplan=disabled -Dsphinx=disabled -Doverlay=disabled \
		-Dchamelium=disabled -Dvalgrind=disabled -Doping=disabled \
		-Dxe_driver=disabled -Dversion_hash=snapshot >"$out/setup.log" 2>&1 ||
		die "meson setup failed, see $out/setup.log"
	echo "$stamp" >"$out/stamp"
fi
# Natively, ugpu's tests go into the copied tree the way
# igt-tests/README.md tells a user to put them into theirs, and build with
# IGT's own tests (build/tests/ugpu/): the check that they still do.
if [[ -z $arch ]]; then
	"$(dirname "$0")/../../igt-tests/copy-into-igt.sh" "$out/src" ||
		die "cannot copy ugpu's tests into $out/src"
fi
ninja -C "$out/build" "${targets[@]}" >"$out/ninja.log" 2>&1 ||
	die "ninja failed, see $out/ninja.log"
echo "$out/build"
