#!/usr/bin/env python3
"""How far one nccl-tests run disagrees with itself: in-place against out-of-place.

nccl-tests times every size twice in one run, out of place and in place, with the same
communicator, GPUs and iteration count. Where NCCL does the same work either way (all-reduce,
reduce-scatter, send/recv), the two differ only by what varies between repetitions, so their
gap is a floor under any model's error on those rows: a group's mean absolute error below it
says nothing. In place, all-gather and all-to-all skip copying the rank's own share into the
output, so their gap also holds that copy (the in-place run is the faster).

  scripts/nccl_repeatability.py [FOLDER ...]   (default: validation/nccl/cluster01)

For each (collective, GPUs, nodes) group of the logs it prints the rows, and the mean and the
largest |in-place / out-of-place - 1|. Reads the logs as nccl-tests prints them (the header's
"Collective test starting" line names the collective; the rank lines, or the file name's
N<nodes>_G<gpus>, give the shape).
"""
import argparse
import collections
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

START = re.compile(r"#\s*Collective test starting:\s*(\w+?)_perf")
SHAPE = re.compile(r"N(\d+)_G(\d+)")


def rows_of(path):
    """(collective, size, out-of-place us, in-place us) for every size row of one log."""
    collective = None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = START.match(line)
        if m:
            collective = m.group(1)
            continue
        if line.startswith("#") or collective is None:
            continue
        f = line.split()
        # size count type redop root time algbw busbw #wrong time algbw busbw #wrong
        if len(f) < 13 or not f[0].isdigit():
            continue
        try:
            out_us, in_us = float(f[5]), float(f[9])
        except ValueError:
            continue
        if out_us > 0 and in_us > 0:
            yield collective, int(f[0]), out_us, in_us


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", default=[os.path.join(ROOT, "validation", "nccl", "cluster01")])
    args = ap.parse_args()
    gaps = collections.defaultdict(list)
    for folder in args.folders:
        logs = sorted(glob.glob(os.path.join(folder, "**", "*.log"), recursive=True))
        if not logs:
            print(f"nccl_repeatability: {folder}: no .log files", file=sys.stderr)
            return 2
        for path in logs:
            m = SHAPE.search(os.path.basename(path))
            if not m:
                print(f"nccl_repeatability: {path}: no N<nodes>_G<gpus> in the file name", file=sys.stderr)
                return 2
            nodes, gpus = int(m.group(1)), int(m.group(2))
            rows = list(rows_of(path))
            if not rows:
                print(f"nccl_repeatability: {path}: no size rows with out-of-place and in-place times "
                      "under a 'Collective test starting' line", file=sys.stderr)
                return 2
            for collective, _, out_us, in_us in rows:
                gaps[(collective, nodes * gpus, nodes)].append(abs(in_us / out_us - 1))
    print("| collective | GPUs | nodes | rows | mean of abs(in / out - 1) | max |")
    print("|---|---|---|---|---|---|")
    for (collective, ranks, nodes), v in sorted(gaps.items()):
        print(f"| {collective} | {ranks} | {nodes} | {len(v)} | {100 * sum(v) / len(v):.2f} % | {100 * max(v):.2f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
