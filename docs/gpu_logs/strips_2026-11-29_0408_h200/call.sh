#!/usr/bin/env bash
# GPU call h1 (not committed): the dense path in strips kept in L2. Whole build (-Werror), GPU suite,
# the strip sweep on the dense-ish masks (the rule, 256, 1024, 4096 rows, the whole product),
# the public set, then memcheck/racecheck on the dense-path and approach-4 tests.
set -u
export PATH=/usr/local/cuda/bin:$PWD/.deps/usr/bin:$PATH CUDA_CACHE_PATH=/tmp/cudacache
S=$OUT/summary.txt; START=$(date +%s)
note() { echo "[$(( $(date +%s) - START ))s] $*" | tee -a $S; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $S; date -u | tee -a $S
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOURSE_WERROR=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH=$PWD/.deps/usr -UCOURSE_STEPS > /tmp/build.log 2>&1
timeout 200 cmake --build build-gpu -j 16 -- -k 0 >> /tmp/build.log 2>&1; rc=$?; note "build rc=$rc"
if [[ $rc != 0 ]]; then grep -E "error|FAILED" -A3 /tmp/build.log | head -150 > $OUT/build_errors.txt; exit 1; fi
timeout 150 ctest --test-dir build-gpu --output-on-failure -j 6 -LE grading > /tmp/ctest.log 2>&1; note "ctest rc=$?"
grep -E "tests passed|\*\*\*Failed|Timeout" /tmp/ctest.log | tail -6 | tee -a $S
grep -B2 -A40 "\*\*\*Failed" /tmp/ctest.log | head -150 > $OUT/ctest_failures.txt
B=build-gpu/step5_tensor_core_sddmm/lab/sddmm_bench; L=step5_tensor_core_sddmm/lab/sets
COMMON="--approaches 4 --no-fp32 --repeats 10 --other-repeats 1"
for rows in 0 256 1024 4096 1073741824; do
  timeout 60 $B $COMMON --dense-strip-rows $rows --masks out/dense_masks.txt --markdown $OUT/strips_$rows.md > /tmp/strips_$rows.log 2>&1; note "strips $rows rc=$?"
  grep -h "plan:" /tmp/strips_$rows.log > $OUT/plans_strips_$rows.txt
done
(cd $OUT && tar -cf strips.tar strips_*.md plans_strips_*.txt && rm -f strips_*.md plans_strips_*.txt)
timeout 150 $B $COMMON --masks $L/attention_public.txt --csv $OUT/strips_public_h200.csv --markdown $OUT/strips_public_h200.md > /tmp/public.log 2>&1; note "public rc=$?"
grep -h "plan:" /tmp/public.log > $OUT/strips_plans_public_h200.txt
awk '/^## Against every baseline/{f=1} /^## Case by case/{f=0} f && /^\| 4 hybrid/' $OUT/strips_public_h200.md | tee -a $S
grep -h "Largest valued" $OUT/strips_public_h200.md | tee -a $S
T=build-gpu/step5_tensor_core_sddmm/test_step5
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $T "*dense path*,*valued*,*stream*" > /tmp/$tool.log 2>&1; note "$tool rc=$?"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test cases" /tmp/$tool.log | tee -a $S
done
note done
