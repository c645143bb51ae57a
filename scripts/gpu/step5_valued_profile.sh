#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set): issue 41's profile of approach 4 with
# a pattern S against the same structure with values, through sddmm_bench and through the program,
# and Nsight Compute on each of its four kernels with and without values. About 5 minutes on an H200.
set -u
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-330}))
S=$OUT/summary.txt; L=$OUT/build.log; E=$OUT/stderr.log; P=$OUT/program.txt; N=$OUT/ncu.txt
: > $S; : > $L; : > $E; : > $P; : > $N
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 10 ));
  if (( left < 15 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> $f
  timeout -k 5 $lim "$@" >> $f 2>&1; local rc=$?; note "rc=$rc: ${*:0:160}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a $S; date -u | tee -a $S
git log -1 --format='commit %H %s' 2>/dev/null | tee -a $S
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCOURSE_STEPS=step5_tensor_core_sddmm -DCMAKE_PREFIX_PATH=$PWD/.deps/usr >> $L 2>&1
run 180 $L cmake --build build-gpu -j 16 --target sddmm_bench step5_going_further generate_mask || { tail -30 $L; exit 1; }
B5=build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench; G=build-gpu/step5_tensor_core_sddmm/going_further/step5_going_further
SETS=step5_tensor_core_sddmm/lab/sets; T=$(mktemp -d)

# 1. The bench: each structure as a pattern, with values 0.5 and with random values, inner 64 and 256.
run 100 $E $B5 --approaches 4 --no-fp32 --repeats 20 --other-repeats 3 --masks $SETS/valued_profile.txt --markdown $OUT/bench_profile.md
grep -E "\| (4 hybrid|cuSPARSE fp16 [^|]*|dense then sample [^|]*) \| [0-9]" $OUT/bench_profile.md | cut -d'|' -f2,5,7,8 | tee -a $S

# 2. The program on the same masks as files: a pattern file, and the same entries with values.
GM=build-gpu/common/generate_mask
run 40 $E $GM --mask block-sparse --rows 16384 --cols 16384 --block-size 16 --block-density 0.03 --seed 11 --out $T/block.mtx
run 40 $E $GM --mask sliding-window --rows 4096 --cols 4096 --window 4095 --causal --out $T/causal.mtx
for m in block causal; do
  awk 'NR==1{sub("pattern","real");print;next} /^%/{print;next} !s{s=1;print;next} {print $0" 0.5"}' $T/$m.mtx > $T/${m}_half.mtx
  awk 'BEGIN{srand(7)} NR==1{sub("pattern","real");print;next} /^%/{print;next} !s{s=1;print;next} {printf "%s %.6f\n",$0,2*rand()-1}' $T/$m.mtx > $T/${m}_rand.mtx
done
for m in block causal; do for v in "" _half _rand; do for k in 64 256; do
  echo "## $m$v inner=$k" >> $P
  run 40 $P $G --approach 4 --matrix $T/$m$v.mtx --inner $k --repeats 20 --seed 3
  echo "$m$v inner=$k: $(grep -E '^sddmm' $P | tail -1)" | tee -a $S
done; done; done

# 3. Nsight Compute: the four kernels of approach 4, each case as a pattern and with values 0.5.
K='regex:masked_tile_kernel|sddmm_full_tiles_kernel|sddmm_dense_panels_kernel|sddmm_lane_groups_kernel'
grep -vE '^\s*(#|$)' $SETS/valued_kernels.txt > $T/kernels.txt
while read -r line; do
  echo "$line" > $T/one.txt; echo "##### $line" >> $N
  run 45 $N ncu --clock-control none -k "$K" --launch-count 4 --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum $B5 --approaches 4 --no-fp32 --repeats 1 --other-repeats 1 --masks $T/one.txt
done < $T/kernels.txt
grep -E "^#####|kernel.*Context|Duration|Achieved Occupancy|Stall Long Scoreboard|dram__bytes_read.sum|smsp__inst_executed.sum" $N | cut -c1-150 > $OUT/ncu_short.txt
rm -rf $T
note done
