"""Parsing compute-sanitizer's output: recorded runs on an H100 (see data/README.md)."""
import unittest

from tests.helpers import sample
from gradelib import evidence, runner, sanitizer


class SanitizerOutput(unittest.TestCase):
    def test_memcheck_reads_past_the_end(self):
        report = sanitizer.parse(sample("memcheck_rect_tiles_k1.txt"), "memcheck")
        self.assertEqual(report.errors, 8)
        self.assertTrue(report.summary_seen)
        self.assertEqual(report.findings[0].headline, "Invalid __global__ read of size 4 bytes")
        self.assertIn("step4::rect_tiles_kernel<step4::RectTiling<(int)64, (int)64, (int)16, "
                      "(int)16, (int)16>>", report.kernels())
        text = report.findings[0].text()
        self.assertIn("is out of bounds", text)
        self.assertNotIn("Host Frame", text)

    def test_racecheck_counts_errors_not_hazards_displayed(self):
        report = sanitizer.parse(sample("racecheck_checked_missing_barrier.txt"), "racecheck")
        self.assertEqual(report.errors, 150)
        self.assertEqual(report.kernels(), ["step4::tiled_checked_kernel<(int)32>"])
        self.assertTrue(report.findings[0].headline.startswith("Error: Race reported"))

    def test_synccheck_takes_the_first_summary_line(self):
        # The output ends with "ERROR SUMMARY: 32 errors" and then "ERROR SUMMARY: 22 errors
        # were not printed": the count is 32.
        report = sanitizer.parse(sample("synccheck_checked_divergent_barrier.txt"), "synccheck")
        self.assertEqual(report.errors, 32)
        self.assertEqual(report.findings[0].headline,
                         "Barrier error detected. Divergent thread(s) in block.")
        self.assertEqual(report.kernels(), ["step4::tiled_checked_kernel<(int)32>"])

    def test_clean_runs_have_no_findings(self):
        for name, tool in (("racecheck_clean.txt", "racecheck"),
                           ("initcheck_clean.txt", "initcheck")):
            report = sanitizer.parse(sample(name), tool)
            self.assertEqual((report.errors, report.findings), (0, []), name)
            self.assertTrue(report.summary_seen)

    def test_initcheck_names_the_kernel_and_ignores_catch2_rules(self):
        report = sanitizer.parse(sample("initcheck_uninitialized_read.txt"), "initcheck")
        self.assertEqual(report.errors, 1)
        self.assertEqual(len(report.findings), 1)
        self.assertEqual(report.kernels(),
                         ["course::step2::one_thread_per_element_kernel"])

    def test_output_without_summary_counts_its_findings(self):
        text = ("========= COMPUTE-SANITIZER\n========= Invalid __shared__ write of size 4\n"
                "=========     at kern(int)+0x10 in /a/b.cuh:3\n")
        report = sanitizer.parse(text, "memcheck")
        self.assertEqual((report.errors, report.summary_seen), (1, False))
        self.assertEqual(report.kernels(), ["kern"])

    def test_kernel_names(self):
        self.assertEqual(sanitizer.kernel_name(
            "at void ns::k<(int)2>(const float *, int)+0x1a0 in /x/f.cuh:42"), "ns::k<(int)2>")
        self.assertEqual(sanitizer.kernel_name("at plain_kernel(float *)+0x8"), "plain_kernel")


class EvidenceTimeOut(unittest.TestCase):
    """An evidence run that ran out of time says what compute-sanitizer printed last (the
    stuck runs of 2026-11-28 left no word of it in the reports)."""

    def test_the_last_lines_are_in_the_message(self):
        output = "========= COMPUTE-SANITIZER\n\nfirst\nsecond | with a bar\nthird\n"
        verdict = evidence.judge(runner.Completed(None, output, 30.0), ["kernel"])
        self.assertEqual(verdict["outcome"], "not seen")
        self.assertTrue(verdict["message"].endswith("first / second | with a bar / third"),
                        verdict["message"])

    def test_silence_is_said(self):
        verdict = evidence.judge(runner.Completed(None, "", 30.0), ["kernel"])
        self.assertIn("printed nothing", verdict["message"])


if __name__ == "__main__":
    unittest.main()
