#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mirror the module sources of the checkout SRC as a tree of symbolic links
# in DEST, so that kbuild (M=DEST) writes its objects there and a second
# kernel's build does not clobber the first one's. Links to files that
# are gone are removed; the objects stay until "make clean".
# Usage: link-tree.sh SRC DEST
set -euo pipefail

src=$(cd "${1:?usage: $0 SRC DEST}" && pwd)
dest=${2:?usage: $0 SRC DEST}

mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
ln -sfn "$src/Kbuild" "$dest/Kbuild"
(cd "$src" && find drivers -type f \( -name '*.[ch]' -o -name Kbuild -o \
	-name Makefile \) ! -name '*.mod.c') | while read -r f; do
	[[ -L $dest/$f ]] && continue
	mkdir -p "$dest/$(dirname "$f")"
	ln -sfn "$src/$f" "$dest/$f"
done
find "$dest/drivers" -xtype l -delete
