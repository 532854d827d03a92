#!/usr/bin/env python3
"""Runs one slice of the doctest suite, so that `ctest -j` spreads it over the cores.

    run_shard.py BINARY SHARD SHARDS [DOCTEST_ARGS...]

Every shard lists the test cases in the same shuffled order (doctest's
--order-by=rand with one fixed seed: the slow cases land in different slices),
counts them, and runs the SHARD-th of SHARDS equal runs of that order
(--first/--last, 1-based). The slices cover every test case exactly once
whatever the suite's size. Each shard writes its temporary files under its own
folder ($TMPDIR/shard-SHARD), so two shards never share one.
"""

import os
import re
import subprocess
import sys

SEED = 1


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    binary, extra = sys.argv[1], sys.argv[4:]
    try:
        shard, shards = int(sys.argv[2]), int(sys.argv[3])
    except ValueError:
        print(f"run_shard.py: SHARD and SHARDS must be whole numbers, got {sys.argv[2]!r} {sys.argv[3]!r}", file=sys.stderr)
        return 2
    if not 1 <= shard <= shards:
        print(f"run_shard.py: shard {shard} is not in 1..{shards}", file=sys.stderr)
        return 2
    order = ["--order-by=rand", f"--rand-seed={SEED}"]

    listing = subprocess.run([binary, "--count", *order, *extra], capture_output=True, text=True)
    found = re.search(r"passing the current filters:\s*(\d+)", listing.stdout)
    if listing.returncode != 0 or not found:
        sys.stdout.write(listing.stdout)
        sys.stderr.write(listing.stderr)
        print(f"run_shard.py: could not count the test cases of {binary}", file=sys.stderr)
        return 1
    count = int(found.group(1))
    first = (shard - 1) * count // shards + 1
    last = shard * count // shards
    if first > last:
        print(f"shard {shard} of {shards}: no test case (the suite has {count})")
        return 0

    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"shard-{shard}")
    os.makedirs(tmp, exist_ok=True)
    env = dict(os.environ, TMPDIR=tmp)
    print(f"shard {shard} of {shards}: test cases {first}..{last} of {count}", flush=True)
    return subprocess.run([binary, *order, f"--first={first}", f"--last={last}", *extra], env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
