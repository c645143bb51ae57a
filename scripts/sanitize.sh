#!/usr/bin/env bash
# Runs compute-sanitizer's memcheck, racecheck, initcheck and synccheck over every kernel
# of every step on small ragged shapes, and writes a Markdown summary.
#
# Usage: scripts/sanitize.sh [BUILD_DIR] [SUMMARY_FILE]   (defaults: build, sanitizer-summary.md)
# Needs a GPU and compute-sanitizer (part of the CUDA Toolkit). Exit status 0 only when
# every run reports 0 errors and the program itself succeeds (its DEBUG check included).
set -uo pipefail

case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  -*) echo "sanitize.sh: unknown option '$1' (usage: scripts/sanitize.sh [BUILD_DIR] [SUMMARY_FILE]; see --help)" >&2
      exit 2 ;;
esac
if (($# > 2)); then
  echo "sanitize.sh: at most two arguments, BUILD_DIR and SUMMARY_FILE (see --help)" >&2
  exit 2
fi
build="${1:-build}"
summary="${2:-sanitizer-summary.md}"
sanitizer="${COMPUTE_SANITIZER:-compute-sanitizer}"
command -v "$sanitizer" >/dev/null || { echo "compute-sanitizer not found" >&2; exit 2; }

# label | program (relative to the build dir) | arguments
runs=(
  "step1 naive 7x13x19|step1_naive/step1_naive|--rows 7 --inner 13 --cols 19 --repeats 1"
  "step1 naive 1x1x1|step1_naive/step1_naive|--size 1 --repeats 1"
  "step2 approach 1 37x29x41|step2_three_approaches/step2_three_approaches|--rows 37 --inner 29 --cols 41 --approach 1 --repeats 1"
  "step2 approach 2 37x29x41|step2_three_approaches/step2_three_approaches|--rows 37 --inner 29 --cols 41 --approach 2 --repeats 1"
  "step2 approach 3 37x29x41|step2_three_approaches/step2_three_approaches|--rows 37 --inner 29 --cols 41 --approach 3 --repeats 1"
  "step3 approach 4 64x32x96|step3_shared_tiling/step3_shared_tiling|--rows 64 --inner 32 --cols 96 --approach 4 --repeats 1"
  "step4 approach 1 37x29x41|step4_boundary_checks/step4_boundary_checks|--rows 37 --inner 29 --cols 41 --approach 1 --repeats 1"
  "step4 approach 2 37x29x41|step4_boundary_checks/step4_boundary_checks|--rows 37 --inner 29 --cols 41 --approach 2 --repeats 1"
  "step4 approach 3 37x29x41|step4_boundary_checks/step4_boundary_checks|--rows 37 --inner 29 --cols 41 --approach 3 --repeats 1"
  "step4 approach 4 37x29x41|step4_boundary_checks/going_further/step4_fast_gemm|--rows 37 --inner 29 --cols 41 --approach 4 --repeats 1"
  "step4 approach 4 131x64x260|step4_boundary_checks/going_further/step4_fast_gemm|--rows 131 --inner 64 --cols 260 --approach 4 --repeats 1"
  "step4 approach 3 1x1x1|step4_boundary_checks/step4_boundary_checks|--size 1 --approach 3 --repeats 1"
  "step5 approach 1 37x41 K=29|step5_tensor_core_sddmm/step5_tensor_core_sddmm|--rows 37 --cols 41 --inner 29 --nnz 300 --approach 1"
  "step5 approach 2 37x41 K=29|step5_tensor_core_sddmm/step5_tensor_core_sddmm|--rows 37 --cols 41 --inner 29 --nnz 300 --approach 2"
  "step5 approach 3 37x41 K=29|step5_tensor_core_sddmm/step5_tensor_core_sddmm|--rows 37 --cols 41 --inner 29 --nnz 300 --approach 3"
  "step5 approach 4 37x41 K=29|step5_tensor_core_sddmm/going_further/step5_going_further|--rows 37 --cols 41 --inner 29 --nnz 300 --approach 4"
  "step5 approach 4 200x150 K=40 dense|step5_tensor_core_sddmm/going_further/step5_going_further|--rows 200 --cols 150 --inner 40 --nnz 24000 --approach 4"
  "step5 approach 3 nnz=0|step5_tensor_core_sddmm/step5_tensor_core_sddmm|--rows 20 --cols 20 --inner 16 --nnz 0 --approach 3"
)
tools=(memcheck racecheck initcheck synccheck)
status=0
{
  echo "| run | memcheck | racecheck | initcheck | synccheck |"
  echo "|---|---|---|---|---|"
} > "$summary"
for entry in "${runs[@]}"; do
  IFS='|' read -r label program arguments <<< "$entry"
  row="| $label |"
  for tool in "${tools[@]}"; do
    # shellcheck disable=SC2086  # the arguments are meant to be split into words
    output=$("$sanitizer" --tool "$tool" --error-exitcode 99 "$build/$program" $arguments 2>&1)
    code=$?
    errors=$(grep -Eo "(ERROR|RACECHECK) SUMMARY: [0-9]+ (errors?|hazards?)" <<< "$output" | head -1)
    if [[ $code -eq 0 ]]; then
      row+=" clean (${errors#*SUMMARY: }) |"
    else
      row+=" **FAILED** (exit $code, ${errors:-no summary}) |"
      status=1
      echo "---- $label, $tool ----" >&2
      tail -30 <<< "$output" >&2
    fi
  done
  echo "$row" >> "$summary"
done
echo >> "$summary"
echo "GPU: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $("$sanitizer" --version | tail -1), date: $(date +%F)" >> "$summary"
cat "$summary"
exit "$status"
