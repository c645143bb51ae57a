"""A hang costs points only where it is: a run that ran out of time while another long GPU run
went on (another student's in a class run, or another test's of the same submission) is run
again alone on the GPU (gradelib/gpu_share.py); a run that hangs alone is not (the runs
themselves: test_grading_flow.Hangs)."""
import os
import pathlib
import subprocess
import tempfile
import threading
import time
import unittest
from unittest import mock

from gradelib import gpu_share, runner



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

    def test_the_runs_of_one_step_of_one_grader_do_not_disturb_each_other(self):
        with tempfile.TemporaryDirectory() as folder:
            grader = gpu_share.GpuRecords(folder, owner=os.getpid())
            step1, step4 = grader.step("step1"), grader.step("step4")
            hang = step1.start_long_run(100.0)  # a step-1 kernel that never ends
            step1.end_long_run(hang, 145.0)
            # Another run of step 1 that timed out beside it hung on its own kernel ...
            self.assertFalse(step1.disturbed(100.0, 145.0))
            # ... step 4's sweep that timed out beside it was slowed down by it ...
            self.assertTrue(step4.disturbed(110.0, 150.0))
            # ... and so was another grader's step 1 (a slot of the mutation check).
            self.assertTrue(grader.grader("slot-2").step("step1").disturbed(110.0, 150.0))

    def test_a_step_shares_its_graders_alone_but_another_grader_does_not(self):
        with tempfile.TemporaryDirectory() as folder:
            slot = gpu_share.GpuRecords(folder, owner=1).grader("slot-1")
            other_slot = gpu_share.GpuRecords(folder, owner=1).grader("slot-2")
            started = threading.Event()

            def other_run():
                with other_slot.step("step4").sharing():
                    started.set()
            with slot.alone():
                with slot.step("step4").sharing():  # its own second runs pass
                    pass
                thread = threading.Thread(target=other_run, daemon=True)
                thread.start()
                self.assertFalse(started.wait(0.5))
            self.assertTrue(started.wait(5))
            thread.join(5)

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
            self.assertEqual(len(recorded[0].read_text().splitlines()[0].split()), 3)  # ended


    def test_a_run_under_a_short_limit_is_recorded_at_half_of_it(self):
        with tempfile.TemporaryDirectory() as folder:
            records = gpu_share.GpuRecords(folder, owner=os.getpid())
            hang = runner.run_limited(["sleep", "5"], 1.0, gpu=records)  # SUSPECT_SECONDS: 45
            self.assertTrue(hang.timed_out)
            self.assertEqual(len(list(pathlib.Path(folder).glob("*.run"))), 1)


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


if __name__ == "__main__":
    unittest.main()
