#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set): build sm_90 and compute_75 PTX, whole suites, sanitizers on changed kernels.
# Usage: OUT=/empty/folder [BUDGET=seconds] bash scripts/gpu/suite_and_sanitizers.sh   (BUDGET: default 540)
set -u
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  ?*) echo "suite_and_sanitizers.sh: takes no arguments (OUT and BUDGET come from the environment; see --help)" >&2; exit 2 ;;
esac
[[ -n "${OUT:-}" && -d "$OUT" ]] || { echo "suite_and_sanitizers.sh: set OUT to an existing folder for the results (see --help)" >&2; exit 2; }
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-540}))
S=$OUT/summary.txt; L=$OUT/build_ctest.log; X=$OUT/ptx75.log; C=$OUT/sanitizers.log
: > $S; : > $L; : > $X; : > $C
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 10 ));
  if (( left < 15 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> $f
  timeout -k 5 $lim "$@" >> $f 2>&1; local rc=$?; note "rc=$rc: ${*:0:160}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH CUDA_CACHE_MAXSIZE=4294967296 CUDA_CACHE_PATH=/tmp/cudacache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a $S; date -u | tee -a $S
P=-DCMAKE_PREFIX_PATH=$PWD/.deps/usr
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOURSE_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES=90 $P >> $L 2>&1
cmake -S . -B build-ptx75 -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=75-virtual $P >> $X 2>&1
run 300 $L cmake --build build-gpu -j 12 || { tail -30 $L; }
( cmake --build build-ptx75 -j 6 >> $X 2>&1; echo "ptx75 build rc=$?" >> $X ) & PB=$!
run 200 $L ctest --test-dir build-gpu --output-on-failure -j 6 -LE grading
grep -E "tests passed|\*\*\*Failed|Timeout" $L | tail -12 | tee -a $S
T4=build-gpu/step4_boundary_checks/test_step4; T5=build-gpu/step5_tensor_core_sddmm/test_step5
for t in memcheck racecheck synccheck; do
  run 60 $C compute-sanitizer --tool $t --error-exitcode 9 $T4 "the lesson's kernels are right one below and at and one above each tile edge,the fast kernel is right one below and at and one above each tile edge"
done
run 60 $C compute-sanitizer --tool memcheck --error-exitcode 9 $T4 "split-K is right when the split does not divide the inner tiles,the fast kernel falls back to scalar loads for misaligned matrices,the thin paths are right when C has at most 8 rows or 8 columns"
run 60 $C compute-sanitizer --tool memcheck --error-exitcode 9 $T5 "approach 4 combined by cost on banded and block masks,approach 4 combined with full tiles and dense panels then masked tiles,masked tiles on causal masks and their diagonal tiles,approach 4 masked tiles with empty rows and a pattern S from CSR,dense path GEMM and gather match the reference"
run 60 $C compute-sanitizer --tool racecheck --error-exitcode 9 $T5 "approach 4 combined with full tiles and dense panels then masked tiles,masked tiles with empty rows and empty tiles and partial tiles and lone entries,approach 4 combined by cost on banded and block masks"
run 90 $C compute-sanitizer --tool memcheck --error-exitcode 9 $T5 "approach 4 multiplies by S's values on every path and reads none for a pattern"
run 90 $C compute-sanitizer --tool racecheck --error-exitcode 9 $T5 "approach 4 multiplies by S's values on every path and reads none for a pattern"
run 40 $C compute-sanitizer --tool synccheck --error-exitcode 9 $T5 "approach 4 combined with full tiles and dense panels then masked tiles,approach 4 combined by cost on banded and block masks"
run 40 $C compute-sanitizer --tool initcheck --error-exitcode 9 $T5 "approach 4 combined with full tiles and dense panels then masked tiles,approach 4 combined by cost on banded and block masks"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|All tests passed|test cases" $C | tee -a $S
wait $PB; tail -1 $X | tee -a $S
run 240 $X ctest --test-dir build-ptx75 --output-on-failure -j 8 -LE grading
grep -E "tests passed|\*\*\*Failed|Timeout" $X | tail -12 | sed 's/^/ptx75: /' | tee -a $S
note done
