#!/usr/bin/env python3
"""Checks that every exercise file equals its reference outside the marked regions.

Usage: python3 scripts/check_exercises.py [ROOT]   (default: the repository holding this script)

Each step's `exercise/` folder holds copies of the files a student writes (kernels, and in
step 1 the launcher). In the reference file each solution region, and in the exercise copy
each TODO region, sits between two marker lines:

    // BEGIN EXERCISE <name>
    ...
    // END EXERCISE <name>

For every source file of `<step>/exercise/` this script checks that

* the reference `<step>/<file>` exists;
* both files mark their regions well: every BEGIN has its END of the same name, regions do
  not nest, a name is used once per file, and the file has at least one region;
* both files have the same regions, in the same order;
* outside the regions (the marker lines included) the two files are equal, byte for byte;
* each exercise region holds a TODO and no reference region does.

It also checks that a reference file with regions has an exercise copy. Exit status 0 when
every pair holds; otherwise one line per problem, naming the file and its first differing line,
and status 1.
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from repository_arguments import repository_root  # noqa: E402

STEPS = ["step1_naive", "step2_three_approaches", "step3_shared_tiling",
         "step4_boundary_checks", "step5_tensor_core_sddmm"]
SOURCE_SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h"}
MARKER = re.compile(r"^[ \t]*// (BEGIN|END) EXERCISE (\S+)[ \t]*\r?\n?$")


class MarkerError(Exception):
    """A region that is not marked well; the message names the line."""


def regions(lines):
    """The file's skeleton and its regions.

    Returns (skeleton, names, bodies): skeleton is a list of (line number, text) of every
    line outside the regions (marker lines included), with one placeholder entry per region;
    names lists the region names in order; bodies maps each name to its lines."""
    skeleton, names, bodies = [], [], {}
    open_name, open_line = None, 0
    for number, line in enumerate(lines, start=1):
        match = MARKER.match(line)
        if match and match.group(1) == "BEGIN":
            if open_name is not None:
                raise MarkerError(f"line {number}: BEGIN EXERCISE {match.group(2)} inside "
                                  f"region {open_name} (opened on line {open_line})")
            if match.group(2) in bodies:
                raise MarkerError(f"line {number}: a second region named {match.group(2)}")
            open_name, open_line = match.group(2), number
            names.append(open_name)
            bodies[open_name] = []
            skeleton.append((number, line))
            skeleton.append((number, f"<region {open_name}>"))
        elif match:
            if open_name != match.group(2):
                raise MarkerError(f"line {number}: END EXERCISE {match.group(2)} " +
                                  (f"closes region {open_name} (opened on line {open_line})"
                                   if open_name else "without a BEGIN"))
            open_name = None
            skeleton.append((number, line))
        elif open_name is not None:
            bodies[open_name].append(line)
        else:
            skeleton.append((number, line))
    if open_name is not None:
        raise MarkerError(f"line {open_line}: region {open_name} has no END EXERCISE {open_name}")
    return skeleton, names, bodies


def read_lines(path):
    """The file's lines, each with its line end ("\\n", kept so that a difference in line ends
    or a missing last newline counts)."""
    text = path.read_bytes().decode("utf-8", errors="surrogateescape")
    pieces = text.split("\n")
    lines = [piece + "\n" for piece in pieces[:-1]]
    return lines + [pieces[-1]] if pieces[-1] else lines


def shown(text):
    """A line as the message shows it: without its line end, cut at 100 characters."""
    text = text.rstrip("\r\n")
    return text if len(text) <= 100 else text[:97] + "..."


def line_end(text):
    """How a line ends, in words."""
    ending = text[len(text.rstrip("\r\n")):]
    return repr(ending) if ending else "no newline (the end of the file)"


def compare(exercise, reference, root):
    """The problems of one pair, as lines naming the exercise file."""
    name = exercise.relative_to(root).as_posix()
    if not reference.is_file():
        return [f"{name}: no reference {reference.relative_to(root).as_posix()} beside the "
                f"exercise folder"]
    parsed = {}
    for label, path in (("exercise", exercise), ("reference", reference)):
        try:
            parsed[label] = regions(read_lines(path))
        except MarkerError as error:
            return [f"{path.relative_to(root).as_posix()}: {error}"]
    ex_skeleton, ex_names, ex_bodies = parsed["exercise"]
    ref_skeleton, ref_names, ref_bodies = parsed["reference"]
    reference_name = reference.relative_to(root).as_posix()
    if not ex_names:
        return [f"{name}: no BEGIN EXERCISE region (each exercise file marks its TODOs)"]
    if ex_names != ref_names:
        return [f"{name}: regions {', '.join(ex_names)}, but {reference_name} has "
                f"{', '.join(ref_names) or 'none'} (same names, same order)"]
    problems = []
    for index in range(max(len(ex_skeleton), len(ref_skeleton))):
        ex_line = ex_skeleton[index] if index < len(ex_skeleton) else None
        ref_line = ref_skeleton[index] if index < len(ref_skeleton) else None
        if ex_line is not None and ref_line is not None and ex_line[1] == ref_line[1]:
            continue
        if ex_line is None:
            problems.append(f"{name}: ends at line {len(read_lines(exercise))} where "
                            f"{reference_name} goes on with line {ref_line[0]}: "
                            f"{shown(ref_line[1])!r}")
        elif ref_line is None:
            problems.append(f"{name}:{ex_line[0]}: {shown(ex_line[1])!r} is past the end of "
                            f"{reference_name}")
        elif shown(ex_line[1]) == shown(ref_line[1]):
            problems.append(f"{name}:{ex_line[0]}: differs from {reference_name}:{ref_line[0]} "
                            f"outside the exercise regions in its line end: "
                            f"{line_end(ex_line[1])} instead of {line_end(ref_line[1])}")
        else:
            problems.append(f"{name}:{ex_line[0]}: differs from {reference_name}:{ref_line[0]} "
                            f"outside the exercise regions: {shown(ex_line[1])!r} instead of "
                            f"{shown(ref_line[1])!r}")
        break
    for region in ex_names:
        if not any("TODO" in line for line in ex_bodies[region]):
            problems.append(f"{name}: region {region} holds no TODO")
        if any("TODO" in line for line in ref_bodies[region]):
            problems.append(f"{reference_name}: region {region} holds a TODO (the reference "
                            f"holds the solution)")
    return problems


def check_step(root, step):
    step_dir = root / step
    exercise_dir = step_dir / "exercise"
    problems = []
    copies = set()
    if exercise_dir.is_dir():
        for exercise in sorted(exercise_dir.iterdir()):
            if exercise.is_file() and exercise.suffix in SOURCE_SUFFIXES:
                copies.add(exercise.name)
                problems += compare(exercise, step_dir / exercise.name, root)
    for reference in sorted(step_dir.iterdir()):
        if (reference.is_file() and reference.suffix in SOURCE_SUFFIXES
                and reference.name not in copies
                and any(MARKER.match(line) for line in read_lines(reference))):
            problems.append(f"{reference.relative_to(root).as_posix()}: has EXERCISE regions but "
                            f"no copy in {step}/exercise/")
    return problems, len(copies)


def main():
    root = repository_root(lambda root: any((root / step).is_dir() for step in STEPS), __doc__)
    problems, pairs = [], 0
    for step in STEPS:
        if (root / step).is_dir():
            found, count = check_step(root, step)
            problems += found
            pairs += count
    for problem in problems:
        print(problem)
    print(f"exercises: {pairs} exercise files checked against their references, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
