#!/usr/bin/env python3
"""Fit a device's two GEMM constants (`gemm-k-overhead`, `sustained-gemm-fraction`) on GEMMs
measured back to back on it, and report their leave-one-model-family-out error.

- gemm-k-overhead, K: a fixed cost per output tile (filling the operand pipeline, writing
  the tile out), in K elements of a bf16 GEMM; fp8 pays peak-fp8 / peak-bf16 times as many.
  Searched from 0 to 800 in steps of 16.
- sustained-gemm-fraction, s: the share of the benchmark point's throughput a GEMM keeps
  when GEMMs run back to back under the power cap. Searched from 0.80 to 1.00 in steps of 0.01.

Every prediction is dtcalc's own: for each (K, s) the script writes a copy of the device file
with both set and of the preset naming it, runs `dtcalc validate` on the measured GEMMs
(dataset kind gemm), and reads each row's prediction. The pair of least mean squared
log(predicted / measured) is kept; then each model family's rows are predicted by the pair
fitted without them.

The measurements are scripts/measure_compute.py's sequence.csv (validation/compute/h100_sxm/).

usage: scripts/gemm_fit.py [--dtcalc build/src/dtcalc] [--preset presets/h100-ib-ndr400.toml]
                           [--device presets/devices/h100-sxm.toml]
                           [--data validation/compute/h100_sxm/sequence.csv]
"""
import argparse
import math
import os
import statistics

import device_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K_KEY = "gemm-k-overhead"
S_KEY = "sustained-gemm-fraction"
KS = list(range(0, 801, 16))
SS = [round(0.80 + 0.01 * i, 2) for i in range(21)]


def predict(dtcalc, preset_text, device_text, data, k, s):
    """{case: (measured, predicted, group, family)} with the two constants set to k and s."""
    rows = {}
    for r in device_variant.predictions(dtcalc, preset_text, device_text, {K_KEY: k, S_KEY: s}, "gemm", data,
                                        "gemm_fit.py"):
        rows[r["case"]] = (float(r["measured"]), float(r["predicted"]), r["group"], r["model"].split("/")[0])
    return rows


def loss(rows, names):
    return sum(math.log(rows[n][1] / rows[n][0]) ** 2 for n in names) / len(names)


def best(grid, names):
    return min(grid, key=lambda ks: loss(grid[ks], names))


def table(rows, names):
    """'group MAE / max / bias' for each group of the rows `names`."""
    groups = {}
    for n in names:
        m, p, g, _ = rows[n]
        groups.setdefault(g, []).append(p / m - 1)
    return "; ".join(f"{g} {100 * statistics.mean(map(abs, v)):.1f} / {100 * max(map(abs, v)):.1f} / "
                     f"{100 * statistics.mean(v):+.1f} %" for g, v in sorted(groups.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dtcalc", default=os.path.join(ROOT, "build/src/dtcalc"))
    ap.add_argument("--preset", default=os.path.join(ROOT, "presets/h100-ib-ndr400.toml"))
    ap.add_argument("--device", default=os.path.join(ROOT, "presets/devices/h100-sxm.toml"))
    ap.add_argument("--data", default=os.path.join(ROOT, "validation/compute/h100_sxm/sequence.csv"))
    args = ap.parse_args()
    preset, device = open(args.preset).read(), open(args.device).read()
    grid = {(k, s): predict(args.dtcalc, preset, device, os.path.abspath(args.data), k, s) for k in KS for s in SS}
    names = sorted(next(iter(grid.values())))
    k, s = best(grid, names)
    print(f"all {len(names)} rows: {K_KEY} = {k}, {S_KEY} = {s:.2f}")
    print(f"  in sample (group MAE / max / mean): {table(grid[(k, s)], names)}")
    for precision in ("bf16", "fp8"):
        only = [n for n in names if grid[(k, s)][n][2].startswith(precision + "/")]
        pk, ps = best(grid, only)
        print(f"  fitted on {precision} alone: {K_KEY} = {pk}, {S_KEY} = {ps:.2f}")
    families = sorted({grid[(k, s)][n][3] for n in names})
    for fam in families:
        train = [n for n in names if grid[(k, s)][n][3] != fam]
        test = [n for n in names if grid[(k, s)][n][3] == fam]
        fk, fs = best(grid, train)
        print(f"leave out {fam:12s}: {fk} and {fs:.2f} on the others; its rows: {table(grid[(fk, fs)], test)}")


if __name__ == "__main__":
    main()
