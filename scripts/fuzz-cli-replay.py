#!/usr/bin/env python3
"""Runs every input of the fuzz corpora through the dtcalc command that reads
that format, and checks what a user would see:

  - the command exits 0 (a result) or 2 (bad input, one "dtcalc: error:" line
    on stderr and nothing on stdout); never a signal or any other code;
  - it finishes within a second (a sweep spec: within SWEEP_SECONDS, and only
    with at most 2,000 points, the --max-points it is given);
  - nothing it prints holds a nan or inf (unless the input itself holds those
    letters: names and notes are echoed as written, or cut to a column).

usage: scripts/fuzz-cli-replay.py DTCALC CORPUS_DIR [--jobs N]
CORPUS_DIR holds one folder per target (tests/fuzz/targets.txt).
"""
import argparse
import base64
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SECONDS = 1.0
SWEEP_SECONDS = 5.0
ECHOED = re.compile(r"nan|inf", re.IGNORECASE)  # anywhere: a name cut to a column can end in "1inf"
NONFINITE = re.compile(r"(?<![A-Za-z_])[-+]?(nan|inf|infinity)(?![A-Za-z_])", re.IGNORECASE)

SYSTEM_FLAT = """{"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
 "preferred-dataset-splits": 4, "all-reduce-implementation": ["oneRing"], "all-gather-implementation": ["oneRing"],
 "reduce-scatter-implementation": ["oneRing"], "all-to-all-implementation": ["oneDirect"],
 "collective-optimization": "baseline", "local-mem-bw": 1600}"""


def command_for(target, data, scratch):
    """The argument list that feeds `data` to dtcalc as `target`'s format, or None."""
    def file_with(suffix, name="input"):
        path = scratch / (name + suffix)
        path.write_bytes(data)
        return str(path)

    gemm = ROOT / "examples/gemm"
    chakra = ROOT / "validation/chakra"
    if target == "units":
        if b"\0" in data:
            return None
        text = data.decode("utf-8", "surrogateescape")
        return ["collective", "all-reduce", "--size", text, "--preset", "hgx-h100"]
    if target == "preset_toml":
        return ["collective", "all-reduce", "--size", "1MiB", "--preset", file_with(".toml")]
    if target == "model_toml":
        return ["predict", "--model", file_with(".toml"), "--preset", "hgx-h100", "--nodes", "1",
                "--tp", "2", "--pp", "2", "--gbs", "8"]
    if target == "scenario_toml":
        return ["predict", "--scenario", file_with(".toml")]
    if target == "sweep_spec":
        return ["sweep", file_with(".toml"), "--quiet", "--threads", "1", "--max-points", "2000"]
    if target == "batch_csv":
        return ["sweep", "--input", file_with(".csv"), "--quiet", "--threads", "1", "--keep-going"]
    if target == "network_yaml":
        (scratch / "flat.json").write_text(SYSTEM_FLAT)
        return ["collective", "all-reduce", "--size", "1MiB", "--network", file_with(".yml"),
                "--system", str(scratch / "flat.json")]
    if target == "system_json":
        return ["collective", "all-reduce", "--size", "1MiB", "--network", str(gemm / "network_8x2.yml"),
                "--system", file_with(".json")]
    if target == "v1_workload":
        return ["run", file_with(".txt"), "--network", str(gemm / "network_8x2.yml"),
                "--system", str(gemm / "system_8x2.json")]
    if target == "chakra_trace":
        for rank in range(16):  # the same trace for every NPU of the sanity system
            file_with(f".{rank}.et", "trace")
        return ["astra", "--workload-configuration", str(scratch / "trace"),
                "--system-configuration", str(chakra / "system_system_16.json"),
                "--network-configuration", str(chakra / "network_system_16.yml"), "--threads", "1"]
    if target == "comm_groups":
        return ["astra", "--workload-configuration", str(chakra / "sanity_16npu/workload"),
                "--comm-group-configuration", file_with(".json"),
                "--system-configuration", str(chakra / "system_system_16.json"),
                "--network-configuration", str(chakra / "network_system_16.yml"), "--threads", "1"]
    if target == "mnk_csv":
        return ["gen-workload", "--mnk", file_with(".csv"), "--parallel", "HYBRID_DATA_MODEL", "--packages", "2", "--array", "32x32",
                "--network", str(gemm / "network_8x2.yml"), "--system", str(gemm / "system_8x2.json"), "--evaluate"]
    if target == "nccl_tests_log":
        return ["validate", "--dataset", file_with(".log", "all_reduce_perf"), "--preset", "h100-ib-ndr400"]
    if target == "nccl_tests_json":
        return ["validate", "--dataset", file_with(".json", "all_reduce_perf"), "--preset", "h100-ib-ndr400"]
    if target == "training_cases":
        return ["validate", "--dataset", file_with(".csv", "cases"), "--preset", "h100-ib-ndr400"]
    if target == "plan_options":
        return None  # choices, not a file: the target itself runs them through every front end
    raise SystemExit(f"unknown target {target}")


def check(dtcalc, target, path):
    """One input: the problems found, as strings (empty when all is well)."""
    data = path.read_bytes()
    with tempfile.TemporaryDirectory(prefix="dtcalc-replay-") as scratch:
        scratch = pathlib.Path(scratch)
        args = command_for(target, data, scratch)
        if args is None:
            return [], 0.0, None
        limit = SWEEP_SECONDS if target == "sweep_spec" else SECONDS
        start = time.monotonic()
        try:
            run = subprocess.run([dtcalc] + args, capture_output=True, timeout=limit * 4, cwd=scratch)
        except subprocess.TimeoutExpired:
            return [f"{path}: still running after {limit * 4:.0f} s"], limit * 4, None
        seconds = time.monotonic() - start
    problems = []
    # The scratch folder's random name comes back in file names and may spell
    # "nan" or "inf" between digits (dtcalc-replay-8nan2tlz): leave it out.
    out = run.stdout.decode("utf-8", "replace").replace(str(scratch), "SCRATCH")
    err = run.stderr.decode("utf-8", "replace").replace(str(scratch), "SCRATCH")
    if run.returncode < 0:
        problems.append(f"killed by signal {-run.returncode}")
    elif run.returncode not in (0, 2):
        problems.append(f"exit code {run.returncode}")
    if run.returncode == 2 and target != "batch_csv":
        if out:
            problems.append("output on stdout with an error")
        if not err.startswith("dtcalc: error: "):
            problems.append("error without 'dtcalc: error:'")
    if seconds > limit:
        problems.append(f"took {seconds:.2f} s (limit {limit:.0f} s)")
    echoed = ECHOED.search(data.decode("utf-8", "replace"))  # names and notes come back as written
    if not echoed and (NONFINITE.search(out) or (run.returncode == 0 and NONFINITE.search(err))):
        problems.append("nan or inf in the output")
    if problems:
        shown = " ".join(a if len(a) < 120 else a[:117] + "..." for a in args)
        encoded = base64.b64encode(data[:4096]).decode("ascii")
        problems = [f"{path}: {'; '.join(problems)}\n    dtcalc {shown}\n    {err.strip()[:300]}\n"
                    f"    input ({len(data)} bytes) in base64: {encoded}"]
    return problems, seconds, run.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dtcalc")
    parser.add_argument("corpus")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    options = parser.parse_args()
    dtcalc = str(pathlib.Path(options.dtcalc).resolve())
    os.environ.setdefault("DTCALC_PRESET_PATH", str(ROOT / "presets"))
    os.environ.setdefault("DTCALC_MODEL_PATH", str(ROOT / "models"))

    failures = 0
    for folder in sorted(p for p in pathlib.Path(options.corpus).iterdir() if p.is_dir()):
        target = folder.name
        inputs = sorted(p for p in folder.rglob("*") if p.is_file())
        with concurrent.futures.ThreadPoolExecutor(options.jobs) as pool:
            results = list(pool.map(lambda p: check(dtcalc, target, p), inputs))
        problems = [line for found, _, _ in results for line in found]
        slowest = max((s for _, s, _ in results), default=0.0)
        answered = sum(1 for _, _, code in results if code == 0)
        refused = sum(1 for _, _, code in results if code == 2)
        print(f"{target:14} {len(inputs):6} inputs  {answered:6} results  {refused:6} input errors  "
              f"slowest {slowest:6.3f} s  {len(problems)} problems", flush=True)
        for line in problems[:20]:
            print("  " + line)
        failures += len(problems)
    if failures:
        print(f"FAIL: {failures} inputs misbehave on the command line")
        return 1
    print("PASS: every corpus input gives a result or one clear error, in time, with finite numbers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
