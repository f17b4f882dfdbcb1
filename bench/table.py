#!/usr/bin/env python3
"""Render an sddmm-bench JSON (fp32 cells) as bench/RESULTS.md's full table.

    python3 bench/table.py RUN.json

Prints, in the JSON's matrix order, a Markdown row per matrix: ours ms / cuSPARSE ms = speedup for
SDDMM at each K and SpMM at each N, and the plan time (ms); then the geometric means and the cells
under issue 3's targets (SDDMM >= 1.1x each, SpMM >= 1.0x each) and the plan / SDDMM (largest K)
ratios above 3x at nnz >= 1M. A cell that did not pass its check shows its status and is left out of
the means. Reads only what the benchmark wrote: nothing is computed but ratios and means.
"""
import json
import math
import sys


def cell(r):
    if r is None:
        return "–"
    if r["status"] != "ok" or r["ours_ms"] is None or r["cusparse_ms"] is None:
        return r["status"]
    return f'{r["ours_ms"]:.4f} / {r["cusparse_ms"]:.4f} = **{r["speedup"]:.2f}×**'


def main(path):
    with open(path) as f:
        run = json.load(f)
    cells, matrices, widths = {}, [], {"sddmm": [], "spmm": []}
    for r in run["results"]:
        if r.get("dtype", "f32") != "f32":
            continue
        if r["matrix"] not in [m for m, _ in matrices]:
            matrices.append((r["matrix"], r["nnz"]))
        if r["k"] not in widths[r["op"]]:
            widths[r["op"]].append(r["k"])
        cells[(r["matrix"], r["op"], r["k"])] = r
    for op in widths:
        widths[op].sort()
    head = [("SDDMM " if i == 0 else "") + f"K={k}" for i, k in enumerate(widths["sddmm"])]
    head += [("SpMM " if i == 0 else "") + f"N={k}" for i, k in enumerate(widths["spmm"])]
    print("| matrix | nnz | " + " | ".join(head) + " | plan ms |")
    print("| --- | ---: | " + " | ".join("---:" for _ in head) + " | ---: |")
    for m, nnz in matrices:
        row = [cell(cells.get((m, op, k))) for op in ("sddmm", "spmm") for k in widths[op]]
        plans = [cells[(m, op, k)]["plan_ms"] for op in ("sddmm", "spmm") for k in widths[op]
                 if (m, op, k) in cells and cells[(m, op, k)].get("plan_ms") is not None]
        plan = f"{min(plans):.2f}" if plans else "–"
        print(f"| {m} | {nnz:,} | " + " | ".join(row) + f" | {plan} |")
    print()
    floor = {"sddmm": 1.1, "spmm": 1.0}
    for op in ("sddmm", "spmm"):
        for k in widths[op]:
            ok = [cells[(m, op, k)] for m, _ in matrices if (m, op, k) in cells and cells[(m, op, k)]["status"] == "ok"
                  and cells[(m, op, k)]["speedup"] is not None]
            if not ok:
                continue
            mean = math.exp(sum(math.log(r["speedup"]) for r in ok) / len(ok))
            under = [f'{r["matrix"]} {r["speedup"]:.2f}×' for r in ok if r["speedup"] < floor[op]]
            print(f"- {op} {'K' if op == 'sddmm' else 'N'}={k}: geomean {mean:.3f}× over {len(ok)}; "
                  f"under {floor[op]}×: {len(under)}" + (f" ({', '.join(under)})" if under else ""))
    if widths["sddmm"]:
        k = widths["sddmm"][-1]
        over = [(m, cells[(m, "sddmm", k)]) for m, nnz in matrices if nnz >= 1_000_000 and (m, "sddmm", k) in cells]
        over = [f'{m} {r["plan_over_exec"]:.2f}×' for m, r in over
                if r.get("plan_over_exec") is not None and r["plan_over_exec"] > 3]
        print(f"- plan / SDDMM K={k} above 3× (nnz >= 1M): {len(over)}" + (f" ({', '.join(over)})" if over else ""))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
