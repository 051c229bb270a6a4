#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build upstream IGT GPU Tools (the library, igt_runner and the DRM core
# tests) from a source snapshot, out of tree, for the test VM.
# Usage: build-igt.sh SNAPSHOT OUT
#
# SNAPSHOT is never written to: it is copied to OUT/src once, configured
# into OUT/build and built with ninja. A later run only calls ninja, which
# does nothing when nothing changed; a different snapshot (its file list,
# sizes and times) starts over. Prints OUT/build on success.
set -euo pipefail

snap=${1:?usage: $0 SNAPSHOT OUT}
out=${2:?usage: $0 SNAPSHOT OUT}

die() {
	echo "build-igt: $*" >&2
	exit 1
}

[[ -f $snap/meson.build ]] || die "$snap is not an IGT source tree"
command -v meson >/dev/null || die "meson is missing (make deps)"

stamp=$(cd "$snap" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort |
	md5sum | cut -d' ' -f1)
if [[ $(cat "$out/stamp" 2>/dev/null) != "$stamp" ]]; then
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$snap" "$out/src"
	# The snapshot may sit inside another git checkout: the version hash
	# is given, or meson would ask git. The test-plan documentation reads
	# tests/intel/, which the snapshot does not have; libdrm's vendor
	# drivers are not needed by any test that runs on ugpu.
	meson setup "$out/build" "$out/src" \
		-Dlibdrm_drivers= -Dtests=enabled -Drunner=enabled \
		-Dlibunwind=disabled -Ddocs=disabled -Dman=disabled \
		-Dtestplan=disabled -Dsphinx=disabled -Doverlay=disabled \
		-Dchamelium=disabled -Dvalgrind=disabled -Doping=disabled \
		-Dxe_driver=disabled -Dversion_hash=snapshot >"$out/setup.log" 2>&1 ||
		die "meson setup failed, see $out/setup.log"
	echo "$stamp" >"$out/stamp"
fi
ninja -C "$out/build" >"$out/ninja.log" 2>&1 ||
	die "ninja failed, see $out/ninja.log"
echo "$out/build"
