#!/usr/bin/env python3
"""Grades a folder of student folders into one class table (Markdown and CSV).

Everything that is not a student's is built once: each lane (a build directory graded
students go through one after another) is first built with the reference kernels, given as
a student's folder (so that every compile command stays the same for the students that
follow, see prebuild); a student then costs a reconfigure, the compilation of the files
that include their kernels, the links and the test runs (grade.py). Lanes share the cores
(gradelib/lanes.py); the class table is rewritten after every student. A student whose
grading breaks (does not configure or compile, hangs, crashes) gets what grade.py gave
them, or 0 with a note when grade.py itself had to be stopped; the class run always goes on.

    grading/grade_class.py STUDENTS OUT_DIR [--lanes 2] [--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90]
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
from gradelib import build, gpu_share, lanes, plan, report, runner  # noqa: E402
from gradelib.arguments import add_cmake_arg, add_seed, add_time_limits, positive  # noqa: E402,E501

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
    parser.add_argument("--student-timeout", type=positive(float), default=2400,
                        help="seconds a student's whole grading may take")
    # Generous: lanes side by side share the CPU, and step 4's sweeps compute their CPU
    # reference on it (27 s and 64 s alone on an H100 machine, over 150 s with 5 lanes).
    add_time_limits(parser, timeout=300, sanitizer_timeout=600)
    parser.add_argument("--course-tests", choices=("once", "each"), default="once",
                        help="run the course tests (no points; they do not run the student's "
                             "files) once, with the first student, or for each student")
    parser.add_argument("--generator", default="Ninja" if shutil_which("ninja") else "")
    add_cmake_arg(parser)
    parser.add_argument("--title", default="Class grades")
    return parser


def shutil_which(name):
    return any((pathlib.Path(folder) / name).is_file()
               for folder in os.environ.get("PATH", "").split(os.pathsep) if folder)


def prebuild(lane_dir, args, jobs, log_path, kernels, cancel=None):
    """Configures and builds a lane's tree (the test programs and all they link) with the
    reference kernels copied into the student folder @p kernels. Why not
    COURSE_KERNELS=reference: a student's folder adds the generated forwarding headers to
    the include path of each step's kernel library, which changes the compile command of
    every file in it (in steps 4 and 5 some twenty course files), so a tree built with
    'reference' is built again for the first student of every lane. Built from a student's
    folder, the compile commands stay the same and a student recompiles only the files
    that include their kernels. Stops (returns False) when the threading.Event @p cancel
    is set: every student has a lane by then."""
    command = ["cmake", "-S", str(HERE.parent), "-B", str(lane_dir), f"-DCOURSE_KERNELS={kernels}",
               "-DCOURSE_STEPS=" + ";".join(step.folder for step in plan.STEPS)]
    if args.generator and not (lane_dir / "CMakeCache.txt").exists():
        command += ["-G", args.generator]
    started = time.monotonic()
    try:
        configured = runner.run_limited(command + args.cmake_arg, 600, log_path=log_path,
                                        cancel=cancel)
        if configured.status != 0:
            return False
        targets = [step.program for step in plan.STEPS]
        built = runner.run_limited(["cmake", "--build", str(lane_dir), "-j", str(jobs),
                                    "--target", *targets], 3600, log_path=log_path,
                                   cancel=cancel)
    except runner.Cancelled:
        say(f"{lane_dir.name}: build stopped, every student has a lane")
        return False
    say(f"{lane_dir.name} built with {jobs} jobs in {time.monotonic() - started:.0f} s "
        f"(status {built.status})")
    return built.status == 0


def say(text):
    """A line of progress on stderr, at once (the class run's log)."""
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def grade_student(folder, lane_dir, args, jobs, out_dir, graded_only=False):
    """Runs grade.py on one student with @p jobs = (build jobs, test processes); returns
    (name, grade or None, seconds, note, link)."""
    name = folder.name
    student_out = out_dir / "students" / name
    student_out.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(HERE / "grade.py"), "--kernels", str(folder),
               "--build-dir", str(lane_dir), "--out-dir", str(student_out), "--name", "grades",
               "--title", f"Grades of {name}", "--seed", str(args.seed), "--jobs", str(jobs[0]),
               "--test-jobs", str(jobs[1]), "--timeout", str(args.timeout),
               "--sanitizer-timeout", str(args.sanitizer_timeout),
               "--configure-timeout", "120", "--build-timeout", "600"]
    if args.generator:
        command += ["--generator", args.generator]
    if graded_only:
        command += ["--graded-only"]
    command += [f"--cmake-arg={argument}" for argument in args.cmake_arg]
    grade_file = student_out / "grades.json"
    if grade_file.exists():
        grade_file.unlink()  # never read an earlier run's grade
    started = time.monotonic()
    say(f"{name}: grading in {lane_dir.name}")
    result = runner.run_limited(command, args.student_timeout,
                                log_path=student_out / "grade.log")
    seconds = time.monotonic() - started
    grade, note = None, ""
    if result.timed_out:
        note = f"grading stopped after {args.student_timeout:.0f} s: 0 points"
    elif grade_file.exists():
        grade = json.loads(grade_file.read_text(encoding="utf-8"))
    else:
        note = f"grade.py failed (exit {result.status}): see grade.log"
    link = urllib.parse.quote(f"students/{name}/grades.md") if grade else urllib.parse.quote(
        f"students/{name}/grade.log")
    say(f"{name}: {grade['total_points'] if grade else 0}/100 in {seconds:.0f} s {note}")
    return name, grade, seconds, note, link


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
    records = work / "gpu-records"
    shutil.rmtree(records, ignore_errors=True)
    os.environ[gpu_share.ENVIRONMENT] = str(records)
    lane_dirs = [work / f"lane-{index}" for index in range(min(args.lanes, len(folders)))]
    jobs = lanes.lane_jobs(args.cores, len(lane_dirs))
    kernels = work / "prebuild-kernels"  # the reference, as a student's folder
    build.copy_submission(HERE.parent, kernels, plan.STEPS)
    say(f"{len(folders)} students, {len(lane_dirs)} lane(s) on {args.cores} cores: "
        f"{jobs[0]} build jobs and {jobs[1]} test processes per lane")
    write_tables([], args, out_dir, f"(in progress, 0 of {len(folders)} graded) ")
    started = time.monotonic()
    finished, built_after = [], {}

    def prebuild_lane(lane, index, nothing_left):
        # Lane 0 alone, with every core; the others beside the grading, with their share.
        ready = prebuild(lane, args, args.cores if index == 0 else jobs[0],
                         work / f"{lane.name}.log", kernels, None if index == 0 else nothing_left)
        built_after[index] = time.monotonic() - started
        return ready

    def grade(folder, lane):
        once = args.course_tests == "once" and folder != folders[0]
        try:
            return grade_student(folder, lane, args, jobs, out_dir, once)
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

    students = lanes.grade_in_lanes(folders, lane_dirs, prebuild_lane, grade, graded)
    if students is None:
        print(f"the course does not build with the reference kernels: see {work}/lane-0.log",
              file=sys.stderr)
        return 1
    seconds = time.monotonic() - started
    header = (f"{len(students)} students; {len(lane_dirs)} lane(s), {jobs[0]} build jobs and "
              f"{jobs[1]} test processes each on {args.cores} cores. The run took "
              f"{seconds:.0f} s (lane 0's course tree built in {built_after[0]:.0f} s), "
              f"{seconds / len(students):.0f} s per student")
    if len(finished) > 1:
        after_first = (finished[-1][0] - finished[0][0]) / (len(finished) - 1)
        header += (f", {after_first:.0f} s per student after the first (the first finished "
                   f"after {finished[0][0] - started:.0f} s)")
    header += " (the column 'seconds' is each student's own time in a lane)."
    print(write_tables(students, args, out_dir, "", header))
    return 0


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
