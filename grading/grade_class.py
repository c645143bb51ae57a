#!/usr/bin/env python3
"""Grades a folder of student folders into one class table (Markdown and CSV).

Everything that is not a student's is built once: each lane (a build directory graded
students go through one after another) is first built with the reference kernels; a
student then costs a reconfigure, the compilation of the files behind their kernels, the
links and the test runs (grade.py). Lanes run side by side. A student whose grading breaks
(does not configure or compile, hangs, crashes) gets what grade.py gave them, or 0 with a
note when grade.py itself had to be stopped; the class run always goes on.

    grading/grade_class.py STUDENTS OUT_DIR [--lanes 3] [--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90]
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import queue
import random
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import plan, report, runner  # noqa: E402
from gradelib.arguments import add_cmake_arg, add_seed, add_time_limits, positive  # noqa: E402,E501

HERE = pathlib.Path(__file__).resolve().parent


def make_parser():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("students", help="folder holding one folder per student")
    parser.add_argument("out_dir", help="where the class table and the students' reports go")
    parser.add_argument("--work-dir", default="",
                        help="where the lanes' build directories go (default <out>/work)")
    parser.add_argument("--lanes", type=positive(int), default=3,
                        help="students graded side by side, each lane with its own build")
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


def prebuild(lane_dir, args, jobs, log_path):
    """Configures and builds a lane's tree with the reference kernels (the test programs
    and all they link)."""
    command = ["cmake", "-S", str(HERE.parent), "-B", str(lane_dir), "-DCOURSE_KERNELS=reference"]
    if args.generator and not (lane_dir / "CMakeCache.txt").exists():
        command += ["-G", args.generator]
    configured = runner.run_limited(command + args.cmake_arg, 600, log_path=log_path)
    if configured.status != 0:
        return False
    # The test programs are all grading runs (their libraries: common, every step's).
    targets = [step.program for step in plan.STEPS]
    built = runner.run_limited(["cmake", "--build", str(lane_dir), "-j", str(jobs), "--target",
                                *targets], 3600, log_path=log_path)
    return built.status == 0


def grade_student(folder, lane_dir, args, jobs, out_dir, graded_only=False):
    """Runs grade.py on one student; returns (name, grade or None, seconds, note, link)."""
    name = folder.name
    student_out = out_dir / "students" / name
    student_out.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(HERE / "grade.py"), "--kernels", str(folder),
               "--build-dir", str(lane_dir), "--out-dir", str(student_out), "--name", "grades",
               "--title", f"Grades of {name}", "--seed", str(args.seed), "--jobs", str(jobs),
               "--test-jobs", str(jobs), "--timeout", str(args.timeout),
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
    print(f"[{time.strftime('%H:%M:%S')}] {name}: "
          f"{grade['total_points'] if grade else 0}/100 in {seconds:.0f} s {note}",
          file=sys.stderr, flush=True)
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
    jobs = max(1, (os.cpu_count() or 2) // args.lanes)
    lanes = [work / f"lane-{index}" for index in range(min(args.lanes, len(folders)))]
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(lanes)) as pool:
        ready = list(pool.map(lambda lane: prebuild(lane, args, jobs, work / f"{lane.name}.log"),
                              lanes))
    prebuild_seconds = time.monotonic() - started
    if not all(ready):
        print(f"the course does not build with the reference kernels: see {work}/lane-*.log",
              file=sys.stderr)
        return 1
    free = queue.Queue()
    for lane in lanes:
        free.put(lane)

    done, finished = [], []
    lock = threading.Lock()

    def grade_on_a_free_lane(folder):
        lane = free.get()
        try:
            result = grade_student(folder, lane, args, jobs, out_dir,
                                   args.course_tests == "once" and folder != folders[0])
        finally:
            free.put(lane)
        with lock:  # the table so far, so that a run cut short still leaves one
            done.append(result)
            finished.append(time.monotonic())
            write_tables(sorted(done), args, out_dir, "(in progress) ")
        return result

    graded_from = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(lanes)) as pool:
        students = list(pool.map(grade_on_a_free_lane, folders))
    grading_seconds = time.monotonic() - graded_from
    header = (f"{len(students)} students; {len(lanes)} lane(s). Course tree built once per "
              f"lane in {prebuild_seconds:.0f} s; grading took {grading_seconds:.0f} s, "
              f"{grading_seconds / len(students):.0f} s per student")
    if len(finished) > 1:
        after_first = (finished[-1] - finished[0]) / (len(finished) - 1)
        header += (f", {after_first:.0f} s per student after the first (the first finished "
                   f"after {finished[0] - graded_from:.0f} s)")
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
    (out_dir / "class_grades.md").write_text(text, encoding="utf-8")
    (out_dir / "class_grades.csv").write_text(report.class_csv(rows), encoding="utf-8")
    return text


if __name__ == "__main__":
    sys.exit(main())
