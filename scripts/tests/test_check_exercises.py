#!/usr/bin/env python3
"""CPU test of scripts/check_exercises.py, run by ctest ("scripts: check_exercises ...").

    python3 scripts/tests/test_check_exercises.py

It copies every step's exercise files and their references into a temporary tree and
requires the checker to pass there; then it plants, one at a time, each kind of difference
the checker exists to catch (a line changed outside a region, in the exercise or in the
reference; a line added or removed; a missing last newline; regions renamed, reordered,
unclosed or nested; a TODO missing from an exercise region; a reference region holding a
TODO; an exercise file without a reference; a reference with regions and no exercise copy),
and requires each to fail with exit status 1 and a message naming the file (and, for a
difference outside the regions, the first differing line).
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_exercises.py"
STEPS = ["step1_naive", "step2_three_approaches", "step3_shared_tiling",
         "step4_boundary_checks", "step5_tensor_core_sddmm"]
failures = []


def run(tree):
    result = subprocess.run([sys.executable, str(SCRIPT), str(tree)], capture_output=True,
                            text=True, timeout=120)
    return result.returncode, result.stdout + result.stderr


def expect(condition, what, output=""):
    print("%s  %s" % ("pass" if condition else "FAIL", what))
    if not condition:
        failures.append(what)
        print(output)


def copy_pairs(target):
    """The exercise files and their references, in the course's layout."""
    pairs = []
    for step in STEPS:
        for exercise in sorted((ROOT / step / "exercise").iterdir()):
            if exercise.suffix not in (".cu", ".cuh"):
                continue
            reference = ROOT / step / exercise.name
            (target / step / "exercise").mkdir(parents=True, exist_ok=True)
            shutil.copyfile(exercise, target / step / "exercise" / exercise.name)
            shutil.copyfile(reference, target / step / exercise.name)
            pairs.append(f"{step}/{exercise.name}")
    return pairs


def edit(path, change):
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


def line_outside(text):
    """The number (from 1) of the first line after the first region's END marker."""
    lines = text.split("\n")
    return next(index for index, line in enumerate(lines) if "// END EXERCISE" in line) + 2


def replace_line(number, new):
    def change(text):
        lines = text.split("\n")
        lines[number - 1] = new
        return "\n".join(lines)
    return change


def planted(name, pair, where, change, wanted):
    """Runs the checker on a fresh copy with @p change applied to @p where ("exercise" or
    "reference") of @p pair; it must exit 1 with every text of @p wanted in its output."""
    with tempfile.TemporaryDirectory() as folder:
        tree = pathlib.Path(folder)
        copy_pairs(tree)
        step, file_name = pair.split("/")
        path = tree / step / ("exercise" if where == "exercise" else "") / file_name
        change(path)
        status, output = run(tree)
        expect(status == 1 and all(text in output for text in wanted),
               f"{name}: exit 1 naming {', '.join(wanted)}", output)


def main():
    with tempfile.TemporaryDirectory() as folder:
        tree = pathlib.Path(folder)
        pairs = copy_pairs(tree)
        status, output = run(tree)
        expect(status == 0 and f"{len(pairs)} exercise files checked" in output,
               f"the course's {len(pairs)} exercise files pass", output)
        status, output = run(ROOT)
        expect(status == 0, "the repository passes", output)

    pair = "step4_boundary_checks/tiled_checked.cuh"
    exercise = "step4_boundary_checks/exercise/tiled_checked.cuh"
    text = (ROOT / exercise).read_text(encoding="utf-8")
    outside = line_outside(text)
    planted("a line outside the regions changed in the exercise", pair, "exercise",
            lambda path: edit(path, replace_line(outside, "  // changed")),
            [f"{exercise}:{outside}: differs from", "'  // changed'"])
    planted("a line outside the regions changed in the reference", pair, "reference",
            lambda path: edit(path, lambda t: t.replace("namespace course::step4 {",
                                                        "namespace course::step4  {", 1)),
            [f"{exercise}:", "differs from step4_boundary_checks/tiled_checked.cuh:"])
    planted("a line added before the first region", pair, "exercise",
            lambda path: edit(path, lambda t: "// an extra first line\n" + t),
            [f"{exercise}:1: differs from"])
    planted("the last line removed", pair, "exercise",
            lambda path: edit(path, lambda t: t[:t.rstrip("\n").rfind("\n") + 1]),
            [f"{exercise}: ends at line"])
    planted("the last newline missing", pair, "exercise",
            lambda path: edit(path, lambda t: t.rstrip("\n")),
            [f"{exercise}:", "differs from"])
    planted("a trailing space on a line", pair, "exercise",
            lambda path: edit(path, lambda t: t.replace("#pragma once\n", "#pragma once \n", 1)),
            [f"{exercise}:", "'#pragma once '"])
    planted("a region renamed", pair, "exercise",
            lambda path: edit(path, lambda t: t.replace("EXERCISE tiled_checked_kernel",
                                                        "EXERCISE checked_kernel")),
            [exercise, "regions checked_kernel, but"])
    planted("an END marker missing", pair, "reference",
            lambda path: edit(path, lambda t: t.replace("// END EXERCISE tiled_checked_kernel",
                                                        "// end of the region")),
            ["step4_boundary_checks/tiled_checked.cuh: line", "has no END EXERCISE"])
    planted("regions nested", "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh", "exercise",
            lambda path: edit(path, lambda t: t.replace("  // END EXERCISE warp_sum\n", "", 1)),
            ["step5_tensor_core_sddmm/exercise/sddmm_warp_per_nonzero.cuh: line",
             "inside region warp_sum"])
    planted("regions in another order", "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh",
            "exercise",
            lambda path: edit(path, lambda t: t.replace("EXERCISE warp_sum", "EXERCISE tmp")
                              .replace("EXERCISE sddmm_warp_per_nonzero_kernel",
                                       "EXERCISE warp_sum")
                              .replace("EXERCISE tmp", "EXERCISE sddmm_warp_per_nonzero_kernel")),
            ["regions sddmm_warp_per_nonzero_kernel, warp_sum, but"])
    planted("an exercise region without a TODO", pair, "exercise",
            lambda path: edit(path, lambda t: t.replace("TODO", "To do")),
            [exercise, "region tiled_checked_kernel holds no TODO"])
    planted("a reference region holding a TODO", pair, "reference",
            lambda path: edit(path, lambda t: t.replace(
                "  __shared__ float a_tile[TILE][TILE];",
                "  // TODO: faster\n  __shared__ float a_tile[TILE][TILE];")),
            ["step4_boundary_checks/tiled_checked.cuh: region tiled_checked_kernel holds a TODO"])
    planted("an exercise file without a reference", pair, "reference",
            lambda path: path.unlink(),
            [exercise, "no reference step4_boundary_checks/tiled_checked.cuh"])
    planted("a reference with regions and no exercise copy", pair, "exercise",
            lambda path: path.unlink(),
            ["step4_boundary_checks/tiled_checked.cuh: has EXERCISE regions but no copy"])

    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
