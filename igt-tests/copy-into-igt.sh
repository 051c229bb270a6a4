#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Put ugpu's tests into an IGT source tree the way igt-tests/README.md
# tells a user to: lib/ as lib/ugpu, tests/ as tests/ugpu (the links to
# the uapi and hardware headers followed), and tests/ugpu built from
# tests/meson.build. Run again, it replaces the copies and keeps the
# files' times, so that ninja rebuilds only what changed.
#
#   igt-tests/copy-into-igt.sh IGT_TREE
set -eu

igt=${1:?usage: $0 IGT_TREE}
here=$(cd "$(dirname "$0")" && pwd)

[ -f "$igt/tests/meson.build" ] || {
	echo "$0: $igt is not an IGT source tree" >&2
	exit 1
}
# A copy of a read-only snapshot keeps its modes.
chmod u+w "$igt/lib" "$igt/tests" "$igt/tests/meson.build"
rm -rf "$igt/lib/ugpu" "$igt/tests/ugpu"
cp -RL -p "$here/lib" "$igt/lib/ugpu"
cp -RL -p "$here/tests" "$igt/tests/ugpu"
grep -qx "subdir('ugpu')" "$igt/tests/meson.build" ||
	echo "subdir('ugpu')" >>"$igt/tests/meson.build"
