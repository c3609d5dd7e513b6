#!/usr/bin/env python3
"""Summarises BenchmarkPromptCorpus's output (go test -bench, any -count) as
the Markdown table docs/PERFORMANCE.md records: per case the median over the
runs of Go's CPU ns per render into a reused buffer, Jinja2's, and their
ratio, slowest first, then Go's CPU ns per render to a fresh string and its
ratio; then the median ratios of all cases and the cases under 20x.

    go test ./internal/jinja2 -run '^$' -bench PromptCorpus -count 5 | python3 testdata/jinja2-prompts/benchtable.py
"""

import re
import statistics
import sys

LINE = re.compile(r"^BenchmarkPromptCorpus/(\S+?)(?:-\d+)?\s+\d+\s+(.*)$")


def main():
    runs = {}
    for line in sys.stdin:
        m = LINE.match(line)
        if not m:
            continue
        fields = m.group(2).split()
        metrics = {unit: float(val) for val, unit in zip(fields[::2], fields[1::2])}
        if "x-faster" not in metrics:
            continue
        runs.setdefault(m.group(1), []).append(metrics)
    rows = []
    for name, ms in runs.items():
        rows.append((statistics.median(m["x-faster"] for m in ms),
                     statistics.median(m["cpu-ns/op"] for m in ms),
                     statistics.median(m["jinja2-cpu-ns/op"] for m in ms), name, len(ms),
                     statistics.median(m.get("string-cpu-ns/op", 0) for m in ms),
                     statistics.median(m.get("string-x-faster", 0) for m in ms)))
    rows.sort()
    print("| case | Go cpu-ns/op | Jinja2 cpu-ns/op | Go is ×faster | Go to a fresh string | ×faster | runs |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ratio, go_ns, py_ns, name, n, str_ns, str_ratio in rows:
        print("| {} | {:.0f} | {:.0f} | {:.2f} | {:.0f} | {:.2f} | {} |".format(
            name, go_ns, py_ns, ratio, str_ns, str_ratio, n))
    if rows:
        under = [r for r in rows if r[0] < 20]
        str_under = [r for r in rows if r[6] < 20]
        print()
        print("{} cases; into a reused buffer: median ratio {:.2f}×, slowest {} at {:.2f}×, {} of {} under 20×; "
              "to a fresh string: median ratio {:.2f}×, {} of {} under 20×.".format(
                  len(rows), statistics.median(r[0] for r in rows), rows[0][3], rows[0][0], len(under), len(rows),
                  statistics.median(r[6] for r in rows), len(str_under), len(rows)))


if __name__ == "__main__":
    main()
