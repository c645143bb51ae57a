#!/usr/bin/env bash
# Quick start: installs what is missing (scripts/install_deps.sh), builds the whole course
# into build/ (cmake --preset release), and runs each step once with DEBUG verification on
# its default size. Without a GPU it builds everything and says that the steps need one.
#
# Usage: scripts/quickstart.sh [--help]
#
# Time on a 2-core machine without a GPU: about 25 minutes, nearly all of it the build of
# every kernel for five GPU generations (README.md, "Quick start"). Run again, it builds only
# what changed. Extra CMake arguments may be passed in COURSE_CMAKE_ARGS (CI adds
# -DCOURSE_WERROR=ON; -DCMAKE_CUDA_ARCHITECTURES=90 builds for one GPU generation only).
# Exit status: 0 when everything built (and, with a GPU, every step ran and verified), 1
# otherwise, 2 for a usage error.
set -euo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  "") ;;
  *) echo "quickstart.sh: unknown argument '$1' (it takes none; see --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
[[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"

echo "Configuring build/ and building the course (about 25 minutes on 2 cores)"
# shellcheck disable=SC2086  # word splitting of the extra arguments is intended
cmake --preset release ${COURSE_CMAKE_ARGS:-}
cmake --build --preset release

steps=(step1_naive step2_three_approaches step3_shared_tiling step4_boundary_checks
       step5_tensor_core_sddmm)
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo
  echo "Built everything, but no NVIDIA GPU was found on this machine."
  echo "The step programs run their kernels on a GPU: run them on a machine with one,"
  echo "for example: ./build/step1_naive/step1_naive --help"
  exit 0
fi

status=0
for step in "${steps[@]}"; do
  echo
  echo "=== $step ==="
  if ! "./build/$step/$step"; then
    echo "$step FAILED" >&2
    status=1
  fi
done
exit "$status"
