#!/usr/bin/env python3
"""CPU test of scripts/check_layout.py's rules 5 and 6, run by ctest ("scripts: check_layout ...").

    python3 scripts/tests/test_check_layout.py

It builds a small tree (a header, a source and a lesson file per rule) that the two rules
accept, requires it to pass, then plants one problem at a time and requires each to be found
with the file's name: a header that opens with a plain comment, a header whose `@file` names
another file, a source file that opens with a plain comment, a lesson file at a step's root, in
its `device_pattern/` and in its `exercise/` naming a path under `lab/`. A going-further file
that names `lab/` and an implementation file that opens with its include stay accepted.
"""
import importlib.util
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("check_layout", ROOT / "scripts" / "check_layout.py")
layout = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(layout)
STEP = "step5_tensor_core_sddmm"
failures = []

GOOD = {
    "common/warp.cuh": "/// @file warp.cuh\n/// @brief A header.\n#pragma once\n",
    "common/warp.cpp": '#include "common/warp.cuh"\n',
    STEP + "/main.cu": "/// @file " + STEP + "/main.cu\n/// @brief The program.\n",
    STEP + "/kernel.cuh": "/// @file kernel.cuh\n/// @brief Read first: README.md.\n",
    STEP + "/device_pattern/upload.cuh": "/// @file upload.cuh\n/// @brief The upload.\n",
    STEP + "/exercise/kernel.cuh": "/// @file kernel.cuh\n/// @brief The student's copy.\n",
    STEP + "/going_further/fast.cuh": "/// @file fast.cuh\n/// @brief Measured in lab/NOTEBOOK.md.\n",
    STEP + "/tests/test_kernel.cpp": "/// @file test_kernel.cpp\n/// @brief Tests.\n",
}

PLANTED = [
    ("a header opening with a plain comment", "common/warp.cuh",
     "// warp.cuh: a header.\n#pragma once\n", "common/warp.cuh"),
    ("a header whose @file names another file", STEP + "/kernel.cuh",
     "/// @file other.cuh\n/// @brief Wrong name.\n", STEP + "/kernel.cuh"),
    ("a test opening with a plain comment", STEP + "/tests/test_kernel.cpp",
     "// Step 5's tests.\n#include <vector>\n", STEP + "/tests/test_kernel.cpp"),
    ("a lesson file naming lab/", STEP + "/kernel.cuh",
     "/// @file kernel.cuh\n/// @brief Read first: lab/experiments/probe.cu.\n", STEP + "/kernel.cuh:2"),
    ("a device_pattern file naming lab/", STEP + "/device_pattern/upload.cuh",
     "/// @file upload.cuh\n/// @brief The upload.\n// timed in lab/bench/bench.cu\n",
     STEP + "/device_pattern/upload.cuh:3"),
    ("an exercise file naming lab/", STEP + "/exercise/kernel.cuh",
     "/// @file kernel.cuh\n/// @brief See lab/README.md.\n", STEP + "/exercise/kernel.cuh:2"),
]


def write(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def problems(root):
    return layout.check_file_headers(root) + layout.check_lesson_points_not_to_lab(root, STEP)


def expect(condition, what, found):
    print("%s  %s" % ("pass" if condition else "FAIL", what))
    if not condition:
        failures.append(what)
        print("\n".join(found))


def main():
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        write(root, GOOD)
        found = problems(root)
        expect(found == [], "the good tree passes", found)
    for what, name, text, named in PLANTED:
        with tempfile.TemporaryDirectory() as directory:
            root = pathlib.Path(directory)
            write(root, dict(GOOD, **{name: text}))
            found = problems(root)
            expect(len(found) == 1 and found[0].startswith(named), what + " is found", found)
    print("check_layout: %d of %d cases as expected" % (len(PLANTED) + 1 - len(failures),
                                                       len(PLANTED) + 1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
