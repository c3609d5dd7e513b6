#!/usr/bin/env bash
# cputime.sh ROUNDS COMMIT... — compare bench/'s render benchmarks across
# commits by CPU time, which a loaded machine disturbs less than wall time.
#
# For each commit it builds bench/'s test binary from `git archive` (so the
# commit's own testdata is used), then runs the commits in turns, ROUNDS
# times: each benchmark alone in a process with a fixed number of
# iterations, timed by `perf stat -e task-clock`, less the task-clock of the
# same binary at one iteration (start-up), divided by the iterations.
# -test.cpu 1. BENCH_LOCK names a lock file to hold around each commit's
# turn (flock). Prints "commit benchmark cpu-ns/op allocs/op" lines, then
# per commit the medians and the medians of the per-turn ratios.
#
#   BENCH_LOCK=/work/tools/bench.lock bench/cputime.sh 4 7768cff main
set -euo pipefail
rounds=$1
shift
repo=$(git rev-parse --show-toplevel)
work=${CPUTIME_DIR:-${TMPDIR:-/tmp}/rolemark-cputime}
mkdir -p "$work/bin"
declare -A iters=(
	[rolemark/gotmpl/literal]=200000 [rolemark/handlebars/literal]=200000
	[rolemark/jinja/literal]=200000 [raw/text-template]=50000
	[raw-reused/text-template]=200000
)
names=(rolemark/gotmpl/literal rolemark/handlebars/literal rolemark/jinja/literal
	raw/text-template raw-reused/text-template)

commits=()
for c in "$@"; do
	h=$(git -C "$repo" rev-parse --short=7 "$c")
	commits+=("$h")
	[ -x "$work/bin/$h.test" ] && continue
	rm -rf "$work/src/$h" && mkdir -p "$work/src/$h"
	git -C "$repo" archive "$h" | tar -x -C "$work/src/$h"
	(cd "$work/src/$h/bench" && go test -c -o "$work/bin/$h.test" .)
done

# clock BINARY PATTERN N: task-clock in ms of one run; the bench output in $work/out.
clock() {
	perf stat -x, -e task-clock -o "$work/perf" "$1" -test.run '^$' -test.bench "$2" \
		-test.benchtime "${3}x" -test.benchmem -test.cpu 1 >"$work/out" 2>&1
	grep -m1 task-clock "$work/perf" | cut -d, -f1
}

results=$work/results.txt
: >"$results"
for r in $(seq "$rounds"); do
	for h in "${commits[@]}"; do
		cd "$work/src/$h/bench"
		if [ -n "${BENCH_LOCK:-}" ]; then exec 9>"$BENCH_LOCK" && flock 9; fi
		t1=$(clock "$work/bin/$h.test" '^BenchmarkRender$/^rolemark$/^gotmpl$/^literal$' 1)
		for b in "${names[@]}"; do
			pat='^BenchmarkRender$'
			IFS=/ read -ra parts <<<"$b"
			for p in "${parts[@]}"; do pat="$pat/^$p\$"; done
			tn=$(clock "$work/bin/$h.test" "$pat" "${iters[$b]}")
			allocs=$(grep -m1 '^BenchmarkRender' "$work/out" | grep -o '[0-9]* allocs/op' | cut -d' ' -f1)
			echo "$h $b $(echo "($tn - $t1) * 1000000 / ${iters[$b]}" | bc) $allocs" | tee -a "$results"
		done
		if [ -n "${BENCH_LOCK:-}" ]; then flock -u 9 && exec 9>&-; fi
	done
	echo "# round $r done $(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1 /proc/loadavg)" >&2
done

# Medians per commit and benchmark, and the median over turns of each
# rolemark benchmark divided by the raw engine's of the same turn.
echo
echo "| commit | gotmpl | handlebars | jinja | raw/text-template | raw-reused/text-template | gotmpl ÷ raw | gotmpl ÷ raw-reused | handlebars ÷ raw-reused | jinja ÷ raw-reused | allocs/op g/h/j |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
awk '
function median(list,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	if (!($1 in seen)) { seen[$1] = 1; order[++nc] = $1 }
	ns[$1, $2] = ns[$1, $2] " " $3; allocs[$1, $2] = $4; last[$1, $2] = $3
	if ($2 == "raw-reused/text-template") {
		# the last benchmark of a turn: its ratios
		g = last[$1, "rolemark/gotmpl/literal"]
		r1[$1] = r1[$1] " " g / last[$1, "raw/text-template"]
		r2[$1] = r2[$1] " " g / $3
		r3[$1] = r3[$1] " " last[$1, "rolemark/handlebars/literal"] / $3
		r4[$1] = r4[$1] " " last[$1, "rolemark/jinja/literal"] / $3
	}
}
END {
	for (i = 1; i <= nc; i++) {
		c = order[i]
		printf "| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %s/%s/%s |\n", c,
			median(ns[c, "rolemark/gotmpl/literal"]), median(ns[c, "rolemark/handlebars/literal"]),
			median(ns[c, "rolemark/jinja/literal"]), median(ns[c, "raw/text-template"]),
			median(ns[c, "raw-reused/text-template"]), median(r1[c]), median(r2[c]), median(r3[c]),
			median(r4[c]), allocs[c, "rolemark/gotmpl/literal"], allocs[c, "rolemark/handlebars/literal"],
			allocs[c, "rolemark/jinja/literal"]
	}
}' "$results"
