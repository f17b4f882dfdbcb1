#!/usr/bin/env python3
"""Compare sddmm-bench JSON files of several builds run side by side (scripts/side-by-side.sh).

    python3 bench/compare.py OUT_DIR BASE BUILD [BUILD ...]

Reads OUT_DIR/<build>-r<round>.json for each build, prints a table of our time per case (op,
matrix, K, precision) with each build's rounds and the baselines (cuSPARSE fp32; cuBLAS's GEMM
where it ran), then each build's geometric mean of its time over BASE's (the mean of the rounds'
medians per case), for every K and all together; the last line of stdout is the build other than
BASE with the lowest overall mean. A case that did not pass its check in any round is named on
stderr and left out of the means.
"""
import collections
import glob
import json
import math
import os
import sys


def load_rounds(out_dir, build):
    """{(op, matrix, k, dtype): [ms, ...]} over the build's rounds, and the cases that failed."""
    times, failed, baselines = collections.defaultdict(list), set(), {}
    for path in sorted(glob.glob(os.path.join(out_dir, f"{build}-r*.json"))):
        with open(path) as f:
            for r in json.load(f)["results"]:
                key = (r["op"], r["matrix"], r["k"], r.get("dtype", "f32"))
                if r["status"] != "ok" or r["ours_ms"] is None:
                    failed.add(key)
                    continue
                times[key].append(r["ours_ms"] * 1000)
                baselines[key] = (r.get("cusparse_ms"), r.get("gemm_ms"))
    return times, failed, baselines


def mean(values):
    return sum(values) / len(values)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    out_dir, base, builds = sys.argv[1], sys.argv[2], sys.argv[3:]
    runs = {b: load_rounds(out_dir, b) for b in [base] + builds}
    failed = set().union(*(r[1] for r in runs.values()))
    for key in sorted(failed):
        print("not ok in some round, left out:", *key, file=sys.stderr)
    keys = sorted(k for k in runs[base][0] if k not in failed and all(k in runs[b][0] for b in builds))
    if not keys:
        sys.exit("no case that every build ran and passed")
    print("%-6s %-26s %5s %-8s " % ("op", "matrix", "K", "dtype") + " ".join("%22s" % b for b in [base] + builds) +
          " %10s %10s" % ("cuSPARSE", "GEMM"))
    for key in keys:
        cells = ["%22s" % " / ".join("%.2f" % t for t in runs[b][0][key]) for b in [base] + builds]
        cusparse, gemm = runs[base][2][key]
        print("%-6s %-26s %5d %-8s " % key + " ".join(cells) + " %10s %10s" %
              ("%.2f" % (cusparse * 1000) if cusparse else "-", "%.2f" % (gemm * 1000) if gemm else "-"))
    overall = {}
    for b in builds:
        for k in sorted({key[2] for key in keys}) + [None]:
            chosen = [key for key in keys if k is None or key[2] == k]
            g = math.exp(mean([math.log(mean(runs[b][0][key]) / mean(runs[base][0][key])) for key in chosen]))
            print(f"{b}: K = {k if k is not None else 'all'}: geometric mean time over {base}'s {g:.4f}"
                  f" ({len(chosen)} cases)")
            if k is None:
                overall[b] = g
    print(min(overall, key=overall.get))


if __name__ == "__main__":
    main()
