"""Shared by the grader's CPU tests: the recorded data and fake programs."""
import os
import pathlib
import stat
import sys
import textwrap

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE / "data"
GRADING = HERE.parent
sys.path.insert(0, str(GRADING))


def sample(name):
    return (DATA / name).read_text(encoding="utf-8")


def script(path, body):
    """Writes an executable Python script to @p path."""
    path = pathlib.Path(path)
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body), encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test(name, weight=0, outcome="passed", sanitizers=(), gpu=True, message=""):
    """A test entry as gradelib.grading makes them."""
    return {"name": name, "gpu": gpu, "weight": weight, "tools": [], "outcome": outcome,
            "message": message, "seconds": 0.1, "sanitizers": list(sanitizers)}


def sanitizer_run(tool, outcome="clean", errors=0, kernels=(), first_lines=""):
    return {"tool": tool, "outcome": outcome, "errors": errors, "kernels": list(kernels),
            "first_lines": first_lines, "seconds": 1.0}


# A fake Catch2 test program: test names and behaviour chosen by the environment.
FAKE_TEST_PROGRAM = """
import os, sys, time
name = sys.argv[1]
if name == "--course-list-tests":
    print("kernel test\\tstep1;gpu")
    print("option test\\tstep1")
    sys.exit(0)
mode = os.environ.get("FAKE_MODE", "pass")
if mode == "hang":
    time.sleep(60)
if mode == "skip":
    sys.exit(77)
if mode == "crash":
    print("Segmentation fault", file=sys.stderr)
    sys.exit(139)
report = sys.argv[sys.argv.index("-o") + 1]
failure = '<failure message="CHECK( result.ok() )">got nan, expected 3</failure>'
with open(report, "w") as out:
    out.write('<testsuites><testsuite><testcase name="' + name + '">'
              + (failure if mode == "fail" else "") + "</testcase></testsuite></testsuites>")
print("seed", os.environ.get("COURSE_SEED"), "tmp", os.environ.get("TMPDIR"))
sys.exit(1 if mode == "fail" else 0)
"""


def environment(**values):
    env = dict(os.environ)
    env.update({key: str(value) for key, value in values.items()})
    return env


# A fake compute-sanitizer: records its arguments beside the program, runs it, finds nothing.
FAKE_SANITIZER_CLEAN = """
import os, subprocess, sys
arguments = sys.argv[1:]
start = next(i for i, a in enumerate(arguments) if os.path.isfile(a))
with open(os.path.join(os.path.dirname(arguments[start]), "sanitizer-args.txt"), "a") as log:
    log.write(" ".join(arguments[:start]) + "\\n")
status = subprocess.run(arguments[start:]).returncode
print("========= ERROR SUMMARY: 0 errors")
sys.exit(status)
"""


def fake_course_tools(root):
    """A folder @p root/bin with a fake `cmake` (fake_course.py, which finds gradelib beside
    it) and a clean fake compute-sanitizer. Returns (environment with the folder first in
    PATH and no FAKE_* settings, path of the fake sanitizer)."""
    bin_dir = pathlib.Path(root) / "bin"
    bin_dir.mkdir()
    script(bin_dir / "cmake", f"""
        import runpy, sys
        sys.argv[0] = "cmake"
        runpy.run_path({str(HERE / "fake_course.py")!r}, run_name="__main__")
        """)
    sanitizer = script(bin_dir / "fake-sanitizer", FAKE_SANITIZER_CLEAN)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    for name in ("FAKE_CMAKE", "FAKE_MODE"):
        env.pop(name, None)
    return env, sanitizer
