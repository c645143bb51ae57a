#!/usr/bin/env bash
# Produces the committed grading results (grading/results/) on a machine with a GPU:
#  1. the example class (grading/make_class_example.py: the reference, the exercise and eight
#     planted bugs) graded by run_all.sh: class_run.md/.csv, and the reports of the
#     reference (must be 100/100, no sanitizer error) and the exercise (must be 0/100);
#  2. the mutation check (every mutant must lose points): mutation_report.md.
#
# Usage: grading/check_grader.sh OUT_DIR [CMake arguments...]
#   e.g. grading/check_grader.sh grading/results -DCMAKE_CUDA_ARCHITECTURES=90
# Environment: WORK (scratch folder, default /tmp/course-grading), LANES (default 2),
# SKIP_MUTATIONS=1 (class run only), MUTATION_STEPS (comma-separated step folders).
# Exit status 0 only when the reference grades 100, the exercise 0 and every mutant loses
# points.
set -uo pipefail
# shellcheck source=grading/out_dir_args.sh
source "$(dirname "$0")/out_dir_args.sh" /tmp/course-grading "$@"
cd "$root" || exit 2
status=0
say() { echo "[$SECONDS s] $*" | tee -a "$work/check_grader.log"; }

say "example class"
rm -rf "$work/class"
python3 grading/make_class_example.py "$work/class" > /dev/null || exit 1
grading/run_all.sh "$work/class" "$work/class-grades" --lanes "${LANES:-2}" \
  --title "Class run: the example class (grading/make_class_example.py)" \
  "${cmake_args[@]/#/--cmake-arg=}" > "$work/class.log" 2>&1 || status=1
cp "$work/class-grades/class_grades.md" "$out/class_run.md"
cp "$work/class-grades/class_grades.csv" "$out/class_run.csv"
sed -e 's#(students/01-reference/grades.md)#(grades_reference.md)#' \
    -e 's#(students/02-exercise/grades.md)#(grades_exercise.md)#' \
    -e 's#(students/[^)]*)#(class_reports.md)#' -i "$out/class_run.md"
cp "$work/class-grades/students/01-reference/grades.md" "$out/grades_reference.md"
cp "$work/class-grades/students/01-reference/grades.json" "$out/grades_reference.json"
cp "$work/class-grades/students/02-exercise/grades.md" "$out/grades_exercise.md"
cp "$work/class-grades/students/02-exercise/grades.json" "$out/grades_exercise.json"
for report in "$work"/class-grades/students/*/grades.md; do
  [ -f "$report" ] && { cat "$report"; echo; }
done > "$out/class_reports.md"
python3 - "$out" << 'PY' || status=1
import json, sys
reference = json.load(open(f"{sys.argv[1]}/grades_reference.json"))
exercise = json.load(open(f"{sys.argv[1]}/grades_exercise.json"))
errors = sum(row["sanitizer_errors"] for row in reference["steps"])
print(f"reference {reference['total_points']}/100, {errors} sanitizer errors; "
      f"exercise {exercise['total_points']}/100")
sys.exit(0 if reference["total_points"] == 100 and errors == 0
         and exercise["total_points"] == 0 else 1)
PY

if [ "${SKIP_MUTATIONS:-0}" != 1 ]; then
  say "mutation check"
  steps=()
  [ -n "${MUTATION_STEPS:-}" ] && steps=(--steps "$MUTATION_STEPS")
  python3 grading/mutation_check.py --report "$out/mutation_report.md" "${steps[@]}" \
    --work-dir "$work/mutants" --jobs 5 --build-jobs 3 --test-jobs 3 \
    "${cmake_args[@]/#/--cmake-arg=}" > "$work/mutation.log" 2>&1 || status=1
fi
say "done, status $status"
{
  cat "$work/check_grader.log"
  for log in class mutation; do
    [ -f "$work/$log.log" ] && { echo "==== $log.log (last 80 lines)"; tail -80 "$work/$log.log"; }
  done
} > "$out/check_grader_log.txt"
exit "$status"
