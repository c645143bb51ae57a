#!/usr/bin/env python3
"""Writes the example class of grading/results/class_run.md: student folders made from the
reference, the exercise and planted bugs (the mutations of mutations.py, a file that does not
compile, a kernel that hangs, one that crashes the context, a missing step, a path with
spaces, '@' and non-ASCII letters, a cheat of cheats.py that writes outside its folders) and
three hostile students of cheats.py's HOSTILE (a GPU-memory hog, a slow one, a log flooder)
graded beside them, whose classmates' grades must not change.

Usage: grading/make_class_example.py FOLDER [--expected FILE]   # then grading/run_all.sh FOLDER OUT
    e.g. grading/make_class_example.py /tmp/class --expected expected.json

--expected writes, per student, what it is (honest, cheat or hostile) and the total it
earns when graded alone where that is known in advance (gpu_evidence.sh compares).

FOLDER must be new, empty, or an earlier example class (whose student folders are then made
anew): a folder holding anything else (a real class) is refused, so that the example's
students never mix with real ones. A FOLDER that is a file, or whose parent cannot be
written, is refused too; all with status 2 and nothing written.
"""
import os
import argparse
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import build, plan  # noqa: E402
from cheats import CHEATS, HOSTILE  # noqa: E402
from mutations import MUTATIONS  # noqa: E402

# What each student is, and its total graded alone where it does not depend on the GPU's
# timing or on checks still being added (planted bugs that lose whole cases every time; None:
# a race, a hang, a crash, a warp mask or a cheat whose total is not fixed in advance;
# gpu_evidence.sh grades some of them alone to compare). The totals are those of the class
# graded alone on an H200, 2026-11-26 (results/class_run_h200/class_run.md).
EXPECTED = {
    "01-reference": ("honest", 100.0),
    "02-exercise": ("honest", 0.0),
    "03-step3-missing-barrier": ("honest", None),
    "04-step4-guard-off-by-one": ("honest", 93.3),
    "05-step4-missing-barrier": ("honest", None),
    "06-step5-shuffle-mask": ("honest", None),
    "07-zoë a@uni.edu hw@1": ("honest", 93.3),
    "08-does-not-compile": ("honest", 60.0),
    "09-hangs": ("honest", None),
    "10-crashes-context": ("honest", None),
    "11-cheat-writes-outside": ("cheat", None),
    "12-memory-hog": ("hostile", None),
    "13-slow": ("hostile", None),
    "14-log-flooder": ("hostile", None),
}

ROOT = pathlib.Path(__file__).resolve().parent.parent


def copy_solution(student, source="reference"):
    """The student files of every step, from the reference or the exercise folders."""
    build.course_version(ROOT, source, student, plan.STEPS)


def edit(student, relative, original, replacement):
    path = student / relative
    text = path.read_text()
    if text.count(original) != 1:
        raise SystemExit(f"{relative}: the text to replace is found {text.count(original)} "
                         f"times, not once: update make_class_example.py or mutations.py "
                         f"({original[:60]!r})")
    path.write_text(text.replace(original, replacement, 1))


def plant(student, mutation_name):
    """Applies a mutation of mutations.py; a name no longer in the list stops the run."""
    mutation = next((m for m in MUTATIONS + CHEATS + HOSTILE if m.name == mutation_name), None)
    if mutation is None:
        raise SystemExit(f"no mutation named '{mutation_name}' in mutations.py: update "
                         "make_class_example.py")
    for file, original, replacement in mutation.edits():
        target = student / file
        if not target.exists():  # a given launcher: the student hands in their own copy
            shutil.copy2(ROOT / file, target)
        edit(student, file, original, replacement)


def check_folder(parser, out, students):
    """Refuses (status 2, nothing written) a FOLDER that is not a folder, cannot be written,
    or holds anything but an earlier example class."""
    if out.exists() and not out.is_dir():
        parser.error(f"{out} is not a folder")
    existing = out if out.exists() else next(
        (parent for parent in out.absolute().parents if parent.exists()), pathlib.Path("/"))
    if not os.access(existing, os.W_OK | os.X_OK):
        parser.error(f"{existing} cannot be written into")
    if out.exists():
        others = sorted(entry.name for entry in out.iterdir() if entry.name not in students)
        if others:
            parser.error(f"{out} already holds {', '.join(others[:3])}"
                         f"{' ...' if len(others) > 3 else ''}, which the example class does "
                         f"not: give a new or empty folder (the example's students must not "
                         f"mix with a real class)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     epilog="Then grade it: grading/run_all.sh FOLDER OUT_DIR")
    parser.add_argument("folder", help="where the student folders are written (created)")
    parser.add_argument("--expected", default="",
                        help="also write what each student is and its total graded alone, "
                             "where known, as JSON to this file")
    arguments = parser.parse_args()
    out = pathlib.Path(arguments.folder)
    students = {
        "01-reference": [],
        "02-exercise": None,
        "03-step3-missing-barrier": ["step3: __syncthreads before the next phase missing"],
        "04-step4-guard-off-by-one": ["step4 rect tiles: N-tile load guard off by one "
                                      "(n_col <= cols)"],
        "05-step4-missing-barrier": ["step4 checked: barrier after loading the tiles missing"],
        "06-step5-shuffle-mask": ["step5: warp kernel's shuffle mask leaves out lane 0"],
        "07-zoë a@uni.edu hw@1": ["step2 A3: boundary check on the row dropped"],
        "08-does-not-compile": [],
        "09-hangs": [],
        "10-crashes-context": [],
        "11-cheat-writes-outside": ["cheat step1: writes outside its folders from a static "
                                    "initializer"],
        "12-memory-hog": [HOSTILE[0].name],
        "13-slow": [HOSTILE[1].name],
        "14-log-flooder": [HOSTILE[2].name, HOSTILE[3].name],
    }
    if set(students) != set(EXPECTED):
        raise SystemExit("make_class_example.py: EXPECTED and the students differ")
    check_folder(parser, out, students)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        parser.error(f"cannot create {out}: {error.strerror}")
    for name, mutations in students.items():
        student = out / name
        if student.exists():
            shutil.rmtree(student)
        copy_solution(student, "exercise" if mutations is None else "reference")
        for mutation in mutations or []:
            plant(student, mutation)
    # A step that does not compile, and a step folder missing.
    edit(out / "08-does-not-compile", "step2_three_approaches/one_thread_per_element.cuh",
         "  if (col >= cols) {", "  if (col >= cols) {{")
    shutil.rmtree(out / "08-does-not-compile" / "step5_tensor_core_sddmm")
    # A step-1 kernel that never ends, and a step-3 kernel that traps (the context dies).
    edit(out / "09-hangs", "step1_naive/naive_single_block.cuh", "  float sum = 0.0f;\n",
         "  float sum = 0.0f;\n  while (clock64() >= 0) {  // never ends: clock64() counts up\n"
         "  }\n")
    edit(out / "10-crashes-context", "step3_shared_tiling/tiled_shared.cuh",
         "  c[row * cols + col] = sum;", "  __trap();\n  c[row * cols + col] = sum;")
    if arguments.expected:
        pathlib.Path(arguments.expected).write_text(json.dumps(
            {name: {"kind": kind, "alone_total": total}
             for name, (kind, total) in EXPECTED.items()}, indent=2, ensure_ascii=False)
            + "\n", encoding="utf-8")
    print(f"{len(students)} student folders in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
