#!/usr/bin/env bash
# On the GPU machine (run from the repository root with OUT set): the headline benchmarks (step 4 shapes; step 5 attention sets and matrices).
# Usage: OUT=/empty/folder [BUDGET=seconds] bash scripts/gpu/headline_benchmarks.sh   (BUDGET: default 540)
set -u
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/{s/^# \{0,1\}//;p}}' "$0"; exit 0 ;;
  ?*) echo "headline_benchmarks.sh: takes no arguments (OUT and BUDGET come from the environment; see --help)" >&2; exit 2 ;;
esac
[[ -n "${OUT:-}" && -d "$OUT" ]] || { echo "headline_benchmarks.sh: set OUT to an existing folder for the results (see --help)" >&2; exit 2; }
START=$(date +%s); DEADLINE=$((START + ${BUDGET:-540}))
S=$OUT/summary.txt; L=$OUT/build.log; E=$OUT/stderr.log
: > $S; : > $L; : > $E
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
run() { local cap=$1 f=$2; shift 2; local left=$(( DEADLINE - $(date +%s) - 10 ));
  if (( left < 15 )); then note "SKIPPED: $*"; return 99; fi
  local lim=$(( cap < left ? cap : left )); echo "=== $* (limit ${lim}s)" >> $f
  timeout -k 5 $lim "$@" >> $f 2>&1; local rc=$?; note "rc=$rc: ${*:0:200}"; return $rc; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee -a $S; date -u | tee -a $S
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH=$PWD/.deps/usr >> $L 2>&1
run 200 $L cmake --build build-gpu -j 16 --target step4_shape_bench sddmm_bench || { tail -30 $L; exit 1; }
B5=build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench; SETS=step5_tensor_core_sddmm/lab/sets
mkdir -p $OUT/r
run 100 $E $B5 --approaches 4 --masks $SETS/attention_public.txt --csv $OUT/r/attention_public_h100.csv --markdown $OUT/r/attention_public_h100.md
run 60 $E $B5 --approaches 4 --masks $SETS/attention_other.txt --no-fp32 --csv $OUT/r/attention_other_h100.csv --markdown $OUT/r/attention_other_h100.md
run 80 $E $B5 --approaches 4 --shapes $SETS/note_shapes.txt --matrices ${MATRICES:-data} --csv $OUT/r/matrices_h100.csv --markdown $OUT/r/matrices_h100.md
run 130 $E build-gpu/step4_boundary_checks/lab/step4_shape_bench --shapes step4_boundary_checks/lab/shapes/public_shapes.txt --repeats 10 --seed 1 --csv $OUT/r/shapes_h100_rooms.csv --markdown $OUT/r/shapes_h100_rooms.md
for v in masked16 panels64; do
  run 50 $E $B5 --approaches 4 --no-fp32 --tiles $v --masks $SETS/attention_public.txt --shapes $SETS/note_shapes.txt --matrices ${MATRICES:-data} --markdown $OUT/r/variant_${v}_h100.md
done
for f in $OUT/r/*.md; do grep -E "^\| 4 hybrid \| [a-z_]+ \| [0-9]" $f | sed "s|^|$(basename $f): |" | tee -a $S; done
grep -iE "geometric|smallest" $OUT/r/shapes_h100_rooms.md | head -4 | tee -a $S
cd $OUT/r && tar czf $OUT/results.tar.gz . && cd - > /dev/null
cp $OUT/r/attention_public_h100.md $OUT/r/matrices_h100.md $OUT/r/shapes_h100_rooms.md $OUT/ 2>/dev/null; rm -rf $OUT/r
note done
