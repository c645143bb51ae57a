"""The grading plan: which tests earn points (the ones that run the files a student
writes), their weights, and the compute-sanitizer tools each graded test also runs under.

Every other test of a step is a course test: it runs and is reported, carries no points,
and its failure is reported as a course problem. The plan names tests by their Catch2 name;
a name the test program does not list is reported as a course problem (the plan is stale)
and the step is graded on the tests it has.
"""
import dataclasses

POINTS_PER_STEP = 20
MEMCHECK, RACECHECK, INITCHECK, SYNCCHECK = "memcheck", "racecheck", "initcheck", "synccheck"
TOOLS = (MEMCHECK, RACECHECK, INITCHECK, SYNCCHECK)


@dataclasses.dataclass(frozen=True)
class Step:
    """A course step: its label, folder, test program and the files a student writes."""
    label: str
    folder: str
    program: str
    student_files: tuple
    needs: tuple = ()  # other step folders whose kernels its programs link


@dataclasses.dataclass(frozen=True)
class Graded:
    """A test that runs the student's files: its weight, its sanitizer tools, and whether it
    is one of the slow ones (step 4's sweeps: started first when grading a submission, last
    when the mutation check stops at a mutant's first loss)."""
    name: str
    weight: int
    tools: tuple = ()
    slow: bool = False


STEPS = [
    Step("step1", "step1_naive", "test_step1", ("naive_single_block.cuh", "step1_launchers.cu")),
    Step("step2", "step2_three_approaches", "test_step2",
         ("single_block_loop.cuh", "one_thread_per_element.cuh", "output_tiles_no_shared.cuh")),
    Step("step3", "step3_shared_tiling", "test_step3", ("tiled_shared.cuh",),
         ("step2_three_approaches",)),
    Step("step4", "step4_boundary_checks", "test_step4", ("tiled_checked.cuh", "rect_tiles.cuh")),
    Step("step5", "step5_tensor_core_sddmm", "test_step5",
         ("sddmm_warp_per_nonzero.cuh", "sddmm_tile_grouped.cuh")),
]
STEP_BY_LABEL = {step.label: step for step in STEPS}

# Tools by kernel kind: every graded GPU test runs under memcheck and initcheck (the tests
# poison their outputs, so a read of memory nobody wrote is the kernel's); kernels with
# shared memory or barriers also run under racecheck and synccheck. Tests that call cuBLAS
# (the benchmarks) or sweep thousands of shapes are graded by their plain run only: their
# kernels are covered under the sanitizers by the smaller tests of the same step.
PLAIN = (MEMCHECK, INITCHECK)
SHARED = (MEMCHECK, INITCHECK, RACECHECK, SYNCCHECK)

GRADED = {
    "step1": [
        Graded("step1 naive kernel matches the reference on small integers exactly", 2, PLAIN),
        Graded("step1 naive kernel matches the reference on uniform floats", 2, PLAIN),
    ],
    "step2": [
        Graded("step2 approach 1 single block loop matches the reference", 3, PLAIN),
        Graded("step2 approach 2 one thread per element matches the reference", 3, PLAIN),
        Graded("step2 approach 3 output tiles without shared memory matches the reference", 3,
               PLAIN),
        Graded("step2 DEBUG check catches a corrupted GPU result", 1),
        Graded("step2 benchmark runs and checks every method on small sizes", 1),
    ],
    "step3": [
        Graded("step3 tiled shared kernel matches the reference on small integers exactly", 3,
               SHARED),
        Graded("step3 tiled shared kernel matches the reference on uniform floats", 3),
        Graded("step3 launch_approach runs approach 4", 2, PLAIN),
    ],
    "step4": [
        Graded("step 4 kernels are right one below and at and one above each tile edge", 3,
               (MEMCHECK, RACECHECK, SYNCCHECK)),
        Graded("step 4 kernels handle inner = 1 and single rows and single columns", 3, PLAIN),
        Graded("step 4 kernels are right on large ragged shapes", 2, slow=True),
        Graded("step 4 kernels match the CPU reference on every shape up to 40", 2, slow=True),
        Graded("the checked kernel with the note's tile width 2 matches on every shape up to 20",
               1, slow=True),
    ],
    "step5": [
        Graded("all approaches with rows inner cols not multiples of 16", 3, SHARED),
        Graded("all approaches with padded leading dimensions and an inner tail", 2, PLAIN),
        Graded("all approaches on a rectangular matrix", 2, PLAIN),
        Graded("all approaches with empty rows and columns", 2, PLAIN),
        Graded("all approaches with one nonzero", 1, PLAIN),
        Graded("all approaches with every nonzero in one full tile", 2),
        Graded("approach 3 version 1 scanning all nonzeros gives the same result", 2),
        Graded("all approaches on a real matrix written and read as Matrix Market", 1),
        Graded("approach 2 refuses a dense product that is too large", 1),
        Graded("approach 4 Tensor Core panels over the band of a banded matrix", 1),
        Graded("a pattern uploaded from CSR gives the same results as from COO", 1),
    ],
}


def graded_tests(label):
    """{test name: Graded} of one step."""
    return {graded.name: graded for graded in GRADED.get(label, [])}


def select_steps(text):
    """The steps named in a comma-separated list of labels (all when empty); raises
    ValueError naming unknown labels."""
    wanted = [label for label in text.split(",") if label]
    unknown = sorted(set(wanted) - set(STEP_BY_LABEL))
    if unknown:
        raise ValueError(f"unknown step(s) {', '.join(unknown)}; the steps are "
                         + ", ".join(step.label for step in STEPS))
    return [step for step in STEPS if not wanted or step.label in wanted]
