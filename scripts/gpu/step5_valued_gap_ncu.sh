#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set): the valued cases that still cost more than
# 1.15x their pattern in the run of 2026-11-28 (lab/NOTEBOOK.md, "Why the windows' valued cases still cost
# about a third more"), profiled. Nsight Compute on the dense-panel kernel (window_8192_w256_g0, a band without
# global tokens) and on BigBird's masked tiles and lane groups (bigbird_16384_w64_g32_r64), each mask as a pattern
# and with random values, inner 64: duration, DRAM throughput and bytes, L2 hit rate, cycles per issued
# instruction and occupancy, to confirm or refute the diagnosis (the windows: the values' bytes; BigBird: a
# latency, likely the lane groups' late value load). Optional; about 40 s on an H200 once sddmm_bench is built
# (it reuses build-gpu/ when the final suite left one). Writes summary.txt, ncu_short.txt, ncu.txt, build.log.
# Other masks and kernels (the same measures, one mask line at a time): MASKS names a file of sddmm_bench mask
# lines, BENCH_ARGS adds options of approach 4 (e.g. "--panel-choice density --no-dense-path"), NCU_ARGS adds
# ncu sections (e.g. "--section MemoryWorkloadAnalysis"), KERNELS replaces the kernel regex, SHORT_FIELDS adds
# measures (a regex of their names) to ncu_short.txt.
# Usage: OUT=/folder [BUDGET=seconds] [MASKS=file] [BENCH_ARGS=...] [NCU_ARGS=...] [KERNELS=regex]
#        [SHORT_FIELDS=regex] bash scripts/gpu/step5_valued_gap_ncu.sh
set -u
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  ?*) echo "step5_valued_gap_ncu.sh: takes no arguments (OUT and BUDGET come from the environment; see --help)" >&2; exit 2 ;;
esac
[[ -n "${OUT:-}" ]] || { echo "step5_valued_gap_ncu.sh: set OUT to the folder for the results (see --help)" >&2; exit 2; }
mkdir -p "$OUT"
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-150}))
S=$OUT/summary.txt; L=$OUT/build.log; N=$OUT/ncu.txt
: > $S; : > $L; : > $N
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 5 ));
  if (( left < 10 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> $f
  timeout -k 5 $lim "$@" >> $f 2>&1; local rc=$?; note "rc=$rc: ${*:0:160}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a $S; date -u | tee -a $S
[ -f build-gpu/build.ninja ] || cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCOURSE_STEPS=step5_tensor_core_sddmm -DCMAKE_PREFIX_PATH=$PWD/.deps/usr >> $L 2>&1
run 120 $L cmake --build build-gpu -j 16 --target sddmm_bench || { tail -30 $L; exit 1; }
B5=build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench; T=$(mktemp -d)
K="regex:${KERNELS:-sddmm_dense_panels|sddmm_lane_groups|masked_tile_kernel}"
M='dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum'
# The run's two costliest valued masks of their kinds (lab/results/valued_vs_pattern_h200.md), one at a time.
for v in ones random; do
  echo "sliding-window rows=8192 window=256 global=0 values=$v inner=64"
  echo "bigbird rows=16384 window=64 global=32 random=64 values=$v inner=64"
done > $T/masks.txt
if [[ -n "${MASKS:-}" ]]; then grep -v '^#' "$MASKS" | grep . > $T/masks.txt; fi
while read -r line; do
  echo "$line" > $T/one.txt; echo "##### $line" >> $N
  run 30 $N ncu --clock-control none -k "$K" --launch-count 4 --section SpeedOfLight --section Occupancy \
    --section WarpStateStats ${NCU_ARGS:-} --metrics $M $B5 --approaches 4 --no-fp32 --repeats 1 --other-repeats 1 \
    ${BENCH_ARGS:-} --masks $T/one.txt
done < $T/masks.txt
# One line per kernel and measure, prefixed with its mask and kernel: what the notebook's entry compares.
F='Duration|DRAM Throughput|dram__bytes_read.sum|dram__bytes_write.sum|lts__t_sector_hit_rate.pct|Warp Cycles Per Issued'
F="$F|Achieved Occupancy|smsp__inst_executed.sum"
[[ -n "${SHORT_FIELDS:-}" ]] && F="$F|$SHORT_FIELDS"
awk -v fields="$F" '/^##### /{m=substr($0,7); gsub(/ +/," ",m); next} /^=== /{next}
  /\)x\(.*Context/{match($0, /void [A-Za-z_0-9]+/); k=substr($0, RSTART+5, RLENGTH-5); n[m k]++; next}
  $0 ~ fields {gsub(/ +/," "); print "[" m ", " k ", launch " n[m k] "]" $0}' $N | tee $OUT/ncu_short.txt >> $S
rm -rf $T
note done
