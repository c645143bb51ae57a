#!/usr/bin/env bash
# Produces the committed grading results (grading/results/) on a machine with a GPU:
#  1. the mutation check of steps 1-3 (in the background: its own source copies and builds);
#  2. the reference solution, built and graded (must be 100 %);
#  3. the exercise version, built and graded (its GPU tests must all fail);
#  4. if time is left, the pending step 4 and 5 mutations (informational).
#
# Usage: grading/run_all.sh OUT_DIR [CMake arguments...]
#   e.g. grading/run_all.sh grading/results -DCMAKE_CUDA_ARCHITECTURES=90
# Environment: WORK (scratch folder, default /tmp/course-grading), PENDING_UNTIL (seconds
# after the start by which the pending check must end, default 500; 0 skips it).
# Exit status 0 only when the reference grades 100 %, no exercise GPU test passes and every
# mutation of steps 1-3 is caught.
set -uo pipefail
out="${1:?usage: $0 OUT_DIR [CMake arguments...]}"
shift
cmake_args=("$@")
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${WORK:-/tmp/course-grading}"
pending_until="${PENDING_UNTIL:-500}"
steps="step1_naive;step2_three_approaches;step3_shared_tiling"
labels="step1,step2,step3"
jobs="$(nproc)"
mkdir -p "$out" "$work"
out="$(cd "$out" && pwd)"
cd "$root" || exit 2
generator=()
grade_generator=()
if command -v ninja > /dev/null; then
  generator=(-G Ninja)
  grade_generator=(--generator Ninja)
fi
status=0
say() { echo "[$SECONDS s] $*" | tee -a "$work/run_all.log"; }

say "mutation check of steps 1-3 started"
python3 grading/mutation_check.py --report "$out/mutation_report.md" \
  --work-dir "$work/mutants" --jobs 3 --timeout 150 --build-jobs "$((jobs / 3 > 1 ? jobs / 3 : 1))" \
  "${cmake_args[@]/#/--cmake-arg=}" > "$work/mutation.log" 2>&1 &
mutation_pid=$!

say "reference: build"
if cmake -S . -B "$work/build-reference" "${generator[@]}" -DCOURSE_STEPS="$steps" \
     -DCOURSE_WERROR=ON "${cmake_args[@]}" > "$work/build-reference.log" 2>&1 &&
   cmake --build "$work/build-reference" -j "$jobs" >> "$work/build-reference.log" 2>&1; then
  say "reference: grade"
  python3 grading/grade.py --build-dir "$work/build-reference" --steps "$labels" --timeout 120 \
    --out-dir "$work/grades-reference" --name grades_reference \
    --title "Grades of the reference solution (COURSE_KERNELS=reference)" \
    > "$work/grade-reference.log" 2>&1 || { status=1; say "reference: NOT 100 %"; }
  cp "$work/grades-reference/grades_reference."{md,json} "$out/"
else
  status=1
  say "reference: build FAILED"
  tail -40 "$work/build-reference.log" | tee -a "$work/run_all.log"
fi

say "exercise: build and grade"
python3 grading/grade.py --kernels exercise --build-dir "$work/build-exercise" --timeout 120 \
  --steps "$labels" --out-dir "$work/grades-exercise" --name grades_exercise \
  --title "Grades of the exercise version (COURSE_KERNELS=exercise)" --jobs "$jobs" \
  "${grade_generator[@]}" "${cmake_args[@]/#/--cmake-arg=}" \
  --cmake-arg=-DCOURSE_WERROR=ON > "$work/grade-exercise.log" 2>&1
cp "$work/grades-exercise/grades_exercise."{md,json} "$out/" 2> /dev/null
if ! python3 - "$out/grades_exercise.json" << 'EOF'; then
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
bad = [s["step"] for s in steps if s["note"] or s["gpu_total"] == 0 or s["gpu_passed"] != 0]
print("exercise: GPU tests passing or steps not built:", bad or "none")
sys.exit(1 if bad else 0)
EOF
  status=1
fi

say "waiting for the mutation check"
wait "$mutation_pid" || { status=1; say "mutation check: NOT every mutation caught"; }

left=$((pending_until - SECONDS))
if [ "$pending_until" -gt 0 ] && [ "$left" -gt 60 ]; then
  say "pending step 4 and 5 mutations, at most $left s (informational)"
  timeout "$left" python3 grading/mutation_check.py --only-pending \
    --report "$out/mutation_report_pending.md" --work-dir "$work/mutants-pending" --jobs 2 \
    --build-jobs "$((jobs / 2))" --timeout 120 "${cmake_args[@]/#/--cmake-arg=}" \
    > "$work/mutation-pending.log" 2>&1
  say "pending check exit status $? (124: out of time)"
fi

say "done, status $status"
{
  cat "$work/run_all.log"
  for log in grade-reference grade-exercise mutation mutation-pending; do
    [ -f "$work/$log.log" ] || continue
    echo "==== $log.log (last 120 lines)"
    grep -v "^  step[0-9]: passed" "$work/$log.log" | tail -120
  done
} > "$out/run_all_log.txt"
exit "$status"
