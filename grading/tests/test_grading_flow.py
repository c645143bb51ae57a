"""The grading flow with a fake judge, runner and sanitizer (tests/fake_world.py): only the
judge's verdict on the outputs counts, the evidence run gates its launcher's cases, a
finding costs the cases of its file, outputs behind a link are not read, hangs cost points
only where they are, and the mutation check's stop at the first loss."""
import os
import pathlib
import subprocess
import tempfile
import threading
import time
import unittest
from unittest import mock

from tests import fake_world
from gradelib import case_runs, gpu_share, grading, inspection, plan, scoring

STEP1 = plan.STEPS[0]


class Verdicts(unittest.TestCase):
    def grade(self, findings=(), kernels=("naive_single_block_kernel",), stop=False, **env):
        restore = fake_world.environment(**env)
        try:
            with tempfile.TemporaryDirectory() as folder:
                context, program = fake_world.make_world(folder)
                found = fake_world.inspection_of(kernels, findings)
                return grading.rows_for([STEP1], {"step1": program}, {}, context(), found, 7,
                                        stop_mode=stop)[0]
        finally:
            restore()

    def test_right_outputs_and_a_student_kernel_seen_earn_full_points(self):
        row = self.grade()
        self.assertEqual(row["points"], 20.0)
        self.assertEqual((row["evidence_seen"], row["evidence_total"]), (1, 1))
        case = next(case for case in row["tests"] if case["weight"])
        self.assertEqual([run["tool"] for run in case["sanitizers"]], ["memcheck", "initcheck"])

    def test_an_evidence_case_runs_once_and_its_outputs_are_judged(self):
        with tempfile.TemporaryDirectory() as folder:
            runs = pathlib.Path(folder) / "runs"
            row = self.grade(FAKE_RUNS=runs)
            # The evidence case once; "small integers": plain, memcheck, initcheck; "uniform
            # floats": plain, memcheck.
            self.assertEqual(runs.read_text().count("run"), 6)
            gate = row["tests"][0]
            self.assertEqual((gate["outcome"], gate["evidence_run"]["outcome"]),
                             ("passed", "seen"))
        gate = self.grade(FAKE_MODE="wrong")["tests"][0]
        self.assertEqual(gate["outcome"], "failed")
        self.assertIn("wrong outputs", gate["message"])

    def test_the_sanitizer_waits_for_the_runner_as_long_as_the_run_may_last(self):
        # Its own defaults (10 s or 60 s) are not the run's limit.
        with tempfile.TemporaryDirectory() as folder:
            record = pathlib.Path(folder) / "arguments"
            self.grade(FAKE_SANITIZER_ARGS=record)
            runs = record.read_text().splitlines()
        self.assertTrue(runs)
        for options in runs:
            self.assertIn("--launch-timeout 20", options)

    def test_the_runners_printout_and_status_decide_nothing(self):
        row = self.grade(FAKE_MODE="wrong")  # prints "All tests passed", exits 0
        self.assertEqual(row["points"], 0.0)
        self.assertIn("wrong outputs", row["tests"][1]["message"])

    def test_no_student_kernel_seen_earns_nothing(self):
        for kernel in ("none", "a_course_kernel"):
            row = self.grade(FAKE_EVIDENCE_KERNEL=kernel)
            self.assertEqual(row["points"], 0.0, kernel)
            self.assertTrue(any("no student kernel was seen running" in reason
                                for case in row["tests"] for reason in case.get("lost", [])))

    def test_no_kernel_in_the_compiled_files_earns_nothing(self):
        row = self.grade(kernels=())
        self.assertEqual(row["points"], 0.0)
        self.assertIn("define no kernel", row["tests"][0]["evidence_run"]["message"])

    def test_a_finding_costs_the_cases_of_its_file(self):
        finding = inspection.Finding(("step1_launchers.cu",), "host-symbols", "calls fopen")
        row = self.grade(findings=[finding])
        self.assertEqual(row["points"], 0.0)
        self.assertEqual(row["findings"][0]["text"], "calls fopen")
        other = inspection.Finding(("not_a_step1_file.cuh",), "macro", "#define X")
        self.assertEqual(self.grade(findings=[other])["points"], 20.0)

    def test_a_finding_stops_a_mutant_at_once(self):
        finding = inspection.Finding(("naive_single_block.cuh",), "macro", "#undef X")
        row = self.grade(findings=[finding], stop=True)
        self.assertEqual((row["points"], row["points_at_most"]), (0.0, 0.0))
        self.assertTrue(all(case["outcome"] == "stopped" for case in row["tests"]))

    def test_outputs_behind_a_link_are_not_read(self):
        with tempfile.TemporaryDirectory() as folder:
            scratch = pathlib.Path(folder) / "scratch"
            scratch.mkdir()
            right = pathlib.Path(folder) / "classmate.out"
            right.write_text("right")
            (scratch / "out.bin").symlink_to(right)
            self.assertIsNone(case_runs._read_no_links(scratch, "out.bin", 100))
            (scratch / "out.bin").unlink()
            (scratch / "out.bin").write_text("x" * 200)
            self.assertIsNone(case_runs._read_no_links(scratch, "out.bin", 100))  # too large
            os.mkfifo(scratch / "fifo")
            self.assertIsNone(case_runs._read_no_links(scratch, "fifo", 100))

    def test_the_order_of_the_plain_runs(self):
        def case(name, weight, tools=(), evidence=False):
            return {"name": name, "weight": weight, "tools": list(tools), "evidence": evidence}
        sweep = case("step4 checked tiles on every shape up to 20", 1)
        edges = case("step4 checked tiles at each tile edge", 3, ["memcheck"])
        gate = case("step4 evidence checked tiles", 0, evidence=True)
        order = sorted([sweep, edges, gate],
                       key=lambda c: grading.plain_priority(c, "step4", False))
        self.assertEqual(order, [gate, sweep, edges])
        order = sorted([sweep, edges, gate],
                       key=lambda c: grading.plain_priority(c, "step4", True))
        self.assertEqual(order, [gate, edges, sweep])


class Hangs(unittest.TestCase):
    def grade(self, root, with_other_hang):
        flag, runs, records = root / "hang", root / "runs", root / "records"
        flag.write_text("")
        other = subprocess.Popen(["sleep", "30"])
        if with_other_hang:  # another lane's student hangs now, and stops hanging after 2 s
            other_lane = gpu_share.GpuRecords(records, owner=other.pid)
            holding = threading.Event()

            def other_hangs():
                with other_lane.sharing():
                    record = other_lane.start_long_run(time.time())
                    holding.set()
                    time.sleep(2)
                    flag.unlink()
                    gpu_share.GpuRecords.end_long_run(record)
            threading.Thread(target=other_hangs, daemon=True).start()
            holding.wait(5)
        context, program = fake_world.make_world(root, ["step1 evidence"])
        restore = fake_world.environment(FAKE_MODE="hang", FAKE_HANG_FLAG=flag, FAKE_RUNS=runs)
        try:
            ctx = context(timeout=1.0, test_jobs=1, no_sanitizers=True)
            ctx.gpu = gpu_share.GpuRecords(records)
            with mock.patch.object(gpu_share, "SUSPECT_SECONDS", 0.2):
                cases = grading.grade_steps(ctx, {STEP1: program}, None, 1)["step1"][0]
        finally:
            restore()
            other.kill()
            other.wait()
        return cases[0], runs.read_text().count("run")

    def test_a_run_timed_out_beside_another_hang_is_run_again_and_counts_once(self):
        with tempfile.TemporaryDirectory() as folder:
            case, runs = self.grade(pathlib.Path(folder), with_other_hang=True)
            self.assertEqual((case["outcome"], case["message"]), ("passed", ""))
            self.assertEqual(runs, 2)

    def test_a_hang_alone_is_not_run_again(self):
        with tempfile.TemporaryDirectory() as folder:
            case, runs = self.grade(pathlib.Path(folder), with_other_hang=False)
            self.assertEqual(case["outcome"], "failed")
            self.assertTrue(case["message"].startswith("timed out after 1.0 s"))
            self.assertEqual(runs, 1)

    def test_the_hanging_runs_of_one_step_are_run_again_alone_once_before_they_count(self):
        # Side by side (test_jobs 2), a run that runs out of time may only have been slowed by
        # its sibling (case_runs.crowded): each is run once more alone, where a time-out counts.
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            names = ["hanging case 1", "hanging case 2"]
            context, program = fake_world.make_world(root, names)
            (root / "hang").write_text("")
            restore = fake_world.environment(FAKE_MODE="hang", FAKE_HANG_FLAG=root / "hang",
                                             FAKE_RUNS=root / "runs")
            graded = [plan.Graded(name, 1) for name in names]
            try:
                with mock.patch.object(gpu_share, "SUSPECT_SECONDS", 0.2), \
                        mock.patch.dict(plan.GRADED, {"step1": graded}), \
                        mock.patch.dict(plan.EVIDENCE, {"step1": ()}):
                    ctx = context(timeout=1.0, test_jobs=2, no_sanitizers=True)
                    ctx.gpu = gpu_share.GpuRecords(root / "records")
                    cases = grading.grade_steps(ctx, {STEP1: program}, None, 1)["step1"][0]
            finally:
                restore()
            self.assertEqual([case["outcome"] for case in cases], ["failed"] * 2)
            self.assertTrue(all(case["message"].startswith("timed out after") for case in cases))
            self.assertEqual((root / "runs").read_text().count("run"), 4)

    def test_later_cases_of_a_hanging_step_get_a_short_limit(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            names = [f"hanging case {index}" for index in range(5)]
            context, program = fake_world.make_world(root, names)
            (root / "hang").write_text("")
            restore = fake_world.environment(FAKE_MODE="hang", FAKE_HANG_FLAG=root / "hang")
            graded = [plan.Graded(name, 1) for name in names]
            started = time.monotonic()
            try:
                with mock.patch.object(grading, "HANG_TIMEOUT", 0.2), \
                        mock.patch.dict(plan.GRADED, {"step1": graded}), \
                        mock.patch.dict(plan.EVIDENCE, {"step1": ()}):
                    cases = grading.grade_steps(context(timeout=1.5, test_jobs=1,
                                                        no_sanitizers=True),
                                                {STEP1: program}, None, 1)["step1"][0]
            finally:
                restore()
            self.assertEqual([case["outcome"] for case in cases], ["failed"] * 5)
            limits = sorted(case["message"].split()[3] for case in cases)
            self.assertEqual(limits, ["0.2"] * 3 + ["1.5"] * 2)
            self.assertLess(time.monotonic() - started, 15)


class Stopping(unittest.TestCase):
    def test_points_at_most_counts_the_stopped_cases(self):
        def case(name, weight, outcome="passed", sanitizers=()):
            return {"name": name, "weight": weight, "outcome": outcome, "files": [],
                    "gate": "", "sanitizers": list(sanitizers), "message": ""}
        cases = [case("lost", 2, "failed"), case("earned", 1), case("stopped plain", 1, "stopped"),
                 case("stopped sanitizer", 1, sanitizers=[{"tool": "racecheck",
                                                           "outcome": "stopped"}])]
        row = scoring.make_row("step4", cases)
        self.assertEqual(row["points"], 4.0)          # 1 of 5
        self.assertEqual(row["points_at_most"], 12.0)  # 3 of 5
        self.assertEqual(row["stopped"], 2)


class EvidenceSideBySide(unittest.TestCase):
    def test_at_most_two_evidence_runs_at_a_time_while_the_other_runs_fill_the_slots(self):
        # Eight evidence runs begun together stalled beside each other on the H200
        # (2026-11-28); the other runs of the turn take the free slots meanwhile.
        lock, now, most = threading.Lock(), {"evidence": 0, "plain": 0}, {"evidence": 0, "all": 0}

        def run(kind, result):
            def fake(*_):
                with lock:
                    now[kind] += 1
                    most["evidence"] = max(most["evidence"], now["evidence"])
                    most["all"] = max(most["all"], now["evidence"] + now["plain"])
                time.sleep(0.05)
                with lock:
                    now[kind] -= 1
                return result
            return fake
        step_cases = mock.Mock(timed_out=0, step=STEP1)
        options = mock.Mock(test_jobs=8, timeout=30.0, sanitizer_timeout=90.0, no_sanitizers=False)
        cases = [{"name": f"case {index}", "evidence": index < 9, "tools": [], "weight": 1,
                  "message": "", "sanitizers": []} for index in range(20)]
        sequence = iter(range(100))
        queue = [((0,) if case["evidence"] else (2,), next(sequence), step_cases, case,
                  "evidence" if case["evidence"] else None) for case in cases]
        with mock.patch.object(grading, "run_evidence",
                               run("evidence", ("passed", "", 0.1, {"outcome": "seen"}))), \
                mock.patch.object(grading, "run_plain", run("plain", ("passed", "", 0.1))):
            grading.run_queue(sorted(queue), sequence, options, stop_mode=False)
        self.assertEqual(most["evidence"], grading.EVIDENCE_SIDE_BY_SIDE)
        self.assertEqual(most["all"], 8)
        self.assertTrue(all(case["outcome"] == "passed" for case in cases))


if __name__ == "__main__":
    unittest.main()


class ResourceFailures(unittest.TestCase):
    """A case that failed because the GPU's memory was full (another run of the same student
    held it) is run again alone before it costs anything; one that fails so alone too is the
    student's own."""

    def grade(self, stop=False, **env):
        restore = fake_world.environment(**env)
        try:
            with tempfile.TemporaryDirectory() as folder:
                context, program = fake_world.make_world(folder)
                return grading.rows_for([STEP1], {"step1": program}, {}, context(),
                                        fake_world.inspection_of(), 7, stop_mode=stop)[0]
        finally:
            restore()

    def test_a_run_that_found_the_memory_full_is_run_again_and_counts_once(self):
        with tempfile.TemporaryDirectory() as folder:
            once = pathlib.Path(folder) / "oom"
            once.write_text("")
            runs = pathlib.Path(folder) / "runs"
            row = self.grade(FAKE_OOM_ONCE=once, FAKE_RUNS=runs)
            self.assertFalse(once.exists())
            self.assertEqual(row["points"], 20.0)
            self.assertEqual(runs.read_text().count("run"), 7)  # the usual 6 and one again

    def test_a_run_to_be_run_again_does_not_stop_a_mutant(self):
        # The mutation check stops a step at its first lost case; a run that will be run
        # again alone has lost nothing yet (the 2026-11-28 check stopped four cheats that way).
        with tempfile.TemporaryDirectory() as folder:
            once = pathlib.Path(folder) / "oom"
            once.write_text("")
            row = self.grade(stop=True, FAKE_OOM_ONCE=once)
            self.assertFalse(once.exists())
            self.assertEqual((row["points"], row["stopped"]), (20.0, 0))

    def test_memory_full_even_alone_costs_the_case_with_the_reason(self):
        row = self.grade(FAKE_MODE="oom")
        self.assertEqual(row["points"], 0.0)
        graded = next(case for case in row["tests"] if case["weight"])
        self.assertTrue(graded["message"].startswith(case_runs.RESOURCE), graded["message"])
