"""Each student fenced off from the others, without a GPU: a run writes only its three files
to the disk, each at most sandbox.RUN_FILE_LIMIT bytes (a flood stops at the limit and the
log keeps a head and a tail), its scratch folder, /tmp and /dev/shm are tmpfs of a bounded
size, each lane of a class runs as a user of its own, and no process is left behind: zombies
are seen, reaped by a subreaper grader, and what outlives a student is killed by its id."""
import os
import pathlib
import shutil
import subprocess
import tempfile
import time
import unittest
from unittest import mock

from tests.helpers import GRADING
from gradelib import case_runs, integrity, output_limits, runner, sandbox

HAVE_BWRAP = shutil.which("bwrap") is not None


@unittest.skipUnless(HAVE_BWRAP, "bwrap (Debian's bubblewrap) is not installed")
class RunFiles(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(dir="/var/tmp")
        self.scratch = pathlib.Path(self.folder.name) / "scratch"
        self.scratch.mkdir()
        (self.scratch / "in.bin").write_bytes(b"inputs")
        for name in ("out.bin", "runner.log"):
            (self.scratch / name).write_bytes(b"")
        self.box = sandbox.Sandbox(GRADING.parent)
        self.box.check()
        self.box.prepare_writable(self.scratch)

    def tearDown(self):
        self.folder.cleanup()

    def run_in(self, shell, timeout=60):
        return runner.run_limited(
            self.box.limited(self.box.command(["sh", "-c", shell], scratch=self.scratch,
                                              run_files=case_runs.RUN_FILES), run=True),
            timeout)

    def test_only_the_runs_files_reach_the_disk(self):
        scratch = sandbox.SCRATCH
        result = self.run_in(
            f"cat {scratch}/in.bin; echo; echo outputs > {scratch}/out.bin; "
            f"echo printed > {scratch}/runner.log; echo extra > {scratch}/planted && echo made; "
            f"echo x >> {scratch}/in.bin 2>&1; rm {scratch}/out.bin 2>&1; "
            f"df -k {scratch} /tmp /dev/shm | tail -3")
        self.assertIn("inputs", result.output)
        self.assertIn("made", result.output)  # a file of its own, in memory only ...
        self.assertFalse((self.scratch / "planted").exists())  # ... never on the disk
        self.assertEqual((self.scratch / "out.bin").read_text(), "outputs\n")
        self.assertEqual((self.scratch / "runner.log").read_text(), "printed\n")
        self.assertEqual((self.scratch / "in.bin").read_bytes(), b"inputs")  # read-only
        sizes = [int(line.split()[1]) for line in result.output.strip().splitlines()[-3:]]
        self.assertEqual(sizes, [sandbox.SCRATCH_SIZE >> 10, sandbox.TMP_SIZE >> 10,
                                 sandbox.SHM_SIZE >> 10])

    def test_a_flood_stops_at_the_file_limit_and_the_log_keeps_a_head_and_a_tail(self):
        limit = 4 << 20
        command = self.box.command(
            ["sh", "-c", f"head -c {64 << 20} /dev/zero | tr '\\0' x > "
                         f"{sandbox.SCRATCH}/runner.log; echo status $?"],
            scratch=self.scratch, run_files=case_runs.RUN_FILES)
        with mock.patch.object(sandbox, "RUN_FILE_LIMIT", limit):
            command = self.box.limited(command, run=True)
        result = runner.run_limited(command, 60)
        self.assertNotIn("status 0", result.output)  # SIGXFSZ stopped the writer
        self.assertEqual((self.scratch / "runner.log").stat().st_size, limit)
        with mock.patch.object(sandbox, "RUN_FILE_LIMIT", limit):
            note = case_runs.after_run(self.scratch)
        self.assertIn("was stopped at the limit", note)
        kept = (self.scratch / "runner.log").stat().st_size
        self.assertLess(kept, output_limits.RUNNER_LOG_LIMIT + 200)
        self.assertIn(b"left out by the grader", (self.scratch / "runner.log").read_bytes())

    def test_the_probe_and_builds_keep_their_own_limits(self):
        self.check_limits()

    def test_without_prlimit_python_sets_the_same_limits(self):
        real_which = shutil.which
        with mock.patch.object(sandbox.shutil, "which",
                               lambda name: None if name == "prlimit" else real_which(name)):
            self.assertNotIn("prlimit", self.box.limited(["true"]))
            self.check_limits()

    def check_limits(self):
        self.assertEqual(self.limit_of(run=False), sandbox.FILE_SIZE_LIMIT)
        self.assertEqual(self.limit_of(run=True), sandbox.RUN_FILE_LIMIT)
        self.assertEqual(self.shell("ulimit -c", run=True), "0")
        self.assertEqual(self.shell("grep 'Max processes' /proc/self/limits", run=True).split()[2],
                         str(sandbox.PROCESS_LIMIT))
        # Builds yield the CPU to the runs of the student whose turn it is.
        niceness = [int(self.shell("nice", run)) for run in (False, True)]
        # (Niceness stops at 19: a test run under nice sees the difference cut there.)
        self.assertEqual(niceness[0], min(19, niceness[1] + sandbox.BUILD_NICENESS))

    def shell(self, script, run):
        """What @p script prints behind the limits of a build (@p run False) or a run; no
        preexec_fn is involved (sandbox._limits)."""
        return subprocess.run(self.box.limited(["sh", "-c", script], run=run),
                              capture_output=True, text=True, check=True).stdout.strip()

    def limit_of(self, run):
        return int(self.shell("ulimit -f", run)) * 512  # ulimit -f counts 512-byte blocks


class OutputLimits(unittest.TestCase):
    def test_read_bounded_keeps_a_head_and_a_tail(self):
        with tempfile.TemporaryFile() as stream:
            stream.write(b"skip" + b"h" * 100 + b"m" * 1000 + b"t" * 50)
            data = output_limits.read_bounded(stream, 4, head=100, tail=50)
        self.assertTrue(data.startswith(b"h" * 100))
        self.assertTrue(data.endswith(b"t" * 50))
        self.assertIn(b"1000 bytes of output left out", data)
        with tempfile.TemporaryFile() as stream:
            stream.write(b"short")
            self.assertEqual(output_limits.read_bounded(stream, 0), b"short")

    def test_cap_file_cuts_in_place_and_leaves_small_files_and_links(self):
        with tempfile.TemporaryDirectory() as folder:
            log = pathlib.Path(folder) / "log"
            log.write_bytes(b"a" * 1000 + b"b" * 9000 + b"z" * 3000)
            self.assertEqual(output_limits.cap_file(log, 4000), 13000)
            data = log.read_bytes()
            self.assertTrue(data.startswith(b"a" * 1000))
            self.assertTrue(data.endswith(b"z" * 3000))
            self.assertLess(len(data), 4100)
            small = pathlib.Path(folder) / "small"
            small.write_bytes(b"ok")
            self.assertEqual(output_limits.cap_file(small, 4000), 2)
            self.assertEqual(small.read_bytes(), b"ok")
            link = pathlib.Path(folder) / "link"
            link.symlink_to(log)
            self.assertEqual(output_limits.cap_file(link, 10), 0)  # not followed

    def test_a_run_reads_and_logs_at_most_a_head_and_a_tail(self):
        with tempfile.TemporaryDirectory() as folder:
            log = pathlib.Path(folder) / "tool.log"
            result = runner.run_limited(
                ["sh", "-c", f"head -c {10 << 20} /dev/zero | tr '\\0' x; echo; "
                             "echo '========= ERROR SUMMARY: 0 errors'"], 60, log_path=log)
            self.assertLess(len(result.output), output_limits.READ_HEAD
                            + output_limits.READ_TAIL + 200)
            self.assertTrue(result.output.rstrip().endswith("ERROR SUMMARY: 0 errors"))
            self.assertLess(log.stat().st_size, output_limits.LOG_LIMIT + 1000)


class Users(unittest.TestCase):
    def test_each_lane_has_a_user_of_its_own_never_the_mutation_checks(self):
        uids = [sandbox.lane_uid(lane) for lane in range(16)]
        self.assertEqual(uids[0], sandbox.DEFAULT_UID)
        self.assertEqual(len(set(uids)), 16)
        self.assertNotIn(sandbox.MUTATION_UID, uids)


class Leftovers(unittest.TestCase):
    def test_a_zombie_is_seen_and_a_subreaper_reaps_it(self):
        self.assertTrue(integrity.become_subreaper())
        # The shell leaves a child behind and ends: the child is adopted by this process
        # (a subreaper) and, once it ends, is a zombie here until reaped.
        result = subprocess.run(["sh", "-c", "sleep 0.3 & echo $!"], capture_output=True,
                                text=True, check=True)
        orphan = int(result.stdout)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            state = [detail for detail in integrity.process_details(os.getuid())
                     if detail[0] == orphan]
            if state and state[0][2].startswith("Z"):
                break
            time.sleep(0.05)
        self.assertTrue(state and state[0][2].startswith("Z"), state)
        self.assertEqual(state[0][3], os.getpid())
        self.assertIn("zombie", integrity.describe(state)[0])
        integrity.reap_orphans()
        self.assertFalse([detail for detail in integrity.process_details(os.getuid())
                          if detail[0] == orphan])

    def test_settle_kills_what_is_left_by_its_id(self):
        marker = f"sleep {6000 + os.getpid() % 1000}"
        process = subprocess.Popen(["sh", "-c", f"exec {marker}"])
        try:
            with mock.patch.object(integrity, "process_details",
                                   side_effect=lambda uids: [
                                       detail for detail in integrity_details(os.getuid())
                                       if detail[1] == marker]):
                left = integrity.settle(os.getuid(), wait=0.3, kill=True,
                                        keep={process.pid})
            self.assertEqual(left, [])
            self.assertEqual(process.wait(timeout=5), -9)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


integrity_details = integrity.process_details


if __name__ == "__main__":
    unittest.main()


class ClassRunPieces(unittest.TestCase):
    """grade_class.py hands each student its budget, its lane's count and its lane's user,
    names a spent budget in the student's note, and kills what a student left behind."""

    def test_a_student_gets_its_budget_and_its_lanes_user(self):
        import argparse
        import grade_class
        args = argparse.Namespace(seed=7, timeout=30.0, sanitizer_timeout=90.0, budget=120.0,
                                  student_timeout=2400.0, no_sandbox=False, keep_builds=False,
                                  cmake_arg=[])
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            (root / "students" / "ann").mkdir(parents=True)
            completed = runner.Completed(0, "", 1.0)
            with mock.patch.object(runner, "run_limited", return_value=completed) as run, \
                    mock.patch.object(grade_class, "leftovers", return_value=[]):
                grade_class.grade_student(root / "students" / "ann", root / "pristine", args,
                                          (8, 8), root / "out", root / "students", lane=2,
                                          lanes_count=3)
            command = run.call_args[0][0]
        self.assertEqual(command[command.index("--budget") + 1], "120.0")
        self.assertEqual(command[command.index("--budget-lanes") + 1], "3")
        self.assertEqual(command[command.index("--sandbox-uid") + 1],
                         str(sandbox.lane_uid(2)))

    def test_a_spent_budget_is_named_in_the_note(self):
        import grade_class
        grade = {"time": {"budget_seconds": 120, "expired": True},
                 "steps": [{"out_of_time": 3}, {"out_of_time": 2}]}
        self.assertIn("5 case(s) not run", grade_class.budget_note(grade))
        self.assertEqual(grade_class.budget_note({"time": {"expired": False}, "steps": []}),
                         "")
