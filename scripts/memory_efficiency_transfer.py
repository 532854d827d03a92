#!/usr/bin/env python3
"""Carry a device's elementwise rate (`memory-efficiency`) to another card with the same SMs,
from kernels measured on both (scripts/measure_compute.py).

Two estimates.
- From a decoder layer's kernels timed on both cards (layer_kernels.csv, eager PyTorch;
  layer_compiled_kernels.csv, fused by torch.compile): the source's figure times the layer's
  elementwise speedup (the mean of the two), over the bandwidth ratio:
      e_target = e x bw_source x gain / bw_target
  The catalogue's h200 takes this one: a training step's elementwise kernels are of that size
  and kind.
- An upper bound from large memory-bound kernels alone (elementwise.csv): a kernel's time per
  byte is a streaming part, 1 / (s x bandwidth), s the share of the datasheet bandwidth that
  copy and add reach, plus what its SMs add. The source's e split the same way,
      SM time per byte = 1 / (e x bw_source) - 1 / (s_source x bw_source),
  and that SM time kept on a target with the same SMs at the same clocks:
      e_target = 1 / (bw_target x (1 / (s_target x bw_target) + SM time per byte))

usage: scripts/memory_efficiency_transfer.py [--source validation/compute/h100_sxm]
           [--target validation/compute/h200] [--source-gbps 3350] [--target-gbps 4800]
           [--efficiency 0.70]

Prints the streaming shares, the SM time, the target's efficiency, each measured kernel's
target rate predicted this way and with the source's share alone, and, where both folders
hold layer_kernels.csv or layer_compiled_kernels.csv, the source / target time of the layer's
elementwise kernels by kind.
"""
import argparse
import csv
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STREAMING = ("copy", "add")
MIN_BYTES = 2**29  # 0.5 GiB and more: the HBM, not the L2 or the launch, sets the rate


def fail(message):
    print(f"memory_efficiency_transfer.py: {message}", file=sys.stderr)
    sys.exit(2)


def rates(folder):
    """{kernel: mean GB/s} over the rows of at least MIN_BYTES (fused Adam: every row)."""
    path = os.path.join(folder, "elementwise.csv")
    if not os.path.isfile(path):
        fail(f"no such file: {path}")
    by_op = {}
    with open(path) as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            try:
                moved, gbps = int(row["bytes_moved"]), float(row["gbps"])
            except (KeyError, TypeError, ValueError):
                fail(f"{path}:{line}: expected the columns op, bytes_moved and gbps with numbers")
            if moved >= MIN_BYTES or row["op"].startswith("adam"):
                by_op.setdefault(row["op"], []).append(gbps)
    missing = [op for op in STREAMING if op not in by_op]
    if missing:
        fail(f"{path}: no rows of {', '.join(missing)} at 0.5 GiB or more (the streaming share needs them)")
    return {op: statistics.mean(v) for op, v in by_op.items()}


def kernel_kind(name):
    if name.startswith("triton_"):
        return "fused by torch.compile"
    if name.startswith("Memcpy"):
        return "memory copies"
    if "vectorized_elementwise_kernel" in name:
        return "vectorized elementwise"
    if "elementwise_kernel<128, 4" in name or "unrolled_elementwise" in name:
        return "strided elementwise"
    if "norm" in name or "GammaBeta" in name:
        return "norms"
    if "CatArray" in name:
        return "concatenation copies"
    return "the rest"


def layer_times(folder, name):
    """{kind: us per step} of a layer's kernels beside its GEMMs and attention (`name`:
    layer_kernels.csv or layer_compiled_kernels.csv); None without the file."""
    path = os.path.join(folder, name)
    if not os.path.isfile(path):
        return None
    out = {}
    with open(path) as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if row.get("category") not in ("other", "copy"):
                continue
            try:
                us = float(row["us_per_step"])
            except (KeyError, TypeError, ValueError):
                fail(f"{path}:{line}: expected a number in us_per_step")
            kind = kernel_kind(row.get("kernel", ""))
            out[kind] = out.get(kind, 0.0) + us
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", default=os.path.join(ROOT, "validation/compute/h100_sxm"))
    ap.add_argument("--target", default=os.path.join(ROOT, "validation/compute/h200"))
    ap.add_argument("--source-gbps", type=float, default=3350.0, help="the source's datasheet HBM bandwidth")
    ap.add_argument("--target-gbps", type=float, default=4800.0, help="the target's datasheet HBM bandwidth")
    ap.add_argument("--efficiency", type=float, default=0.70, help="the source's memory-efficiency")
    args = ap.parse_args()
    if not (0 < args.efficiency <= 1):
        fail(f"--efficiency: expected a fraction in (0, 1], got {args.efficiency}")
    if not (args.source_gbps > 0 and args.target_gbps > 0):
        fail("--source-gbps and --target-gbps: expected bandwidths above 0")
    a, b = rates(args.source), rates(args.target)
    s_a = statistics.mean(a[op] for op in STREAMING) / args.source_gbps
    s_b = statistics.mean(b[op] for op in STREAMING) / args.target_gbps
    sm = 1 / (args.efficiency * args.source_gbps) - 1 / (s_a * args.source_gbps)
    if sm < 0:
        fail(f"--efficiency {args.efficiency} is above the source's streaming share {s_a:.3f}: nothing is left for the SMs")
    e_b = 1 / (args.target_gbps * (1 / (s_b * args.target_gbps) + sm))
    print(f"streaming share (copy, add): source {s_a:.3f}, target {s_b:.3f}")
    print(f"SM time per byte: 1 / ({args.efficiency} x {args.source_gbps:g}) - 1 / ({s_a:.3f} x "
          f"{args.source_gbps:g}) = {sm * 1e3:.4f} ps")
    print(f"target memory-efficiency from large kernels: {e_b:.3f} ({e_b * args.target_gbps:,.0f} GB/s; the source's share alone: "
          f"{args.efficiency * args.target_gbps:,.0f})")
    print("kernel             source GB/s  target GB/s  split model   error  source share   error")
    split_errors, share_errors = [], []
    for op in sorted(a, key=lambda k: -a[k]):
        if op in STREAMING or op not in b:
            continue
        own_sm = max(0.0, 1 / a[op] - 1 / (s_a * args.source_gbps))
        split = 1 / (1 / (s_b * args.target_gbps) + own_sm)
        share = a[op] * args.target_gbps / args.source_gbps
        split_errors.append(split / b[op] - 1)
        share_errors.append(share / b[op] - 1)
        print(f"{op:18s} {a[op]:11,.0f}  {b[op]:11,.0f}  {split:11,.0f}  {100 * split_errors[-1]:+6.1f} %"
              f"  {share:12,.0f}  {100 * share_errors[-1]:+6.1f} %")
    if split_errors:
        mae = lambda v: 100 * statistics.mean(abs(x) for x in v)
        mx = lambda v: 100 * max(abs(x) for x in v)
        print(f"mean / max error: split model {mae(split_errors):.1f} / {mx(split_errors):.1f} %, "
              f"the source's share {mae(share_errors):.1f} / {mx(share_errors):.1f} %")
    layer_gains = []
    for name, what in (("layer_kernels.csv", "eager"), ("layer_compiled_kernels.csv", "through torch.compile")):
        la, lb = layer_times(args.source, name), layer_times(args.target, name)
        if not (la and lb):
            continue
        layer_gains.append(sum(la.values()) / sum(lb.values()))
        print(f"a decoder layer ({what}, {name}): its elementwise kernels, source / target time (the split "
              f"model says {e_b * args.target_gbps / (args.efficiency * args.source_gbps):.2f}):")
        for kind in sorted(la, key=lambda k: -la[k]):
            if lb.get(kind):
                print(f"  {kind:24s} {la[kind]:9,.0f} us  {lb[kind]:9,.0f} us  {la[kind] / lb[kind]:.2f}")
        print(f"  {'all':24s} {sum(la.values()):9,.0f} us  {sum(lb.values()):9,.0f} us  "
              f"{sum(la.values()) / sum(lb.values()):.2f}")
    if layer_gains:
        gain = statistics.mean(layer_gains)
        e_layer = args.efficiency * args.source_gbps * gain / args.target_gbps
        print(f"target memory-efficiency from the layers: {args.efficiency} x {args.source_gbps:g} x "
              f"{gain:.3f} (their mean gain) / {args.target_gbps:g} = {e_layer:.3f}")


if __name__ == "__main__":
    main()
