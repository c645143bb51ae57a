#!/usr/bin/env bash
# Installs what the course needs and the machine lacks, from Debian/Ubuntu packages:
# CMake, Ninja, Catch2 v2, Doxygen, zlib headers, Python 3 (the docs link check), bubblewrap
# (the grader runs every submission in its sandbox, grading/README.md); with --fuzz, clang
# with libFuzzer; with --render, Chromium (the docs target's rendering check opens the book's
# pages in it, headless) and the Noto CJK fonts (the notes' Chinese and the course's other
# scripts must not render as empty boxes, which the check fails on).
# The CUDA Toolkit itself (nvcc, cuBLAS, cuSPARSE) must already be installed.
set -euo pipefail

packages=(cmake ninja-build catch2 doxygen zlib1g-dev python3 bubblewrap)
for option in "$@"; do
  case "$option" in
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --render) packages+=(chromium fonts-noto-cjk) ;;
    *) echo "usage: $0 [--fuzz] [--render]" >&2; exit 2 ;;
  esac
done

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
  echo "Installing: ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [[ -x /usr/local/cuda/bin/nvcc ]]; then
    echo "note: nvcc is in /usr/local/cuda/bin; add it to PATH (export PATH=/usr/local/cuda/bin:\$PATH)"
  else
    echo "error: the CUDA Toolkit (nvcc) was not found; install it from NVIDIA first" >&2
    exit 1
  fi
fi
