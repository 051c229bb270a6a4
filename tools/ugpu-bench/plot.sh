#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Draws the plots of a ugpu-bench JSON (ugpu-bench -j) with gnuplot:
#
#   DIR/bench-goals.png              every figure over its goal, a line per
#                                    device (below 1 meets a <= goal)
#   DIR/bench-bos_per_submit.png     SUBMIT + wait of a NOP against the BOs
#                                    in the list
#   DIR/bench-jobs_in_flight.png     time per job against jobs in flight
#   DIR/bench-bo_size.png            BO create+mmap+touch+close against the
#                                    size, ugpu and vgem
#
# Usage: plot.sh BENCH.json DIR. Without gnuplot or jq it says so and
# draws nothing (exit 0); exit 1 when the JSON does not parse.
set -euo pipefail

json=$1
dir=$2
for t in jq gnuplot; do
	if ! command -v "$t" >/dev/null; then
		echo "plot: no $t, no plots (make deps installs it)"
		exit 0
	fi
done
jq -e .devices "$json" >/dev/null || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$dir"
ndev=$(jq '.devices | length' "$json")

# One curve of every device into $tmp/<curve>.<i>; prints the plot
# clauses.
curve_clauses() {
	local curve=$1 label=$2 i name sep=""

	for ((i = 0; i < ndev; i++)); do
		name=$(jq -r ".devices[$i].device" "$json")
		jq -r ".devices[$i].curves.\"$curve\" // [] | .[] |
			select(.[1] != null) | \"\(.[0]) \(.[1])\"" \
			"$json" >"$tmp/$curve.$i"
		[[ -s $tmp/$curve.$i ]] || continue
		printf '%s"%s" using 1:2 with linespoints title "%s%s"' \
			"$sep" "$tmp/$curve.$i" "$name" "$label"
		sep=", "
	done
}

plot_curve() {
	local curve=$1 title=$2 xlabel=$3 ylabel=$4 clauses

	clauses=$(curve_clauses "$curve" "")
	[[ $curve == bo_size ]] &&
		clauses+=", $(curve_clauses bo_size_vgem " (vgem)")"
	[[ -n $clauses ]] || return 0
	gnuplot <<EOF
set terminal png size 1000,640 noenhanced
set output "$dir/bench-$curve.png"
set title "$title"
set logscale xy
set xlabel "$xlabel"
set ylabel "$ylabel"
set key outside right
set grid
plot $clauses
EOF
	echo "plot: wrote $dir/bench-$curve.png"
}

plot_curve bos_per_submit "SUBMIT + wait of one NOP against the BO list" \
	"BOs per submit" "ns per submit"
plot_curve jobs_in_flight "submits of one NOP, then one wait" \
	"jobs in flight" "ns per job"
plot_curve bo_size "BO create + mmap + touch every 4 KiB + close" \
	"bytes" "ns"

# The figures over their goals: a column per figure, a line per device.
jq -r '.devices[0].figures | keys_unsorted | .[]' "$json" >"$tmp/keys"
clauses=""
for ((i = 0; i < ndev; i++)); do
	name=$(jq -r ".devices[$i].device" "$json")
	jq -r ".devices[$i].figures | to_entries | to_entries[] |
		select(.value.value.value != null) |
		\"\(.key) \(if .value.value.at_least
			then .value.value.goal / .value.value.value
			else .value.value.value / .value.value.goal end)\"" \
		"$json" >"$tmp/goals.$i"
	[[ -s $tmp/goals.$i ]] || continue
	clauses+="${clauses:+, }\"$tmp/goals.$i\" using 1:2 with points pt 7 ps 1.5 title \"$name\""
done
xtics=$(awk '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), $0, NR - 1 }' \
	"$tmp/keys")
if [[ -n $clauses ]]; then
	gnuplot <<EOF
set terminal png size 1200,700 noenhanced
set output "$dir/bench-goals.png"
set title "figure / goal (>= goals inverted): below 1 is a pass"
set logscale y
set xtics rotate by -30 ($xtics)
set xrange [-0.5:$(wc -l <"$tmp/keys") - 0.5]
set key outside right
set grid
plot 1 with lines lw 2 lc rgb "red" title "goal", $clauses
EOF
	echo "plot: wrote $dir/bench-goals.png"
fi
