#!/usr/bin/env bash
# GPU call h2 (not committed): the masked tiles' refit. Whole build (-Werror), GPU suite, the dense-ish
# masks, the public and other sets and the real matrices through sddmm_bench (approach 4, --no-fp32
# --repeats 10 --other-repeats 1), memcheck on the masked tests if time is left.
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
timeout 60 $B $COMMON --masks out/dense_masks.txt --markdown $OUT/refit_dense_h200.md > /tmp/dense.log 2>&1; note "dense rc=$?"
timeout 150 $B $COMMON --masks $L/attention_public.txt --csv $OUT/refit_public_h200.csv --markdown $OUT/refit_public_h200.md > /tmp/public.log 2>&1; note "public rc=$?"
timeout 100 $B $COMMON --masks $L/attention_other.txt --csv $OUT/refit_other_h200.csv --markdown $OUT/refit_other_h200.md > /tmp/other.log 2>&1; note "other rc=$?"
timeout 70 $B $COMMON --matrices data --markdown $OUT/refit_matrices_h200.md > /tmp/matrices.log 2>&1; note "matrices rc=$?"
grep -h "plan:" /tmp/dense.log /tmp/public.log /tmp/other.log /tmp/matrices.log > $OUT/refit_plans_h200.txt
for f in refit_public_h200 refit_other_h200 refit_matrices_h200; do
  awk '/^## Against every baseline/{f=1} /^## Case by case/{f=0} f && /^\| 4 hybrid/' $OUT/$f.md | sed "s/^/$f: /" | tee -a $S
  grep -h "Largest valued" $OUT/$f.md | sed "s/^/$f: /" | tee -a $S
done
(cd $OUT && tar -cf refit.tar refit_dense_h200.md refit_plans_h200.txt && rm -f refit_dense_h200.md refit_plans_h200.txt)
T=build-gpu/step5_tensor_core_sddmm/test_step5
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 $T "*masked*" > /tmp/memcheck.log 2>&1; note "memcheck rc=$?"
grep -E "ERROR SUMMARY|test cases" /tmp/memcheck.log | tee -a $S
note done
