"""Running tests and sanitizer runs: time limits, crashes, skips, the seed, sanitizer
verdicts. Fake programs stand in for the course's test programs and compute-sanitizer."""
import os
import pathlib
import tempfile
import time
import unittest
from unittest import mock

from tests.helpers import FAKE_TEST_PROGRAM, sample, script
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


class FakeProgramCase(unittest.TestCase):
    """A temporary folder holding a fake test program, for each test."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.folder.name)
        self.program = script(self.root / "test_fake", FAKE_TEST_PROGRAM)

    def tearDown(self):
        self.folder.cleanup()


class TestRuns(FakeProgramCase):

    def run_mode(self, mode, timeout=20):
        with mock.patch.dict(os.environ, {"FAKE_MODE": mode}):
            return runner.run_test(self.program, "kernel test", self.root / "r.xml", timeout, 42)

    def test_outcomes(self):
        self.assertEqual(self.run_mode("pass")[:2], ("passed", ""))
        outcome, message, _ = self.run_mode("fail")
        self.assertEqual(outcome, "failed")
        self.assertIn("got nan, expected 3", message)
        outcome, message, _ = self.run_mode("crash")
        self.assertEqual(outcome, "failed")
        self.assertIn("crashed or wrote no report (exit 139)", message)
        self.assertEqual(self.run_mode("skip")[0], "not run")

    def test_a_hanging_test_fails_at_its_limit(self):
        outcome, message, seconds = self.run_mode("hang", timeout=0.5)
        self.assertEqual(outcome, "failed")
        self.assertIn("timed out after 0.5 s", message)
        self.assertLess(seconds, 10)

    def test_the_seed_and_a_private_temporary_folder_reach_the_test(self):
        env = runner.test_environment(12345, self.root / "scratch")
        self.assertEqual(env["COURSE_SEED"], "12345")
        self.assertEqual(env["TMPDIR"], str(self.root / "scratch"))
        self.assertTrue((self.root / "scratch").is_dir())


class SanitizerRuns(FakeProgramCase):

    def fake_sanitizer(self, output_file, status, sleep=0):
        return script(self.root / "fake-sanitizer", f"""
            import sys, time
            time.sleep({sleep})
            sys.stdout.write(open({str(output_file)!r}, encoding="utf-8").read())
            sys.exit({status})
            """)

    def sanitize(self, tool, executable, timeout=20):
        return runner.sanitize_test(self.program, "kernel test", tool, timeout, 1,
                                    self.root / "s.log", str(executable))

    def test_errors_name_the_tool_and_kernel(self):
        from tests.helpers import DATA
        fake = self.fake_sanitizer(DATA / "memcheck_rect_tiles_k1.txt", 86)
        run = self.sanitize("memcheck", fake)
        self.assertEqual((run["outcome"], run["errors"], run["tool"]), ("errors", 8, "memcheck"))
        self.assertIn("rect_tiles_kernel", run["kernels"][0])
        self.assertIn("Invalid __global__ read", run["first_lines"])

    def test_a_clean_run(self):
        from tests.helpers import DATA
        run = self.sanitize("racecheck", self.fake_sanitizer(DATA / "racecheck_clean.txt", 0))
        self.assertEqual((run["outcome"], run["errors"]), ("clean", 0))

    def test_a_run_out_of_time(self):
        from tests.helpers import DATA
        fake = self.fake_sanitizer(DATA / "racecheck_clean.txt", 0, sleep=30)
        run = self.sanitize("racecheck", fake, timeout=0.5)
        self.assertEqual(run["outcome"], "timed out")

    def test_a_missing_sanitizer_is_not_run(self):
        run = self.sanitize("memcheck", self.root / "no-such-sanitizer")
        self.assertEqual(run["outcome"], "not run")

    def test_judging_without_a_summary(self):
        completed = runner.Completed(1, sample("initcheck_clean.txt").replace(
            "ERROR SUMMARY: 0 errors", ""), 1.0)
        run = runner.judge_sanitizer_run("initcheck", completed, 10)
        self.assertEqual(run["outcome"], "errors")  # the test failed under the tool
        self.assertIn("the test failed under initcheck", run["first_lines"])


if __name__ == "__main__":
    unittest.main()
