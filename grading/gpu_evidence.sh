#!/usr/bin/env bash
# All of grading/results/ from one command on a GPU machine, within about 9 minutes on the
# 16-core H100 machine (a 10-minute command): the example class (the reference, the
# exercise and eight planted bugs) graded by run_all.sh, and the mutation check, side by
# side; then the initcheck check of the kernel filter (why initcheck instruments every
# kernel, see gradelib/kernels.py). Everything that is cut short by the time budget still
# leaves its tables (both writers rewrite them after every student or mutant).
#
# Usage: grading/gpu_evidence.sh OUT_DIR [CMake arguments...]
#   e.g. grading/gpu_evidence.sh "$OUT" -DCMAKE_CUDA_ARCHITECTURES=90 \
#          -DCMAKE_PREFIX_PATH=$PWD/.deps/usr
# Writes OUT_DIR/summary.txt (the verdict and timings), OUT_DIR/evidence-PART.tar.gz (the tables
# as grading/results/ holds them, the students' reports, the recorded sanitizer outputs and
# the logs) and OUT_DIR/evidence.log.
# Environment: PART (all, class or mutations; default all: both side by side, which needs
# a larger machine than 16 cores to fit 9 minutes: on the H100 machine run PART=class and
# PART=mutations as two commands), SHARD (K/N: the mutation check's K-th of N parts), BUDGET
# (seconds for the class run and the mutation check, default 450; 480 fits a 10-minute
# command), LANES (class lanes, default 2: grade_class.py divides the cores between them),
# SLOTS (mutation slots per step, default 4), MUTATION_JOBS (mutation slots graded side by
# side, default 10), WORK (scratch, default /tmp/course-evidence), SKIP_DIAG=1
# (no initcheck filter check); for trials: STUDENTS (the class folders to keep, e.g.
# "01-reference 02-exercise"), MATCH (mutation_check.py --match), MUTANTS_PER_SLOT (4),
# MUTATION_TEST_JOBS (2). CLASS_PART=K/N grades the K-th of N parts of the class (one
# command each); grading/merge_class_runs.py joins their results/ folders into one table.
# On the 16-core H100 machine a 10-minute command fits 5 students of the example class, not
# 10 (one student alone takes about 65 s of tests beside the build, see results/sequential/):
# run CLASS_PART=1/2 and 2/2. The class run's log (class.log: each lane's build, each
# student's start and grade) comes back as OUT_DIR/class.log and in the archive.
# Exit status 0 only when the reference scores 100 with no sanitizer error, the exercise 0,
# and every mutant is caught.
set -uo pipefail
# shellcheck source=grading/out_dir_args.sh
source "$(dirname "$0")/out_dir_args.sh" /tmp/course-evidence "$@"
budget="${BUDGET:-450}"
part="${PART:-all}"
case "$part" in all|class|mutations) ;; *) echo "PART must be all, class or mutations" >&2; exit 2;; esac
results="$work/results"
rm -rf "$results" "$work/class" "$work/class-grades" "$work/mutants"
mkdir -p "$results"
cd "$root" || exit 2
log="$out/evidence.log"
: > "$log"
say() { echo "[$SECONDS s] $*" | tee -a "$log"; }
python3 --version >> "$log" 2>&1

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  compute-sanitizer --version | tail -1
  nvcc --version | tail -2 | head -1
  echo "CPU cores: $(nproc)"
  date -u '+%Y-%m-%d %H:%M UTC'
} > "$results/machine.txt" 2>&1
say "machine: $(tr '\n' ';' < "$results/machine.txt")"

python3 grading/make_class_example.py "$work/class" >> "$log" 2>&1 || { say "make_class_example failed"; exit 1; }
if [ -n "${CLASS_PART:-}" ]; then  # K/N: the K-th of N equal parts of the class, in name order
  python3 - "$work/class" "$CLASS_PART" << 'PY' || exit 2
import pathlib, shutil, sys
folders = sorted(p for p in pathlib.Path(sys.argv[1]).iterdir() if p.is_dir())
index, count = (int(x) for x in sys.argv[2].split("/"))
size = -(-len(folders) // count)
for position, folder in enumerate(folders):
    if position // size != index - 1:
        shutil.rmtree(folder)
PY
fi
if [ -n "${STUDENTS:-}" ]; then  # a part of the class only (e.g. "01-reference 02-exercise")
  for folder in "$work/class"/*/; do
    name="$(basename "$folder")"
    [[ " $STUDENTS " == *" $name "* ]] || rm -rf "$folder"
  done
fi

# The mutation check and the class run share the machine: each gets part of the cores.
pids=()
shard=()
report="$results/mutation_report.md"
if [ -n "${SHARD:-}" ]; then
  shard=(--shard "$SHARD")
  report="$results/mutation_report_${SHARD%/*}_of_${SHARD#*/}.md"
fi
run_mutations=$([ "$part" != class ] && echo 1 || echo 0)
run_class=$([ "$part" != mutations ] && echo 1 || echo 0)
if [ "$run_mutations" = 1 ]; then
  say "mutation check ${SHARD:-} (stop at the first lost test, ${SLOTS:-4} slots per step)"
  timeout -k 20 "$budget" python3 grading/mutation_check.py "${shard[@]}" \
    --report "$report" --work-dir "$work/mutants" \
    --slots "${SLOTS:-4}" --jobs "${MUTATION_JOBS:-10}" --build-jobs 2 \
    --test-jobs "${MUTATION_TEST_JOBS:-2}" \
    --stop-at-first-loss --timeout 360 --sanitizer-timeout 300 \
    --mutants-per-slot "${MUTANTS_PER_SLOT:-4}" ${MATCH:+--match "$MATCH"} \
    "${cmake_args[@]/#/--cmake-arg=}" > "$work/mutation.log" 2>&1 &
  pids+=($!)
fi
if [ "$run_class" = 1 ]; then
  # Per test 120 s: the slowest graded run took at most 49.5 s in the class run of 2026-11-24
  # (step 4's tile-edge test under racecheck, beside the other lane), and a kernel that hangs
  # (09-hangs) holds its lane that long.
  say "class run (${LANES:-2} lanes)"
  timeout -k 20 "$budget" grading/run_all.sh "$work/class" "$work/class-grades" \
    --lanes "${LANES:-2}" --timeout 120 --sanitizer-timeout 120 --student-timeout 400 \
    --title "Class run: the example class (grading/make_class_example.py)" \
    "${cmake_args[@]/#/--cmake-arg=}" > "$work/class.log" 2>&1 &
  pids+=($!)
fi
for pid in "${pids[@]}"; do
  wait "$pid"
  say "process $pid ended with status $?"
done

status=0
if [ "$run_class" = 1 ]; then
  grades="$work/class-grades"
  cp "$grades/class_grades.md" "$results/class_run.md" 2>/dev/null
  cp "$grades/class_grades.csv" "$results/class_run.csv" 2>/dev/null
  sed -e 's#(students/01-reference/grades.md)#(grades_reference.md)#' \
      -e 's#(students/02-exercise/grades.md)#(grades_exercise.md)#' \
      -e 's#(students/[^)]*)#(class_reports.md)#' -i "$results/class_run.md" 2>/dev/null
  for who in reference exercise; do
    number=$([ $who = reference ] && echo 01 || echo 02)
    cp "$grades/students/$number-$who/grades.md" "$results/grades_$who.md" 2>/dev/null
    cp "$grades/students/$number-$who/grades.json" "$results/grades_$who.json" 2>/dev/null
  done
  for student_report in "$grades"/students/*/grades.md; do
    [ -f "$student_report" ] && { cat "$student_report"; echo; }
  done > "$results/class_reports.md"

  # Why initcheck instruments every kernel: the same initcheck runs of the reference with
  # the student-kernel filter (as grading used it) and without (as it does now).
  # The reference as the lane was prebuilt (a student's folder: only the files that include
  # the kernels are compiled again; COURSE_KERNELS=reference would compile steps 4 and 5's
  # libraries again).
  lane="$grades/work/lane-0"
  if [ -f "$lane/CMakeCache.txt" ] && [ "${SKIP_DIAG:-0}" != 1 ]; then
    say "initcheck with and without the kernel filter (reference, lane 0)"
    cmake -S "$root" -B "$lane" -DCOURSE_KERNELS="$grades/work/prebuild-kernels" \
      "-DCOURSE_STEPS=$(ls -d step[0-9]_*/ | tr -d / | paste -sd ';')" \
      >> "$log" 2>&1 &&
      cmake --build "$lane" --target test_step4 test_step5 -j "$(nproc)" >> "$log" 2>&1
    diag="$results/initcheck_filter"
    mkdir -p "$diag"
    run_initcheck() {  # name program test [filter]
      local name="$1" program="$2" test="$3" filter="${4:-}"
      (cd "$(dirname "$program")" && compute-sanitizer --tool initcheck --print-limit 1000 \
         ${filter:+--kernel-name "regex=$filter"} "$program" "$test" --warn NoTests) \
        > "$diag/$name.txt" 2>&1
      echo "$name: exit $? $(grep -c 'Uninitialized' "$diag/$name.txt") uninitialized-access reports" \
        >> "$diag/summary.txt"
    }
    : > "$diag/summary.txt"
    s4="$lane/step4_boundary_checks/test_step4"
    s5="$lane/step5_tensor_core_sddmm/test_step5"
    k1="step 4 kernels handle K = 1 and single rows and single columns"
    one="all approaches with one nonzero"
    run_initcheck step4_k1_filtered "$s4" "$k1" "rect_tiles_kernel|tiled_checked_kernel" &
    run_initcheck step4_k1_every_kernel "$s4" "$k1" &
    run_initcheck step5_one_nonzero_filtered "$s5" "$one" \
      "sddmm_warp_per_nonzero_kernel|tile_grouped_kernel" &
    run_initcheck step5_one_nonzero_every_kernel "$s5" "$one" &
    wait
    cat "$diag/summary.txt" | tee -a "$log"
  fi

  python3 - "$results" >> "$log" 2>&1 << 'PY' || status=1
import json, os, sys
folder = sys.argv[1]
good = True
if os.path.exists(f"{folder}/grades_reference.json"):
    reference = json.load(open(f"{folder}/grades_reference.json"))
    errors = sum(row["sanitizer_errors"] for row in reference["steps"])
    problems = [p for row in reference["steps"] for p in row["course_problems"]]
    print(f"VERDICT reference {reference['total_points']}/100, {errors} sanitizer errors, "
          f"{len(problems)} course problems")
    good = reference["total_points"] == 100 and errors == 0
elif os.environ.get("CLASS_PART", "1/").startswith("1/"):
    print("VERDICT reference not graded (cut short?)")
    good = False
if os.path.exists(f"{folder}/grades_exercise.json"):
    exercise = json.load(open(f"{folder}/grades_exercise.json"))
    print(f"VERDICT exercise {exercise['total_points']}/100")
    good = good and exercise["total_points"] == 0
elif os.environ.get("CLASS_PART", "1/").startswith("1/"):
    print("VERDICT exercise not graded (cut short?)")
    good = False
sys.exit(0 if good else 1)
PY
fi
if [ "$run_mutations" = 1 ]; then
  if grep -q "^[0-9]* of [0-9]* mutations caught" "$report" 2>/dev/null &&
     ! grep -q "in progress" "$report"; then
    line=$(grep "^[0-9]* of [0-9]* mutations caught" "$report")
    echo "VERDICT mutations: $line" >> "$log"
    caught=${line%% of *}; rest=${line#* of }; total=${rest%% *}
    [ "$caught" = "$total" ] || status=1
  else
    echo "VERDICT mutations: cut short ($(grep -c '| caught' "$report" 2>/dev/null) rows caught so far; see $(basename "$report") and mutation.log)" >> "$log"
    status=1
  fi
fi

cp "$work/class.log" "$work/mutation.log" "$results/" 2>/dev/null
if [ "$run_class" = 1 ]; then
  cp "$work/class.log" "$out/class.log" 2>/dev/null
  { echo "--- class.log"; cat "$work/class.log"; } >> "$log" 2>/dev/null
  mkdir -p "$results/lanes"
  cp "$work/class-grades/work"/lane-*.log "$results/lanes/" 2>/dev/null
fi
mkdir -p "$results/students"
for folder in "$work/class-grades/students"/*/; do
  [ -d "$folder" ] || continue
  name="$(basename "$folder")"
  mkdir -p "$results/students/$name"
  cp "$folder"/grades.md "$folder"/grades.json "$folder"/grade.log "$folder"/configure.log \
    "$folder"/build.log "$results/students/$name/" 2>/dev/null
done
grep -h "per student\|seconds" "$results/class_run.md" 2>/dev/null | head -3 >> "$log"
say "done, status $status"
{
  grep "VERDICT" "$log"
  grep -h "students;" "$results/class_run.md" 2>/dev/null
  cat "$results/machine.txt"
  cat "$results/initcheck_filter/summary.txt" 2>/dev/null
  echo "status $status after $SECONDS s"
} > "$out/summary.txt"
suffix="${SHARD:+-${SHARD%/*}of${SHARD#*/}}${CLASS_PART:+-class${CLASS_PART%/*}of${CLASS_PART#*/}}"
tar -czf "$out/evidence-$part$suffix.tar.gz" -C "$work" results
exit "$status"
