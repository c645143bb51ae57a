"""Commands under time limits, and sanitizer runs judged from compute-sanitizer's output."""
import pathlib
import tempfile
import time
import unittest

from tests.helpers import sample
from gradelib import runner


class Limits(unittest.TestCase):
    def test_a_command_past_its_limit_is_killed_with_its_children(self):
        started = time.monotonic()
        result = runner.run_limited(["sh", "-c", "sleep 30 & sleep 30"], 0.5)
        self.assertTrue(result.timed_out)
        self.assertLess(time.monotonic() - started, 10)

    def test_output_and_status_are_kept(self):
        with tempfile.TemporaryDirectory() as folder:
            log = pathlib.Path(folder) / "log"
            result = runner.run_limited(["sh", "-c", "echo out; echo err >&2; exit 3"], 10,
                                        log_path=log)
            self.assertEqual(result.status, 3)
            self.assertIn("out", result.output)
            self.assertIn("err", result.output)
            self.assertIn("(exit 3)", log.read_text())

    def test_a_run_out_of_time_says_what_its_processes_were_doing(self):
        with tempfile.TemporaryDirectory() as folder:
            log = pathlib.Path(folder) / "log"
            result = runner.run_limited(
                ["sh", "-c", "sleep 30 & exec sh -c 'while :; do :; done'"], 1.0, log_path=log)
            self.assertTrue(result.timed_out)
            # The shell spins (R); its child sleeps (S) in the kernel function it waits in.
            self.assertRegex(result.at_limit, r"^sh \(R\) \[sleep \(S(, in \w+)?\)\]$")
            self.assertIn(f"(at the time limit: {result.at_limit})", log.read_text())
            self.assertIn("at the time limit: sh (R)", runner.timeout_message(result, 1.0))
        finished = runner.run_limited(["true"], 10)
        self.assertEqual((finished.at_limit, runner.timeout_message(finished, 10)),
                         ("", "timed out after 10 s (a kernel that never finishes?)"))


class SanitizerRuns(unittest.TestCase):
    """A sanitizer run judged from compute-sanitizer's own output (recorded on the H100)."""

    def judged(self, name, status, seconds=1.0, charged=None):
        return runner.judge_sanitizer_run("memcheck", runner.Completed(status, sample(name),
                                                                       seconds), 10, charged)

    def test_errors_name_the_tool_and_kernel(self):
        run = self.judged("memcheck_rect_tiles_k1.txt", 86)
        self.assertEqual((run["outcome"], run["errors"], run["tool"]), ("errors", 8, "memcheck"))
        self.assertIn("rect_tiles_kernel", run["kernels"][0])
        self.assertIn("Invalid __global__ read", run["first_lines"])

    def test_a_clean_run(self):
        run = self.judged("racecheck_clean.txt", 0)
        self.assertEqual((run["outcome"], run["errors"]), ("clean", 0))

    def test_a_run_out_of_time(self):
        run = self.judged("racecheck_clean.txt", None)
        self.assertEqual(run["outcome"], "timed out")

    def test_a_run_without_a_summary_proves_nothing(self):
        completed = runner.Completed(0, sample("initcheck_clean.txt").replace(
            "ERROR SUMMARY: 0 errors", ""), 1.0)
        run = runner.judge_sanitizer_run("initcheck", completed, 10)
        self.assertEqual(run["outcome"], "errors")
        self.assertIn("wrote no summary", run["first_lines"])

    def test_the_exit_status_counts_whatever_the_output_says(self):
        # A runner may print a forged "ERROR SUMMARY: 0 errors"; --error-exitcode is the tool's.
        completed = runner.Completed(86, "========= ERROR SUMMARY: 0 errors\n", 1.0)
        self.assertEqual(runner.judge_sanitizer_run("memcheck", completed, 10)["outcome"],
                         "errors")


if __name__ == "__main__":
    unittest.main()


class CrowdedRuns(unittest.TestCase):
    """A run that ran out of time beside the student's own runs is run again alone
    (case_runs.crowded) before it costs anything; alone, a time-out counts."""

    def test_a_time_out_beside_other_runs_is_disturbed(self):
        from gradelib import case_runs
        import argparse
        timed_out = runner.Completed(None, "", 30.0)
        side_by_side = argparse.Namespace(test_jobs=8)
        self.assertTrue(case_runs.crowded(timed_out, side_by_side).disturbed)

    def test_alone_a_time_out_counts_and_a_finished_run_is_left_alone(self):
        from gradelib import case_runs
        import argparse
        alone = argparse.Namespace(test_jobs=1)
        self.assertFalse(case_runs.crowded(runner.Completed(None, "", 30.0), alone).disturbed)
        finished = runner.Completed(0, "", 1.0)
        side_by_side = argparse.Namespace(test_jobs=8)
        self.assertFalse(case_runs.crowded(finished, side_by_side).disturbed)
