#!/usr/bin/env bash
# Quick start: installs what is missing, builds the whole course into build/, and runs
# each step once with DEBUG verification on its default size. Without a GPU it builds
# everything and says that the steps need one.
# Extra CMake arguments may be passed in COURSE_CMAKE_ARGS (CI adds -DCOURSE_WERROR=ON).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install_deps.sh
[[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"

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
