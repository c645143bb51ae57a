#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set): issue 39's checks that need a GPU: the whole suite with the Catch2 harness of both majors' code (Catch2 2 from .deps), every bad-input case (the GPU-only rows too), and benchmark outputs written through their temporary files.
# Usage: OUT=/empty/folder [BUDGET=seconds] bash scripts/gpu/quickstart_and_inputs.sh   (BUDGET: default 540)
set -u
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  ?*) echo "quickstart_and_inputs.sh: takes no arguments (OUT and BUDGET come from the environment; see --help)" >&2; exit 2 ;;
esac
[[ -n "${OUT:-}" && -d "$OUT" ]] || { echo "quickstart_and_inputs.sh: set OUT to an existing folder for the results (see --help)" >&2; exit 2; }
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-540}))
S=$OUT/summary.txt; L=$OUT/build_ctest.log; B=$OUT/bad_inputs.log; R=$OUT/outputs.log
: > "$S"; : > "$L"; : > "$B"; : > "$R"
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a "$S"; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 10 ));
  if (( left < 15 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> "$f"
  timeout -k 5 "$lim" "$@" >> "$f" 2>&1; local rc=$?; note "rc=$rc: ${*:0:160}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$S"; date -u | tee -a "$S"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOURSE_WERROR=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$PWD/.deps/usr" >> "$L" 2>&1
grep -E "Catch2 [0-9]" "$L" | tee -a "$S"
run 300 "$L" cmake --build build-gpu -j 16 || { tail -30 "$L"; exit 1; }
# The suite (GPU tests run here, one test case per process through the course's test main).
run 200 "$L" ctest --test-dir build-gpu --output-on-failure -j 8 -LE grading
grep -E "tests passed|\*\*\*Failed|Timeout" "$L" | tail -12 | tee -a "$S"
# Every bad-input case, the GPU-only rows included (duplicates summed, a link loop skipped).
run 120 "$B" bash scripts/bad_inputs.sh build-gpu "$OUT/bad_inputs.md"
grep -E "^FAIL" "$B" | head -10 | tee -a "$S"
grep -cE "^\| \`" "$OUT/bad_inputs.md" | sed 's/^/bad-input rows: /' | tee -a "$S"
# Outputs written whole: a benchmark's CSV and Markdown, and no temporary file left behind.
mkdir -p "$OUT/r"
printf '3000 7000 313110 64\n' > "$OUT/r/one_shape.txt"
run 60 "$R" build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench --approaches 3 --no-fp32 \
  --shapes "$OUT/r/one_shape.txt" --repeats 2 --csv "$OUT/r/one.csv" --markdown "$OUT/r/one.md"
run 60 "$R" build-gpu/step4_boundary_checks/lab/step4_shape_bench --size 512 --repeats 2 \
  --csv "$OUT/r/shape.csv" --markdown "$OUT/r/shape.md"
ls -la "$OUT/r" >> "$R"
note "outputs: $(ls "$OUT/r" | tr '\n' ' '); partial files left: $(ls -a "$OUT/r" | grep -c partial)"
rm -rf "$OUT/r"
note done
