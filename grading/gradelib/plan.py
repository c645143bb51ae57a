"""The grading plan: the judge's cases that earn points (each runs files a student writes),
their weights, the compute-sanitizer tools each also runs under, and the evidence case that
gates it.

The cases are the judge's own (grading/judge/cases.cpp), not the steps' Catch2 tests: the
judge writes their inputs and checks the runner's outputs against its own reference. A name
of the plan that the judge does not list is reported as a course problem (the plan is stale);
a CPU test checks that every name of the plan is one of the judge's cases.
"""
import dataclasses

POINTS_PER_STEP = 20
MEMCHECK, RACECHECK, INITCHECK, SYNCCHECK = "memcheck", "racecheck", "initcheck", "synccheck"
TOOLS = (MEMCHECK, RACECHECK, INITCHECK, SYNCCHECK)


@dataclasses.dataclass(frozen=True)
class Step:
    """A course step: its label, folder, runner program (the only program that links the
    student's kernels), the files a student writes, and what the inspection checks in them
    (inspection.py): step 1's files hold the launcher, host code that must pass an
    allowlist; the other steps' files are kernels, compiled for the GPU only; step 5's warp
    masks are checked in the compiled PTX."""
    label: str
    folder: str
    program: str
    student_files: tuple
    needs: tuple = ()  # other step folders whose kernels its programs link
    host_code: bool = False  # the student writes the launcher (host code) too
    warp_masks: bool = False  # the PTX's warp instructions must use the full mask


@dataclasses.dataclass(frozen=True)
class Graded:
    """A case of the judge (grading/judge/cases.cpp) that runs a student's files: its weight,
    the sanitizer tools it also runs under, the files it runs (a finding of the static
    inspection in one of them costs it), the evidence case that must show one of the
    student's kernels reading its inputs on the GPU (its gate), and whether it is one of the
    slow ones (started first when grading a submission, last when the mutation check stops
    at a mutant's first loss)."""
    name: str
    weight: int
    tools: tuple = ()
    files: tuple = ()
    gate: str = ""
    slow: bool = False


STEPS = [
    Step("step1", "step1_naive", "grading_runner_step1",
         ("naive_single_block.cuh", "step1_launchers.cu"), host_code=True),
    Step("step2", "step2_three_approaches", "grading_runner_step2",
         ("single_block_loop.cuh", "one_thread_per_element.cuh", "output_tiles_no_shared.cuh")),
    Step("step3", "step3_shared_tiling", "grading_runner_step3", ("tiled_shared.cuh",),
         ("step2_three_approaches",)),
    Step("step4", "step4_boundary_checks", "grading_runner_step4",
         ("tiled_checked.cuh", "rect_tiles.cuh")),
    Step("step5", "step5_tensor_core_sddmm", "grading_runner_step5",
         ("sddmm_warp_per_nonzero.cuh", "sddmm_tile_grouped.cuh"), warp_masks=True),
]
STEP_BY_LABEL = {step.label: step for step in STEPS}

# Tools by kernel kind: every launcher has a case under memcheck and initcheck (the runner
# fills its outputs with NaN first, so a read of memory nobody wrote is the kernel's);
# kernels with shared memory or barriers have one under racecheck and synccheck; the other
# small cases run under memcheck (a read or write past an array that happens to give right
# values). The cases of many products or large shapes run plain only: their kernels are
# covered under the sanitizers by the smaller cases of the same launcher.
PLAIN = (MEMCHECK, INITCHECK)
SHARED = (MEMCHECK, INITCHECK, RACECHECK, SYNCCHECK)
EDGES = (MEMCHECK, RACECHECK, SYNCCHECK)

S1 = ("naive_single_block.cuh", "step1_launchers.cu")
S2 = ("single_block_loop.cuh", "one_thread_per_element.cuh", "output_tiles_no_shared.cuh")
S4_CHECKED, S4_RECT = ("tiled_checked.cuh",), ("rect_tiles.cuh",)
S5_WARP, S5_TILES = ("sddmm_warp_per_nonzero.cuh",), ("sddmm_tile_grouped.cuh",)
G4C, G4R = "step4 evidence checked tiles", "step4 evidence rectangular tiles"
G5W, G5T = "step5 evidence approach 1", "step5 evidence approach 3"

GRADED = {
    "step1": [
        Graded("step1 small integers on sides from 1 to 32", 2, PLAIN, S1, "step1 evidence"),
        Graded("step1 uniform floats on random shapes", 2, (MEMCHECK,), S1, "step1 evidence"),
    ],
    "step2": [
        Graded(f"step2 approach {number} on ragged shapes", 3, PLAIN, (S2[number - 1],),
               f"step2 evidence approach {number}") for number in (1, 2, 3)
    ],
    "step3": [
        Graded("step3 small integers on multiples of 32", 3, SHARED, ("tiled_shared.cuh",),
               "step3 evidence"),
        Graded("step3 uniform floats on multiples of 32", 3, (), ("tiled_shared.cuh",),
               "step3 evidence"),
    ],
    "step4": [
        Graded("step4 checked tiles at each tile edge", 3, EDGES, S4_CHECKED, G4C),
        Graded("step4 rectangular tiles at each tile edge", 3, EDGES, S4_RECT, G4R),
        Graded("step4 checked tiles with inner 1 and single rows and columns", 2, PLAIN,
               S4_CHECKED, G4C),
        Graded("step4 rectangular tiles with inner 1 and single rows and columns", 2, PLAIN,
               S4_RECT, G4R),
        Graded("step4 checked tiles on large ragged shapes", 1, (), S4_CHECKED, G4C, slow=True),
        Graded("step4 rectangular tiles on large ragged shapes", 1, (), S4_RECT, G4R,
               slow=True),
        Graded("step4 checked tiles on every shape up to 20", 1, (), S4_CHECKED, G4C, slow=True),
        Graded("step4 rectangular tiles on every shape up to 20", 1, (), S4_RECT, G4R,
               slow=True),
        Graded("step4 checked tiles of width 2 on every shape up to 10", 1, (), S4_CHECKED, G4C,
               slow=True),
    ],
    "step5": [
        Graded("step5 approach 1 with sides not multiples of 16", 2, PLAIN + (SYNCCHECK,),
               S5_WARP, G5W),
        Graded("step5 approach 3 with sides not multiples of 16", 2, SHARED, S5_TILES, G5T),
        Graded("step5 approach 1 with padded leading dimensions", 1, (MEMCHECK,), S5_WARP, G5W),
        Graded("step5 approach 3 with padded leading dimensions", 1, (MEMCHECK,), S5_TILES, G5T),
        Graded("step5 approach 1 with empty rows and columns", 1, (MEMCHECK,), S5_WARP, G5W),
        Graded("step5 approach 3 with empty rows and columns", 1, (MEMCHECK,), S5_TILES, G5T),
        Graded("step5 approach 1 with one nonzero", 1, PLAIN, S5_WARP, G5W),
        Graded("step5 approach 3 with one nonzero", 1, PLAIN, S5_TILES, G5T),
        Graded("step5 approach 3 with one full tile", 2, (), S5_TILES, G5T),
        Graded("step5 approach 3 version 1 scanning every nonzero", 2, (), S5_TILES, G5T),
    ],
}

# The evidence cases: one small product per launcher, run plain and once more under
# initcheck restricted to the student's kernels (evidence.py). Each gates the cases that
# name it; they carry no weight of their own.
EVIDENCE = {
    "step1": ("step1 evidence",),
    "step2": tuple(f"step2 evidence approach {number}" for number in (1, 2, 3)),
    "step3": ("step3 evidence",),
    "step4": (G4C, G4R),
    "step5": (G5W, G5T),
}


def graded_tests(label):
    """{case name: Graded} of one step."""
    return {graded.name: graded for graded in GRADED.get(label, [])}


def evidence_files(label, gate):
    """The files of the cases an evidence case gates."""
    return tuple(sorted({name for graded in GRADED.get(label, []) if graded.gate == gate
                         for name in graded.files}))


def select_steps(text):
    """The steps named in a comma-separated list of labels (all when empty); raises
    ValueError naming unknown labels."""
    wanted = [label for label in text.split(",") if label]
    unknown = sorted(set(wanted) - set(STEP_BY_LABEL))
    if unknown:
        raise ValueError(f"unknown step(s) {', '.join(unknown)}; the steps are "
                         + ", ".join(step.label for step in STEPS))
    return [step for step in STEPS if not wanted or step.label in wanted]
