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
#   fuzz   run ugpu-fuzz (FUZZ_SEED, FUZZ_ITERS, FUZZ_SECONDS, FUZZ_SUBMITS) and its
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
# A path: QEMU's monitor listens there (tools/vm/profile-guest samples
# the guest through it).
VM_MONITOR=${VM_MONITOR:-}
# stock: Debian's kernel from /boot; debug: the kernel of
# build-debug-kernel.sh (KASAN, lockdep, kmemleak, ...), whose reports
# fail the run too.
KERNEL=${KERNEL:-stock}
VM_KERNEL=${VM_KERNEL:-/boot/vmlinuz-$KVER}
VM_MEM=${VM_MEM:-2048}
# x86, or arm64 / arm in qemu-system-aarch64 / -arm -M virt.
VM_ARCH=${VM_ARCH:-x86}
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

kernel=$VM_KERNEL
[[ -r $kernel ]] || {
	if [[ $KERNEL == debug ]]; then
		echo "run-vm: $kernel is missing (make KERNEL=debug builds it)" >&2
	else
		echo "run-vm: $kernel is missing (make deps installs it)" >&2
	fi
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
case $VM_ARCH in
x86) console=ttyS0 ;;
arm64 | arm) console=ttyAMA0 ;;
*)
	echo "run-vm: unknown VM_ARCH $VM_ARCH" >&2
	exit 2
	;;
esac

# printk.devkmsg=on: ugpu-fuzz writes a line per iteration into the log,
# which /dev/kmsg would otherwise rate-limit.
append="console=$console panic=-1 loglevel=5 printk.devkmsg=on"
# tsc=reliable: see the static keys below the QEMU command line.
[[ $VM_ARCH == x86 ]] && append+=" tsc=reliable"
append+=" ugpu_mode=$mode"
append+=" ugpu_timeout=$SUBTEST_TIMEOUT"
[[ -n $TESTS ]] && append+=" ugpu_tests=$TESTS"
[[ -n $SUBTEST ]] && append+=" ugpu_subtest=$SUBTEST"
[[ -n ${FUZZ_SEED:-} ]] && append+=" ugpu_fuzz_seed=$FUZZ_SEED"
[[ -n ${FUZZ_ITERS:-} ]] && append+=" ugpu_fuzz_iters=$FUZZ_ITERS"
[[ -n ${FUZZ_SECONDS:-} ]] && append+=" ugpu_fuzz_seconds=$FUZZ_SECONDS"
[[ -n ${FUZZ_ITER:-} ]] && append+=" ugpu_fuzz_iter=$FUZZ_ITER"
[[ -n ${FUZZ_SUBMITS:-} ]] && append+=" ugpu_fuzz_submits=$FUZZ_SUBMITS"
append+=" ugpu_fuzz_check=${FUZZ_CHECK_SECONDS:-0}"
[[ -n ${BENCH:-} ]] && append+=" ugpu_bench=$BENCH"
[[ -n ${BENCH_NODES:-} ]] && append+=" ugpu_bench_nodes=$BENCH_NODES"
# Every KASAN report, not only the first; a warning is reported, not
# fatal, so that the run goes on and the log holds all of them; plain
# pointers in the reports; TCG is slow enough to fake an RCU stall.
if [[ $KERNEL == debug ]]; then
	append+=" kmemleak=on kasan_multi_shot panic_on_warn=0"
	append+=" no_hash_pointers rcupdate.rcu_cpu_stall_timeout=60"
fi
[[ -n $VM_APPEND ]] && append+=" $VM_APPEND"

# An interactive session may last: boot a private copy and let others
# use the build directory meanwhile.
if [[ $mode == shell ]]; then
	initramfs=$(mktemp "${TMPDIR:-/tmp}/ugpu-shell.XXXXXX")
	trap 'rm -f "$initramfs"' EXIT
	cp "$BUILD/initramfs.cpio" "$initramfs"
	flock -u 9
fi

# VM_MEM takes QEMU's suffixes (8G); a plain number is MiB.
# arm64: -cpu max with the cheap pointer-authentication algorithm, which
# TCG emulates far faster than the architected one; virt puts RAM at
# 1 GiB, so more than 3 GiB reaches above 4 GiB. arm: LPAE kernels
# (KFLAVOUR=lpae) address the RAM of virt's high region.
#
# The kernel patches its own code when a static key changes (a CPU may be
# running it meanwhile), and TCG has been seen to run stale code after
# such a patch: an "int3" oops, fatal when it hits init or an interrupt.
# So the one-shot keys of this kind flip at boot, before the other CPU
# runs anything: x86 gets RDRAND (as -cpu max on arm64 has RNDR), which
# makes the random pool ready at once instead of minutes into the tests,
# and a TSC the clocksource watchdog cannot declare unstable when the
# host is busy. /init holds the reference-counted ones (cgroups).
case $VM_ARCH in
x86) qemu=(qemu-system-x86_64 -cpu "qemu64,+rdrand") ;;
arm64) qemu=(qemu-system-aarch64 -M virt -cpu "max,pauth-impdef=on") ;;
arm) qemu=(qemu-system-arm -M "virt,highmem=on" -cpu cortex-a15) ;;
esac
qemu+=(-accel tcg -smp 2 -m "$VM_MEM" -nographic -no-reboot -nic none
	-kernel "$kernel" -initrd "$initramfs" -append "$append")
[[ -n $VM_MONITOR ]] && qemu+=(-monitor "unix:$VM_MONITOR,server=on,wait=off")

if [[ $mode == shell ]]; then
	"${qemu[@]}"
	exit 0
fi

log=$BUILD/vm-console.log
# The base64 of the frames and of igt_runner's results stays in the log,
# off the terminal; so do the benchmark tables, printed once at the end.
# --foreground keeps QEMU in our process group, so that an interrupted
# run takes it down too.
# A kernel that dies before /init runs has run none of ugpu (TCG's stale
# code after a static-key patch can still strike at boot, see above):
# it is booted once more, and its console kept as vm-console.boot1.log.
for attempt in 1 2; do
	if timeout --foreground -k 10 "$VM_TIMEOUT" "${qemu[@]}" </dev/null 2>&1 |
		tee "$log" |
		sed -u -e '/^@@UGPU:PNG-BEGIN/,/^@@UGPU:PNG-END/{/^@@UGPU:PNG/!d}' \
			-e '/^@@UGPU:BENCH-BEGIN/,/^@@UGPU:BENCH-END/{/^@@UGPU:BENCH/!d}' \
			-e '/^@@UGPU:BENCH-JSON-BEGIN/,/^@@UGPU:BENCH-JSON-END/{/^@@UGPU:BENCH/!d}' \
			-e '/^@@UGPU:IGT-RESULTS-BEGIN/,/^@@UGPU:IGT-RESULTS-END/{/^@@UGPU:IGT/!d}'; then
		qemu_rc=0
	else
		qemu_rc=${PIPESTATUS[0]}
	fi
	grep -q '^@@UGPU:BOOTED' "$log" && break
	[[ $attempt -eq 1 ]] || break
	cp "$log" "$BUILD/vm-console.boot1.log"
	echo "run-vm: the kernel died before /init ran" \
		"($BUILD/vm-console.boot1.log): booting it again" >&2
done

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

# ugpu's own tests ran under igt_runner: its results directory is kept in
# $BUILD/igt-results, and its results.json gives one line per subtest
# (dynamic subtests, one per device, are named in a failed parent's
# reason). dmesg-warn is a pass here: the kernel's warnings fail the run
# below, from the whole log.
igt_results=$BUILD/igt-results
igt_failures=$BUILD/igt-failures.txt
rm -rf "$igt_results" "$igt_failures"
if grep -q '^@@UGPU:IGT-RESULTS-END' "$clean"; then
	mkdir -p "$igt_results"
	if sed -n '/^@@UGPU:IGT-RESULTS-BEGIN/,/^@@UGPU:IGT-RESULTS-END/p' \
		"$clean" | sed '1d;$d' | base64 -d |
		tar -xzf - -C "$igt_results" --strip-components=1 &&
		[[ -s $igt_results/results.json ]]; then
		jq -r -f "$(dirname "$0")/igt-results.jq" \
			"$igt_results/results.json" >>"$results"
		jq -r -f "$(dirname "$0")/igt-failures.jq" \
			"$igt_results/results.json" >"$igt_failures"
		[[ -s $igt_failures ]] || rm -f "$igt_failures"
	else
		problems+=("igt_runner's results cannot be read ($igt_results)")
	fi
elif grep -q '^@@UGPU:START igt_runner' "$clean"; then
	problems+=("igt_runner's results did not reach the host")
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
# The debug kernel's checkers. Most reports also say WARNING: or BUG:,
# not all of them; lockdep stops after its first report, when it runs
# out of room or when another report taints the kernel, and a run it no
# longer watches proves nothing.
bad_re+='|KASAN:|possible circular locking|possible recursive locking|'
bad_re+='inconsistent lock state|suspicious RCU usage|'
bad_re+='possible irq lock inversion|bad unlock balance|'
bad_re+='held lock freed|lock held when returning to user space|'
bad_re+='sleeping function called from invalid context|'
bad_re+='turning off the locking correctness validator|'
bad_re+='Disabling lock debugging due to kernel taint|'
bad_re+='ODEBUG:|DMA-API:|unreferenced object|'
bad_re+='kmemleak: .*(disabled|[Cc]annot)|Kernel memory leak detector disabled'
# The DMA API debugger announces itself at boot with its prefix.
# kmemleak tracks an object without its scan area when short of memory
# and scans the whole object instead: nothing is lost.
benign_re='DMA-API: (preallocated [0-9]+ debug entries|debugging enabled by kernel config)$'
benign_re+='|kmemleak: Cannot allocate a scan area, scanning the full object$'
# Only kernel lines count: test output on the console may quote them.
# The console's kernel lines count too: a chatty debug kernel can overrun
# the log buffer before the dump, but warnings went to the console live.
if grep -q '^@@UGPU:DMESG-END' "$clean"; then
	kbad=$( (grep -E "$bad_re" "$dmesg_log" || true
		sed '/^@@UGPU:DMESG-BEGIN/,$d' "$clean" |
			grep -E '^\[ *[0-9]+\.[0-9]+\]' |
			grep -E "$bad_re" || true) | awk '!seen[$0]++' |
		grep -vE "$benign_re" || true)
else
	kbad=$(grep -E '^\[ *[0-9]+\.[0-9]+\]' "$dmesg_log" |
		grep -E "$bad_re" | grep -vE "$benign_re" || true)
fi
[[ -n $kbad ]] && problems+=("kernel log shows problems:")

# kmemleak's verdict after the modules were unloaded (debug kernel only).
kmemleak_log=$BUILD/vm-kmemleak.log
rm -f "$kmemleak_log"
if [[ $KERNEL == debug && $mode != shell ]]; then
	if grep -q '^@@UGPU:KMEMLEAK-END' "$clean"; then
		sed -n '/^@@UGPU:KMEMLEAK-BEGIN/,/^@@UGPU:KMEMLEAK-END/p' \
			"$clean" | sed '1d;$d' >"$kmemleak_log"
		nleaks=$(grep -c 'unreferenced object' "$kmemleak_log" || true)
		[[ $nleaks -gt 0 ]] &&
			problems+=("kmemleak: $nleaks unreferenced objects, see $kmemleak_log")
	elif grep -q '^@@UGPU:DONE' "$clean"; then
		problems+=("kmemleak did not scan (no /sys/kernel/debug/kmemleak?)")
	fi
fi

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
	# The raw figures, and the plots where gnuplot is at hand.
	mkdir -p "$OUT"
	sed -n '/^@@UGPU:BENCH-JSON-BEGIN/,/^@@UGPU:BENCH-JSON-END/p' "$clean" |
		sed '1d;$d' >"$OUT/bench.json"
	if [[ -s $OUT/bench.json ]]; then
		echo "run-vm: wrote $OUT/bench.json"
		"$(dirname "$0")/../ugpu-bench/plot.sh" "$OUT/bench.json" "$OUT" ||
			problems+=("cannot plot $OUT/bench.json")
	else
		problems+=("no benchmark JSON")
	fi
fi

if [[ -s $igt_failures ]]; then
	echo
	echo "---- output of the failed subtests ($igt_failures) ----"
	head -n 400 "$igt_failures"
fi

echo
echo "---- summary (console: $log) ----"
grep '^FAIL ' "$results" || true
for p in "${problems[@]}"; do
	echo "run-vm: $p"
done
[[ -n $kbad ]] && head -n 40 <<<"$kbad"
[[ -s $kmemleak_log ]] && head -n 40 "$kmemleak_log"

status=0
[[ $failed -eq 0 && ${#problems[@]} -eq 0 ]] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
