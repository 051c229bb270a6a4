#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The tests are documented the way IGT documents its own: every
# igt_subtest*() right after an igt_describe(), and each test file with
# one testplan comment (/** TEST: ... SUBTEST: ... */) using the fields of
# igt-tests/ugpu_test_config.json. IGT's scripts/igt_doc.py compares the
# documented subtests with those the binaries list (--list-subtests):
# an undocumented subtest, documentation of a subtest that does not
# exist, a subtest without a Description or a line igt_doc.py does not
# understand fails the check. Run by make check; exits 1 and says why.
#
#   tools/check-test-docs.sh [TOP [BINDIR]]
#
# BINDIR holds test binaries that run on this machine (default
# TOP/igt-tests/build, what "make tests" builds). IGT's source is
# $IGT_SRC, else igt-gpu-tools in shared/peers/ beside TOP or beside its
# parent; without it only the igt_describe() rule is checked, and a
# warning says so.

top=${1:-$(dirname "$0")/..}
cd "$top" || exit 2
top=$(pwd)
bindir=${2:-$top/igt-tests/build}
[ -d igt-tests/tests ] || { echo "$0: no igt-tests/tests/ in $top" >&2; exit 2; }

# The rules IGT's script does not check: an igt_describe() as the
# statement right before each subtest, one TEST block per file.
python3 - igt-tests/tests/*.c <<'EOF' || exit 1
import re
import sys

def strip_comments(src):
    """Blank out comments (newlines kept), leaving strings alone."""
    out = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j]))
            i = j
        elif src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)

def close_paren(code, i):
    """Index of the ')' closing the '(' at i, skipping strings."""
    depth = 0
    while i < len(code):
        c = code[i]
        if c in '"\'':
            j = i + 1
            while j < len(code) and code[j] != c:
                j += 2 if code[j] == '\\' else 1
            i = j
        elif c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1

subtest_re = re.compile(r'\bigt_subtest(_f|_with_dynamic|_with_dynamic_f)?\s*\(')
describe_re = re.compile(r'\bigt_describe(_f)?\s*\(')
bad = 0
for fname in sys.argv[1:]:
    with open(fname, encoding='utf8') as f:
        src = f.read()
    tests = len(re.findall(r'^\s*\*\s*TEST:', src, re.M))
    if tests != 1:
        print(f'{fname}: {tests} TEST blocks, not one', file=sys.stderr)
        bad = 1
    code = strip_comments(src)
    for m in subtest_re.finditer(code):
        line = code.count('\n', 0, m.start()) + 1
        ok = False
        last = None
        for d in describe_re.finditer(code, 0, m.start()):
            last = d
        if last:
            end = close_paren(code, last.end() - 1)
            args = code[last.end():end]
            ok = (end > 0 and re.fullmatch(r'\s*;\s*', code[end + 1:m.start()])
                  and re.search(r'"[^"]*\S[^"]*"', args))
        if not ok:
            print(f'{fname}:{line}: {m.group(0).rstrip("( ")} without an '
                  'igt_describe() right before it', file=sys.stderr)
            bad = 1
sys.exit(bad)
EOF

igt=
for d in "$IGT_SRC" "$top/../shared/peers/igt-gpu-tools" \
	 "$top/../../shared/peers/igt-gpu-tools"; do
	if [ -n "$d" ] && [ -f "$d/scripts/igt_doc.py" ]; then
		igt=$d
		break
	fi
done
if [ -z "$igt" ]; then
	echo "$0: IGT's scripts/igt_doc.py not found (IGT_SRC=$IGT_SRC):" \
		"the testplan comments are not checked" >&2
	exit 0
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tests"

# igt_doc.py reads BUILD/tests/NAME.testlist, the igt@NAME@SUBTEST lines
# IGT's build writes, and wants BUILD/tests/NAME to exist.
for src in igt-tests/tests/*.c; do
	name=$(basename "$src" .c)
	bin=$bindir/$name
	if [ ! -x "$bin" ]; then
		echo "$0: $bin is not built (make tests)" >&2
		exit 1
	fi
	ln -s "$bin" "$tmp/tests/$name"
	if ! "$bin" --list-subtests >"$tmp/list" 2>"$tmp/err" ||
	   [ ! -s "$tmp/list" ]; then
		echo "$0: $bin --list-subtests failed:" >&2
		cat "$tmp/err" >&2
		exit 1
	fi
	sed "s/^/igt@$name@/" "$tmp/list" >"$tmp/tests/$name.testlist"
done

config=$top/igt-tests/ugpu_test_config.json
out=$(python3 "$igt/scripts/igt_doc.py" --config "$config" \
	--check-testlist --igt-build-path "$tmp" 2>&1)
rc=$?
if [ $rc -ne 0 ] || printf '%s\n' "$out" | grep -qiE 'warning|error|not found'; then
	printf '%s\n' "$out" >&2
	echo "$0: the tests' documentation does not match their subtests" >&2
	exit 1
fi

# Every test states the fields of its TEST block (the subtests inherit
# all but Description).
python3 "$igt/scripts/igt_doc.py" --config "$config" \
	--to-json "$tmp/doc.json" >/dev/null || exit 1
python3 - "$tmp/doc.json" <<'EOF' || exit 1
import json
import sys

fields = ['Description', 'Category', 'Mega feature', 'Sub-category',
          'Functionality', 'Feature']
with open(sys.argv[1], encoding='utf8') as f:
    doc = json.load(f)
bad = 0
for test, data in sorted(doc.items()):
    for field in fields:
        if not data.get(field, '').strip():
            print(f'{test}: TEST block without {field}', file=sys.stderr)
            bad = 1
    for sub, sdata in sorted(data.items()):
        if (sub.startswith(test + '@') and
                not sdata.get('Description', '').strip()):
            print(f'{sub}: SUBTEST without Description', file=sys.stderr)
            bad = 1
sys.exit(bad)
EOF
exit 0
