#!/usr/bin/env python3
"""Plot a sddmm-bench JSON file: speedup over cuSPARSE per matrix, and % of the copy bandwidth.

    python3 bench/plot.py results.json -o docs/bench.png

One column per operation (SDDMM, SpMM); the top row shows cuSPARSE time / our time per matrix with
a bar per K (above 1: ours faster), with the issue's per-matrix target as a dashed line; the bottom
row shows the achieved share of the measured device-to-device copy bandwidth under the bytes model
of bench/bytes_model.hpp, ours as bars and cuSPARSE as black ticks. Cases that did not pass the
check are left out and named in the footnote.
"""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

# The per-matrix targets (ours / cuSPARSE speedup).
PER_MATRIX_TARGET = {"sddmm": 1.1, "spmm": 1.0}


def load(path):
    with open(path) as f:
        data = json.load(f)
    return data["run"], data["results"]


def ordered_unique(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def plot(run, results, out_path):
    usable = [r for r in results if r["status"] == "ok" and r["speedup"] is not None]
    left_out = sorted({f'{r["matrix"]} {r["op"]} K={r["k"]} ({r["status"]})' for r in results if r not in usable})
    ops = [op for op in ("sddmm", "spmm") if any(r["op"] == op for r in usable)]
    if not ops:
        sys.exit("plot.py: no case passed its check; nothing to plot")
    ks = sorted(ordered_unique(r["k"] for r in usable))
    matrices = ordered_unique(r["matrix"] for r in usable)
    colours = plt.get_cmap("viridis")
    width = 0.8 / len(ks)

    fig, axes = plt.subplots(2, len(ops), figsize=(max(8, 0.55 * len(matrices)) * len(ops), 9), squeeze=False)
    for column, op in enumerate(ops):
        speed_ax, bw_ax = axes[0][column], axes[1][column]
        for i, k in enumerate(ks):
            by_matrix = {r["matrix"]: r for r in usable if r["op"] == op and r["k"] == k}
            xs = [m + (i - (len(ks) - 1) / 2) * width for m in range(len(matrices))]
            colour = colours(i / max(1, len(ks) - 1) * 0.85)
            label = f"K={k}" if op == "sddmm" else f"N={k}"
            speed = [by_matrix[m]["speedup"] if m in by_matrix else 0 for m in matrices]
            ours_bw = [by_matrix[m]["ours_pct_bw"] if m in by_matrix else 0 for m in matrices]
            theirs_bw = [by_matrix[m]["cusparse_pct_bw"] if m in by_matrix else None for m in matrices]
            speed_ax.bar(xs, speed, width, color=colour, label=label)
            bw_ax.bar(xs, ours_bw, width, color=colour, label=f"ours {label}")
            tick_x = [x for x, v in zip(xs, theirs_bw) if v is not None]
            tick_y = [v for v in theirs_bw if v is not None]
            bw_ax.scatter(tick_x, tick_y, marker="_", s=120, color="black", label="cuSPARSE" if i == 0 else None)
        speed_ax.axhline(1.0, color="grey", linewidth=1)
        speed_ax.axhline(PER_MATRIX_TARGET[op], color="red", linestyle="--", linewidth=1,
                         label=f"target {PER_MATRIX_TARGET[op]}x each")
        speed_ax.set_title(f"{op.upper()}: speedup over cuSPARSE (higher is better)")
        speed_ax.set_ylabel("cuSPARSE time / our time")
        bw_ax.axhline(80, color="red", linestyle="--", linewidth=1, label="80% target (uniform, > L2)")
        bw_ax.set_title(f"{op.upper()}: % of copy bandwidth ({run['copy_gbs']:.0f} GB/s)")
        bw_ax.set_ylabel("% of device-to-device copy bandwidth")
        for ax in (speed_ax, bw_ax):
            ax.set_xticks(range(len(matrices)))
            ax.set_xticklabels(matrices, rotation=60, ha="right", fontsize=8)
            ax.grid(axis="y", alpha=0.3)
            ax.legend(fontsize=7)
    footnote = f'{run["device"]}, {run["started"]}, median of {run["reps"]} runs; libsddmm {run["library_version"]}, ' \
               f'cuSPARSE {run["cusparse_version"]}'
    if left_out:
        footnote += "\nleft out: " + "; ".join(left_out[:12]) + (" ..." if len(left_out) > 12 else "")
    fig.text(0.01, 0.005, footnote, fontsize=7, va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(out_path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("json", help="the file sddmm-bench --json wrote")
    parser.add_argument("-o", "--output", default="bench.png", help="PNG to write (default bench.png)")
    args = parser.parse_args()
    run, results = load(args.json)
    plot(run, results, args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
