#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The tests compute what they expect from the hardware's description,
# never from the simulator's code: no file under igt-tests/ may include a
# header of drivers/ugpu/sim/ (nor any other driver header), and the
# tests' Makefile may not put drivers/ on the include path. The formats
# the simulator invents are in include/ugpu/sim/, where the tests may use
# them openly. Run by make check; exits 1 and names the offending lines.
#
#   tools/check-test-includes.sh [TOP]

top=${1:-$(dirname "$0")/..}
cd "$top" || exit 2
[ -d igt-tests ] || { echo "$0: no igt-tests/ in $top" >&2; exit 2; }

bad=$(find igt-tests -name '*.[ch]' ! -path '*/.obj/*' ! -path '*/build/*' \
	-exec grep -HnE \
	'^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]*/)?(drivers/|sim_[A-Za-z0-9_]*\.h)' \
	{} +)
flags=$(grep -HnE -- '-I[[:space:]]*[^[:space:]]*drivers' igt-tests/Makefile)

if [ -n "$bad$flags" ]; then
	echo "igt-tests must not include the simulator's or drivers' headers:" >&2
	[ -n "$bad" ] && echo "$bad" >&2
	[ -n "$flags" ] && echo "$flags" >&2
	exit 1
fi
exit 0
