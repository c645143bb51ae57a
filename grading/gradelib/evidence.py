"""The evidence that a student's kernel ran on the GPU, established outside the student's
process by compute-sanitizer.

The runner writes the first bytes of every input (the first elements of A's and B's first
rows, of S's arrays) through a kernel of its own and the rest with cudaMemcpy
(runner_main.cu). The evidence run is an initcheck run restricted to the student's kernels
(their names come from the compiled objects, inspection.py): initcheck then does not
instrument the runner's copy kernel, so the bytes it wrote look never written, and initcheck
reports each read of them by an instrumented kernel, naming the kernel. Every product reads
them (C's first row and column need them), and only those reads are reported, at most
PRINT_LIMIT of them printed, without backtraces (BACKTRACES). A report naming one of the student's kernels is the
evidence: that kernel was launched and read the judge's inputs on the GPU. The same
behaviour is what made initcheck report false errors when it was restricted to the student's
kernels (grading/README.md, "Sanitizers in the grade"; recorded in tests/data/).

The report is compute-sanitizer's own output: the runner's output goes to a file (grading.py's
runner_command), so it cannot print a report of its own. A result computed without a student
kernel (on the CPU, or by a kernel hidden from the build's symbols) earns nothing: the
evidence case gates every case of its launcher.
"""
from gradelib import kernels, runner, sanitizer

# Enough for the few course copies that initcheck may report first (step 5's tile grouping
# copies out of CUB's buffers) and then the student's kernels' reads; one finding naming a
# student's kernel is the evidence.
PRINT_LIMIT = 100
# No backtraces: the report's header names the kernel, which is all the evidence needs, and
# the host backtraces cost about 18 ms each. On an H200 (2026-11-28 18:53 UTC,
# results/run_cost_2026-11-28_h200/) one evidence run of step 1 took 19.4 s with them and
# 1000 findings printed, 1.9 s without them; eight such runs side by side ran out of their
# time in the class runs of that day.
BACKTRACES = "no"


def arguments(student_kernels):
    """compute-sanitizer's arguments of an evidence run (before the program)."""
    names = list(student_kernels) or ["no-kernel-was-found-in-the-compiled-files"]
    return (["--tool", "initcheck", "--print-limit", str(PRINT_LIMIT),
             "--show-backtrace", BACKTRACES] + kernels.kernel_filter(names))


def judge(result, student_kernels):
    """The outcome of an evidence run (a runner.Completed): "seen" with the student's
    kernels it saw read the inputs, or "not seen" with the reason."""
    if result.timed_out:
        # What compute-sanitizer printed last says where it stopped (the runs of 2026-11-28
        # stopped without a word in the report).
        said = runner.last_lines(result.output)
        return {"outcome": "not seen", "kernels": [],
                "message": "the evidence run ran out of time" + (
                    "; compute-sanitizer's last lines: " + said.replace("\n", " / ")
                    if said else "; compute-sanitizer printed nothing") + (
                    "; at the time limit: " + result.at_limit if result.at_limit else "")}
    report = sanitizer.parse(result.output, "initcheck")
    if not report.summary_seen and "no CUDA" in result.output:
        return {"outcome": "not run", "kernels": [], "message": "no CUDA device"}
    seen = sorted({kernels.base_name(finding.kernel) for finding in report.findings
                   if finding.kernel and kernels.base_name(finding.kernel) in set(student_kernels)})
    if seen:
        return {"outcome": "seen", "kernels": seen, "message": ""}
    if not student_kernels:
        why = "the compiled files define no kernel"
    elif not report.summary_seen:
        why = "compute-sanitizer wrote no summary (the run was cut short)"
    else:
        why = ("no kernel of the student's files read the inputs on the GPU (kernels looked "
               "for: " + ", ".join(student_kernels[:6]) + ")")
    return {"outcome": "not seen", "kernels": [], "message": why}
