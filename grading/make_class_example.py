#!/usr/bin/env python3
"""Writes the example class of grading/results/class_run.md: student folders made from the
reference, the exercise and planted bugs (the mutations of mutations.py, a file that does not
compile, a kernel that hangs, one that crashes the context, a missing step, a path with
spaces, '@' and non-ASCII letters, and a cheat of cheats.py that writes outside its folders).

    grading/make_class_example.py /tmp/class   # then grading/run_all.sh /tmp/class OUT
"""
import argparse
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import build, plan  # noqa: E402
from cheats import CHEATS  # noqa: E402
from mutations import MUTATIONS  # noqa: E402

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
    mutation = next((m for m in MUTATIONS + CHEATS if m.name == mutation_name), None)
    if mutation is None:
        raise SystemExit(f"no mutation named '{mutation_name}' in mutations.py: update "
                         "make_class_example.py")
    for file, original, replacement in mutation.edits():
        target = student / file
        if not target.exists():  # a given launcher: the student hands in their own copy
            shutil.copy2(ROOT / file, target)
        edit(student, file, original, replacement)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     epilog="Then grade it: grading/run_all.sh FOLDER OUT_DIR")
    parser.add_argument("folder", help="where the student folders are written (created)")
    out = pathlib.Path(parser.parse_args().folder)
    out.mkdir(parents=True, exist_ok=True)
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
    }
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
    print(f"{len(students)} student folders in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
