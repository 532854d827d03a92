#!/usr/bin/env python3
"""Fit a device's fused-attention curves (`attention-forward`, `attention-backward`) on
attention timed back to back on it (scripts/measure_compute.py --only attention-sequence).

Each direction's share of the bf16 peak at sequence length s is plateau x s / (s + s0)
(src/compute/training_device.h): the forward on the causal half of 4 b h s^2 d FLOPs, the
backward on 2.5x that. For each s0 on a grid of 10 tokens from 0 to 10,000 the plateau of
least squares in log is the geometric mean of measured / (s / (s + s0)); the pair of least
loss is printed with its rms error in log and each sequence length's measured range beside
the curve.

usage: scripts/attention_fit.py [--data validation/compute/h100_sxm/attention_sequence.csv]
                                [--peak-tflops 989.4]
"""
import argparse
import csv
import math
import os
import statistics
import sys


def fail(message):
    """Bad input: the message on stderr, exit code 2."""
    print(message, file=sys.stderr)
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fit(points):
    """(rms in log, s0, plateau) over (seq, share of peak) points."""
    best = None
    for s0 in range(0, 10001, 10):
        logs = [math.log(share) - math.log(seq / (seq + s0)) for seq, share in points]
        plateau = math.exp(statistics.mean(logs))
        loss = statistics.mean((x - math.log(plateau)) ** 2 for x in logs)
        if best is None or loss < best[0]:
            best = (loss, s0, plateau)
    return math.sqrt(best[0]), best[1], best[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "validation/compute/h100_sxm/attention_sequence.csv"))
    ap.add_argument("--peak-tflops", type=float, default=989.4, help="the device's dense bf16 peak (its preset's)")
    args = ap.parse_args()
    try:
        rows = list(csv.DictReader(open(args.data)))
    except OSError as e:
        fail(f"attention_fit.py: {args.data}: {e.strerror}")
    for key, name in (("fwd_tflops", "attention-forward"), ("bwd_tflops", "attention-backward")):
        try:
            points = [(int(r["seq"]), float(r[key]) / args.peak_tflops) for r in rows]
        except (KeyError, ValueError) as e:
            fail(f"attention_fit.py: {args.data}: expected columns seq and {key} with numbers ({e})")
        if not points or any(share <= 0 for _, share in points):
            fail(f"attention_fit.py: {args.data}: {key} must be > 0 on every row")
        rms, s0, plateau = fit(points)
        print(f"{name} = [{plateau:.3f}, {s0}]   rms {100 * rms:.1f} % in log over {len(points)} rows")
        for seq in sorted({s for s, _ in points}):
            shares = [share for s, share in points if s == seq]
            print(f"  {seq:6d} tokens: measured {min(shares):.3f}-{max(shares):.3f}, "
                  f"curve {plateau * seq / (seq + s0):.3f}")


if __name__ == "__main__":
    main()
