#!/usr/bin/env bash
# The whole check of the grader on a GPU machine, with no time budget: gpu_evidence.sh with
# BUDGET unlimited (the example class, the mutation and cheat check, the verdicts; see
# gpu_evidence.sh for what it writes and its environment).
#
# Usage: grading/check_grader.sh OUT_DIR [CMake arguments...]
#   e.g. grading/check_grader.sh /tmp/grader-check -DCMAKE_CUDA_ARCHITECTURES=90 \
#          -DCMAKE_PREFIX_PATH=$PWD/.deps/usr
# Exit status 0 only when every target of gpu_evidence.sh is met.
set -uo pipefail
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
esac
BUDGET="${BUDGET:-86400}" exec "$(dirname "$0")/gpu_evidence.sh" "$@"
