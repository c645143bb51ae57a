"""grade.py end to end with a fake cmake, a fake compute-sanitizer and fake test programs:
its arguments, time limits, missing or broken steps and paths with '@', spaces and
non-ASCII letters."""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

from tests.helpers import GRADING, fake_course_tools
from gradelib import plan

GRADE = GRADING / "grade.py"


class GradeCommand(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.folder.name)
        self.env, self.sanitizer = fake_course_tools(self.root)

    def tearDown(self):
        self.folder.cleanup()

    def grade(self, *arguments, **env):
        return subprocess.run([sys.executable, str(GRADE), *arguments], capture_output=True,
                              text=True, env=dict(self.env, **env), timeout=120)

    def submission(self, name, steps=None):
        """A student folder holding the student files of @p steps (default all)."""
        folder = self.root / name
        for step in plan.STEPS:
            if steps is not None and step.label not in steps:
                continue
            (folder / step.folder).mkdir(parents=True, exist_ok=True)
            for file_name in step.student_files:
                (folder / step.folder / file_name).write_text("// student code\n")
        return folder

    def test_a_missing_folder_is_a_usage_error_and_writes_nothing(self):
        out = self.root / "out"
        result = self.grade("--kernels", str(self.root / "no" / "such"), "--out-dir", str(out))
        self.assertEqual(result.returncode, 2)
        self.assertIn("no such folder", result.stderr)
        self.assertFalse(out.exists())

    def test_timeouts_must_be_positive(self):
        for option in ("--timeout", "--sanitizer-timeout", "--configure-timeout",
                       "--build-timeout"):
            for value in ("0", "-5", "abc"):
                result = self.grade("--kernels", "exercise", option, value,
                                    "--out-dir", str(self.root / "out"))
                self.assertEqual(result.returncode, 2, (option, value))
                self.assertIn(option, result.stderr)
        self.assertFalse((self.root / "out").exists())

    def test_the_courses_own_build_is_refused_and_never_the_default(self):
        result = self.grade("--kernels", "exercise", "--build-dir",
                            str(GRADING.parent / "build"), "--out-dir", str(self.root / "o"))
        self.assertEqual(result.returncode, 2)
        self.assertIn("course's own build", result.stderr)
        student = self.submission("plain")
        out = self.root / "out"
        result = self.grade("--kernels", str(student), "--out-dir", str(out), "--steps", "step1",
                            "--sanitizer", str(self.sanitizer))
        self.assertTrue((out / "build" / "fake-configure.json").exists(), result.stderr)

    def test_any_path_and_broken_or_missing_steps(self):
        student = self.submission("zoë a@uni.edu/hw@1", steps={"step1", "step2", "step3",
                                                              "step4"})
        (student / "step2_three_approaches" / "single_block_loop.cuh").write_text("COMPILE_ERROR")
        (student / "step4_boundary_checks" / "rect_tiles.cuh").unlink()
        out = self.root / "out dir"
        result = self.grade("--kernels", str(student), "--out-dir", str(out), "--seed", "77",
                            "--sanitizer", str(self.sanitizer))
        self.assertEqual(result.returncode, 1, result.stderr)
        configured = json.loads((out / "build" / "fake-configure.json").read_text("utf-8"))
        self.assertEqual(configured["defines"]["COURSE_KERNELS"], str(student.resolve()))
        grades = json.loads((out / "grades.json").read_text(encoding="utf-8"))
        points = {row["step"]: (row["points"], row["note"]) for row in grades["steps"]}
        self.assertEqual(points["step1"], (20.0, ""))
        self.assertEqual(points["step3"][0], 20.0)
        self.assertEqual(points["step2"][0], 0.0)
        self.assertIn("does not build", points["step2"][1])
        self.assertIn("single_block_loop.cuh", points["step2"][1])
        self.assertIn("lacks rect_tiles.cuh", points["step4"][1])
        self.assertIn("missing: no folder step5_tensor_core_sddmm", points["step5"][1])
        self.assertEqual(grades["total_points"], 40.0)
        self.assertEqual(grades["seed"], 77)
        report = (out / "grades.md").read_text(encoding="utf-8")
        self.assertIn("Seed of this run: `77`", report)
        self.assertIn("--seed 77", report)
        self.assertIn("| memcheck | clean |", report)

    def test_failing_graded_tests_cost_points_and_course_tests_none(self):
        student = self.submission("failing", steps={"step1"})
        out = self.root / "out"
        self.grade("--kernels", str(student), "--out-dir", str(out), "--steps", "step1",
                   "--sanitizer", str(self.sanitizer), FAKE_MODE="fail")
        grades = json.loads((out / "grades.json").read_text(encoding="utf-8"))
        row = grades["steps"][0]
        self.assertEqual((row["points"], row["course_passed"], row["course_total"]), (0.0, 1, 1))
        self.assertIn("Graded tests that lost points", (out / "grades.md").read_text())

    def test_sanitizers_check_the_kernels_of_the_students_files(self):
        student = self.submission("kernels", steps={"step1"})
        (student / "step1_naive" / "naive_single_block.cuh").write_text(
            "__global__ void my_renamed_kernel(float* c) {}\n")
        out = self.root / "out"
        self.grade("--kernels", str(student), "--out-dir", str(out), "--steps", "step1",
                   "--sanitizer", str(self.sanitizer))
        used = (out / "build" / "step1_naive" / "sanitizer-args.txt").read_text().splitlines()
        memcheck = [line for line in used if "--tool memcheck" in line]
        initcheck = [line for line in used if "--tool initcheck" in line]
        self.assertTrue(memcheck and initcheck, used)
        self.assertTrue(all("--kernel-name regex=my_renamed_kernel" in line
                            for line in memcheck), memcheck)
        # initcheck instruments every kernel (a filtered kernel's writes would go unseen)
        # and charges only the findings in the student's kernels.
        self.assertFalse(any("--kernel-name" in line for line in initcheck), initcheck)

    def test_graded_only_leaves_the_course_tests_out(self):
        student = self.submission("graded-only", steps={"step1"})
        out = self.root / "out"
        self.grade("--kernels", str(student), "--out-dir", str(out), "--steps", "step1",
                   "--sanitizer", str(self.sanitizer), "--graded-only")
        grades = json.loads((out / "grades.json").read_text(encoding="utf-8"))
        row = grades["steps"][0]
        self.assertEqual((row["points"], row["course_passed"], row["course_skipped"]),
                         (20.0, 0, 1))
        self.assertEqual(row["course_problems"], [])
        report = (out / "grades.md").read_text(encoding="utf-8")
        self.assertIn("course tests (no points) were not run", report)
        self.assertIn("| not run |", report)

    def test_configure_and_build_have_time_limits(self):
        student = self.submission("slow", steps={"step1"})
        for mode, option, words in (("hang-configure", "--configure-timeout", "configure ran"),
                                    ("hang-build", "--build-timeout", "build ran")):
            out = self.root / mode
            result = self.grade("--kernels", str(student), "--out-dir", str(out), "--steps",
                                "step1", option, "1", FAKE_CMAKE=mode)
            self.assertEqual(result.returncode, 1)
            grades = json.loads((out / "grades.json").read_text(encoding="utf-8"))
            self.assertIn(words, grades["steps"][0]["note"])
            self.assertEqual(grades["total_points"], 0.0)


if __name__ == "__main__":
    unittest.main()
