#!/usr/bin/env bash
# Installs the Debian packages dtcalc needs to build and test (librsvg2-bin:
# rsvg-convert, which the tests use to render every SVG dtcalc draws).
# Only packages that are missing are installed; safe to run repeatedly.
set -euo pipefail

packages=(
  cmake g++ make
  libcli11-dev libtomlplusplus-dev libfmt-dev doctest-dev
  nlohmann-json3-dev libyaml-cpp-dev libbenchmark-dev
  libprotobuf-dev protobuf-compiler
  pybind11-dev python3-dev
  librsvg2-bin
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} > 0)); then
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  echo "installing: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
