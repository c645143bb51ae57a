#!/usr/bin/env python3
"""Grades a folder of student folders into one class table (Markdown and CSV).

The course is built once, in the sandbox, with the reference handed in as a submission (the
pristine tree, gradelib/build.py); every student then gets a fresh copy of it as their own
build folder, inside their report folder, so a student costs the compilation of the files
that include their own, the links of the runners and the runs (grade.py); no student builds
in a folder another student's code could have written. Students are graded side by side in
lanes (gradelib/lanes.py: the cores are divided between their builds); their runs take turns
on the GPU, one student's at a time (gradelib/gpu_share.py); each student has one time
budget for its whole grade (--budget, gradelib/budget.py), so the class ends in bounded
time whatever the students do; each lane's sandbox runs as a user of its own, and no process
of it may outlive its student. Each grade.py hides the class and every report folder from its
sandbox. The class table is rewritten after every student.
A student whose grading breaks (does not configure or compile, hangs, crashes) gets what
grade.py gave them, or 0 with a note when grade.py itself had to be stopped; the class run
always goes on. Before the first student and after the last, the course tree, the
submissions and the pristine tree are compared file by file: grading may change nothing
there (the table says so, and the exit status is 1 otherwise); and no process of the sandbox
user may be left.

    grading/grade_class.py STUDENTS OUT_DIR [--lanes 2] [--budget 120] \
        [--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90]
"""
import argparse
import json
import os
import pathlib
import random
import shutil
import sys
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import build, gpu_share, inspection, integrity, lanes, report, runner  # noqa: E402,E501
from gradelib import sandbox as sandbox_module  # noqa: E402
from gradelib.arguments import add_cmake_arg, add_seed, add_time_limits, positive, seconds  # noqa: E402,E501

HERE = pathlib.Path(__file__).resolve().parent


def make_parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("students", help="folder holding one folder per student")
    parser.add_argument("out_dir", help="where the class table and the students' reports go")
    parser.add_argument("--work-dir", default="",
                        help="where the lanes' build directories go (default <out>/work)")
    parser.add_argument("--lanes", type=positive(int), default=2,
                        help="students graded side by side, each lane with its own build and "
                             "its share of the cores")
    parser.add_argument("--cores", type=positive(int), default=os.cpu_count() or 2,
                        help="cores the lanes share (default: this machine's)")
    add_seed(parser, "seed of every student's tests (default: a fresh one)")
    parser.add_argument("--budget", type=seconds, default=120,
                        help="seconds of each student's grade after the course's build: its "
                             "build, inspection and runs (waiting for the GPU not counted, a "
                             "second of its turn on the GPU counted once per lane); the cases "
                             "not run by then score 0 with that reason (default 120)")
    parser.add_argument("--student-timeout", type=seconds, default=2400,
                        help="seconds after which a student's grade.py is stopped whatever it "
                             "does (a backstop behind --budget; default 2400)")
    # Generous: lanes side by side share the CPU, and step 4's sweeps compute their CPU
    # reference on it (27 s and 64 s alone on an H100 machine, over 150 s with 5 lanes).
    add_time_limits(parser, timeout=300, sanitizer_timeout=600)
    add_cmake_arg(parser)
    parser.add_argument("--test-jobs", type=positive(int), default=None,
                        help="runs side by side in a student's turn on the GPU (default: "
                             "cores / 2); runs under compute-sanitizer wait on the GPU as much "
                             "as on a core")
    parser.add_argument("--pristine", default="",
                        help="a course tree built by grade.py --build-only (default: built "
                             "here in <work-dir>/pristine)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="grade without bubblewrap (the table then says NOT SANDBOXED)")
    parser.add_argument("--keep-builds", action="store_true",
                        help="keep each student's build folder (default: removed once graded)")
    parser.add_argument("--title", default="Class grades")
    return parser


def shutil_which(name):
    return any((pathlib.Path(folder) / name).is_file()
               for folder in os.environ.get("PATH", "").split(os.pathsep) if folder)


def prebuild(args, work, students_dir, out_dir):
    """Builds the pristine tree with every core, in the sandbox (grade.py builds it when
    given a --work-dir without --pristine); returns its path or None."""
    pristine = pathlib.Path(args.pristine).resolve() if args.pristine else work / "pristine"
    if (pristine / build.JUDGE).is_file():
        inspection.course_kernel_names(pristine)
        return pristine
    box = sandbox_module.Sandbox(HERE.parent, hide=[students_dir, out_dir],
                                 enabled=not args.no_sandbox)
    options = argparse.Namespace(cmake_arg=args.cmake_arg, configure_timeout=600,
                                 build_timeout=3600)
    logs = work / "pristine-logs"
    logs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    ok, message = build.build_pristine(box, pristine, HERE.parent, options, logs, args.cores)
    say(f"pristine course tree built with {args.cores} jobs in "
        f"{time.monotonic() - started:.0f} s: {'ok' if ok else message[:300]}")
    if ok:
        inspection.course_kernel_names(pristine)  # before the snapshot: written once
    return pristine if ok else None


def say(text):
    """A line of progress on stderr, at once (the class run's log)."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def grade_student(folder, pristine, args, jobs, out_dir, students_dir, lane=0, lanes_count=1):
    """Runs grade.py on one student with @p jobs = (build jobs, runs side by side) in lane
    number @p lane (its sandbox user: sandbox.lane_uid) of @p lanes_count; returns (name,
    grade or None, seconds, note, link). Processes of the lane's sandbox user still there
    once grade.py has ended are the student's: they are killed, by their ids, and named in
    its note."""
    name = folder.name
    student_out = out_dir / "students" / name
    student_out.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(HERE / "grade.py"), "--kernels", str(folder),
               "--pristine", str(pristine), "--out-dir", str(student_out), "--name", "grades",
               "--title", f"Grades of {name}", "--seed", str(args.seed), "--jobs", str(jobs[0]),
               "--test-jobs", str(jobs[1]), "--timeout", str(args.timeout),
               "--sanitizer-timeout", str(args.sanitizer_timeout),
               "--configure-timeout", "120", "--build-timeout", "600",
               "--budget", str(args.budget), "--budget-lanes", str(lanes_count),
               "--sandbox-uid", str(sandbox_module.lane_uid(lane)),
               "--hide", str(students_dir), "--hide", str(out_dir)]
    if args.no_sandbox:
        command += ["--no-sandbox"]
    if args.keep_builds:
        command += ["--keep-build"]
    command += [f"--cmake-arg={argument}" for argument in args.cmake_arg]
    grade_file = student_out / "grades.json"
    if grade_file.exists():
        grade_file.unlink()  # never read an earlier run's grade
    started = time.monotonic()
    say(f"{name}: grading")
    result = runner.run_limited(command, args.student_timeout,
                                log_path=student_out / "grade.log")
    seconds = time.monotonic() - started
    grade, note = None, ""
    if result.timed_out:
        note = f"grading stopped after {args.student_timeout:.0f} s: 0 points"
    elif grade_file.exists():
        grade = json.loads(grade_file.read_text(encoding="utf-8"))
        note = budget_note(grade)
    else:
        note = f"grade.py failed (exit {result.status}): see grade.log"
    left = leftovers(args, lane)
    if left:
        note = "; ".join(part for part in (note, f"left {len(left)} process(es) of its "
                                           f"sandbox user, killed: {left[0]}") if part)
    link = urllib.parse.quote(f"students/{name}/grades.md") if grade else urllib.parse.quote(
        f"students/{name}/grade.log")
    say(f"{name}: {grade['total_points'] if grade else 0}/100 in {seconds:.0f} s {note}")
    return name, grade, seconds, note, link


def budget_note(grade):
    """The note of a student whose time budget was spent (from grade.py's JSON)."""
    used = grade.get("time") or {}
    if not used.get("expired"):
        return ""
    cases = sum(row.get("out_of_time", 0) for row in grade.get("steps", []))
    return (f"time budget of {used.get('budget_seconds', 0):g} s spent: {cases} case(s) "
            "not run (0 points)")


def leftovers(args, lane):
    """The processes of lane @p lane's sandbox user still there after its student (waited
    for a few seconds, then killed by their ids), described; [] without a sandbox run by
    root."""
    if args.no_sandbox or os.geteuid() != 0:
        return []
    uid = sandbox_module.lane_uid(lane)
    left = integrity.process_details(uid)
    if left:
        integrity.settle(uid, wait=10.0, kill=True, keep=runner.running_pids())
    return integrity.describe(left)


def main():
    args = make_parser().parse_args()
    students_dir = pathlib.Path(args.students)
    if not students_dir.is_dir():
        print(f"usage error: {args.students}: no such folder", file=sys.stderr)
        return 2
    folders = sorted(entry for entry in students_dir.resolve().iterdir() if entry.is_dir())
    if not folders:
        print(f"usage error: {args.students} holds no student folder", file=sys.stderr)
        return 2
    out_dir = pathlib.Path(args.out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(args.work_dir or out_dir / "work").resolve()
    work.mkdir(parents=True, exist_ok=True)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2 ** 63)
    # The graders of every lane share the GPU: one student's hang must not cost another
    # student points (gradelib/gpu_share.py). Each grade.py inherits the records' folder.
    # A folder given in the environment is shared with another grader of the same GPU
    # (gpu_evidence.sh: the mutation check beside the class).
    if not os.environ.get(gpu_share.ENVIRONMENT):
        records = work / "gpu-records"
        shutil.rmtree(records, ignore_errors=True)
        os.environ[gpu_share.ENVIRONMENT] = str(records)
    lane_names = [f"lane-{index}" for index in range(min(args.lanes, len(folders)))]
    jobs = lanes.lane_jobs(args.cores, len(lane_names))
    if args.test_jobs:
        jobs = (jobs[0], args.test_jobs)
    say(f"{len(folders)} students, {len(lane_names)} lane(s) on {args.cores} cores: "
        f"{jobs[0]} build jobs and {jobs[1]} runs side by side per lane")
    write_tables([], args, out_dir, f"(in progress, 0 of {len(folders)} graded) ")
    started = time.monotonic()
    finished, built_after, state = [], {}, {}
    watched = [HERE.parent, students_dir.resolve()]
    excluded = [out_dir, work] + integrity.build_folders(HERE.parent)

    def prebuild_lane(lane, index, nothing_left):
        if index == 0:  # the one build of the course, with every core, then a snapshot
            state["pristine"] = prebuild(args, work, students_dir.resolve(), out_dir)
            built_after[0] = time.monotonic() - started
            if state["pristine"] is not None:
                state["before"] = integrity.snapshot(watched + [state["pristine"]], excluded)
        return state.get("pristine") is not None

    def grade(folder, lane):
        try:
            return grade_student(folder, state["pristine"], args, jobs, out_dir,
                                 students_dir.resolve(), lane_names.index(lane),
                                 len(lane_names))
        except Exception as error:  # noqa: BLE001 -- a broken student never stops the class
            return (folder.name, None, 0.0, f"grading failed: {error}",
                    urllib.parse.quote(f"students/{folder.name}/grade.log"))

    def graded(result):  # the table so far, so that a run cut short still leaves one
        finished.append((time.monotonic(), result))
        write_tables(sorted(row for _, row in finished), args, out_dir,
                     f"(in progress, {len(finished)} of {len(folders)} graded) ")

    def cut_short():
        say(f"stopped (SIGTERM) after {time.monotonic() - started:.0f} s, "
            f"{len(finished)} of {len(folders)} students graded")
        write_tables(sorted(row for _, row in finished), args, out_dir,
                     f"(cut short after {time.monotonic() - started:.0f} s, {len(finished)} "
                     f"of {len(folders)} graded) ")

    runner.stop_children_on_term(cut_short)
    integrity.become_subreaper()  # the orphans of a killed grade.py are reaped here

    students = lanes.grade_in_lanes(folders, lane_names, prebuild_lane, grade, graded)
    if students is None:
        print(f"the course does not build with the reference kernels: see "
              f"{work}/pristine-logs/build.log", file=sys.stderr)
        return 1
    seconds = time.monotonic() - started
    header = (f"{len(students)} students; {len(lane_names)} lane(s) of {jobs[0]} build jobs "
              f"on {args.cores} cores, one student's runs at a time on the GPU ({jobs[1]} side "
              f"by side), a time budget of {args.budget:g} s per student. The run took "
              f"{seconds:.0f} s (the course tree built in {built_after[0]:.0f} s), "
              f"{seconds / len(students):.0f} s per student")
    if len(finished) > 1:
        after_first = (finished[-1][0] - finished[0][0]) / (len(finished) - 1)
        header += (f", {after_first:.0f} s per student after the first (the first finished "
                   f"after {finished[0][0] - started:.0f} s)")
    header += " (the column 'seconds' is each student's own time in a lane)."
    changes = integrity.compare(state["before"], integrity.snapshot(
        watched + [state["pristine"]], excluded))
    uids = [sandbox_module.lane_uid(index) for index in range(len(lane_names))]
    left = [] if args.no_sandbox or os.geteuid() != 0 else integrity.settle(
        uids, wait=15.0, keep=runner.running_pids())
    killed = [row for row in students if "process(es) of its sandbox user" in row[3]]
    header += (f" Integrity: {len(changes)} file(s) changed outside the students' report "
               f"folders" + (f" ({'; '.join(changes[:5])})" if changes else "")
               + f"; {len(left)} process(es) of the sandbox users left, zombies included"
               + (f" ({'; '.join(integrity.describe(left)[:3])})" if left else "")
               + (f" ({len(killed)} student(s) left processes that were killed after them: "
                  "see their notes)" if killed else "") + ".")
    if args.no_sandbox:
        header += " NOT SANDBOXED (--no-sandbox)."
    print(write_tables(students, args, out_dir, "", header))
    return 0 if not changes and not left else 1


def write_tables(students, args, out_dir, state, header=""):
    """Writes the class table (Markdown and CSV); returns the Markdown."""
    rows = report.class_rows(students)
    gpu = runner.run_limited(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], 30) \
        if shutil_which("nvidia-smi") else None
    gpu_name = gpu.output.strip().splitlines()[0] if gpu and gpu.status == 0 else "no GPU found"
    header = (f"{state}GPU: {gpu_name}; {time.strftime('%Y-%m-%d %H:%M')}; seed {args.seed}. "
              + header)
    text = report.class_markdown(rows, args.title, header)
    write_whole(out_dir / "class_grades.md", text)
    write_whole(out_dir / "class_grades.csv", report.class_csv(rows))
    return text


def write_whole(path, text):
    """Writes @p text to a temporary file and renames it over @p path, so that a reader (or
    the SIGTERM handler, which rewrites the table while a write may be under way) never
    finds the table truncated to nothing."""
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


if __name__ == "__main__":
    sys.exit(main())
