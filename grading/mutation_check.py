#!/usr/bin/env python3
"""Proves that the course's tests bite: plants known bugs in the reference kernels, one at
a time, and checks that the suite (under compute-sanitizer where the bug only shows
there) fails for each.

The mutations are data (MUTATIONS below): a file, the exact original text (which must
occur exactly once), its replacement, and the checks to run (a test program of the step,
a Catch2 test spec, optionally a compute-sanitizer tool). The source tree is copied to a
work directory (the real tree is never touched); each step gets its own copy and its own
build directory, configured with -DCOURSE_STEPS=<step> and rebuilt incrementally, target
by target. Before any mutation, every check runs on the unmutated copy and must pass
(otherwise a failure would prove nothing). A mutation is caught when one of its checks
fails (test failure, sanitizer error, crash or timeout of a plain run).

Writes a Markdown table (mutation, step, caught by, result) to --report and exits
non-zero if any mutation survives, if its original text is not found (so the list cannot
silently rot), if a mutant does not compile, or if a baseline check fails.

    grading/mutation_check.py --report mutation_report.md \\
        --cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90 --jobs 3
    grading/mutation_check.py --dry-run     # no GPU: apply/revert all, build one mutant
"""
import argparse
import concurrent.futures
import dataclasses
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent
TEST_PROGRAMS = {
    "step1_naive": "test_step1",
    "step2_three_approaches": "test_step2",
    "step3_shared_tiling": "test_step3",
    "step4_boundary_checks": "test_step4",
    "step5_tensor_core_sddmm": "test_step5",
}
SKIP_RETURN_CODE = 77  # the course test main: the selected tests need a GPU, none found
SANITIZER_ERROR_CODE = 86


@dataclasses.dataclass(frozen=True)
class Check:
    """One run of a step's test program: a Catch2 test spec, plain or under a sanitizer."""
    tests: str  # a test case name or a tag expression such as "[step1][gpu]"
    tool: str = ""  # "", or a compute-sanitizer tool: memcheck, racecheck, synccheck, ...

    def label(self):
        where = f"`{self.tests}`"
        return f"{self.tool} {where}" if self.tool else where


@dataclasses.dataclass(frozen=True)
class Mutation:
    """A known bug: replace `original` (which must occur once in `file`) by `replacement`."""
    name: str
    step: str  # step folder
    file: str  # relative to the repository root
    original: str
    replacement: str
    checks: tuple  # Check objects, tried in order until one fails


# ---- Step 1 to 3 (reference kernels) --------------------------------------------------
S1 = "step1_naive"
S1_FILE = "step1_naive/naive_single_block.cuh"
S1_TESTS = "[step1][gpu]"
S2 = "step2_three_approaches"
S2_A1 = "step2_three_approaches/single_block_loop.cuh"
S2_A2 = "step2_three_approaches/one_thread_per_element.cuh"
S2_A3 = "step2_three_approaches/output_tiles_no_shared.cuh"
S2_T1 = "step2 approach 1 single block loop matches the reference"
S2_T2 = "step2 approach 2 one thread per element matches the reference"
S2_T3 = "step2 approach 3 output tiles without shared memory matches the reference"
S3 = "step3_shared_tiling"
S3_FILE = "step3_shared_tiling/tiled_shared.cuh"
S3_TESTS = "step3 tiled shared kernel matches the reference on small integers exactly"

MUTATIONS = [
    Mutation("step1: row and column swapped in the thread map", S1, S1_FILE,
             "  const int row = threadIdx.y;  // one block: the thread's position is the "
             "element's position\n  const int col = threadIdx.x;",
             "  const int row = threadIdx.x;\n  const int col = threadIdx.y;",
             (Check(S1_TESTS),)),
    Mutation("step1: inner loop stops one short", S1, S1_FILE,
             "inner_index < inner; ++inner_index", "inner_index < inner - 1; ++inner_index",
             (Check(S1_TESTS),)),
    Mutation("step1: A indexed with the wrong row length", S1, S1_FILE,
             "a[row * inner + inner_index]", "a[row * cols + inner_index]",
             (Check(S1_TESTS),)),
    Mutation("step1: launcher's block dimensions swapped", S1, "step1_naive/step1_launchers.cu",
             "const dim3 block(cols, rows);", "const dim3 block(rows, cols);",
             (Check(S1_TESTS),)),
    Mutation("step2 A1: last row of C skipped (wrong loop bound)", S2, S2_A1,
             "row < rows; row += kBlockSide", "row < rows - 1; row += kBlockSide",
             (Check(S2_T1),)),
    Mutation("step2 A1: column taken from threadIdx.y (wrong thread map)", S2, S2_A1,
             "for (int col = threadIdx.x; col < cols;", "for (int col = threadIdx.y; col < cols;",
             (Check(S2_T1),)),
    Mutation("step2 A2: boundary check on the column dropped", S2, S2_A2,
             "  if (col >= cols) {\n    return;\n  }\n", "",
             (Check(S2_T2, "memcheck"),)),
    Mutation("step2 A2: B indexed with the wrong row length", S2, S2_A2,
             "b[inner_index * cols + col]", "b[inner_index * inner + col]",
             (Check(S2_T2),)),
    Mutation("step2 A3: boundary check on the row dropped", S2, S2_A3,
             "if (row >= rows || col >= cols) {", "if (col >= cols) {",
             (Check(S2_T3, "memcheck"),)),
    Mutation("step2 A3: boundary check on the column dropped", S2, S2_A3,
             "if (row >= rows || col >= cols) {", "if (row >= rows) {",
             (Check(S2_T3, "memcheck"),)),
    Mutation("step2 A3: row tile index off by one", S2, S2_A3,
             "const int row = blockIdx.y * kTileWidth + threadIdx.y;",
             "const int row = (blockIdx.y + 1) * kTileWidth + threadIdx.y;",
             (Check(S2_T3),)),
    Mutation("step2 A3: blockIdx.x and blockIdx.y swapped (row and column of the tile)", S2,
             S2_A3,
             "  const int row = blockIdx.y * kTileWidth + threadIdx.y;\n"
             "  const int col = blockIdx.x * kTileWidth + threadIdx.x;",
             "  const int row = blockIdx.x * kTileWidth + threadIdx.y;\n"
             "  const int col = blockIdx.y * kTileWidth + threadIdx.x;",
             (Check(S2_T3),)),
    Mutation("step3: __syncthreads after loading the tiles missing", S3, S3_FILE,
             "elements loaded by others.\n    __syncthreads();",
             "elements loaded by others.\n    // (mutation: __syncthreads() removed)",
             (Check(S3_TESTS, "racecheck"),)),
    Mutation("step3: __syncthreads before the next phase missing", S3, S3_FILE,
             "    // overwrites them.\n    __syncthreads();",
             "    // overwrites them.\n    // (mutation: __syncthreads() removed)",
             (Check(S3_TESTS, "racecheck"),)),
    Mutation("step3: column tile index off by one", S3, S3_FILE,
             "const int col = blockIdx.x * kTileWidth + tile_col;",
             "const int col = (blockIdx.x + 1) * kTileWidth + tile_col;",
             (Check(S3_TESTS),)),
    Mutation("step3: last phase skipped (wrong loop bound)", S3, S3_FILE,
             "phase_start < inner; phase_start += kTileWidth",
             "phase_start < inner - kTileWidth; phase_start += kTileWidth",
             (Check(S3_TESTS),)),
    Mutation("step3: row and column of the B tile swapped in the inner product", S3, S3_FILE,
             "tile_a[tile_row][tile_k] * tile_b[tile_k][tile_col]",
             "tile_a[tile_row][tile_k] * tile_b[tile_col][tile_k]",
             (Check(S3_TESTS),)),
    Mutation("step3: A tile loaded one column off", S3, S3_FILE,
             "a[row * inner + phase_start + tile_col]",
             "a[row * inner + phase_start + tile_col + 1]",
             (Check(S3_TESTS),)),
]

# ---- Step 4 (reference kernels) -------------------------------------------------------
S4 = "step4_boundary_checks"
S4_CHECKED = "step4_boundary_checks/tiled_checked.cuh"
S4_FAST = "step4_boundary_checks/fast_gemm.cuh"
S4_EDGES = "step 4 kernels are right one below and at and one above each tile edge"
S4_MISALIGNED = "the fast kernel falls back to scalar loads for misaligned matrices"
S4_PADDED = "step4_boundary_checks/padded.cu"
S4_RECT = "step4_boundary_checks/rect_tiles.cuh"
MUTATIONS += [
    # Out-of-range M (N) entries meet zeros of the N (M) tile, so dropping check 1 or 2
    # changes no result: only memcheck sees the reads past the arrays.
    Mutation("step4 checked: M-tile check (1) dropped", S4, S4_CHECKED,
             "(row < rows && m_col < inner) ? m_matrix[row * inner + m_col] : 0.0f",
             "m_matrix[row * inner + m_col]",
             (Check(S4_EDGES, "memcheck"),)),
    Mutation("step4 checked: N-tile check (2) dropped", S4, S4_CHECKED,
             "(n_row < inner && col < cols) ? n_matrix[n_row * cols + col] : 0.0f",
             "n_matrix[n_row * cols + col]",
             (Check(S4_EDGES, "memcheck"),)),
    Mutation("step4 checked: P store check (3) dropped", S4, S4_CHECKED,
             "  if (row < rows && col < cols) {\n    p_matrix[row * cols + col] = sum;\n  }",
             "  p_matrix[row * cols + col] = sum;",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
    Mutation("step4 fast: scalar M-tile row check dropped (edge path)", S4, S4_FAST,
             "} else if (m_row < rows) {  // M-tile check, rows",
             "} else if (true) {  // M-tile check, rows",
             (Check(S4_MISALIGNED), Check(S4_MISALIGNED, "memcheck"))),
    Mutation("step4 fast: scalar N-tile row check dropped (edge path)", S4, S4_FAST,
             "} else if (n_row < inner) {  // N-tile check, rows",
             "} else if (true) {  // N-tile check, rows",
             (Check(S4_MISALIGNED), Check(S4_MISALIGNED, "memcheck"))),
    Mutation("step4 fast: scalar P store check dropped (edge path)", S4, S4_FAST,
             "if (p_row < rows && p_col + part < cols) {", "if (true) {",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
    # The scalar edge path (J % 4 != 0): one column of each group of four taken from the
    # wrong place, a visible wrong result (the group straddles the end of the row).
    Mutation("step4 fast: scalar M-tile load takes the wrong column (edge path)", S4, S4_FAST,
             "loaded.z = m_col + 2 < inner ? row_start[m_col + 2] : 0.0f;",
             "loaded.z = m_col + 2 < inner ? row_start[m_col + 1] : 0.0f;",
             (Check(S4_EDGES),)),
    # A column of N past K only feeds P columns past K, never stored: memcheck sees it.
    Mutation("step4 fast: scalar N-tile column check dropped (edge path)", S4, S4_FAST,
             "loaded.w = n_col + 3 < cols ? row_start[n_col + 3] : 0.0f;",
             "loaded.w = row_start[n_col + 3];",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
    # Padding one short of a multiple of the tile: the unchecked kernel's grid then misses
    # the last tile column and its rows have the wrong length.
    Mutation("step4 padded: padded row length one short of a tile multiple", S4, S4_PADDED,
             "                          round_up(shape.cols, kTile));",
             "                          round_up(shape.cols, kTile) - 1);",
             (Check(S4_EDGES),)),
    # RectTiling's static_asserts (TILE_COLS % BLOCK_COLS == 0) make the stride kBlockCols
    # cover the tile exactly; a thread that strides by its own output count instead writes
    # its sums into the wrong (overlapping) columns.
    Mutation("step4 rect tiles: output columns strided by kColsPerThread, not kBlockCols", S4,
             S4_RECT,
             "const int p_col = block_col0 + threadIdx.x + j * Tiling::kBlockCols;",
             "const int p_col = block_col0 + threadIdx.x + j * Tiling::kColsPerThread;",
             (Check(S4_EDGES),)),
    Mutation("step4 rect tiles: M-tile check (1) dropped", S4, S4_RECT,
             "(m_row < rows && m_col < inner) ? m_matrix[m_row * inner + m_col] : 0.0f",
             "m_matrix[m_row * inner + m_col]",
             (Check(S4_EDGES), Check(S4_EDGES, "memcheck"))),
]

# ---- Step 5 (reference kernels) -------------------------------------------------------
S5 = "step5_tensor_core_sddmm"
S5_WARP = "step5_tensor_core_sddmm/sddmm_warp_per_nonzero.cuh"
S5_TILES = "step5_tensor_core_sddmm/sddmm_tile_grouped.cuh"
S5_SHAPES = "all approaches with M N K not multiples of 16"
MUTATIONS += [
    Mutation("step5: lane-to-element map of the 16x16 accumulator transposed", S5,
             "step5_tensor_core_sddmm/fragment_map.cuh",
             "  return {(lane >> 2) + 8 * ((index >> 1) & 1), 2 * (lane & 3) + (index & 1) + "
             "8 * (index >> 2)};",
             "  return {2 * (lane & 3) + (index & 1) + 8 * (index >> 2), (lane >> 2) + 8 * "
             "((index >> 1) & 1)};",
             (Check("fragment map equals the hardware layout"),)),
    # A mask that leaves out calling lanes is undefined behaviour that gave the right sums on
    # an H200 with synccheck silent; the shuffles check their masks (warp_shuffle_check.cuh,
    # STEP5_CHECK_WARP_MASKS), so the kernel traps and the test fails with a CUDA error.
    Mutation("step5: warp kernel's shuffle mask names only half the lanes", S5, S5_WARP,
             "constexpr unsigned kAllLanes = 0xFFFFFFFFu;",
             "constexpr unsigned kAllLanes = 0x0000FFFFu;",
             (Check(S5_SHAPES),)),
    Mutation("step5: warp kernel's butterfly skips the offset-16 step", S5, S5_WARP,
             "for (int offset = 16; offset > 0; offset >>= 1) {",
             "for (int offset = 8; offset > 0; offset >>= 1) {",
             (Check(S5_SHAPES),)),
    Mutation("step5 tile grouped: write-back uses the transposed lane-to-element map", S5,
             S5_TILES,
             "const FragmentSlot slot = accumulator_slot_16x16(row_in_tile, col_in_tile);",
             "const FragmentSlot slot = accumulator_slot_16x16(col_in_tile, row_in_tile);",
             (Check(S5_SHAPES),)),
    Mutation("step5 tile grouped: a tile's segment ends one nonzero early", S5, S5_TILES,
             "const int end = kTileRanges ? tile_offsets[tile + 1] : nnz;",
             "const int end = kTileRanges ? tile_offsets[tile + 1] - 1 : nnz;",
             (Check(S5_SHAPES),)),
    Mutation("step5 tile grouping: segment offsets shifted by one tile", S5,
             "step5_tensor_core_sddmm/tile_grouping.cu",
             "groups.tile_offsets.data() + 1, tile_count)",
             "groups.tile_offsets.data(), tile_count)",
             (Check(S5_SHAPES),)),
]

# ---- PENDING ---------------------------------------------------------------------------
# Mutations written against files still being changed go here: they run only with
# --include-pending (or --only-pending) and are not part of the pass/fail verdict until
# they are moved into MUTATIONS (check the texts and test names first: a stale text is
# reported, never skipped silently). Empty: every step's list is final.
PENDING_MUTATIONS = []

# Top-level entries of the repository that the copy leaves out (builds, data, results).
IGNORED_TOP = re.compile(r"^(build.*|\.git|\.deps|data|out|\.gl|grade-report.*)$")


PROGRESS_LOCK = threading.Lock()
PROGRESS_ROWS = []


def progress(entry, report):
    """Records a finished row and rewrites the report, so a run cut short still leaves one."""
    with PROGRESS_LOCK:
        PROGRESS_ROWS.append(entry)
        pathlib.Path(report).write_text(markdown(
            PROGRESS_ROWS, "Mutation check (in progress: cut short)",
            "Rows finished before the run ended; mutations not listed did not run."))


def log(message):
    print(time.strftime("%H:%M:%S"), message, file=sys.stderr, flush=True)


def copy_tree(source, destination):
    """Copies the course sources to @p destination, keeping timestamps (so an existing
    build there stays incremental) and skipping builds, .git and data."""
    destination.mkdir(parents=True, exist_ok=True)
    for entry in source.iterdir():
        if IGNORED_TOP.match(entry.name):
            continue
        target = destination / entry.name
        if entry.is_dir():
            shutil.copytree(entry, target, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "results", "*.swp"))
        else:
            shutil.copy2(entry, target)


def find_problems(source, mutations):
    """Returns {mutation name: problem} for originals not found exactly once."""
    problems = {}
    for mutation in mutations:
        path = source / mutation.file
        if not path.exists():
            problems[mutation.name] = f"file {mutation.file} not found"
            continue
        count = path.read_text().count(mutation.original)
        if count != 1:
            problems[mutation.name] = (f"original text found {count} times in {mutation.file} "
                                       "(expected exactly once): update the mutation list")
        elif mutation.original == mutation.replacement:
            problems[mutation.name] = "replacement equals the original"
    return problems


def run(command, log_file, timeout=None, cwd=None):
    """Runs @p command, appending its output to @p log_file; returns (exit status, output).
    The status is None on a timeout."""
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                                cwd=cwd, check=False)
        status, output = result.returncode, result.stdout + result.stderr
    except subprocess.TimeoutExpired as expired:
        status = None
        output = (expired.stdout or b"").decode(errors="replace") if isinstance(
            expired.stdout, bytes) else (expired.stdout or "")
        output += f"\n(timed out after {timeout} s)"
    with open(log_file, "a", encoding="utf-8") as stream:
        stream.write("$ " + " ".join(command) + f"\n{output}\n(exit {status})\n")
    return status, output


class StepRunner:
    """A step's own source copy and build directory, and the checks run against them."""

    def __init__(self, step, args, work):
        self.step = step
        self.args = args
        self.source = work / f"src-{step}"
        self.build = work / f"build-{step}"
        self.log_file = work / f"{step}.log"
        self.program = self.build / step / TEST_PROGRAMS[step]

    def prepare(self):
        copy_tree(REPO_ROOT, self.source)
        command = ["cmake", "-S", str(self.source), "-B", str(self.build),
                   f"-DCOURSE_STEPS={self.step}", "-DCOURSE_KERNELS=reference"]
        if shutil.which("ninja") and not (self.build / "CMakeCache.txt").exists():
            command += ["-G", "Ninja"]
        status, output = run(command + self.args.cmake_arg, self.log_file)
        if status != 0:
            return f"configure failed: {output.strip().splitlines()[-1:]}"
        return self.compile()

    def compile(self):
        """Builds the step's test program; returns None or the error's first lines."""
        command = ["cmake", "--build", str(self.build), "--target", TEST_PROGRAMS[self.step],
                   "-j", str(self.args.build_jobs)]
        status, output = run(command, self.log_file)
        if status == 0:
            return None
        errors = [line for line in output.splitlines() if "error" in line.lower()]
        return "build failed: " + " / ".join(errors[:2])[:300]

    def check(self, check):
        """Runs one check; returns (failed, not_run, detail)."""
        command = [str(self.program), check.tests, "--warn", "NoTests"]
        if check.tool and shutil.which(self.args.sanitizer) is None:
            return False, True, f"not run: {self.args.sanitizer} not found"
        if check.tool:
            command = [self.args.sanitizer, "--tool", check.tool, "--error-exitcode",
                       str(SANITIZER_ERROR_CODE), "--print-limit", "10"] + command
        status, output = run(command, self.log_file, timeout=self.args.timeout,
                             cwd=self.program.parent)
        summary = re.findall(r"(?:ERROR|RACECHECK) SUMMARY: [0-9]+ \w+", output)
        if status == SKIP_RETURN_CODE:
            return False, True, "not run: no GPU"
        if status is None:
            # A plain run that never ends is a caught bug; under a sanitizer it only means
            # the check was too slow to say anything.
            return (not check.tool), bool(check.tool), f"timed out after {self.args.timeout} s"
        if status == 0:
            return False, False, summary[0] if summary else "passed"
        if status == SANITIZER_ERROR_CODE:
            return True, False, summary[0] if summary else f"{check.tool} errors"
        failed = re.findall(r"test cases?: .*", output)
        return True, False, (failed[-1] if failed else f"exit {status}")


def mutate(path, mutation):
    text = path.read_text()
    path.write_text(text.replace(mutation.original, mutation.replacement, 1))
    return text


def run_step(step, mutations, args, work, dry_run):
    """Baseline and mutations of one step; returns a list of report rows."""
    runner = StepRunner(step, args, work)
    log(f"{step}: preparing {runner.source} and {runner.build}")
    rows = []
    problem = runner.prepare()
    if problem:
        return [row(mutation, "-", f"**ERROR** unmutated {problem}") for mutation in mutations]
    # Baseline: every distinct check must pass on the unmutated tree.
    baseline_failures = {}
    if not dry_run:
        for check in dict.fromkeys(c for mutation in mutations for c in mutation.checks):
            failed, not_run, detail = runner.check(check)
            log(f"{step}: baseline {check.label()}: {detail}")
            if failed or (not_run and check.tool):
                baseline_failures[check] = detail
    for index, mutation in enumerate(mutations):
        path = runner.source / mutation.file
        original = mutate(path, mutation)
        try:
            if path.read_text() == original:
                rows.append(row(mutation, "-", "**ERROR** replacement changes nothing"))
                continue
            if dry_run and index > 0 and not args.build_all:
                rows.append(row(mutation, "-", "applies and reverts"))
                continue
            problem = runner.compile()
            if problem:
                rows.append(row(mutation, "-", f"**ERROR** mutant {problem}"))
                continue
            if dry_run and index > 0:
                rows.append(row(mutation, "-", "applies, builds and reverts"))
                continue
            caught_by, result = "-", "**SURVIVED**"
            details = []
            for check in mutation.checks:
                if check in baseline_failures:
                    details.append(f"{check.label()}: baseline fails ({baseline_failures[check]})")
                    result = "**ERROR** baseline check fails"
                    continue
                failed, not_run, detail = runner.check(check)
                details.append(f"{check.label()}: {detail}")
                if failed:
                    caught_by, result = check.label(), "caught"
                    break
                if not_run:
                    result = "not run (no GPU)"
            log(f"{step}: {mutation.name}: {result} ({'; '.join(details)})")
            rows.append(row(mutation, caught_by, result, "; ".join(details)))
            progress(rows[-1], args.report)
        finally:
            path.write_text(original)
            if path.read_text() != original:
                raise RuntimeError(f"could not revert {path}")
    if dry_run:
        # The tree is reverted: rebuild so the build directory matches it again.
        problem = runner.compile()
        log(f"{step}: rebuilt after revert: {problem or 'ok'}")
    return rows


def row(mutation, caught_by, result, detail=""):
    return {"mutation": mutation.name, "step": mutation.step, "file": mutation.file,
            "caught_by": caught_by, "result": result, "detail": detail}


def markdown(rows, title, header_note):
    lines = [f"# {title}", "", header_note, "",
             "| mutation | step | file | caught by | result |", "|---|---|---|---|---|"]
    for entry in rows:
        lines.append(f"| {entry['mutation']} | {entry['step']} | `{entry['file']}` | "
                     f"{entry['caught_by']} | {entry['result']} |")
    caught = sum(1 for entry in rows if entry["result"] == "caught")
    lines += ["", f"{caught} of {len(rows)} mutations caught.", "", "## Details", ""]
    lines += [f"- {entry['mutation']}: {entry['detail'] or entry['result']}" for entry in rows]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--report", default="mutation_report.md", help="Markdown report")
    parser.add_argument("--work-dir", default="",
                        help="where the source copies and builds go (default: a new "
                             "temporary folder; reuse one to rebuild incrementally)")
    parser.add_argument("--steps", default="", help="comma-separated step folders to check")
    parser.add_argument("--include-pending", action="store_true",
                        help="also run the PENDING (step 4 and 5) mutations")
    parser.add_argument("--only-pending", action="store_true",
                        help="run only the PENDING (step 4 and 5) mutations")
    parser.add_argument("--cmake-arg", action="append", default=[],
                        help="extra configure argument (repeatable), e.g. "
                             "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90")
    parser.add_argument("--jobs", type=int, default=1, help="steps checked in parallel")
    parser.add_argument("--build-jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=int, default=240, help="seconds per check")
    parser.add_argument("--sanitizer", default=os.environ.get("COMPUTE_SANITIZER",
                                                              "compute-sanitizer"))
    parser.add_argument("--dry-run", action="store_true",
                        help="no tests: check every original text, apply and revert each "
                             "mutation, and build the first mutant of each step")
    parser.add_argument("--build-all", action="store_true",
                        help="with --dry-run: build every mutant, not only the first of a step")
    parser.add_argument("--list", action="store_true",
                        help="print the mutations, say which are stale, and exit")
    args = parser.parse_args()

    mutations = PENDING_MUTATIONS if args.only_pending else (
        MUTATIONS + (PENDING_MUTATIONS if args.include_pending else []))
    if args.steps:
        wanted = set(args.steps.split(","))
        mutations = [mutation for mutation in mutations if mutation.step in wanted]
    problems = find_problems(REPO_ROOT, mutations)
    if args.list:
        for mutation in mutations:
            checks = ", then ".join(check.label() for check in mutation.checks)
            stale = f"  STALE: {problems[mutation.name]}" if mutation.name in problems else ""
            print(f"{mutation.step}: {mutation.name} [{checks}]{stale}")
        return 1 if problems else 0
    rows = [row(mutation, "-", f"**STALE** {problems[mutation.name]}")
            for mutation in mutations if mutation.name in problems]
    for name, problem in problems.items():
        log(f"STALE: {name}: {problem}")
    runnable = [mutation for mutation in mutations if mutation.name not in problems]
    steps = list(dict.fromkeys(mutation.step for mutation in runnable))

    work = pathlib.Path(args.work_dir or tempfile.mkdtemp(prefix="course-mutants-")).resolve()
    work.mkdir(parents=True, exist_ok=True)
    log(f"work directory {work}; {len(runnable)} mutation(s) over {', '.join(steps)}")
    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {step: pool.submit(run_step, step,
                                     [m for m in runnable if m.step == step], args, work,
                                     args.dry_run)
                   for step in steps}
        results = {step: future.result() for step, future in futures.items()}
    for step in steps:
        rows += results[step]
    order = {mutation.name: index for index, mutation in enumerate(mutations)}
    rows.sort(key=lambda entry: order[entry["mutation"]])

    gpu = "dry run (no baseline, tests of the first mutant only)" if args.dry_run else (
        "GPU: " + gpu_name())
    note = (f"{gpu}; {time.strftime('%Y-%m-%d')}; {round(time.time() - started)} s. Each "
            "mutation is applied alone to a copy of the reference tree; a check names the "
            "Catch2 test spec run and, if any, the compute-sanitizer tool."
            + ("" if args.dry_run else " Every check passed on the unmutated tree first."))
    title = "Mutation check" + (" (pending step 4 and 5 list)" if args.only_pending else "")
    report = markdown(rows, title, note)
    pathlib.Path(args.report).write_text(report)
    print(report)
    good = {"caught"}
    if args.dry_run:
        good |= {"applies and reverts", "applies, builds and reverts", "not run (no GPU)"}
    return 0 if rows and all(entry["result"] in good for entry in rows) else 1


def gpu_name():
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, check=True).stdout.splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "none found"


if __name__ == "__main__":
    sys.exit(main())
