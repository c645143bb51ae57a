"""The sandbox with the real bwrap (Debian's bubblewrap): the course read-only, only the
run's own folders writable, the class and the host's /tmp hidden, no network, another user
(run as root), and no process left once the first one ends or the sandbox is killed."""
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from tests.helpers import GRADING
from gradelib import integrity, runner, sandbox

def bwrap_works():
    """Whether bwrap is installed and the kernel lets it make a sandbox (Ubuntu 24.04's
    AppArmor refuses unprivileged user namespaces unless a profile allows bwrap them:
    docs/distributions.md)."""
    if shutil.which("bwrap") is None:
        return False
    probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "true"],
                           capture_output=True, check=False)
    return probe.returncode == 0


HAVE_BWRAP = bwrap_works()


@unittest.skipUnless(HAVE_BWRAP, "bwrap (Debian's bubblewrap) is not installed, or cannot make a "
                                 "sandbox on this machine (docs/distributions.md)")
class Sandbox(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory(dir="/var/tmp")  # not under the hidden /tmp
        self.root = pathlib.Path(self.folder.name)
        self.classmate = self.root / "class" / "bob"
        self.classmate.mkdir(parents=True)
        (self.classmate / "grades.md").write_text("| bob | 100 |")
        self.scratch = self.root / "alice" / "scratch"
        self.box = sandbox.Sandbox(GRADING.parent, hide=[self.root / "class"])
        self.box.check()
        self.box.prepare_writable(self.scratch)

    def tearDown(self):
        self.folder.cleanup()

    def run_in(self, shell, timeout=30):
        return runner.run_limited(
            self.box.limited(self.box.command(["sh", "-c", shell], scratch=self.scratch)),
            timeout)

    def test_writes_reach_only_the_scratch_folder(self):
        result = self.run_in(
            f"touch {sandbox.SCRATCH}/mine && echo wrote; "
            f"touch {sandbox.COURSE}/planted 2>&1; "
            f"ls {self.classmate} 2>&1; cat {self.classmate}/grades.md 2>&1; "
            f"echo x >> /etc/hostname 2>&1; ls /tmp | wc -l")
        self.assertIn("wrote", result.output)
        self.assertTrue((self.scratch / "mine").exists())
        self.assertIn("Read-only file system", result.output)
        self.assertNotIn("| bob | 100 |", result.output)
        self.assertFalse((GRADING.parent / "planted").exists())
        self.assertEqual((self.classmate / "grades.md").read_text(), "| bob | 100 |")

    def test_no_network(self):
        result = self.run_in("cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '")
        self.assertEqual(result.output.split(), ["lo"])

    def test_another_user_without_capabilities(self):
        if os.geteuid() != 0:
            self.skipTest("only a root grader switches users")
        result = self.run_in("id -u; grep CapEff /proc/self/status")
        lines = result.output.split()
        self.assertEqual(lines[0], str(sandbox.DEFAULT_UID))
        self.assertEqual(lines[-1], "0000000000000000")

    def test_no_process_outlives_the_sandbox(self):
        marker = f"sleep {4000 + os.getpid() % 1000}"
        shell = f"setsid sh -c '{marker}' & (setsid {marker} &); {marker}"
        command = self.box.command(["sh", "-c", shell], scratch=self.scratch)
        process = subprocess.Popen(self.box.limited(command), start_new_session=True)
        time.sleep(1.5)
        self.assertTrue(self.matching(marker))
        os.killpg(process.pid, signal.SIGKILL)  # what run_limited does at the time limit
        process.wait()
        time.sleep(0.5)
        self.assertEqual(self.matching(marker), [])

    def test_a_grandchild_dies_with_the_first_process(self):
        marker = f"sleep {5000 + os.getpid() % 1000}"
        result = self.run_in(f"setsid sh -c '{marker}' & echo started")
        self.assertIn("started", result.output)
        time.sleep(0.5)
        self.assertEqual(self.matching(marker), [])

    def matching(self, marker):
        return [pid for pid, command in integrity.processes_of(
            sandbox.DEFAULT_UID if os.geteuid() == 0 else os.getuid()) if command == marker]


class WithoutSandbox(unittest.TestCase):
    def test_virtual_paths_are_the_hosts(self):
        box = sandbox.Sandbox("/course/here", enabled=False)
        command = box.command(["sh", "-c", f"echo > {sandbox.SCRATCH}/out",
                               f"-DX={sandbox.SUBMISSION}/step1"], submission="/s", scratch="/x")
        self.assertIn("echo > /x/out", command)
        self.assertIn("-DX=/s/step1", command)
        self.assertIn("NOT SANDBOXED", box.describe())


if __name__ == "__main__":
    unittest.main()
