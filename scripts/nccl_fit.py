#!/usr/bin/env python3
"""Fit and cross-check the nccl backend's calibrated constants.

The calibrated constants of the H100 presets (presets/h100-ib-ndr400.toml and
presets/hgx-h100.toml are composed of catalogue items; the constants marked
"calibrated" live in presets/nccl/hopper.toml and presets/nics/ndr400.toml) are fitted here against the visible
tables that `dtcalc validate` runs (datasets nccl-h100 and astrasim-hgx-h100).
The objective is the mean over groups of each group's mean absolute error, so
every (collective, GPUs, nodes) group weighs the same whatever its row count.

  scripts/nccl_fit.py table        per-group MAE and max with the presets as shipped
  scripts/nccl_fit.py fit          fit every calibrated constant on all groups
  scripts/nccl_fit.py logo         leave-one-group-out: for each group, fit every
                                   calibrated constant on the other groups only and
                                   report the left-out group's MAE and max
  scripts/nccl_fit.py loso         leave-one-shape-out: the same with every group of
                                   one node shape (GPUs and nodes) left out at once

Options: --dtcalc PATH (default build/src/dtcalc), --markdown (tables as Markdown).
The preset folder is copied to a temporary folder, the catalogue files edited
there and found first through DTCALC_PRESET_PATH; the shipped files are never
written. `dtcalc calibrate` fits the same constants on the mean squared log
error instead (README, "Calibrating a preset to your cluster").
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = ["nccl-h100", "astrasim-hgx-h100", "nccl-h100-shapes", "nccl-h100-pairs", "nccl-h100-nodes"]

# (catalogue file, table, key, search range low, high, log scale): the
# constants marked "calibrated", where the composed presets take them from
# (presets/nccl/hopper.toml, presets/nics/ndr400.toml; table None: top level).
CONSTANTS = [
    ("nccl/hopper.toml", "nccl", "alltoall-nvlink-efficiency", 0.60, 0.95, False),
    ("nics/ndr400.toml", None, "payload-efficiency", 0.75, 1.00, False),
    ("nics/ndr400.toml", None, "p2p-channel-bandwidth-gbps", 8.0, 30.0, False),
    ("nics/ndr400.toml", None, "p2p-chunk-overhead-us", 0.1, 5.0, False),
    ("nics/ndr400.toml", None, "p2p-connection-start-us", 0.1, 15.0, False),
    ("nics/ndr400.toml", None, "alltoall-efficiency", 0.75, 1.00, False),
    ("nics/ndr400.toml", None, "ring-channel-bandwidth-gbps", 10.0, 50.0, False),
    ("nics/ndr400.toml", None, "ring-slice-overhead-us", 0.1, 15.0, False),
    ("nccl/hopper.toml", "nccl.p2p", "copy-bandwidth-per-channel", 20.0, 400.0, True),
    ("nccl/hopper.toml", "nccl", "nvls-chunk-overhead-us", 0.01, 2.5, False),
]
FILES = sorted({c[0] for c in CONSTANTS})


def set_key(text, table, key, value):
    """Replace `key = ...` inside [table] of a TOML text."""
    lines = text.split("\n")
    current = None
    for i, line in enumerate(lines):
        header = re.match(r"^\s*\[([^\]]+)\]\s*$", line)
        if header:
            current = header.group(1).strip()
            continue
        if current == table and re.match(r"^\s*" + re.escape(key) + r"\s*=", line):
            comment = ""
            if "#" in line:
                comment = "  " + line[line.index("#"):]
            lines[i] = f"{key} = {value:.6g}{comment}"
            return "\n".join(lines)
    raise KeyError(f"[{table}] {key} not found")


def get_key(text, table, key):
    current = None
    for line in text.split("\n"):
        header = re.match(r"^\s*\[([^\]]+)\]\s*$", line)
        if header:
            current = header.group(1).strip()
            continue
        m = re.match(r"^\s*" + re.escape(key) + r"\s*=\s*([-0-9.eE+]+)", line)
        if current == table and m:
            return float(m.group(1))
    raise KeyError(f"[{table}] {key} not found")


class Evaluator:
    def __init__(self, dtcalc):
        self.dtcalc = dtcalc
        self.tmp = tempfile.mkdtemp(prefix="nccl-fit-")
        shutil.copytree(os.path.join(ROOT, "presets"), self.tmp, dirs_exist_ok=True)
        self.texts = {}
        for name in FILES:
            with open(os.path.join(ROOT, "presets", name)) as f:
                self.texts[name] = f.read()
        self.shipped = [get_key(self.texts[f], t, k) for f, t, k, *_ in CONSTANTS]
        self.cache = {}

    def cases(self, values):
        key = tuple(round(v, 9) for v in values)
        if key in self.cache:
            return self.cache[key]
        for name in FILES:
            text = self.texts[name]
            for (f, table, k, *_), v in zip(CONSTANTS, values):
                if f == name:
                    text = set_key(text, table, k, v)
            with open(os.path.join(self.tmp, name), "w") as out:
                out.write(text)
        env = dict(os.environ, DTCALC_PRESET_PATH=self.tmp)
        cmd = [self.dtcalc, "validate", "--format", "json"]
        for d in DATASETS:
            cmd += ["--dataset", d]
        out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        if not out.stdout.strip():
            raise RuntimeError(f"{' '.join(cmd)} with {fmt_values(values)} gave no report (exit {out.returncode}): "
                               + out.stderr.strip())
        doc = json.loads(out.stdout)
        groups = {}
        for c in doc["cases"]:
            if c["error"] is None:
                continue
            groups.setdefault(f'{c["dataset"]}:{c["group"]}', []).append(abs(c["error"]))
        self.cache[key] = groups
        return groups

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def shape_of(group):
    """'nccl-h100:all-gather/80gpu/10node' -> '80gpu/10node' (one node when unnamed)."""
    parts = group.split(":", 1)[1].split("/")[1:]
    return "/".join(parts) if len(parts) > 1 else parts[0] + "/1node"


def group_stats(errors):
    return sum(errors) / len(errors), max(errors)


def objective(groups, use):
    maes = [group_stats(groups[g])[0] for g in use]
    return sum(maes) / len(maes)


def fit(ev, use, start):
    values = list(start)
    for _ in range(3):  # coordinate descent, three sweeps
        for i, (_, _, _, lo, hi, log) in enumerate(CONSTANTS):
            a, b = (lo, hi)
            tr = (lambda x: x) if not log else __import__("math").log
            inv = (lambda x: x) if not log else __import__("math").exp
            a, b = tr(a), tr(b)
            # grid, then golden-section refinement around the best grid point
            grid = [a + (b - a) * k / 16 for k in range(17)]

            def f(x):
                trial = list(values)
                trial[i] = inv(x)
                return objective(ev.cases(trial), use)

            best = min(grid, key=f)
            step = (b - a) / 16
            lo_x, hi_x = max(a, best - step), min(b, best + step)  # within the search range
            g = (5 ** 0.5 - 1) / 2
            for _ in range(20):
                c = hi_x - g * (hi_x - lo_x)
                d = lo_x + g * (hi_x - lo_x)
                if f(c) < f(d):
                    hi_x = d
                else:
                    lo_x = c
            x = (lo_x + hi_x) / 2
            values[i] = inv(x if f(x) < f(best) else best)
    return values


def fmt_values(values):
    return ", ".join(f"{k} = {v:.4g}" for (_, _, k, *_), v in zip(CONSTANTS, values))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["table", "fit", "logo", "loso"])
    ap.add_argument("--dtcalc", default=os.path.join(ROOT, "build", "src", "dtcalc"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    ev = Evaluator(args.dtcalc)
    try:
        groups = ev.cases(ev.shipped)
        names = sorted(groups, key=lambda g: (g.split(":")[0], g))
        sep = " | " if args.markdown else "  "
        if args.mode == "table":
            print(f"# shipped constants: {fmt_values(ev.shipped)}")
            print(sep.join(["group".ljust(46), "rows", "MAE", "max"]))
            for g in names:
                mae, mx = group_stats(groups[g])
                print(sep.join([g.ljust(46), f"{len(groups[g]):4d}", f"{100 * mae:6.2f}%", f"{100 * mx:6.2f}%"]))
            print(f"# objective (mean of group MAEs): {100 * objective(groups, names):.3f}%")
        elif args.mode == "fit":
            values = fit(ev, names, ev.shipped)
            print(f"# shipped: {fmt_values(ev.shipped)}  objective {100 * objective(groups, names):.3f}%")
            print(f"# fitted:  {fmt_values(values)}  objective {100 * objective(ev.cases(values), names):.3f}%")
        elif args.mode == "loso":
            print(f"# leave-one-shape-out; shipped constants: {fmt_values(ev.shipped)}")
            print(sep.join(["left-out group".ljust(46), "in-sample MAE", "out MAE", "out max"]))
            shapes = sorted({shape_of(g) for g in names})
            for shape in shapes:
                left = [g for g in names if shape_of(g) == shape]
                values = fit(ev, [h for h in names if shape_of(h) != shape], ev.shipped)
                out = ev.cases(values)
                print(f"# without shape {shape}: {fmt_values(values)}", flush=True)
                for g in left:
                    mae, mx = group_stats(out[g])
                    mae0, _ = group_stats(groups[g])
                    print(sep.join([g.ljust(46), f"{100 * mae0:6.2f}%", f"{100 * mae:6.2f}%", f"{100 * mx:6.2f}%"]),
                          flush=True)
        else:
            print(f"# leave-one-group-out; shipped constants: {fmt_values(ev.shipped)}")
            print(sep.join(["left-out group".ljust(46), "in-sample MAE", "out MAE", "out max", "constants fitted without it"]))
            for g in names:
                rest = [h for h in names if h != g]
                values = fit(ev, rest, ev.shipped)
                mae, mx = group_stats(ev.cases(values)[g])
                mae0, _ = group_stats(groups[g])
                print(sep.join([g.ljust(46), f"{100 * mae0:6.2f}%", f"{100 * mae:6.2f}%", f"{100 * mx:6.2f}%",
                                fmt_values(values)]), flush=True)
    finally:
        ev.close()


if __name__ == "__main__":
    sys.exit(main())
