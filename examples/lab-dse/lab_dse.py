#!/usr/bin/env python3
"""Seed 004, Part 3, with the dtcalc Python module: all 56 parallel strategies
of 64 NPUs for Llama-70B on lab system 1 and GPT-175B on lab system 2, the
best with unlimited memory and with 80 GiB, and the trend with data
parallelism. The lab's names: dp_tp_sp_pp_ar, its sp being dtcalc's cp.

    PYTHONPATH=build/python python3 examples/lab-dse/lab_dse.py
"""
import os
import sys

import dtcalc

HERE = os.path.dirname(os.path.abspath(__file__))
LIMIT_GIB = 80


def lab_name(row):
    """The lab's key for a strategy: dp_tp_sp_pp_ar."""
    return f"{row['dp']}_{row['tp']}_{row['cp']}_{row['pp']}_{1 if row['recompute'] == 'full' else 0}"


def describe(row):
    return (f"{lab_name(row):>12}  {row['iteration_time_us'] / 1e6:9.3f} s  "
            f"{row['tokens_per_s']:9.0f} tokens/s  {row['peak_memory_bytes'] / 2**30:8.1f} GiB")


def main():
    rows = dtcalc.sweep(os.path.join(HERE, "lab-dse.toml"))  # 112 points, in well under a second
    for case in dict.fromkeys(r["case"] for r in rows):
        mine = [r for r in rows if r["case"] == case]
        runs = [r for r in mine if r["iteration_time_us"] is not None]
        fits = [r for r in runs if r["peak_memory_bytes"] <= LIMIT_GIB * 2**30]
        print(f"{case}: {len(mine)} strategies, {len(runs)} can run, {len(fits)} fit in {LIMIT_GIB} GiB")
        for r in mine:
            if r["iteration_time_us"] is None:
                print(f"  cannot run {lab_name(r)}: {r['reason']}")
        best = min(runs, key=lambda r: r["iteration_time_us"])
        print("  best, memory unlimited:", describe(best))
        if fits:
            print(f"  best within {LIMIT_GIB} GiB:  ", describe(min(fits, key=lambda r: r["iteration_time_us"])))
        else:
            print(f"  nothing fits in {LIMIT_GIB} GiB: the smallest needs",
                  f"{min(r['peak_memory_bytes'] for r in runs) / 2**30:.1f} GiB")
        # The trend: the fastest strategy at each data-parallel degree.
        print("  fastest per dp (no recompute):")
        for dp in sorted({r["dp"] for r in runs}):
            at = [r for r in runs if r["dp"] == dp and r["recompute"] == "none"]
            if at:
                print("   ", describe(min(at, key=lambda r: r["iteration_time_us"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
