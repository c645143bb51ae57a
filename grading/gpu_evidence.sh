#!/usr/bin/env bash
# The grader's evidence from one command on a GPU machine (meant to end within 8.5 minutes on
# a 16-core H100 or H200 machine): builds the course once in the sandbox (the pristine
# tree), then side by side the example class (grading/make_class_example.py: the reference,
# the exercise, planted bugs, a cheat and three hostile students) graded by run_all.sh, and
# the mutation and cheat check (mutation_check.py --stop-at-first-loss --deadline); then the
# verdicts. The class and the mutation check share the GPU's gate (gradelib/gpu_share.py):
# each student's runs take a turn of their own. The mutation check starts no mutant past its
# deadline (BUDGET less MUTATION_MARGIN): every cheat runs, the mutants left are listed "not
# run (time budget)" and the summary says how many ran. Within the 10 minutes a command may
# take on the GPU machine, run it twice: PART=class (the class, then some of its honest
# students graded again alone to compare) and PART=mutations.
#
# Usage: grading/gpu_evidence.sh [OUT_DIR [CMake arguments...]]
#   e.g. OUT=/some/folder bash grading/gpu_evidence.sh   (from the repository root)
#   OUT_DIR defaults to $OUT; without CMake arguments the build is -DCMAKE_BUILD_TYPE=Release
#   -DCMAKE_CUDA_ARCHITECTURES=90, with -DCMAKE_PREFIX_PATH=<repository>/.deps/usr where
#   .deps/usr exists (Catch2 staged by stage-deps.sh).
# Needs bwrap (Debian's bubblewrap; on the GPU machine stage it with
# stage-deps.sh bubblewrap: .deps/usr/bin is put first in PATH), compute-sanitizer, ninja,
# Catch2 (-DCMAKE_PREFIX_PATH=.deps/usr).
# Writes five files into OUT_DIR: summary.txt (the verdicts and the time of each part: read
# it first), evidence.tar.gz (results/, laid out as grading/results/: class_run.md/.csv,
# grades_reference.*, grades_exercise.*, class_reports.md, mutation_report.md, the
# students' reports and logs, machine.txt, evidence.log, class.log, mutation.log), and
# copies of class_run.md, mutation_report.md and evidence.log.
# Environment: BUDGET (seconds for the class and the mutation check together, after the
# build; default 420), MUTATION_MARGIN (seconds before the end of BUDGET past which no
# mutant starts; default 80), LANES (class lanes, default 3), STUDENT_BUDGET (each student's
# time budget, grade_class.py --budget; default 150), TEST_JOBS (runs side by side in a
# student's turn on the GPU, default: half the cores), ALONE (class students graded again
# alone after the class, by the start of their names, while BUDGET lasts; default "05 03 09
# 10": those whose total alone is not known in advance), MUTATION_JOBS (mutation slots side by side, default 4), SLOTS (slots per step,
# default 3), PART (all, class or mutations; default all), SHARD (K/N of the mutation list),
# MATCH (mutation_check.py --match), STUDENTS (the class folders to keep, e.g. "01-reference
# 02-exercise"), WORK (scratch, default /tmp/course-evidence), NO_SANDBOX=1 (grade
# unsandboxed: the verdict says so).
# Exit status 0 only when the reference scores 100 with no sanitizer error, finding or
# course problem, the exercise 0, the class took at most 60 s per student on average, every
# honest student whose grade alone is known (make_class_example.py's EXPECTED) and every
# student graded again alone (ALONE) has the same total in the class, the report folders are
# bounded, every mutant that ran is caught, every cheat scores 0 on its step (or loses its
# hidden bug's points; host code in the kernel files of steps 2 to 5, which never runs, scores
# the reference's full marks), every honest variant of step 1's launcher scores full marks
# with no finding, no file outside a report folder changed and no sandbox process was left.
set -uo pipefail
[ $# -eq 0 ] && [ -n "${OUT:-}" ] && set -- "$OUT"
# shellcheck source=grading/out_dir_args.sh
source "$(dirname "$0")/out_dir_args.sh" /tmp/course-evidence "$@"
if [ ${#cmake_args[@]} -eq 0 ]; then
  cmake_args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90)
  [ -d "$root/.deps/usr" ] && cmake_args+=("-DCMAKE_PREFIX_PATH=$root/.deps/usr")
fi
budget="${BUDGET:-420}"
margin="${MUTATION_MARGIN:-80}"
part="${PART:-all}"
case "$part" in all|class|mutations) ;; *) echo "PART must be all, class or mutations" >&2; exit 2;; esac
[ -x "$root/.deps/usr/bin/bwrap" ] && export PATH="$root/.deps/usr/bin:$PATH"
evidence="$work/evidence"  # what goes into the tarball
results="$evidence/results"
rm -rf "$evidence" "$work/class" "$work/class-grades" "$work/mutants" "$work/shared" \
  "$work/gpu-records"
rm -f "$out/summary.txt" "$out/evidence.tar.gz" "$out/class_run.md" "$out/mutation_report.md" \
  "$out/evidence.log"
mkdir -p "$results"
cd "$root" || exit 2
log="$results/evidence.log"
: > "$log"
say() { echo "[$SECONDS s] $*" | tee -a "$log"; }
sandbox=()
[ "${NO_SANDBOX:-0}" = 1 ] && sandbox=(--no-sandbox)
cmake_options=("${cmake_args[@]/#/--cmake-arg=}")
# One gate on the GPU for the class and the mutation check (gradelib/gpu_share.py).
export COURSE_GRADING_GPU_RECORDS="$work/gpu-records"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  compute-sanitizer --version | tail -1
  nvcc --version | tail -2 | head -1
  cmake --version | head -1
  bwrap --version
  echo "CPU cores: $(nproc)"
  date -u '+%Y-%m-%d %H:%M UTC'
} > "$results/machine.txt" 2>&1
say "machine: $(tr '\n' ';' < "$results/machine.txt")"

# 1. The pristine tree: the course built once, in the sandbox, with the reference.
say "building the course (pristine tree, $(nproc) jobs)"
build_started=$SECONDS
python3 grading/grade.py --build-only --work-dir "$work/shared" --out-dir "$work/shared" \
  "${sandbox[@]}" "${cmake_options[@]}" >> "$log" 2>&1 || { say "the course does not build"; exit 1; }
pristine="$work/shared/pristine"
say "pristine tree built in $((SECONDS - build_started)) s"
# The course's runner, outside the sandbox: the driver creates its device nodes (nvidia-uvm)
# at the first CUDA call of a privileged process; then the same probe inside the sandbox.
say "GPU outside: $("$pristine/grading/grading_runner_step1" --probe 2>&1 | head -1)"

python3 grading/make_class_example.py "$work/class" --expected "$work/expected.json" >> "$log" 2>&1 \
  || { say "make_class_example failed"; exit 1; }
if [ -n "${STUDENTS:-}" ]; then  # a part of the class only (e.g. "01-reference 02-exercise")
  for folder in "$work/class"/*/; do
    name="$(basename "$folder")"
    [[ " $STUDENTS " == *" $name "* ]] || rm -rf "$folder"
  done
fi

# 2. The class and the mutation check side by side, each with part of the cores.
class_cores=$(nproc)
[ "$part" = all ] && class_cores=$(( $(nproc) * 5 / 8 ))  # the rest for the mutation check
pids=()
names=()
run_started=$SECONDS
lanes="${LANES:-3}"
test_jobs="${TEST_JOBS:-$(( $(nproc) / 2 > 1 ? $(nproc) / 2 : 1 ))}"
# A student's turn costs its budget once per lane: an honest student (about 40 s of build and
# inspection, 25 s of runs) spends 40 + 3 x 25 = 115 s of it in 3 lanes; 150 s leaves room.
student_budget="${STUDENT_BUDGET:-150}"
if [ "$part" != mutations ]; then
  say "class run ($lanes lanes, $test_jobs runs side by side in a student's turn on the GPU," \
    "$class_cores cores, a budget of $student_budget s per student)"
  timeout -k 20 "$budget" grading/run_all.sh "$work/class" "$work/class-grades" \
    --pristine "$pristine" --lanes "$lanes" --cores "$class_cores" \
    --test-jobs "$test_jobs" --budget "$student_budget" \
    --timeout 30 --sanitizer-timeout 90 --student-timeout 900 "${sandbox[@]}" \
    --title "Class run: the example class (grading/make_class_example.py)" \
    "${cmake_options[@]}" > "$results/class.log" 2>&1 &
  pids+=($!)
  names+=(class)
fi
if [ "$part" != class ]; then
  deadline=$(( budget > margin + 60 ? budget - margin : 60 ))
  say "mutation and cheat check (stop at the first lost case; no mutant starts after ${deadline} s)"
  shard=()
  [ -n "${SHARD:-}" ] && shard=(--shard "$SHARD")
  timeout -k 20 "$budget" python3 grading/mutation_check.py "${shard[@]}" \
    --report "$results/mutation_report.md" --work-dir "$work/mutants" --pristine "$pristine" \
    --slots "${SLOTS:-3}" --jobs "${MUTATION_JOBS:-4}" --build-jobs 2 --test-jobs 2 \
    --stop-at-first-loss --deadline "$deadline" --timeout 30 --sanitizer-timeout 90 \
    ${MATCH:+--match "$MATCH"} "${sandbox[@]}" "${cmake_options[@]}" \
    > "$results/mutation.log" 2>&1 &
  pids+=($!)
  names+=(mutations)
fi
for index in "${!pids[@]}"; do
  wait "${pids[$index]}"
  say "${names[$index]} ended with status $? after $((SECONDS - run_started)) s"
done

# 2b. Some honest students of the class graded again, alone, with the class's seed and
# budget (one lane), while BUDGET lasts: their totals must be the class's.
alone_dir="$work/alone"
rm -rf "$alone_dir"
mkdir -p "$alone_dir"
class_seed="$(grep -o 'seed [0-9]*' "$work/class-grades/class_grades.md" 2>/dev/null | head -1 | cut -d' ' -f2)"
if [ "$part" != mutations ] && [ -n "$class_seed" ]; then
  for prefix in ${ALONE-05 03 09 10}; do
    for folder in "$work/class/$prefix"*/; do
      [ -d "$folder" ] || continue
      name="$(basename "$folder")"
      left=$((budget - (SECONDS - run_started)))
      if [ "$left" -lt 50 ]; then
        say "alone: no time left for $name"
        continue
      fi
      say "alone: grading $name again alone (seed $class_seed)"
      timeout -k 10 "$left" python3 grading/grade.py --kernels "$folder" --pristine "$pristine" \
        --out-dir "$alone_dir/$name" --seed "$class_seed" --jobs "$(nproc)" \
        --test-jobs "$test_jobs" --budget "$student_budget" --timeout 30 \
        --sanitizer-timeout 90 --hide "$work/class" --hide "$work/class-grades" \
        "${sandbox[@]}" "${cmake_options[@]}" > "$alone_dir/$name.log" 2>&1
      say "alone: $name done (status $?)"
    done
  done
fi

# 3. The tables and the verdicts.
status=0
grades="$work/class-grades"
if [ "$part" != mutations ]; then
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
  python3 - "$results" "$grades/class_grades.md" "$work/expected.json" "$alone_dir" "$grades" \
    >> "$log" 2>&1 << 'PY' || status=1
import json, os, re, sys
folder, table, expected_file, alone_dir, grades_dir = sys.argv[1:6]
good = True
for who, want in (("reference", 100.0), ("exercise", 0.0)):
    path = f"{folder}/grades_{who}.json"
    if not os.path.exists(path):
        print(f"VERDICT {who} not graded (cut short?)")
        good = False
        continue
    grade = json.load(open(path))
    errors = sum(row["sanitizer_errors"] for row in grade["steps"])
    findings = sum(len(row.get("findings", [])) for row in grade["steps"])
    problems = sum(len(row.get("course_problems", [])) for row in grade["steps"])
    seen = sum(row.get("evidence_seen", 0) for row in grade["steps"])
    print(f"VERDICT {who} {grade['total_points']}/100, {errors} sanitizer errors, "
          f"{findings} findings, {problems} course problems, {seen} launchers seen running "
          "on the GPU")
    good = good and grade["total_points"] == want and (
        who != "reference" or (errors == 0 and findings == 0 and problems == 0))
text = open(table).read() if os.path.exists(table) else ""
match = re.search(r"Integrity: (\d+) file\(s\) changed.*?; (\d+) process\(es\)", text)
if match:
    print(f"VERDICT integrity: {match.group(1)} file(s) changed outside the report folders, "
          f"{match.group(2)} sandbox process(es) left")
    good = good and match.group(1) == "0" and match.group(2) == "0"
else:
    print("VERDICT integrity: not checked (the class run was cut short)")
    good = False
timing = re.search(r"(\d+) students;.*?The run took (\d+) s \(the course tree built in "
                   r"\d+ s\), (\d+) s per student", text)
if timing:
    print(f"VERDICT class: {timing.group(1)} students in {timing.group(2)} s, "
          f"{timing.group(3)} s per student on average (target: at most 60)")
    good = good and int(timing.group(3)) <= 60
else:
    print("VERDICT class: not finished")
    good = False
totals = {}
for line in text.splitlines():
    if line.startswith("| ") and not line.startswith("| student"):
        cells = [cell.strip() for cell in line.strip("|").split("|")] + [""] * 11
        totals[cells[0]] = cells[1]
        print(f"STUDENT {' '.join(cells[:7])} | errors {cells[7]} | findings {cells[8]} | "
              f"{cells[9]} s | {cells[10][:160]}")
expected = json.load(open(expected_file)) if os.path.exists(expected_file) else {}
known = {name: entry["alone_total"] for name, entry in expected.items()
         if entry["kind"] == "honest" and entry["alone_total"] is not None and name in totals}
differ = [f"{name}: {totals[name]} in the class, {total} alone"
          for name, total in known.items() if float(totals[name]) != total]
print(f"VERDICT honest students: {len(known) - len(differ)} of {len(known)} have the total "
      "they earn alone (make_class_example.py's EXPECTED)"
      + (": " + "; ".join(differ) if differ else ""))
good = good and bool(known) and not differ
alone = sorted(name for name in os.listdir(alone_dir)
               if os.path.isfile(os.path.join(alone_dir, name, "grades.json"))) \
    if os.path.isdir(alone_dir) else []
for name in alone:
    total = json.load(open(os.path.join(alone_dir, name, "grades.json")))["total_points"]
    same = name in totals and float(totals[name]) == total
    print(f"VERDICT alone: {name} {totals.get(name, '-')} in the class, {total} graded alone: "
          + ("same" if same else "DIFFERENT"))
    good = good and same
hostile = [name for name, entry in expected.items() if entry["kind"] == "hostile"]
sizes = {}
for name in os.listdir(os.path.join(grades_dir, "students")):
    total = 0
    for root, folders, files in os.walk(os.path.join(grades_dir, "students", name)):
        folders[:] = [each for each in folders if each != "work"]
        total += sum(os.path.getsize(os.path.join(root, each)) for each in files
                     if not os.path.islink(os.path.join(root, each)))
    sizes[name] = total
# The bound holds for a finished report: a student cut short mid-turn still holds the
# inputs of its runs in progress.
largest = max([size for name, size in sizes.items() if name in totals] or [0])
print(f"VERDICT reports: {sum(sizes.values()) >> 20} MiB for {len(sizes)} students, the largest "
      f"graded {largest >> 20} MiB (bound: 32 MiB each); hostile: " + ", ".join(
          f"{name} {sizes.get(name, 0) >> 10} KiB, {totals.get(name, 'not graded')}"
          for name in hostile))
good = good and largest <= 32 << 20 and all(name in totals for name in hostile)
sys.exit(0 if good else 1)
PY
  grep -h "students;" "$results/class_run.md" >> "$log" 2>/dev/null
fi
if [ "$part" != class ]; then
  report="$results/mutation_report.md"
  if grep -q "^[0-9]* of [0-9]* mutations caught" "$report" 2>/dev/null &&
     ! grep -q "in progress" "$report"; then
    grep "mutations caught\|cheats stopped\|cheats with host code\|honest variants\|hostile submissions\|were not graded\|did not start within" \
      "$report" | sed 's/^/VERDICT /' >> "$log"
    grep -q "SURVIVED\|NOT ZERO\|NOT FULL\|FLAGGED\|NOT CONTAINED\|DISTURBED\|STALE\|ERROR" "$report" && status=1
    grep "^| " "$report" | grep -v "^| mutation\|^|---" \
      | awk -F' *[|] *' '{print "MUTANT " $2 " | " $5 " | " $7 " | " $8 " s"}' >> "$log"
  else
    echo "VERDICT mutations: cut short ($(grep -c '| caught\|| zero' "$report" 2>/dev/null) rows done; see mutation_report.md and mutation.log)" >> "$log"
    status=1
  fi
fi

mkdir -p "$results/students" "$results/alone"
for folder in "$alone_dir"/*/; do
  [ -f "$folder/grades.md" ] && cp "$folder/grades.md" "$results/alone/$(basename "$folder").md"
done
for folder in "$grades/students"/*/; do
  [ -d "$folder" ] || continue
  name="$(basename "$folder")"
  mkdir -p "$results/students/$name"
  cp "$folder"/grades.md "$folder"/grades.json "$folder"/grade.log "$folder"/configure.log \
    "$folder"/build.log "$results/students/$name/" 2>/dev/null
done
say "done, status $status"
{
  grep "VERDICT" "$log"
  grep -h "students;" "$results/class_run.md" 2>/dev/null
  grep "pristine tree built\|ended with status\|GPU outside" "$log"
  grep -h "GPU in the sandbox" "$grades/students/01-reference/grade.log" 2>/dev/null
  grep "STUDENT\|MUTANT" "$log"
  cat "$results/machine.txt"
  echo "status $status after $SECONDS s"
} > "$out/summary.txt"
cp "$results/class_run.md" "$results/mutation_report.md" "$log" "$out/" 2>/dev/null
tar -czf "$out/evidence.tar.gz" -C "$evidence" results
exit "$status"
