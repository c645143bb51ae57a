"""A fake `cmake` for the grader's tests: configures and "builds" instantly. A step folder
whose student file holds COMPILE_ERROR does not build, one holding SLOW_BUILD (in the first
target's step) takes 15 s to build; FAKE_CMAKE=hang-configure or hang-build makes that
phase hang. The "built" test programs list the plan's graded tests of their step and one
course test, and pass (FAKE_MODE=fail: the graded ones fail)."""
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from gradelib import plan  # noqa: E402

PROGRAM = '''#!{python}
import os, sys
names = {names!r}
if sys.argv[1] == "--course-list-tests":
    for name in names:
        print(name + "\\tgpu")
    print("course option test\\t")
    sys.exit(0)
failing = os.environ.get("FAKE_MODE") == "fail" and sys.argv[1] in names
report = sys.argv[sys.argv.index("-o") + 1] if "-o" in sys.argv else None
if report:
    with open(report, "w") as out:
        out.write('<testsuites><testsuite><testcase name="x">'
                  + ('<failure message="wrong"/>' if failing else "")
                  + "</testcase></testsuite></testsuites>")
sys.exit(1 if failing else 0)
'''


def configure(arguments, mode):
    build = pathlib.Path(arguments[arguments.index("-B") + 1])
    build.mkdir(parents=True, exist_ok=True)
    if mode == "hang-configure":
        time.sleep(60)
    defines = dict(a[2:].split("=", 1) for a in arguments if a.startswith("-D"))
    (build / "fake-configure.json").write_text(json.dumps(
        {"arguments": arguments, "defines": defines}, ensure_ascii=False), encoding="utf-8")
    (build / "CMakeCache.txt").write_text("fake\n")
    print("-- Configuring done")
    return 0


def build(arguments, mode):
    build_dir = pathlib.Path(arguments[arguments.index("--build") + 1])
    if mode == "hang-build":
        time.sleep(60)
    defines = json.loads((build_dir / "fake-configure.json").read_text(encoding="utf-8"))["defines"]
    kernels = defines["COURSE_KERNELS"]
    if "--target" in arguments:
        targets = arguments[arguments.index("--target") + 1:]
        targets = targets[:targets.index("--")] if "--" in targets else targets
    else:  # everything
        targets = [step.program for step in plan.STEPS]
    status = 0
    for step in plan.STEPS:
        if step.program not in targets:
            continue
        folder = pathlib.Path(kernels) / step.folder
        broken = [] if kernels in ("reference", "exercise") else [
            name for name in step.student_files
            if "COMPILE_ERROR" in (folder / name).read_text(encoding="utf-8")]
        if kernels not in ("reference", "exercise") and step.program == targets[0] and any(
                "SLOW_BUILD" in (folder / name).read_text(encoding="utf-8")
                for name in step.student_files):
            time.sleep(15)  # once per build
        if broken:
            print(f"{folder}/{broken[0]}(3): error: expected a \";\" (in {step.folder})")
            status = 1
            continue
        program = build_dir / step.folder / step.program
        program.parent.mkdir(parents=True, exist_ok=True)
        names = [entry.name for entry in plan.GRADED[step.label]]
        program.write_text(PROGRAM.format(python=sys.executable, names=names))
        program.chmod(0o755)
    return status


def main():
    import os
    mode = os.environ.get("FAKE_CMAKE", "")
    arguments = sys.argv[1:]
    if arguments and arguments[0] == "--build":
        return build(arguments, mode)
    return configure(arguments, mode)


if __name__ == "__main__":
    sys.exit(main())
