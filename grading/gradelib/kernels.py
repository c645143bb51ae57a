"""The kernels a student's files define, so that the sanitizer runs charge only those and
not the course's own kernels that the same tests launch (step 4's fast kernel, step 5's
approaches 2 and 4, CUB's sort): an error there is not the student's. The names come from
the compiled objects of the student's files (inspection.py: nvcc's host stub of every
__global__ function), never from the source text, so a renamed, `static` or macro-made kernel
is still checked.

How a tool is restricted depends on what it remembers between kernels:
- memcheck, racecheck and synccheck judge each access within one launch (memcheck against
  the allocations the CUDA API made): `--kernel-name` leaves the course's kernels
  uninstrumented, which only makes the runs faster.
- initcheck remembers which bytes of device memory have been written, by any kernel or API
  call. A kernel left out by `--kernel-name` writes without that record, so memory the
  course's kernels fill (step 4's padded product, step 5's tile groups written by CUB and
  gather_kernel) would look uninitialized to the next reader, student kernel or
  cudaMemcpy: false errors. initcheck therefore instruments every kernel, and its findings
  are charged only when they name a kernel of the student's files (charged_findings).
"""
import re

from gradelib import plan

def kernel_filter(names):
    """The compute-sanitizer arguments that restrict checking to @p names (none: all)."""
    if not names:
        return []
    return ["--kernel-name", "regex=" + "|".join(re.escape(name) for name in names)]


def sanitizer_arguments(tool, names):
    """The compute-sanitizer arguments of @p tool for a submission whose files define the
    kernels @p names (none: all kernels). See the module's docstring for why initcheck is
    never filtered."""
    if tool == plan.INITCHECK:
        # Every finding must be seen to be attributed: the student's may come after the
        # course's (the default limit prints 100; this keeps the logs short but complete
        # enough for the tests' sizes).
        return ["--print-limit", "1000"]
    return kernel_filter(names)


def base_name(kernel):
    """The unqualified name of a kernel as compute-sanitizer prints it:
    'course::step4::rect_tiles_kernel<course::step4::RectTiling<(int)64>>' ->
    'rect_tiles_kernel'."""
    depth, text = 0, ""
    for character in kernel:  # drop template arguments, nested ones included
        if character == "<":
            depth += 1
        elif character == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            text += character
    return text.strip().split("::")[-1]


def is_students(kernel, names):
    """Whether a finding in @p kernel is charged to a submission whose files define
    @p names: always when no names are known or the finding names no kernel."""
    return not names or not kernel or base_name(kernel) in set(names)
