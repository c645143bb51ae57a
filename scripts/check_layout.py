#!/usr/bin/env python3
"""Checks the shape of the step folders.

1. Includes run one way. A step's root (the lesson) includes nothing from its own
   `going_further/` or `lab/`, and `going_further/` includes nothing from `lab/`: root <-
   going further <- lab, like the floors of a house. CMake follows the same rule: a target
   defined in a root CMakeLists links no library defined under going_further/ or lab/.
2. A step's root holds at most its limit of source files (the lesson a student reads).
3. Every README.md of a step folder names every file beside it (and every sub-folder), so a
   reader finds each file's purpose and reading order there.
4. Tests include Catch2 only through common/testing/catch2.hpp, which builds them with
   Catch2 2 and 3 alike; only the two mains that drive Catch2's session (common/test_main.cpp,
   grading/judge/judge_main.cpp) include its headers themselves.
5. One header style: every header opens with `/// @file <its name>` (or a path ending in it),
   and so does every other source file that opens with a comment (an implementation file may
   open with the include of its header, which carries the description).
6. A lesson never sends its reader into the lab: no source file at a step's root, in its
   `device_pattern/` or `exercise/` names a path under `lab/` (the lab reads the lesson, not
   the other way round; the lesson's README may point to the lab's notebook and results).

Exit status 0 when all hold; otherwise one line per problem and status 1.
Usage: scripts/check_layout.py [ROOT]
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from repository_arguments import repository_root  # noqa: E402

STEPS = ["step1_naive", "step2_three_approaches", "step3_shared_tiling",
         "step4_boundary_checks", "step5_tensor_core_sddmm"]
ROOT_SOURCE_LIMIT = {"step4_boundary_checks": 15, "step5_tensor_core_sddmm": 20}
SOURCE_SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h"}
ROOMS = ("root", "going_further", "lab")  # in the order a dependency may point: later -> earlier
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
# Folders whose files are records rather than code a reader opens one by one.
RECORD_FOLDERS = {"results", "figures", "gpu_logs", "data"}


CATCH2_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](catch2/[^>"]+)[>"]', re.MULTILINE)
CATCH2_MAINS = {"common/test_main.cpp", "grading/judge/judge_main.cpp",
                "common/testing/catch2.hpp"}


def course_sources(root):
    """Every C++/CUDA source file of common/, grading/ and the steps, in a stable order."""
    for folder in ["common", "grading"] + STEPS:
        for source in sorted((root / folder).rglob("*")):
            if source.suffix in SOURCE_SUFFIXES and source.is_file():
                yield source


def check_catch2_includes(root):
    problems = []
    for source in course_sources(root):
        relative = source.relative_to(root).as_posix()
        if relative in CATCH2_MAINS:
            continue
        for header in CATCH2_INCLUDE.findall(source.read_text(encoding="utf-8",
                                                              errors="replace")):
            problems.append(f"{relative} includes <{header}>: include "
                            f"\"common/testing/catch2.hpp\" instead (it builds with "
                            f"Catch2 2 and 3)")
    return problems


HEADER_SUFFIXES = {".cuh", ".hpp", ".h"}


def check_file_headers(root):
    problems = []
    for source in course_sources(root):
        text = source.read_text(encoding="utf-8", errors="replace")
        first = text.split("\n", 1)[0].rstrip()
        if source.suffix not in HEADER_SUFFIXES and not first.startswith("//"):
            continue
        named = first[len("/// @file "):] if first.startswith("/// @file ") else ""
        if named != source.name and not named.endswith("/" + source.name):
            problems.append(f"{source.relative_to(root).as_posix()}: opens with {first[:60]!r}; "
                            f"open it with '/// @file {source.name}' and its @brief")
    return problems


LAB_PATH = re.compile(r"(?<![\w./])lab/")
LESSON_FOLDERS = ("", "device_pattern", "exercise")


def check_lesson_points_not_to_lab(root, step):
    problems = []
    for folder in LESSON_FOLDERS:
        directory = root / step / folder
        if not directory.is_dir():
            continue
        for source in sorted(directory.iterdir()):
            if source.suffix not in SOURCE_SUFFIXES or not source.is_file():
                continue
            for number, line in enumerate(source.read_text(encoding="utf-8",
                                                           errors="replace").split("\n"), 1):
                if LAB_PATH.search(line):
                    problems.append(f"{source.relative_to(root).as_posix()}:{number}: names a "
                                    f"path in lab/; a lesson file points only to the lesson "
                                    f"(its README may point to the lab)")
    return problems


def room_of(step_dir, path):
    parts = path.relative_to(step_dir).parts
    if "lab" in parts[:-1]:
        return "lab"
    if "going_further" in parts[:-1]:
        return "going_further"
    return "root"


def resolve_include(root, source, target):
    """The file an include names: by folder from the project root, else beside the file."""
    for candidate in (root / target, source.parent / target):
        if candidate.is_file():
            return candidate.resolve()
    return None


def check_includes(root, step):
    step_dir = root / step
    problems = []
    for source in sorted(step_dir.rglob("*")):
        if source.suffix not in SOURCE_SUFFIXES or not source.is_file():
            continue
        from_room = room_of(step_dir, source)
        for target in INCLUDE.findall(source.read_text(encoding="utf-8", errors="replace")):
            resolved = resolve_include(root, source, target)
            if resolved is None or step_dir.resolve() not in resolved.parents:
                continue
            to_room = room_of(step_dir.resolve(), resolved)
            if ROOMS.index(to_room) > ROOMS.index(from_room):
                problems.append(f"{source.relative_to(root)} ({from_room}) includes "
                                f"{target} ({to_room}): dependencies run root <- going_further "
                                f"<- lab")
    return problems


def cmake_targets(cmake_file):
    text = cmake_file.read_text(encoding="utf-8")
    return set(re.findall(r"(?:add_library|add_executable|course_add_\w+)\(\s*([A-Za-z0-9_]+)",
                          text)), text


def check_cmake(root, step):
    """A root CMakeLists must not link a library that going_further/ or lab/ defines."""
    step_dir = root / step
    upper = {}
    for room in ("going_further", "lab"):
        for cmake_file in (step_dir / room).rglob("CMakeLists.txt") if (step_dir / room).is_dir() \
                else []:
            for target in cmake_targets(cmake_file)[0]:
                upper[target] = room
    problems = []
    root_cmake = step_dir / "CMakeLists.txt"
    if root_cmake.is_file():
        text = root_cmake.read_text(encoding="utf-8")
        text = re.sub(r"#.*", "", text)
        for statement in re.findall(r"(?:LIBRARIES|target_link_libraries\()([^)]*)", text):
            for word in re.findall(r"[A-Za-z0-9_]+", statement):
                if word in upper:
                    problems.append(f"{root_cmake.relative_to(root)} links {word}, a library of "
                                    f"{upper[word]}/")
    going_further = step_dir / "going_further" / "CMakeLists.txt"
    if going_further.is_file():
        text = re.sub(r"#.*", "", going_further.read_text(encoding="utf-8"))
        for statement in re.findall(r"(?:LIBRARIES|target_link_libraries\()([^)]*)", text):
            for word in re.findall(r"[A-Za-z0-9_]+", statement):
                if upper.get(word) == "lab":
                    problems.append(f"{going_further.relative_to(root)} links {word}, a library "
                                    f"of lab/")
    return problems


def check_root_size(root, step):
    limit = ROOT_SOURCE_LIMIT.get(step)
    if limit is None:
        return []
    sources = [path for path in (root / step).iterdir()
               if path.is_file() and path.suffix in SOURCE_SUFFIXES]
    if len(sources) > limit:
        return [f"{step}/ holds {len(sources)} source files at its root (at most {limit}: the "
                f"lesson; the rest belongs in going_further/ or lab/)"]
    return []


def check_readmes(root, step):
    problems = []
    for readme in sorted((root / step).rglob("README.md")):
        folder = readme.parent
        if set(folder.relative_to(root).parts) & RECORD_FOLDERS:
            continue
        text = readme.read_text(encoding="utf-8")
        for entry in sorted(folder.iterdir()):
            if entry.name in ("README.md", "__pycache__") or entry.name.startswith("."):
                continue
            stem = entry.name.split(".")[0]
            # "tile_grouping.hpp/.cu" and "experiments/fragment_probe.*" name several files
            shorthand = entry.is_file() and re.search(
                re.escape(stem) + r"\.[A-Za-z]+/\." + re.escape(entry.suffix.lstrip(".")) +
                r"\b|" + re.escape(stem) + r"\.\*", text)
            if entry.name not in text and not shorthand:
                kind = "folder" if entry.is_dir() else "file"
                problems.append(f"{readme.relative_to(root)} does not name the {kind} "
                                f"{entry.name}")
    return problems


def main():
    root = repository_root(lambda root: any((root / step).is_dir() for step in STEPS), __doc__)
    problems = []
    for step in STEPS:
        if not (root / step).is_dir():
            continue
        problems += check_includes(root, step)
        problems += check_cmake(root, step)
        problems += check_root_size(root, step)
        problems += check_readmes(root, step)
        problems += check_lesson_points_not_to_lab(root, step)
    problems += check_catch2_includes(root)
    problems += check_file_headers(root)
    for problem in problems:
        print(problem)
    print(f"layout: {len(STEPS)} steps checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
