#!/usr/bin/env python3
"""Checks that `--help` is harmless everywhere, and that a bad argument is refused.

Usage: python3 scripts/check_help.py [--build BUILD_DIR] [--list] [ROOT]

Finds, under ROOT (default: the repository holding this script), every script a user may
run: each `*.sh` that starts with `#!` (a file without one is sourced by others), and each
`*.py` outside a `tests/` folder and outside a Python package (a folder with __init__.py).
With --build, also every program built in BUILD_DIR (each executable file outside CMake's
own folders and outside nested build folders): the step programs, the tools, the test
programs, the grader's judge and runners. New scripts and programs are covered as they come.

Each is run twice from ROOT, in a session of its own, with TMPDIR set to an empty folder:

* `--help` must exit with status 0 within 30 s and print help on its standard output (a
  text that says "usage");
* `--no-such-option-for-check-help` must exit with status 2 and say why on its standard
  error (a bad argument is refused, never taken as a path or ignored).

After each run nothing in ROOT may have changed (a file added, removed or rewritten; build
folders and __pycache__ aside), no process of the run may be left, and TMPDIR must be empty
again. Exit status 0 when every item passes; otherwise one line per problem and status 1.
--list prints what would be run, and runs nothing.
"""
import argparse
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

HELP_TIMEOUT_S = 30
BAD_OPTION = "--no-such-option-for-check-help"
# Without git, the folders that .gitignore keeps out of the tree (and build* at its top).
SKIPPED_FOLDERS = {".git", "__pycache__", "node_modules", ".deps", "data", "out"}


def is_build_folder(folder):
    return (folder / "CMakeCache.txt").is_file()


def walk_files(root):
    """Every file of the tree: in a git checkout, the tracked files and the untracked ones
    that git does not ignore (build folders, .deps/ and data/ are ignored); elsewhere every
    file, skipping version control, caches and build folders."""
    try:
        listing = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached",
                                  "--others", "--exclude-standard"], capture_output=True,
                                 check=False)
    except FileNotFoundError:  # no git on this machine: walk the tree
        listing = None
    if listing is not None and listing.returncode == 0:
        for name in sorted(set(listing.stdout.decode(errors="replace").split("\0")) - {""}):
            path = root / name
            if "__pycache__" not in path.parts and (path.is_file() or path.is_symlink()):
                yield path
        return
    for folder, subfolders, files in os.walk(root):
        here = pathlib.Path(folder)
        subfolders[:] = sorted(name for name in subfolders
                               if name not in SKIPPED_FOLDERS
                               and not (here == root and name.startswith("build"))
                               and not is_build_folder(here / name))
        for name in sorted(files):
            yield here / name


def scripts_under(root):
    """The scripts a user may run (see the module's docstring)."""
    found = []
    for path in walk_files(root):
        relative = path.relative_to(root)
        if path.suffix == ".sh":
            with open(path, "rb") as handle:
                if handle.read(2) == b"#!":
                    found.append(["bash", str(relative)])
        elif path.suffix == ".py":
            if "tests" in relative.parts[:-1] or (path.parent / "__init__.py").exists():
                continue
            found.append([sys.executable, str(relative)])
    return found


def programs_under(build):
    """The executables of a build folder, outside CMake's own folders and nested builds."""
    found = []
    for folder, subfolders, files in os.walk(build):
        here = pathlib.Path(folder)
        subfolders[:] = sorted(name for name in subfolders
                               if name != "CMakeFiles" and not name.startswith(".")
                               and not is_build_folder(here / name))
        for name in sorted(files):
            path = here / name
            if os.access(path, os.X_OK) and path.is_file():
                with open(path, "rb") as handle:
                    if handle.read(4) == b"\x7fELF":
                        found.append([str(path)])
    return found


def snapshot(root):
    """Size and modification time of every file of the tree (build folders aside)."""
    state = {}
    for path in walk_files(root):
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue
        state[path.relative_to(root).as_posix()] = (info.st_size, info.st_mtime_ns)
    return state


def changes(before, after):
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    rewritten = sorted(name for name in set(before) & set(after) if before[name] != after[name])
    return ([f"added {name}" for name in added] + [f"removed {name}" for name in removed] +
            [f"changed {name}" for name in rewritten])


def run_once(command, root, argument, scratch):
    """Runs command + [argument]; returns (status or None on time-out, stdout, stderr,
    seconds, whether processes of the run were left)."""
    environment = dict(os.environ, TMPDIR=str(scratch), PYTHONDONTWRITEBYTECODE="1")
    environment.pop("OUT", None)
    start = time.monotonic()
    process = subprocess.Popen(command + [argument], cwd=root, env=environment,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=HELP_TIMEOUT_S)
        status = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        status = None
    seconds = time.monotonic() - start
    left = False
    try:
        os.killpg(process.pid, 0)
        left = True
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return (status, stdout.decode(errors="replace"), stderr.decode(errors="replace"), seconds,
            left)


def check_one(command, root, scratch):
    name = " ".join(command[1:] if command[0] in ("bash", sys.executable) else command)
    problems = []
    for argument, expected in (("--help", 0), (BAD_OPTION, 2)):
        before = snapshot(root)
        status, stdout, stderr, seconds, left = run_once(command, root, argument, scratch)
        said = f"{name} {argument}"
        if status is None:
            problems.append(f"{said}: still running after {HELP_TIMEOUT_S} s (stopped)")
        elif status != expected:
            last = (stderr.strip() or stdout.strip()).splitlines()[-1:] or ["(nothing)"]
            problems.append(f"{said}: exit status {status}, expected {expected}; it said: "
                            f"{last[0][:160]}")
        if argument == "--help" and status == 0 and "usage" not in stdout.lower():
            problems.append(f"{said}: its standard output does not look like help (no "
                            f"'usage' in {len(stdout)} characters)")
        if argument == BAD_OPTION and status == 2 and not stderr.strip():
            problems.append(f"{said}: refused, but said nothing on standard error")
        if left:
            problems.append(f"{said}: left processes running (stopped)")
        for change in changes(before, snapshot(root))[:5]:
            problems.append(f"{said}: {change}")
        leftovers = sorted(path.name for path in scratch.iterdir())
        if leftovers:
            problems.append(f"{said}: left {', '.join(leftovers[:5])} in TMPDIR")
            for path in scratch.iterdir():
                subprocess.run(["rm", "-rf", str(path)], check=False)
        print(f"  {said}: status {status}, {seconds:.1f} s", flush=True)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     usage="check_help.py [--build BUILD_DIR] [--list] [ROOT]")
    parser.add_argument("--build", type=pathlib.Path,
                        help="also check every program built in this folder")
    parser.add_argument("--list", action="store_true", help="print what would run, run nothing")
    parser.add_argument("root", nargs="?", type=pathlib.Path,
                        default=pathlib.Path(__file__).resolve().parent.parent)
    arguments = parser.parse_args()
    root = arguments.root.resolve()
    if not (root / "CMakeLists.txt").is_file() or not (root / "scripts").is_dir():
        parser.error(f"{root} is not a copy of the course's repository")
    if arguments.build is not None and not is_build_folder(arguments.build):
        parser.error(f"--build {arguments.build} is not a configured build folder "
                     f"(no CMakeCache.txt)")
    items = scripts_under(root)
    if arguments.build is not None:
        programs = programs_under(arguments.build.resolve())
        if not programs:
            parser.error(f"--build {arguments.build} holds no built program: build it first")
        items += programs
    if arguments.list:
        for command in items:
            print(" ".join(command))
        return 0
    problems = []
    with tempfile.TemporaryDirectory(prefix="check-help-") as scratch_name:
        scratch = pathlib.Path(scratch_name) / "tmp"
        scratch.mkdir()
        for command in items:
            problems += check_one(command, root, scratch)
    for problem in problems:
        print(problem)
    print(f"help: {len(items)} scripts and programs checked (--help and a bad option each), "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
