#!/usr/bin/env python3
"""Fit the framework's training constant in a preset's [compute] table
(`framework-bytes-per-element`; `sustained-gemm-fraction` too with --fit-fraction) on the
published training throughputs, and report the leave-one-model-family-out error.

- framework-bytes-per-element, g: memory traffic per element of a rank's layer
  activation (its micro-batch's tokens x hidden / tp), per transformer layer and
  pass (forward, backward), beside the kernels dtcalc times, at the elementwise
  rate. It enters every layer's compute, so at a fixed f a case's step time is
  linear in it, T(g) = T(0) + g x c.
- sustained-gemm-fraction, f: the share of the GEMM benchmark's throughput a
  training step's GEMMs sustain. Held at the device file's value, which
  scripts/gemm_fit.py fits on GEMMs measured back to back on the device; with
  --fit-fraction (a device without such measurements) searched on a grid of
  0.01 within the bounds the preset's [calibration] table gives it (0.80-1.00).

For each f the script runs `dtcalc validate` on the training dataset twice (g =
LOW and g = PROBE), reads each case's T(0) and c from the predicted throughput
(throughput ~ 1 / T), fits g by least squares in log(predicted / measured) on the
fitting rows, keeps the (f, g) of least loss, and predicts the rows left out.
The fitted pair is then checked by one more dtcalc run.

Families: GPT-3 (NeMo GPT), Llama-2, Llama-3, Megatron GPT weak scaling.

The constants live in the GPU's catalogue file (presets/devices/h100-sxm.toml); the
preset the rows run on (presets/h100-ib-ndr400.toml) is composed of it. Each run
writes a copy of the device file with the constants set, and a copy of the preset
whose `gpu` names that copy.

usage: scripts/framework_gap_fit.py [--dtcalc build/src/dtcalc] [--preset presets/h100-ib-ndr400.toml]
                                    [--device presets/devices/h100-sxm.toml] [--fit-fraction]
"""
import argparse
import math
import os
import re
import statistics
import sys

import device_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEY = "framework-bytes-per-element"
SUSTAINED = "sustained-gemm-fraction"
FRACTIONS = [round(0.80 + 0.01 * i, 2) for i in range(21)]  # the [calibration] bounds, 0.80-1.00
LOW, PROBE = 1.0, 101.0  # bytes per element; any two values, T is linear in it


def family(case):
    for prefix, name in (("nemo-gpt3", "GPT-3 (NeMo)"), ("nemo-llama2", "Llama-2"), ("nemo-llama3", "Llama-3"),
                         ("megatron-gpt", "Megatron GPT weak scaling")):
        if case.startswith(prefix):
            return name
    sys.exit(f"framework_gap_fit.py: case {case!r} belongs to no family; add its prefix to family()")


def predict(dtcalc, preset_text, device_text, value, fraction):
    """{case: (measured, predicted)} for one metric per case, with the constants set to value and fraction."""
    rows = {}
    for r in device_variant.predictions(dtcalc, preset_text, device_text, {KEY: value, SUSTAINED: fraction},
                                        "training", os.path.join(ROOT, "validation/training/cases.csv"),
                                        "framework_gap_fit.py"):
        if r["case"] not in rows:
            rows[r["case"]] = (float(r["measured"]), float(r["predicted"]))
    return rows


def errors(cases, gap):
    """|predicted / measured - 1| per case at this gap, from T(g) = T0 + g c (T = 1 / throughput)."""
    return {name: abs(1.0 / (t0 + gap * c) / measured - 1) for name, (measured, t0, c) in cases.items()}


def loss(cases, gap):
    return sum(math.log(1.0 / (t0 + gap * c) / m) ** 2 for m, t0, c in cases.values())


def fit(cases):
    """(loss, g): g on a grid of 0.01 B from 0 to 1000 B, coarse to fine."""
    lo, hi, step = 0.0, 1000.0, 1.0
    while True:
        grid = [lo + step * i for i in range(int(round((hi - lo) / step)) + 1)]
        best = min(grid, key=lambda g: loss(cases, g))
        if step <= 0.01 + 1e-12:
            return loss(cases, best), round(best, 2)
        lo, hi, step = max(0.0, best - step), min(1000.0, best + step), step / 10


def fit_both(cases_by_fraction, names):
    """(loss, f, g) of least loss on the rows `names`."""
    best = None
    for f, cases in cases_by_fraction.items():
        l, g = fit({n: cases[n] for n in names})
        if best is None or l < best[0]:
            best = (l, f, g)
    return best


def summary(errs):
    v = list(errs.values())
    return f"median {100 * statistics.median(v):5.2f} %  max {100 * max(v):5.2f} %"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dtcalc", default=os.path.join(ROOT, "build/src/dtcalc"))
    ap.add_argument("--preset", default=os.path.join(ROOT, "presets/h100-ib-ndr400.toml"))
    ap.add_argument("--device", default=os.path.join(ROOT, "presets/devices/h100-sxm.toml"))
    ap.add_argument("--fit-fraction", action="store_true",
                    help=f"search {SUSTAINED} too (0.80-1.00), for a device whose GEMMs were not measured back to "
                         f"back; by default the device file's value (scripts/gemm_fit.py) is held")
    args = ap.parse_args()
    text = open(args.preset).read()
    device = open(args.device).read()
    held = re.search(rf"^{SUSTAINED}\s*=\s*([0-9.]+)", device, re.M)
    if not args.fit_fraction and not held:
        sys.exit(f"framework_gap_fit.py: the device file has no '{SUSTAINED} = NUMBER' line to hold (or pass --fit-fraction)")
    fitted = FRACTIONS if args.fit_fraction else [float(held.group(1))]
    by_fraction = {}
    for f in sorted(set(fitted) | {1.0}):
        atl = predict(args.dtcalc, text, device, LOW, f)
        atp = predict(args.dtcalc, text, device, PROBE, f)
        cases = {}
        for name, (measured, pl) in atl.items():
            c = (1.0 / atp[name][1] - 1.0 / pl) / (PROBE - LOW)
            cases[name] = (measured, 1.0 / pl - LOW * c, c)
        by_fraction[f] = cases
    names = sorted(by_fraction[1.0])
    candidates = {f: by_fraction[f] for f in fitted}

    _, f, gap = fit_both(candidates, names)
    print(f"all rows: {SUSTAINED} = {f:.2f}, {KEY} = {gap:.2f}  "
          f"in-sample {summary(errors(by_fraction[f], gap))}")
    check = predict(args.dtcalc, text, device, gap, f)
    direct = {n: abs(p / m - 1) for n, (m, p) in check.items()}
    print(f"  dtcalc at {f:.2f} and {gap:.2f} B per element: {summary(direct)}")
    for g_f in (1.0,):
        l1, g1 = fit(by_fraction[g_f])
        print(f"  with {SUSTAINED} = {g_f:.2f} (the benchmark as measured): {KEY} = {g1:.2f}, "
              f"in-sample {summary(errors(by_fraction[g_f], g1))}")

    families = sorted({family(n) for n in names})
    left_out = {}
    for fam in families:
        train = [n for n in names if family(n) != fam]
        test = [n for n in names if family(n) == fam]
        _, ff, g = fit_both(candidates, train)
        e = errors({n: by_fraction[ff][n] for n in test}, g)
        left_out.update(e)
        print(f"leave out {fam:27s}: {ff:.2f} and {g:6.2f} B per element on the others; left-out rows {summary(e)}")
    print(f"leave-one-family-out, every row predicted by the fit without its family: {summary(left_out)}")
    for name in names:
        print(f"  {name:28s} in-sample {100 * direct[name]:5.2f} %  left-out {100 * left_out[name]:5.2f} %")


if __name__ == "__main__":
    main()
