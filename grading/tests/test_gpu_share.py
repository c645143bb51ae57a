"""A hang costs points only where it is: a run that ran out of time while another long GPU run
went on (another student's in a class run, or another test's of the same submission) is run
again alone on the GPU (gradelib/gpu_share.py); a run that hangs alone is not."""
import os
import pathlib
import subprocess
import tempfile
import threading
import time
import types
import unittest
from unittest import mock

from tests.helpers import script
from gradelib import gpu_share, grading, plan, runner

# A test program whose one graded test hangs while the file HANG_FLAG names exists, and counts
# its runs in RUNS.
PROGRAM = """
import os, pathlib, sys, time
if sys.argv[1] == "--course-list-tests":
    print("{name}\\tgpu")
    sys.exit(0)
with open(os.environ["RUNS"], "a") as runs:
    runs.write("run\\n")
while pathlib.Path(os.environ["HANG_FLAG"]).exists():
    time.sleep(0.05)
report = sys.argv[sys.argv.index("-o") + 1]
with open(report, "w") as out:
    out.write('<testsuites><testsuite><testcase name="x"/></testsuite></testsuites>')
"""


class Records(unittest.TestCase):
    def test_a_run_overlapping_another_graders_long_run_is_disturbed(self):
        with tempfile.TemporaryDirectory() as folder:
            mine = gpu_share.GpuRecords(folder, owner=os.getpid())
            other = gpu_share.GpuRecords(folder, owner=os.getppid())
            record = other.start_long_run(100.0)
            self.assertTrue(mine.running())
            other.end_long_run(record, 200.0)
            self.assertFalse(mine.running())
            self.assertTrue(mine.disturbed(150.0, 300.0))
            self.assertTrue(mine.disturbed(50.0, 100.0))
            self.assertFalse(mine.disturbed(201.0, 300.0))
            self.assertFalse(mine.disturbed(10.0, 99.0))
            # A run is not disturbed by itself.
            self.assertFalse(other.disturbed(150.0, 300.0, own_record=record))

    def test_a_killed_graders_open_record_counts_as_ended(self):
        with tempfile.TemporaryDirectory() as folder:
            dead = subprocess.Popen(["true"])
            dead.wait()
            gpu_share.GpuRecords(folder, owner=dead.pid).start_long_run(time.time())
            mine = gpu_share.GpuRecords(folder, owner=os.getpid())
            self.assertFalse(mine.running())

    def test_run_limited_records_only_runs_past_the_suspect_time(self):
        with tempfile.TemporaryDirectory() as folder:
            records = gpu_share.GpuRecords(folder, owner=os.getpid())
            with mock.patch.object(gpu_share, "SUSPECT_SECONDS", 0.3):
                quick = runner.run_limited(["sleep", "0.05"], 5, gpu=records)
                self.assertEqual(list(pathlib.Path(folder).glob("*.run")), [])
                slow = runner.run_limited(["sleep", "1"], 5, gpu=records)
            self.assertEqual((quick.status, slow.status), (0, 0))
            recorded = list(pathlib.Path(folder).glob("*.run"))
            self.assertEqual(len(recorded), 1)
            self.assertEqual(len(recorded[0].read_text().split()), 3)  # ended


class Gate(unittest.TestCase):
    """alone() holds the whole GPU: no run of another grader starts inside it, and it starts
    only once the runs in progress are over."""

    def test_no_run_starts_while_a_second_run_holds_the_gpu(self):
        with tempfile.TemporaryDirectory() as folder:
            mine = gpu_share.GpuRecords(folder, owner=1)
            other = gpu_share.GpuRecords(folder, owner=2)
            started = threading.Event()

            def other_run():
                with other.sharing():
                    started.set()
            with mine.alone():
                runner_thread = threading.Thread(target=other_run, daemon=True)
                runner_thread.start()
                self.assertFalse(started.wait(0.5))
                with mine.sharing():  # this grader's own second runs pass
                    pass
            self.assertTrue(started.wait(5))
            runner_thread.join(5)

    def test_a_second_run_waits_for_the_runs_in_progress(self):
        with tempfile.TemporaryDirectory() as folder:
            mine = gpu_share.GpuRecords(folder, owner=1)
            other = gpu_share.GpuRecords(folder, owner=2)
            holding, ended = threading.Event(), []

            def other_run():
                with other.sharing():
                    holding.set()
                    time.sleep(0.6)
                    ended.append(time.monotonic())
            threading.Thread(target=other_run, daemon=True).start()
            self.assertTrue(holding.wait(5))
            with mine.alone():
                entered = time.monotonic()
            self.assertEqual(len(ended), 1)
            self.assertGreaterEqual(entered, ended[0])

    def test_first_runs_share_the_gate(self):
        with tempfile.TemporaryDirectory() as folder:
            first = gpu_share.GpuRecords(folder, owner=1)
            second = gpu_share.GpuRecords(folder, owner=2)
            with first.sharing():
                done = threading.Event()

                def other_run():
                    with second.sharing():
                        done.set()
                threading.Thread(target=other_run, daemon=True).start()
                self.assertTrue(done.wait(5))


class Regrading(unittest.TestCase):
    def grade(self, root, with_other_hang):
        graded_name = next(iter(plan.graded_tests(plan.STEPS[0].label)))
        program = script(root / "test_step1", PROGRAM.replace("{name}", graded_name))
        flag, runs = root / "hang", root / "runs"
        flag.write_text("")
        records = root / "records"
        other = subprocess.Popen(["sleep", "30"])
        if with_other_hang:  # another lane's student hangs now, and stops hanging after 2 s
            other_lane = gpu_share.GpuRecords(records, owner=other.pid)
            holding = threading.Event()

            def other_hangs():
                with other_lane.sharing():  # its run holds a share of the gate while it hangs
                    record = other_lane.start_long_run(time.time())
                    holding.set()
                    time.sleep(2)
                    flag.unlink()
                    gpu_share.GpuRecords.end_long_run(record)
            threading.Thread(target=other_hangs, daemon=True).start()
            holding.wait(5)
        options = types.SimpleNamespace(timeout=1.0, sanitizer_timeout=1, test_jobs=1,
                                        sanitizer="none", no_sanitizers=True)
        environment = {gpu_share.ENVIRONMENT: str(records), "HANG_FLAG": str(flag),
                       "RUNS": str(runs)}
        try:
            with mock.patch.dict(os.environ, environment), \
                    mock.patch.object(gpu_share, "SUSPECT_SECONDS", 0.2):
                graded = grading.grade_programs({plan.STEPS[0]: program}, options, root, 1)
        finally:
            other.kill()
            other.wait()
        tests, _ = graded["step1"]
        return tests[0], runs.read_text().count("run")

    def test_a_test_timed_out_beside_another_hang_is_run_again_and_counts_once(self):
        with tempfile.TemporaryDirectory() as folder:
            test, runs = self.grade(pathlib.Path(folder), with_other_hang=True)
            self.assertEqual((test["outcome"], test["message"]), ("passed", ""))
            self.assertEqual(runs, 2)

    def test_a_second_run_waits_for_another_graders_second_runs(self):
        # Another grader holds the lock for second runs and runs a hang again, not yet long
        # enough to leave a record; our second run must wait for it, not run beside it.
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            graded_name = next(iter(plan.graded_tests(plan.STEPS[0].label)))
            program = script(root / "test_step1", PROGRAM.replace("{name}", graded_name))
            flag, runs, records = root / "hang", root / "runs", root / "records"
            flag.write_text("")
            other = gpu_share.GpuRecords(records, owner=os.getppid())
            record = other.start_long_run(time.time())
            holding = threading.Event()

            def other_grader():
                time.sleep(0.5)
                gpu_share.GpuRecords.end_long_run(record)  # its first runs are over...
                with other.alone():  # ...and its second run (the hang again) starts
                    holding.set()
                    time.sleep(2.5)
                    flag.unlink()
            threading.Thread(target=other_grader, daemon=True).start()
            options = types.SimpleNamespace(timeout=1.0, sanitizer_timeout=1, test_jobs=1,
                                            sanitizer="none", no_sanitizers=True)
            environment = {gpu_share.ENVIRONMENT: str(records), "HANG_FLAG": str(flag),
                           "RUNS": str(runs)}
            with mock.patch.dict(os.environ, environment), \
                    mock.patch.object(gpu_share, "SUSPECT_SECONDS", 0.2):
                graded = grading.grade_programs({plan.STEPS[0]: program}, options, root, 1)
            test = graded["step1"][0][0]
            self.assertTrue(holding.is_set())
            self.assertEqual((test["outcome"], test["message"]), ("passed", ""))
            self.assertEqual(runs.read_text().count("run"), 2)

    def test_a_hang_alone_is_not_run_again(self):
        with tempfile.TemporaryDirectory() as folder:
            test, runs = self.grade(pathlib.Path(folder), with_other_hang=False)
            self.assertEqual(test["outcome"], "failed")
            self.assertTrue(test["message"].startswith("timed out after 1.0 s"))
            self.assertEqual(runs, 1)


if __name__ == "__main__":
    unittest.main()
