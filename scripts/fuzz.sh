#!/usr/bin/env bash
# Fuzzes every input format for a bounded time, then replays the corpora
# through the command line.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 20 s, every target)
#   FUZZ_SEED=N scripts/fuzz.sh ...    another random seed (default 1: runs repeat)
#
# 1. Builds the libFuzzer targets of tests/fuzz (clang, ASan + UBSan) in build-fuzz/.
# 2. Runs each (one per core at a time) from its seeds (tests/fuzz/targets.txt) and its saved
#    reproducers (tests/fuzz/regressions/TARGET/) for SECONDS_PER_TARGET, an
#    input over 10 s or 2 GiB counting as a finding. (10 s, not 1: the largest seed, a
#    2,048-NPU switch run on both ASTRA-sim backends, takes 0.08 s in the release build and
#    2.3-2.5 s under ASan and coverage; a hang still stops the run.) A finding's input is saved
#    as fuzz-findings/TARGET/crash-* (timeout-*, oom-*) and printed in base64;
#    add it to tests/fuzz/regressions/TARGET/ with the fix.
# 3. Replays every corpus input through the dtcalc command that reads it
#    (scripts/fuzz-cli-replay.py, against build/src/dtcalc).
# Exit code 1 when anything was found.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
shift || true

packages=(clang libclang-rt-dev python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  sudo_cmd=()
  [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDTCALC_FUZZ=ON >/dev/null
if ! cmake --build build-fuzz -j"$(nproc)" >build-fuzz/build.log 2>&1; then
  grep -E 'error|Error' build-fuzz/build.log | head -40
  echo "the fuzz targets did not build (build-fuzz/build.log)"
  exit 1
fi

targets=("$@")
if ((${#targets[@]} == 0)); then
  mapfile -t targets < <(grep -E '^[a-z]' tests/fuzz/targets.txt | awk '{print $1}')
fi

export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# One row of the table: target, executions, seconds, corpus size, result.
row() { printf '%-14s %12s %8s %8s  %s\n' "$@"; }

# One target: seeds its corpus, fuzzes it, and writes its table row (and, on a
# finding, the reproducer) to build-fuzz/TARGET.result.
fuzz_one() {
  local target="$1" corpus="build-fuzz/corpus/$1" findings="fuzz-findings/$1"
  local log="build-fuzz/$1.log" result="build-fuzz/$1.result" status=0
  mkdir -p "$corpus" "$findings"
  # Seeds: the project's own files for this format, and the saved reproducers.
  local globs pattern file
  read -r -a globs <<<"$(grep -E "^$target[[:space:]]" tests/fuzz/targets.txt | cut -d' ' -f2- )"
  shopt -s nullglob
  for pattern in "${globs[@]}"; do
    for file in $pattern; do cp "$file" "$corpus/seed-$(basename "$file")"; done
  done
  for file in tests/fuzz/regressions/"$target"/*; do cp "$file" "$corpus/"; done
  shopt -u nullglob
  "build-fuzz/tests/fuzz/fuzz_$target" "$corpus" -seed="${FUZZ_SEED:-1}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
  local executions elapsed size
  executions=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  elapsed=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | grep -oE '[0-9]+ second' | grep -oE '[0-9]+' || echo "$seconds")
  size=$(find "$corpus" -type f | wc -l)
  if ((status == 0)); then
    row "$target" "$executions" "$elapsed" "$size" ok >"$result"
  else
    {
      row "$target" "$executions" "$elapsed" "$size" "FINDING (exit $status)"
      grep -E 'ERROR|SUMMARY|fuzz finding|terminate|what\(\)' "$log" | head -5 | sed 's/^/    /'
      for artifact in "$findings"/*; do
        echo "    reproducer: $artifact ($(stat -c %s "$artifact") bytes)"
        echo "    base64: $(head -c 4096 "$artifact" | base64 -w0)"
        echo "    replay: build-fuzz/tests/fuzz/fuzz_$target $artifact"
      done
    } >"$result"
  fi
}

# The targets run side by side, one per core; their rows print in list order.
jobs_max="$(nproc)"
for target in "${targets[@]}"; do
  rm -f "build-fuzz/$target.result"
  while (($(jobs -rp | wc -l) >= jobs_max)); do wait -n || true; done
  fuzz_one "$target" &
done
wait
found=0
row target executions seconds corpus result
for target in "${targets[@]}"; do
  if [[ -f "build-fuzz/$target.result" ]]; then
    cat "build-fuzz/$target.result"
    grep -q FINDING "build-fuzz/$target.result" && found=1
  else
    row "$target" - - - "no result (build-fuzz/$target.log)"
    found=1
  fi
done

if [[ -x build/src/dtcalc ]]; then
  python3 scripts/fuzz-cli-replay.py build/src/dtcalc build-fuzz/corpus || found=1
else
  echo "build/src/dtcalc not built: the command-line replay is skipped (scripts/build.sh)"
fi
exit "$found"
