"""A fake judge, runner and compute-sanitizer for the CPU tests of the grading flow
(gradelib/grading.py), without a GPU, a build or a sandbox (Sandbox(enabled=False)).

- The fake judge lists the plan's cases of step 1, writes one input file per case, and passes
  a case when the runner's output file starts with "right".
- The fake runner (the step's runner in the build folder) writes "right" or "wrong"
  (FAKE_MODE=wrong), hangs while the file FAKE_HANG_FLAG exists (FAKE_MODE=hang), finds the
  GPU's memory full and writes nothing (FAKE_MODE=oom, or only the run that removes the file
  FAKE_OOM_ONCE), and counts its runs in the file FAKE_RUNS.
- The fake sanitizer runs the command after its options and prints a clean summary; for an
  evidence run (initcheck with a kernel filter) it reports a read by FAKE_EVIDENCE_KERNEL
  (default naive_single_block_kernel; "none": no report).
"""
import argparse
import os
import pathlib
import types

from tests.helpers import script
from gradelib import gpu_share, grading, plan, sandbox

JUDGE = """
import pathlib, sys
cases = {cases!r}
def stem(name):
    return "".join(c.lower() if c.isascii() and c.isalnum() else "-" for c in name)
args = sys.argv[1:]
if args[0] == "--list-cases":
    for name in cases:
        print(name + "\\tstep1")
    sys.exit(0)
if args[0] == "--generate":
    out = pathlib.Path(args[args.index("--out") + 1])
    out.mkdir(parents=True, exist_ok=True)
    names = [args[i + 1] for i, a in enumerate(args) if a == "--case"] or cases
    for name in names:
        (out / (stem(name) + ".in")).write_text("inputs")
    sys.exit(0)
name = args[0]
outputs = pathlib.Path(args[args.index("--outputs") + 1])
report = args[args.index("-o") + 1]
path = outputs / (stem(name) + ".out")
data = path.read_bytes() if path.exists() else b""
ok = data.startswith(b"right")
failure = "" if ok else '<failure message="wrong outputs">got ' + data[:20].decode() + '</failure>'
pathlib.Path(report).write_text('<testsuites><testsuite><testcase name="x">' + failure
                                + "</testcase></testsuite></testsuites>")
sys.exit(0 if ok else 1)
"""

RUNNER = """
import os, pathlib, sys, time
if sys.argv[1:] == ["--probe"]:
    print("GPU: fake")
    sys.exit(0)
runs = os.environ.get("FAKE_RUNS")
if runs:
    with open(runs, "a") as log:
        log.write("run\\n")
mode = os.environ.get("FAKE_MODE", "right")
oom = os.environ.get("FAKE_OOM_ONCE")  # the first run to remove this file finds memory full
if oom or mode == "oom":
    try:
        if mode != "oom":
            os.unlink(oom)
        print("products 0 to 3: cudaMalloc: out of memory")
        sys.exit(1)
    except FileNotFoundError:
        pass
flag = os.environ.get("FAKE_HANG_FLAG")
while mode == "hang" and flag and pathlib.Path(flag).exists():
    time.sleep(0.05)
print("a runner's printout decides nothing: All tests passed")
out = sys.argv[sys.argv.index("--outputs") + 1]
pathlib.Path(out).write_text("wrong" if mode == "wrong" else "right")
"""

SANITIZER = """
import os, subprocess, sys
arguments = sys.argv[1:]
start = arguments.index("/bin/sh")
options = arguments[:start]
if os.environ.get("FAKE_SANITIZER_ARGS"):
    with open(os.environ["FAKE_SANITIZER_ARGS"], "a") as record:
        record.write(" ".join(options) + "\\n")
status = subprocess.run(arguments[start:]).returncode
kernel = os.environ.get("FAKE_EVIDENCE_KERNEL", "naive_single_block_kernel")
if "initcheck" in options and "--kernel-name" in options and kernel != "none":
    print("========= Uninitialized __global__ memory read of size 4 bytes")
    print("=========     at void course::step1::" + kernel + "(const float *, int)+0x40")
    print("=========     by thread (0,0,0) in block (0,0,0)")
    print("========= ERROR SUMMARY: 1 error")
else:
    print("========= ERROR SUMMARY: 0 errors")
sys.exit(status)
"""


def make_world(root, cases=None):
    """Writes the fake judge, runner and sanitizer under @p root; returns (context factory,
    the step's program). @p cases: the case names the judge lists (default: step 1's)."""
    root = pathlib.Path(root)
    names = cases or list(plan.EVIDENCE["step1"]) + [g.name for g in plan.GRADED["step1"]]
    judge = script(root / "judge", JUDGE.format(cases=names))
    build = root / "build"
    (build / "grading").mkdir(parents=True)
    program = script(build / "grading" / plan.STEPS[0].program, RUNNER)
    sanitizer = script(root / "sanitizer", SANITIZER)

    def context(out_name="out", **option_values):
        options = argparse.Namespace(timeout=20.0, sanitizer_timeout=20.0, test_jobs=4,
                                     sanitizer=str(sanitizer), no_sanitizers=False)
        for key, value in option_values.items():
            setattr(options, key, value)
        out = root / out_name
        out.mkdir(exist_ok=True)
        box = sandbox.Sandbox(root, enabled=False)
        return grading.Context(box, judge, build, root / "submission", out / "inputs", out,
                               options, gpu_share.GpuRecords(root / "gpu-runs"))
    return context, program


def inspection_of(kernels=("naive_single_block_kernel",), findings=()):
    """What the inspection would have found: step 1's kernels and findings."""
    return types.SimpleNamespace(student_kernels={"step1": list(kernels)},
                                 findings={"step1": list(findings)}, problems=[])


def environment(**values):
    """Sets FAKE_* variables for the runs of a test (returns a restore function)."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update({key: str(value) for key, value in values.items()})

    def restore():
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return restore
