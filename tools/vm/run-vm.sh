#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot the test VM and judge its output.
# Usage: run-vm.sh check|run|bench|fuzz|shell
#
#   check  run the tests (TESTS, SUBTEST narrow them down)
#   run    print the GPUs, let the demos draw on every device, PNGs in $OUT
#   bench  time the basic operations of every device (ugpu-bench), print
#          the tables at the end and keep them in $BUILD/vm-bench.txt
#   fuzz   run ugpu-fuzz (FUZZ_SEED, FUZZ_ITERS, FUZZ_SECONDS) and its
#          fault-injection walk, or replay iteration FUZZ_ITER
#   shell  interactive busybox shell with the modules loaded
#
# check, run and bench exit non-zero when a test failed, the VM did not
# finish in VM_TIMEOUT seconds, or the kernel log shows a warning, oops,
# lockup or similar. The last line is "N passed, N failed, N skipped". The console
# is saved to $BUILD/vm-console.log.
set -euo pipefail

mode=${1:-check}
case $mode in
check | run | bench | fuzz | shell) ;;
*)
	echo "usage: $0 check|run|bench|fuzz|shell" >&2
	exit 2
	;;
esac

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${KVER:?}"
BUILD=${BUILD:-$top/build}
OUT=${OUT:-$top/out}
SUBTEST_TIMEOUT=${SUBTEST_TIMEOUT:-120}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
TESTS=${TESTS:-}
SUBTEST=${SUBTEST:-}
VM_APPEND=${VM_APPEND:-}
export KVER BUILD

mkdir -p "$BUILD"
# One VM run at a time per build directory: they share the initramfs and
# the logs.
exec 9>"$BUILD/.vm.lock"
if ! flock -n 9; then
	echo "run-vm: waiting for another VM run in $BUILD to finish"
	flock 9
fi
"$top/tools/vm/mkinitramfs.sh"
initramfs=$BUILD/initramfs.cpio

kernel=/boot/vmlinuz-$KVER
[[ -r $kernel ]] || {
	echo "run-vm: $kernel is missing (make deps installs it)" >&2
	exit 1
}

for v in TESTS SUBTEST; do
	if [[ ${!v} == *[[:space:]]* ]]; then
		echo "run-vm: $v must not contain spaces (use commas)" >&2
		exit 2
	fi
done

# loglevel=5 keeps warnings and worse live on the console; the whole log
# is printed at the end anyway.
append="console=ttyS0 panic=-1 loglevel=5 ugpu_mode=$mode"
append+=" ugpu_timeout=$SUBTEST_TIMEOUT"
[[ -n $TESTS ]] && append+=" ugpu_tests=$TESTS"
[[ -n $SUBTEST ]] && append+=" ugpu_subtest=$SUBTEST"
[[ -n ${FUZZ_SEED:-} ]] && append+=" ugpu_fuzz_seed=$FUZZ_SEED"
[[ -n ${FUZZ_ITERS:-} ]] && append+=" ugpu_fuzz_iters=$FUZZ_ITERS"
[[ -n ${FUZZ_SECONDS:-} ]] && append+=" ugpu_fuzz_seconds=$FUZZ_SECONDS"
[[ -n ${FUZZ_ITER:-} ]] && append+=" ugpu_fuzz_iter=$FUZZ_ITER"
append+=" ugpu_fuzz_check=${FUZZ_CHECK_SECONDS:-0}"
[[ -n $VM_APPEND ]] && append+=" $VM_APPEND"

# An interactive session may last: boot a private copy and let others
# use the build directory meanwhile.
if [[ $mode == shell ]]; then
	initramfs=$(mktemp "${TMPDIR:-/tmp}/ugpu-shell.XXXXXX")
	trap 'rm -f "$initramfs"' EXIT
	cp "$BUILD/initramfs.cpio" "$initramfs"
	flock -u 9
fi

qemu=(qemu-system-x86_64 -accel tcg -smp 2 -m 2048 -nographic -no-reboot
	-kernel "$kernel" -initrd "$initramfs" -append "$append")

if [[ $mode == shell ]]; then
	"${qemu[@]}"
	exit 0
fi

log=$BUILD/vm-console.log
# The base64 of the frames stays in the log, off the terminal; so do the
# benchmark tables, printed once at the end.
# --foreground keeps QEMU in our process group, so that an interrupted
# run takes it down too.
if timeout --foreground -k 10 "$VM_TIMEOUT" "${qemu[@]}" </dev/null 2>&1 |
	tee "$log" |
	sed -u -e '/^@@UGPU:PNG-BEGIN/,/^@@UGPU:PNG-END/{/^@@UGPU:PNG/!d}' \
		-e '/^@@UGPU:BENCH-BEGIN/,/^@@UGPU:BENCH-END/{/^@@UGPU:BENCH/!d}'; then
	qemu_rc=0
else
	qemu_rc=${PIPESTATUS[0]}
fi

clean=$BUILD/vm-console.clean.log
tr -d '\r' <"$log" >"$clean"

problems=()
[[ $qemu_rc -eq 124 || $qemu_rc -eq 137 ]] &&
	problems+=("VM timed out after ${VM_TIMEOUT}s")

if grep -q '^@@UGPU:ABORTED' "$clean"; then
	problems+=("VM gave up: a process was stuck in the kernel")
elif ! grep -q '^@@UGPU:DONE' "$clean"; then
	problems+=("VM did not finish the run")
fi

# The summary block is authoritative; the live lines are the fallback
# when the VM died before printing it.
results=$BUILD/vm-results.txt
if grep -q '^@@UGPU:RESULTS-END' "$clean"; then
	sed -n '/^@@UGPU:RESULTS-BEGIN/,/^@@UGPU:RESULTS-END/p' "$clean" |
		grep -E '^(PASS|FAIL|SKIP) [^ ]+ \(' >"$results" || true
else
	grep -E '^(PASS|FAIL|SKIP) [^ ]+ \(' "$clean" >"$results" || true
fi
passed=$(grep -c '^PASS ' "$results" || true)
failed=$(grep -c '^FAIL ' "$results" || true)
skipped=$(grep -c '^SKIP ' "$results" || true)
[[ $mode == check && $((passed + failed + skipped)) -eq 0 ]] &&
	problems+=("no subtest ran")

# Kernel log: the dmesg dump, or the whole console when there is none.
dmesg_log=$BUILD/vm-dmesg.log
if grep -q '^@@UGPU:DMESG-END' "$clean"; then
	sed -n '/^@@UGPU:DMESG-BEGIN/,/^@@UGPU:DMESG-END/p' "$clean" |
		sed '1d;$d' >"$dmesg_log"
else
	cp "$clean" "$dmesg_log"
fi
bad_re='WARNING:|BUG:|Oops|general protection fault|UBSAN|soft lockup|'
bad_re+='hard LOCKUP|hung_task|blocked for more than|refcount_t|'
bad_re+='list_add corruption|list_del corruption|kernel BUG|Call Trace|'
bad_re+='Kernel panic'
# Only kernel lines count: test output on the console may quote them.
if grep -q '^@@UGPU:DMESG-END' "$clean"; then
	kbad=$(grep -E "$bad_re" "$dmesg_log" || true)
else
	kbad=$(grep -E '^\[ *[0-9]+\.[0-9]+\]' "$dmesg_log" |
		grep -E "$bad_re" || true)
fi
[[ -n $kbad ]] && problems+=("kernel log shows problems:")

# make run: decode the pictures.
if [[ $mode == run ]]; then
	mkdir -p "$OUT"
	rm -f "$OUT"/*.png
	awk -v out="$OUT" '
		/^@@UGPU:PNG-BEGIN / { name = $2; file = out "/" name ".b64";
				       printf "" > file; next }
		/^@@UGPU:PNG-END/ { close(file); name = ""; next }
		name != "" { print >> file }' "$clean"
	for b in "$OUT"/*.b64; do
		[[ -e $b ]] || continue
		if base64 -d "$b" >"${b%.b64}"; then
			echo "run-vm: wrote ${b%.b64}"
		else
			problems+=("cannot decode ${b%.b64}")
		fi
		rm -f "$b"
	done
fi

# make bench: the tables.
bench=$BUILD/vm-bench.txt
if [[ $mode == bench ]]; then
	sed -n '/^@@UGPU:BENCH-BEGIN/,/^@@UGPU:BENCH-END/p' "$clean" |
		sed '1d;$d' >"$bench"
	if [[ -s $bench ]]; then
		echo
		echo "---- ugpu-bench ($bench) ----"
		cat "$bench"
	else
		problems+=("no benchmark table")
	fi
fi

echo
echo "---- summary (console: $log) ----"
grep '^FAIL ' "$results" || true
for p in "${problems[@]}"; do
	echo "run-vm: $p"
done
[[ -n $kbad ]] && echo "$kbad" | head -n 40

status=0
[[ $failed -eq 0 && ${#problems[@]} -eq 0 ]] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
