"""initcheck runs every kernel and charges only the student's: a finding that names a
course kernel is a course problem, one in the student's kernel costs the test's points.
The recorded outputs are described in data/README.md."""
import threading
import time
import unittest

from tests.helpers import sample, test
from gradelib import kernels, plan, runner, scoring

# One graded test fails at once; the other graded tests would take a minute.
SLOW_PROGRAM = """
import sys, time
names = ["fails at once", "slow 1", "slow 2", "slow 3"]
if sys.argv[1] == "--course-list-tests":
    print("\\n".join(name + "\\tgpu" for name in names))
    sys.exit(0)
if sys.argv[1] == "fails at once":
    sys.exit(1)
time.sleep(60)
"""

STEP5_STUDENT = ["sddmm_warp_per_nonzero_kernel", "tile_grouped_kernel"]


def judged(name, status, charged):
    return runner.judge_sanitizer_run("initcheck", runner.Completed(status, sample(name), 2.0),
                                      60, charged)


class ToolArguments(unittest.TestCase):
    def test_initcheck_is_never_filtered(self):
        names = ["rect_tiles_kernel", "tiled_checked_kernel"]
        self.assertEqual(kernels.sanitizer_arguments(plan.INITCHECK, names),
                         ["--print-limit", "1000"])
        for tool in (plan.MEMCHECK, plan.RACECHECK, plan.SYNCCHECK):
            self.assertEqual(kernels.sanitizer_arguments(tool, names),
                             ["--kernel-name", "regex=rect_tiles_kernel|tiled_checked_kernel"])

    def test_kernel_names_as_the_sanitizer_prints_them(self):
        self.assertEqual(kernels.base_name(
            "step4::rect_tiles_kernel<step4::RectTiling<(int)64, (int)16>>"), "rect_tiles_kernel")
        self.assertEqual(kernels.base_name("course::step1::renamed_naive_kernel"),
                         "renamed_naive_kernel")
        self.assertEqual(kernels.base_name("cub::CUB_300000_SM_900::detail::scan::"
                                           "DeviceScanKernel<cub::X<(int)1>, int *>"),
                         "DeviceScanKernel")
        self.assertTrue(kernels.is_students("step5::tile_grouped_kernel<(int)4, (bool)1>",
                                            STEP5_STUDENT))
        self.assertFalse(kernels.is_students("step5::(anonymous namespace)::gather_kernel",
                                             STEP5_STUDENT))
        # Nothing known: every finding is charged.
        self.assertTrue(kernels.is_students("anything", []))
        self.assertTrue(kernels.is_students("", STEP5_STUDENT))


class RecordedFilterRuns(unittest.TestCase):
    """Why initcheck is not filtered: the same runs of the reference on the H100."""

    def test_the_filter_made_false_errors(self):
        report = runner.sanitizer.parse(sample("initcheck_step5_one_nonzero_filtered.txt"),
                                        "initcheck")
        self.assertEqual(report.errors, 68)
        headlines = {finding.headline.split(" at ")[0] for finding in report.findings}
        self.assertEqual(headlines, {"Host API memory access error",
                                     "Uninitialized __global__ memory read of size 4 bytes"})
        self.assertIn("step5::tile_grouped_kernel<(int)4, (bool)1>", report.kernels())
        # Judged as the student's (the filter's names): the reference would lose points.
        self.assertEqual(judged("initcheck_step5_one_nonzero_filtered.txt", 0,
                                STEP5_STUDENT)["outcome"], "errors")
        report = runner.sanitizer.parse(sample("initcheck_step4_k1_filtered.txt"), "initcheck")
        self.assertEqual(report.errors, 131025)
        self.assertIn("cudaMemcpy source", report.findings[0].text())

    def test_every_kernel_instrumented_the_reference_is_clean(self):
        for name, charged in (("initcheck_step5_one_nonzero_every_kernel.txt", STEP5_STUDENT),
                              ("initcheck_step4_k1_every_kernel.txt",
                               ["rect_tiles_kernel", "tiled_checked_kernel"])):
            run = judged(name, 0, charged)
            self.assertEqual((run["outcome"], run["errors"]), ("clean", 0), name)


class Attribution(unittest.TestCase):
    def test_a_finding_in_the_students_kernel_is_charged(self):
        run = judged("initcheck_uninitialized_read.txt", 86,
                     ["one_thread_per_element_kernel"])
        self.assertEqual((run["outcome"], run["errors"]), ("errors", 1))
        self.assertEqual(run["kernels"], ["course::step2::one_thread_per_element_kernel"])

    def test_findings_only_in_course_kernels_are_a_course_problem(self):
        run = judged("initcheck_uninitialized_read.txt", 86, ["renamed_naive_kernel"])
        self.assertEqual(run["outcome"], "course errors")
        entry = test("a graded test", weight=2, sanitizers=[run])
        self.assertTrue(scoring.earns(entry))
        row = scoring.make_row("step2", [entry])
        self.assertEqual(row["points"], 20.0)
        self.assertEqual(row["sanitizer_errors"], 0)
        self.assertIn("initcheck found 1 error(s) in the course's "
                      "course::step2::one_thread_per_element_kernel during 'a graded test'",
                      row["course_problems"])

    def test_mixed_findings_charge_only_the_students(self):
        text = sample("initcheck_uninitialized_read.txt").replace(
            "========= ERROR SUMMARY: 1 error",
            "========= Uninitialized __global__ memory read of size 4 bytes\n"
            "=========     at void step5::gather_kernel(int, const int *)+0x80 in /c/t.cu:44\n"
            "=========     by thread (0,0,0) in block (0,0,0)\n"
            "=========\n========= ERROR SUMMARY: 2 errors")
        completed = runner.Completed(86, text, 1.0)
        run = runner.judge_sanitizer_run("initcheck", completed, 60,
                                         ["one_thread_per_element_kernel"])
        self.assertEqual((run["outcome"], run["errors"]), ("errors", 1))
        self.assertEqual(run["kernels"], ["course::step2::one_thread_per_element_kernel"])

    def test_without_names_every_finding_is_charged(self):
        for charged in (None, []):
            run = judged("initcheck_uninitialized_read.txt", 86, charged)
            self.assertEqual(run["outcome"], "errors")


class Cancelling(unittest.TestCase):
    def test_a_cancelled_run_is_killed(self):
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        started = time.monotonic()
        with self.assertRaises(runner.Cancelled):
            runner.run_limited(["sh", "-c", "sleep 30"], 60, cancel=cancel)
        self.assertLess(time.monotonic() - started, 10)
        with self.assertRaises(runner.Cancelled):  # already set: nothing starts
            runner.run_limited(["sh", "-c", "exit 0"], 60, cancel=cancel)

    def test_an_uncancelled_run_keeps_its_output_and_limit(self):
        cancel = threading.Event()
        result = runner.run_limited(["sh", "-c", "sleep 0.7; echo done"], 60, cancel=cancel)
        self.assertEqual((result.status, result.output.strip()), (0, "done"))
        result = runner.run_limited(["sh", "-c", "sleep 30"], 0.8, cancel=cancel)
        self.assertTrue(result.timed_out)


if __name__ == "__main__":
    unittest.main()
