#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set): issue 41 on the fixed code. Approach 4 with a
# pattern S against the same structure with values, through sddmm_bench and through the program; a short Nsight
# Compute of the two changed kernels with and without values; step 5's tests; compute-sanitizer memcheck and
# racecheck on the test of the changed kernels. About 6 minutes on an H200, build included.
# Usage: OUT=/folder [BUDGET=seconds] bash scripts/gpu/step5_valued_profile.sh   (BUDGET: default 380)
set -u
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  ?*) echo "step5_valued_profile.sh: takes no arguments (OUT and BUDGET come from the environment; see --help)" >&2; exit 2 ;;
esac
[[ -n "${OUT:-}" ]] || { echo "step5_valued_profile.sh: set OUT to the folder for the results (see --help)" >&2; exit 2; }
mkdir -p "$OUT"
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-380}))
S=$OUT/summary.txt; L=$OUT/build.log; E=$OUT/stderr.log; P=$OUT/program.txt; N=$OUT/ncu.txt; C=$OUT/tests.log
: > $S; : > $L; : > $E; : > $P; : > $N; : > $C
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 10 ));
  if (( left < 15 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> $f
  timeout -k 5 $lim "$@" >> $f 2>&1; local rc=$?; note "rc=$rc: ${*:0:160}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a $S; date -u | tee -a $S
git log -1 --format='commit %H %s' 2>/dev/null | tee -a $S
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCOURSE_STEPS=step5_tensor_core_sddmm -DCMAKE_PREFIX_PATH=$PWD/.deps/usr >> $L 2>&1
run 200 $L cmake --build build-gpu -j 16 --target sddmm_bench step5_going_further generate_mask test_step5 || { tail -30 $L; exit 1; }
B5=build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench; G=build-gpu/step5_tensor_core_sddmm/going_further/step5_going_further
T5=build-gpu/step5_tensor_core_sddmm/test_step5; GM=build-gpu/common/generate_mask
SETS=step5_tensor_core_sddmm/lab/sets; T=$(mktemp -d)

# 1. Step 5's tests (CPU and GPU), then the sanitizers on the test of every changed kernel path.
run 100 $C $T5
grep -E "All tests passed|test cases|assertions|FAILED" $C | tail -3 | tee -a $S
VT="approach 4 multiplies by S's values on every path and reads none for a pattern"
run 60 $C compute-sanitizer --tool memcheck --error-exitcode 9 $T5 "$VT"
run 80 $C compute-sanitizer --tool racecheck --error-exitcode 9 $T5 "$VT"
grep -E "ERROR SUMMARY|RACECHECK SUMMARY" $C | tee -a $S

# 2. The bench: each structure as a pattern, with values 0.5 and with random values, inner 64 and 256.
run 70 $E $B5 --approaches 4 --no-fp32 --repeats 20 --other-repeats 1 --masks $SETS/valued_profile.txt --markdown $OUT/bench_profile.md
grep -E "\| (4 hybrid|cuSPARSE fp16 [^|]*|dense then sample [^|]*) \| [0-9]" $OUT/bench_profile.md | cut -d'|' -f2,5,7,8 | tee -a $S
grep -E "^\| 4 hybrid \| valued_profile \| [^|]* inner=[0-9]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$|^Largest valued" $OUT/bench_profile.md | tee -a $S

# 3. The program on the same masks as files: a pattern file, and the same entries with random values.
run 30 $E $GM --mask block-sparse --rows 16384 --cols 16384 --block-size 16 --block-density 0.03 --seed 11 --out $T/block.mtx
run 30 $E $GM --mask sliding-window --rows 4096 --cols 4096 --window 4095 --causal --out $T/causal.mtx
for m in block causal; do
  awk 'BEGIN{srand(7)} NR==1{sub("pattern","real");print;next} /^%/{print;next} !s{s=1;print;next} {printf "%s %.6f\n",$0,2*rand()-1}' $T/$m.mtx > $T/${m}_rand.mtx
done
for m in block causal; do for v in "" _rand; do for k in 64 256; do
  echo "## $m$v inner=$k" >> $P
  run 30 $P $G --approach 4 --matrix $T/$m$v.mtx --inner $k --repeats 20 --seed 3
  echo "$m$v inner=$k: $(grep -E '^S: ' $P | tail -1 | cut -c1-12) | $(grep -E '^sddmm' $P | tail -1)" | tee -a $S
done; done; done
grep -E "^plan: " $P | sort | uniq -c | tee -a $S

# 4. Nsight Compute: the masked-tile kernel (16-blocks) and the full-tile kernel (128-blocks), pattern and 0.5.
K='regex:masked_tile_kernel|sddmm_full_tiles'
grep -E "block=(16|128) " $SETS/valued_kernels.txt | grep -vE '^\s*#' > $T/kernels.txt
while read -r line; do
  echo "$line" > $T/one.txt; echo "##### $line" >> $N
  run 40 $N ncu --clock-control none -k "$K" --launch-count 2 --section SpeedOfLight --section Occupancy --section WarpStateStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum $B5 --approaches 4 --no-fp32 --repeats 1 --other-repeats 1 --masks $T/one.txt
done < $T/kernels.txt
grep -E "^#####|kernel.*Context|Duration|Achieved Occupancy|Stall Long Scoreboard|dram__bytes_read.sum|smsp__inst_executed.sum" $N | cut -c1-150 > $OUT/ncu_short.txt
rm -rf $T
note done
