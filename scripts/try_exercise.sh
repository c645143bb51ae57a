#!/usr/bin/env bash
# Builds one step with the exercise's kernels (or yours) and runs that step's tests.
#
# Usage: scripts/try_exercise.sh STEP [KERNELS]
#
#   STEP     1 to 5, step1 to step5, or the step's folder (step1_naive, ...)
#   KERNELS  exercise (the default: the step's exercise/ folder as it is), reference (the
#            course's solution), or a folder of your own holding one folder per step, named
#            like the course's (e.g. ~/solutions with ~/solutions/step1_naive in it)
#
# It configures build-exercise/, build-reference/ or build-mine/ (BUILD_DIR=... picks
# another) with -DCOURSE_KERNELS=KERNELS -DCOURSE_STEPS=<the step>, builds it, and runs
# `ctest -L stepN --output-on-failure`. It then says what the run has checked: with a GPU,
# how many of the step's tests passed; without one, plainly that the step's GPU tests did not
# run and nothing of the kernels has been checked. Exit status: 0 when every test of the step
# ran and passed, 1 when one failed or the GPU tests could not run, 2 for a usage error.
# Extra CMake arguments go in COURSE_CMAKE_ARGS (e.g. -DCMAKE_CUDA_ARCHITECTURES=90); the
# number of build jobs in COURSE_JOBS (default: the number of processors).
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  usage
  exit 0
fi
if [[ $# -lt 1 || $# -gt 2 ]]; then
  usage >&2
  exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
steps=(step1_naive step2_three_approaches step3_shared_tiling step4_boundary_checks
       step5_tensor_core_sddmm)
folder=""
for candidate in "${steps[@]}"; do
  number="${candidate#step}"
  number="${number%%_*}"
  if [[ "$1" == "$number" || "$1" == "step$number" || "$1" == "$candidate" ]]; then
    folder="$candidate"
    break
  fi
done
if [[ -z "$folder" ]]; then
  echo "try_exercise.sh: unknown step '$1': give 1 to 5, step1 to step5 or a step folder" \
       "(${steps[*]})" >&2
  exit 2
fi
label="step${folder#step}"
label="${label%%_*}"

kernels="${2:-exercise}"
case "$kernels" in
  exercise | reference) build_default="build-$kernels" ;;
  *)
    if [[ ! -d "$kernels" ]]; then
      echo "try_exercise.sh: '$kernels' is not a folder; give exercise, reference or a folder" \
           "that holds your step folders (e.g. ~/solutions with ~/solutions/$folder in it)" >&2
      exit 2
    fi
    kernels="$(cd "$kernels" && pwd)"
    build_default="build-mine"
    ;;
esac
build="${BUILD_DIR:-$root/$build_default}"
jobs="${COURSE_JOBS:-$(nproc 2>/dev/null || echo 2)}"
[[ -x /usr/local/cuda/bin/nvcc ]] && export PATH="/usr/local/cuda/bin:$PATH"

echo "::: configure $build (COURSE_KERNELS=$kernels, COURSE_STEPS=$folder)"
mkdir -p "$build"
configure_log="$build/try_exercise_configure.log"
# shellcheck disable=SC2086  # word splitting of the extra arguments is intended
cmake -S "$root" -B "$build" -DCOURSE_KERNELS="$kernels" -DCOURSE_STEPS="$folder" \
      -DCOURSE_BUILD_TESTS=ON ${COURSE_CMAKE_ARGS:-} > "$configure_log" 2>&1 || {
  cat "$configure_log" >&2
  echo "try_exercise.sh: the configuration failed (above; log in $configure_log)" >&2
  exit 1
}
echo "::: build ($jobs jobs)"
cmake --build "$build" -j "$jobs"

echo "::: tests of $label (ctest -L $label)"
set +e
ctest --test-dir "$build" -L "^$label\$" --output-on-failure
tests_status=$?
set -e

count() {  # the number of tests whose labels match every regular expression given
  local arguments=()
  for regex in "$@"; do
    arguments+=(-L "$regex")
  done
  ctest --test-dir "$build" -N "${arguments[@]}" | sed -n 's/^Total Tests: *//p'
}
all_tests="$(count "^$label\$")"
gpu_tests="$(count "^$label\$" "^gpu\$")"
if ! gpu_line="$("$build/common/test_common" --course-has-gpu)"; then
  echo
  echo "no GPU: $gpu_tests of the $all_tests tests of $label need one and did not run --" \
       "nothing of your kernels has been checked."
  echo "Run this script again on a machine with an NVIDIA GPU (see $folder/exercise/README.md)."
  exit 1
fi
gpu_name="${gpu_line#GPU: }"
echo
if [[ $tests_status -eq 0 ]]; then
  echo "$label: all $all_tests tests passed on the $gpu_name (COURSE_KERNELS=$kernels)."
else
  echo "$label: tests failed on the $gpu_name (listed above; COURSE_KERNELS=$kernels)."
  exit 1
fi
