"""A submission whose kernels hang costs minutes: after two time-outs in a step, the
step's later tests get a short limit."""
import pathlib
import tempfile
import time
import types
import unittest
from unittest import mock

from tests.helpers import script
from gradelib import grading, plan

HANGING_PROGRAM = """
import sys, time
if sys.argv[1] == "--course-list-tests":
    for index in range(5):
        print(f"hanging test {index}\\tgpu")
    sys.exit(0)
time.sleep(60)
"""


class Hangs(unittest.TestCase):
    def test_later_tests_of_a_hanging_step_get_a_short_limit(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            program = script(root / "test_step1", HANGING_PROGRAM)
            options = types.SimpleNamespace(timeout=1.5, sanitizer_timeout=1, test_jobs=1,
                                            sanitizer="none", no_sanitizers=True)
            started = time.monotonic()
            with mock.patch.object(grading, "HANG_TIMEOUT", 0.2):
                graded = grading.grade_programs({plan.STEPS[0]: program}, options, root, 1)
            tests, _ = graded["step1"]
            self.assertEqual([test["outcome"] for test in tests], ["failed"] * 5)
            limits = sorted(test["message"].split()[3] for test in tests)
            self.assertEqual(limits, ["0.2"] * 3 + ["1.5"] * 2)
            self.assertLess(time.monotonic() - started, 15)


if __name__ == "__main__":
    unittest.main()
