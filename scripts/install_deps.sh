#!/usr/bin/env bash
# Installs what the course needs and the machine lacks, on Debian 12 or 13 and Ubuntu 22.04
# or 24.04: a C++ compiler, CMake, Ninja, Catch2 (2 or 3: the distribution's), Doxygen,
# zlib headers, Python 3 (the docs link check), bubblewrap (the grader runs every
# submission in its sandbox, grading/README.md); with --fuzz, clang with libFuzzer; with
# --render, Chromium (the docs target's rendering check opens the book's pages in it,
# headless) and the Noto CJK fonts (the notes' Chinese must not render as empty boxes).
#
# Usage: scripts/install_deps.sh [--fuzz] [--render] [--help]
#
# The course needs CMake 3.24 or newer. Where the distribution's is older (Ubuntu 22.04
# ships 3.22), CMake 3.x from PyPI is installed into a virtual environment in
# /opt/cuda-course/cmake and linked from /usr/local/bin, which comes before /usr/bin on
# the PATH: `cmake` and `ctest` then are the new ones in every shell.
# Packages come from apt (with sudo when not run as root). Nothing is installed when
# everything is there already. The CUDA Toolkit itself (nvcc, cuBLAS, cuSPARSE; the versions
# the course supports are in README.md, "Quick start") must already be installed.
# Exit status: 0 when everything is there, 1 when something could not be installed, 2 for
# a usage error.
set -euo pipefail

usage() { sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; }

packages=(g++ cmake ninja-build catch2 doxygen zlib1g-dev python3 bubblewrap)
for option in "$@"; do
  case "$option" in
    -h|--help) usage; exit 0 ;;
    --fuzz) packages+=(clang libclang-rt-dev) ;;
    --render) packages+=(chromium fonts-noto-cjk) ;;
    *) echo "install_deps.sh: unknown option '$option' (options: --fuzz, --render, --help)" >&2
       exit 2 ;;
  esac
done

minimum_cmake=3.24
sudo_cmd=()
[[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive

# True when a Debian package of this name (or one that provides it) is installed.
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

apt_updated=0
apt_update() {
  ((apt_updated == 1)) || "${sudo_cmd[@]}" apt-get update -qq
  apt_updated=1
}
apt_install() {
  apt_update
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# libFuzzer and the sanitizers' runtimes come in libclang-rt-N-dev, N being the major of the
# distribution's clang (14 on Debian 12, 19 on Debian 13); clang only recommends it.
for index in "${!packages[@]}"; do
  [[ "${packages[$index]}" == libclang-rt-dev ]] || continue
  clang_major=$(apt-cache policy clang 2>/dev/null | sed -n 's/^ *Candidate: \(1:\)\{0,1\}\([0-9]*\).*/\2/p')
  if [[ -z "$clang_major" ]]; then
    apt_update
    clang_major=$(apt-cache policy clang | sed -n 's/^ *Candidate: \(1:\)\{0,1\}\([0-9]*\).*/\2/p')
  fi
  packages[$index]="libclang-rt-${clang_major}-dev"
done

missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done
if ((${#missing[@]} > 0)); then
  echo "Installing: ${missing[*]}"
  apt_install "${missing[@]}"
fi

# CMake: the PATH's, if new enough; otherwise CMake 3.x from PyPI in a venv.
version_at_least() {  # version_at_least HAVE NEED: true when HAVE >= NEED
  [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" == "$2" ]]
}
cmake_version() { "$1" --version 2>/dev/null | head -1 | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?'; }
hash -r
current=$(cmake_version cmake || true)
if [[ -z "$current" ]] || ! version_at_least "$current" "$minimum_cmake"; then
  venv=/opt/cuda-course/cmake
  echo "CMake ${current:-(none)} is older than the course's $minimum_cmake: installing CMake 3.x" \
       "from PyPI into $venv, linked from /usr/local/bin"
  installed python3-venv || apt_install python3-venv
  for tool in cmake ctest cpack; do
    link=/usr/local/bin/$tool
    if [[ -e "$link" && "$(readlink -f "$link")" != "$venv/bin/$tool" ]]; then
      echo "error: $link exists and is not the course's CMake: remove it, or put a CMake" \
           ">= $minimum_cmake first on the PATH" >&2
      exit 1
    fi
  done
  "${sudo_cmd[@]}" python3 -m venv "$venv"
  "${sudo_cmd[@]}" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "cmake>=$minimum_cmake,<4"
  for tool in cmake ctest cpack; do
    "${sudo_cmd[@]}" ln -sfn "$venv/bin/$tool" "/usr/local/bin/$tool"
  done
  hash -r
  current=$(cmake_version cmake || true)
  if [[ -z "$current" ]] || ! version_at_least "$current" "$minimum_cmake"; then
    echo "error: 'cmake' on this PATH is still ${current:-missing} ($(command -v cmake || true));" \
         "put /usr/local/bin before /usr/bin in PATH" >&2
    exit 1
  fi
  echo "CMake $current: $(command -v cmake)"
fi

# The grader's sandbox: bubblewrap needs user namespaces, which Ubuntu 24.04's AppArmor
# refuses to unprivileged programs that no profile allows (docs/distributions.md says how to
# allow bwrap). A root user is not concerned.
if [[ $(id -u) -ne 0 ]] && ! bwrap --ro-bind / / --dev /dev true >/dev/null 2>&1; then
  echo "note: bubblewrap cannot make a sandbox on this machine ($(bwrap --ro-bind / / true 2>&1 |
       head -1)): the grader's sandbox tests are skipped and grading a class needs it; see" \
       "docs/distributions.md (Ubuntu 24.04 and user namespaces)"
fi

if ! command -v nvcc >/dev/null 2>&1; then
  if [[ -x /usr/local/cuda/bin/nvcc ]]; then
    echo "note: nvcc is in /usr/local/cuda/bin; add it to PATH (export PATH=/usr/local/cuda/bin:\$PATH)"
  else
    echo "error: the CUDA Toolkit (nvcc) was not found; install it from NVIDIA first" >&2
    exit 1
  fi
fi
