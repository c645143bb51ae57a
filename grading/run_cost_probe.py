#!/usr/bin/env python3
"""Where a student's turn on the GPU goes: the wall time of one run of step 1's runner on a
small case, alone and eight side by side, plain and sandboxed, under memcheck and as the
evidence run (initcheck restricted to the student's kernel), with the sandbox of the grader
(gradelib.sandbox). A turn is some ninety such runs; this says which part of a run costs
what when eight share the GPU.

Usage: grading/run_cost_probe.py BUILD_TREE OUT_DIR [--rounds N] [--kinds K,K] [--alone]
  BUILD_TREE: a course tree built by `grading/grade.py --build-only` (its `pristine` folder);
  OUT_DIR: receives run_cost.csv and run_cost.md. Needs a GPU, bwrap and compute-sanitizer.
  --kinds: the runs to measure, by name (default: all); --alone: no runs side by side.
  "evidence with backtraces" is the evidence run as it was before 2026-11-28 18:53 UTC
  (1000 findings printed, each with its host backtrace); each row of an evidence run says
  whether it saw the student's kernel (evidence.judge).
"""
import argparse
import concurrent.futures
import csv
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from gradelib import case_runs, evidence, kernels, plan, runner, sandbox  # noqa: E402

CASE = "step1 small integers on sides from 1 to 32"
KERNEL = "naive_single_block_kernel"


def commands():
    """{kind: (argv, sandboxed)} of the runs measured (an unsandboxed argv of None: the
    runner on the host, its scratch folder's paths filled in by one_run)."""
    run = case_runs.runner_command(plan.STEPS[0])
    return {
        "plain unsandboxed": (None, False),
        "plain": (run, True),
        "memcheck": (["compute-sanitizer", "--tool", "memcheck", "--print-limit", "10"] + run,
                     True),
        "evidence": (["compute-sanitizer", *evidence.arguments([KERNEL])] + run, True),
        # The evidence run as it was until 2026-11-28 18:53 UTC: 1000 findings printed,
        # each with its host backtrace.
        "evidence with backtraces": (["compute-sanitizer", "--tool", "initcheck",
                                      "--print-limit", "1000",
                                      *kernels.kernel_filter([KERNEL])] + run, True),
    }


def one_run(box, tree, folder, kind, argv, sandboxed, inputs):
    scratch = pathlib.Path(tempfile.mkdtemp(dir=folder))
    (scratch / "in.bin").write_bytes(inputs)
    for name in ("out.bin", "runner.log"):
        (scratch / name).write_bytes(b"")
    box.prepare_writable(scratch)
    if sandboxed:
        command = box.limited(box.command(argv, build=tree, scratch=scratch,
                                          run_files=case_runs.RUN_FILES), run=True)
    else:
        command = [str(tree / "grading/grading_runner_step1"), "--inputs",
                   str(scratch / "in.bin"), "--outputs", str(scratch / "out.bin")]
    started = time.monotonic()
    result = runner.run_limited(command, 60)
    seconds = time.monotonic() - started
    seen = ""
    if argv and argv[0] == "compute-sanitizer" and "initcheck" in argv:
        seen = evidence.judge(result, [KERNEL])["outcome"]
    return kind, seconds, result.status, seen, result.output.count("Uninitialized")


def measure(box, tree, folder, inputs, args):
    rows = []
    for kind, (argv, sandboxed) in commands().items():
        if args.kinds and kind not in args.kinds:
            continue
        for side_by_side in (1,) if args.alone else (1, 8):
            for round_index in range(args.rounds if side_by_side == 8 else 2 * args.rounds):
                started = time.monotonic()
                with concurrent.futures.ThreadPoolExecutor(side_by_side) as pool:
                    results = list(pool.map(
                        lambda _: one_run(box, tree, folder, kind, argv, sandboxed, inputs),
                        range(side_by_side)))
                batch = time.monotonic() - started
                for _, seconds, status, seen, reported in results:
                    rows.append({"kind": kind, "side_by_side": side_by_side,
                                 "round": round_index, "seconds": round(seconds, 3),
                                 "batch_seconds": round(batch, 3), "status": status,
                                 "evidence": seen, "reports": reported})
                print(f"{kind:22s} x{side_by_side}: batch {batch:.2f} s, statuses "
                      f"{sorted({str(row[2]) for row in results})}, evidence "
                      f"{sorted({row[3] for row in results})}, reports "
                      f"{sorted({row[4] for row in results})}", flush=True)
    return rows


def summary(rows):
    lines = ["| run | side by side | median s per run | max s | runs per second | evidence |",
             "|---|---:|---:|---:|---:|---|"]
    for kind in dict.fromkeys(row["kind"] for row in rows):
        for side_by_side in (1, 8):
            picked = [row for row in rows
                      if row["kind"] == kind and row["side_by_side"] == side_by_side]
            if not picked:
                continue
            batches = {row["round"]: row["batch_seconds"] for row in picked}
            rate = len(picked) / sum(batches.values())
            lines.append(f"| {kind} | {side_by_side} | "
                         f"{statistics.median(row['seconds'] for row in picked):.2f} | "
                         f"{max(row['seconds'] for row in picked):.2f} | {rate:.1f} | "
                         f"{', '.join(sorted({row['evidence'] for row in picked} - {''}))} |")
    return "\n".join(lines)


def gpu_name():
    """The GPU's name from nvidia-smi, or "unknown"."""
    try:
        result = runner.run_limited(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                    30)
    except OSError:
        return "unknown (no nvidia-smi)"
    return result.output.strip() or "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", type=lambda text: text.split(","), default=[],
                        help="the runs to measure, comma-separated (default: all)")
    parser.add_argument("--alone", action="store_true", help="no runs side by side")
    args = parser.parse_args()
    unknown = set(args.kinds) - set(commands())
    if unknown:
        parser.error(f"--kinds: unknown {sorted(unknown)}; known: {', '.join(commands())}")
    tree = args.tree.resolve()
    args.out.mkdir(parents=True, exist_ok=True)
    box = sandbox.Sandbox(pathlib.Path(__file__).resolve().parent.parent)
    print(box.check())
    with tempfile.TemporaryDirectory(dir="/var/tmp") as folder:
        folder = pathlib.Path(folder)
        case_runs.generate_inputs(tree / "grading/course_judge", 7, folder, [CASE])
        inputs = (folder / f"{case_runs.stem(CASE)}.in").read_bytes()
        rows = measure(box, tree, folder, inputs, args)
    with open(args.out / "run_cost.csv", "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    table = (f"GPU: {gpu_name()}; "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; case '{CASE}'\n\n"
             + summary(rows))
    (args.out / "run_cost.md").write_text(table + "\n")
    print(table)


if __name__ == "__main__":
    main()
