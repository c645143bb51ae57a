"""The grading scripts' command lines: every script answers --help with its usage and does
nothing else; bad arguments are usage errors that write nothing; a submission is copied file
by file (links refused) whatever its path holds (spaces, '@', non-ASCII letters)."""
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

from tests.helpers import GRADING
from gradelib import build, plan

SCRIPTS = ["grade.py", "grade_class.py", "mutation_check.py", "make_class_example.py",
           "merge_class_runs.py", "run_all.sh", "check_grader.sh", "gpu_evidence.sh"]


class Help(unittest.TestCase):
    def test_every_script_answers_help_and_does_nothing_else(self):
        for name in SCRIPTS:
            with tempfile.TemporaryDirectory() as folder:
                command = ([sys.executable] if name.endswith(".py") else ["bash"])
                result = subprocess.run(command + [str(GRADING / name), "--help"], cwd=folder,
                                        capture_output=True, text=True, timeout=60,
                                        env=dict(os.environ, WORK=str(pathlib.Path(folder) /
                                                                      "work")))
                self.assertEqual(result.returncode, 0, (name, result.stderr))
                self.assertIn("usage" if name.endswith(".py") else "Usage", result.stdout, name)
                self.assertEqual(list(pathlib.Path(folder).iterdir()), [], name)

    def test_an_out_dir_that_looks_like_an_option_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            result = subprocess.run(["bash", str(GRADING / "gpu_evidence.sh"), "--bogus"],
                                    cwd=folder, capture_output=True, text=True, timeout=60)
            self.assertEqual(result.returncode, 2)
            self.assertEqual(list(pathlib.Path(folder).iterdir()), [])


class GradeArguments(unittest.TestCase):
    def grade(self, *arguments, env=None):
        return subprocess.run([sys.executable, str(GRADING / "grade.py"), *arguments],
                              capture_output=True, text=True, timeout=60,
                              env=env or dict(os.environ))

    def test_a_missing_folder_is_a_usage_error_and_writes_nothing(self):
        with tempfile.TemporaryDirectory() as folder:
            out = pathlib.Path(folder) / "out"
            result = self.grade("--kernels", str(pathlib.Path(folder) / "no" / "such"),
                                "--out-dir", str(out))
            self.assertEqual(result.returncode, 2)
            self.assertIn("no such folder", result.stderr)
            self.assertFalse(out.exists())

    def test_timeouts_must_be_positive(self):
        with tempfile.TemporaryDirectory() as folder:
            out = pathlib.Path(folder) / "out"
            for option in ("--timeout", "--sanitizer-timeout", "--configure-timeout",
                           "--build-timeout"):
                # Numbers follow the course's grammar, and a time limit is at most a day: inf
                # or 1e308 would turn it into none.
                for value in ("0", "-5", "abc", "inf", "1e308", "86401", " 5", "+5", "1_0",
                              "0x10", "nan"):
                    result = self.grade("--kernels", "exercise", option, value, "--out-dir",
                                        str(out))
                    self.assertEqual(result.returncode, 2, (option, value))
                    self.assertIn(option, result.stderr)
            self.assertFalse(out.exists())

    def test_an_empty_steps_list_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            out = pathlib.Path(folder) / "out"
            for value in ("", ","):
                result = self.grade("--kernels", "exercise", "--steps", value, "--out-dir",
                                    str(out))
                self.assertEqual(result.returncode, 2, value)
                self.assertIn("--steps needs at least one label", result.stderr)
            self.assertFalse(out.exists())

    def test_the_courses_own_folders_and_a_missing_pristine_are_refused(self):
        result = self.grade("--out-dir", str(GRADING / "gradelib" / "out"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("course's own folders", result.stderr)
        with tempfile.TemporaryDirectory() as folder:
            result = self.grade("--pristine", folder, "--out-dir", str(pathlib.Path(folder) / "o"))
            self.assertEqual(result.returncode, 2)
            self.assertIn("no course tree built there", result.stderr)

    def test_without_bwrap_grading_stops_unless_told_otherwise(self):
        with tempfile.TemporaryDirectory() as folder:
            env = dict(os.environ, PATH=folder)  # no bwrap on this PATH
            result = self.grade("--out-dir", str(pathlib.Path(folder) / "out"), env=env)
            self.assertEqual(result.returncode, 3)
            self.assertIn("bubblewrap", result.stderr)
            self.assertIn("--no-sandbox", result.stderr)


class Copies(unittest.TestCase):
    def test_only_the_student_files_are_copied_and_links_are_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            student = root / "07-zoë a@uni.edu hw@1"
            build.course_version(GRADING.parent, "reference", student, plan.STEPS)
            (student / "step2_three_approaches" / "step2_launchers.cu").write_text("// own")
            (student / "step2_three_approaches" / "notes.txt").write_text("ignored")
            secret = root / "classmate.cuh"
            secret.write_text("// a classmate's file")
            tiled = student / "step3_shared_tiling" / "tiled_shared.cuh"
            tiled.unlink()
            tiled.symlink_to(secret)
            copy = root / "copy"
            notes = build.copy_submission(student, copy, plan.STEPS)
            self.assertEqual(set(notes), {"step3"})
            self.assertIn("is a link", notes["step3"])
            self.assertFalse((copy / "step3_shared_tiling").exists())
            self.assertFalse((copy / "step2_three_approaches" / "step2_launchers.cu").exists())
            self.assertFalse((copy / "step2_three_approaches" / "notes.txt").exists())
            self.assertTrue((copy / "step2_three_approaches" / "single_block_loop.cuh").is_file())

    def test_a_step_that_links_a_missing_step_is_not_built(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            build.course_version(GRADING.parent, "reference", root / "s", plan.STEPS[2:3])
            notes = build.copy_submission(root / "s", root / "copy", plan.STEPS)
            self.assertIn("links the kernels of step2_three_approaches", notes["step3"])


if __name__ == "__main__":
    unittest.main()
