#!/usr/bin/env python3
"""Fit a device's three GEMM constants (`gemm-k-overhead`, `sustained-gemm-fraction` and
`sustained-gemm-fraction-fp8`) on GEMMs measured back to back on it, and report their
leave-one-model-family-out error.

- gemm-k-overhead, K: a fixed cost per output tile (filling the operand pipeline, writing
  the tile out), in K elements of a bf16 GEMM; fp8 pays peak-fp8 / peak-bf16 times as many.
  Searched from 0 to 480 in steps of 16, one value for both precisions.
- sustained-gemm-fraction, s: the share of the benchmark point's throughput a bf16 GEMM keeps
  when GEMMs run back to back under the power cap; sustained-gemm-fraction-fp8 the same for
  fp8, which draws more power per clock and so runs at a lower clock under the same cap.
  Each searched from 0.70 to 1.00 in steps of 0.01.

Every prediction is dtcalc's own: for each (K, s) the script writes a copy of the device file
with K set and both fractions set to s, and of the preset naming it, runs `dtcalc validate`
on the measured GEMMs (dataset kind gemm), and reads each row's prediction (a bf16 row
depends on K and s, an fp8 row on K and the fp8 fraction). The triple of least mean squared
log(predicted / measured) is printed, and the pair (K, one fraction for both precisions)
beside it; then each model family's rows are predicted by each fitted without them. The
preset's [calibration] ranges bound `dtcalc calibrate`, not this search.

The measurements are scripts/measure_compute.py's sequence.csv (validation/compute/h100_sxm/).

usage: scripts/gemm_fit.py [--dtcalc build/src/dtcalc] [--preset presets/h100-ib-ndr400.toml]
                           [--device presets/devices/h100-sxm.toml]
                           [--data validation/compute/h100_sxm/sequence.csv]
"""
import argparse
import math
import re
import os
import statistics

import device_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K_KEY = "gemm-k-overhead"
S_KEY = "sustained-gemm-fraction"
S8_KEY = "sustained-gemm-fraction-fp8"
KS = list(range(0, 481, 16))
SS = [round(0.70 + 0.01 * i, 2) for i in range(31)]


def predict(dtcalc, preset_text, device_text, data, k, s):
    """{case: (measured, predicted, group, family)} with the two constants set to k and s."""
    rows = {}
    for r in device_variant.predictions(dtcalc, preset_text, device_text, {K_KEY: k, S_KEY: s, S8_KEY: s}, "gemm",
                                        data, "gemm_fit.py"):
        rows[r["case"]] = (float(r["measured"]), float(r["predicted"]), r["group"], r["model"].split("/")[0])
    return rows


def is_fp8(row):
    return row[2].startswith("fp8/")


def rows_of(grid, k, s, s8):
    """Each row's prediction with K, the bf16 fraction s and the fp8 fraction s8."""
    bf16, fp8 = grid[(k, s)], grid[(k, s8)]
    return {n: (fp8 if is_fp8(r) else bf16)[n] for n, r in bf16.items()}


def loss(rows, names):
    return sum(math.log(rows[n][1] / rows[n][0]) ** 2 for n in names) / len(names) if names else 0.0


def best(grid, names):
    """(K, s, s8) of least loss over the rows `names`: for each K the two fractions are
    independent (bf16 rows depend on s alone, fp8 rows on s8 alone)."""
    sample = next(iter(grid.values()))
    bf16 = [n for n in names if not is_fp8(sample[n])]
    fp8 = [n for n in names if is_fp8(sample[n])]
    out = None
    for k in KS:
        s = min(SS, key=lambda v: loss(grid[(k, v)], bf16))
        s8 = min(SS, key=lambda v: loss(grid[(k, v)], fp8))
        total = loss(grid[(k, s)], bf16) * len(bf16) + loss(grid[(k, s8)], fp8) * len(fp8)
        if out is None or total < out[0]:
            out = (total, k, s, s8)
    return out[1:]


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
    for path in (args.preset, args.device, args.data):
        if not os.path.isfile(path):
            device_variant.fail(f"gemm_fit.py: no such file: {path}")
    preset, device = open(args.preset).read(), open(args.device).read()
    # The preset's [calibration] search ranges bound `dtcalc calibrate`, not this fit.
    if not re.search(rf"^{S8_KEY}\s*=", device, re.M):  # not stated: it follows the bf16 one; vary it apart
        device = re.sub(rf"^({S_KEY}\s*=.*)$", rf"\1\n{S8_KEY} = 1.0", device, count=1, flags=re.M)
    preset = re.sub(r'^"compute\.sustained-gemm-fraction(-fp8)?"\s*=.*\n', "", preset, flags=re.M)
    grid = {(k, s): predict(args.dtcalc, preset, device, os.path.abspath(args.data), k, s) for k in KS for s in SS}
    names = sorted(next(iter(grid.values())))
    k, s, s8 = best(grid, names)
    print(f"all {len(names)} rows: {K_KEY} = {k}, {S_KEY} = {s:.2f}, {S8_KEY} = {s8:.2f}")
    print(f"  in sample (group MAE / max / mean): {table(rows_of(grid, k, s, s8), names)}")
    one = min(((kk, ss) for kk in KS for ss in SS), key=lambda ks: loss(grid[ks], names))
    print(f"  one fraction for both precisions: {K_KEY} = {one[0]}, fraction {one[1]:.2f}: "
          f"{table(grid[one], names)}")
    families = sorted({grid[(k, s)][n][3] for n in names})
    for fam in families:
        train = [n for n in names if grid[(k, s)][n][3] != fam]
        test = [n for n in names if grid[(k, s)][n][3] == fam]
        fk, fs, fs8 = best(grid, train)
        print(f"leave out {fam:12s}: {fk}, {fs:.2f} and {fs8:.2f} on the others; its rows: "
              f"{table(rows_of(grid, fk, fs, fs8), test)}")
        ok, os_ = min(((kk, ss) for kk in KS for ss in SS), key=lambda ks: loss(grid[ks], train))
        print(f"  with one fraction: {ok} and {os_:.2f} on the others; its rows: {table(grid[(ok, os_)], test)}")


if __name__ == "__main__":
    main()
