#!/usr/bin/env python3
"""CPU tests of scripts/check_numbers.py, run by ctest (label scripts).

    python3 scripts/tests/test_check_numbers.py

Each test writes a small result file and a page into a temporary folder (not a git checkout,
so existence stands in for "committed") and checks what the checker says about the page:
bound figures pass, every kind of binding compares with rounding, wrong, unbound and
misplaced figures fail, and the self-test catches a perturbed last digit.
"""
import io
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import check_numbers  # noqa: E402

RESULT = """GPU: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs), date: 2026-11-25

| shape rows x inner x cols | cuBLAS ms | ours ms | min ms | fraction | geometric mean |
|---|---:|---:|---:|---:|---|
| 4096x4096x4096 | 2.6603 | 2.8751 | 2.8751 | 0.925 | 2.68 (51; smallest 1.20, window_4096_w64_g8 inner=64) |
| 1x1x1 | 0.0115 | 0.0054 | 0.0050 | 2.109 | 1,519,718.39 |

LIMIT rates: DRAM copy 2962.6 GB/s (read + write); launch floor 6.22 us.

### Shapes where cuBLAS takes at least 20 us

| kernel | set | shapes | geometric mean |
|---|---|---:|---:|
| ours | public | 41 | 0.968 |
| ours | private | 12 | 0.912 |

### Shapes where cuBLAS takes under 20 us

| kernel | set | shapes | geometric mean |
|---|---|---:|---:|
| ours | public | 6 | 1.315 |
"""

CSV = """# GPU: NVIDIA H200 (sm_90, 132 SMs), date: 2026-11-21
method,2^10 (ms),2^11 (ms),% of cuBLAS at 2^12
approach 2,0.358,3.388,12.04
approach 3,0.339,2.680,11.76
"""


class Checker(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.repo = pathlib.Path(self.folder.name)
        (self.repo / "results").mkdir()
        (self.repo / "results" / "run.md").write_text(RESULT, encoding="utf-8")
        (self.repo / "results" / "bench.csv").write_text(CSV, encoding="utf-8")

    def tearDown(self):
        self.folder.cleanup()

    def check(self, page):
        path = self.repo / "page.md"
        path.write_text(page, encoding="utf-8")
        return check_numbers.check_page(path, check_numbers.Sources(self.repo))

    def assertClean(self, result, bound):
        self.assertEqual(result.unbound, [])
        self.assertEqual(result.problems, [])
        self.assertEqual(len(result.bound), bound)

    def assertProblem(self, result, text):
        self.assertTrue(any(text in problem[3] for problem in result.problems),
                        "no problem says %r: %r" % (text, result.problems))

    # ------------------------------------------------------------------ cell bindings

    def test_cell_binding_with_rounding(self):
        result = self.check(
            "At 4096³ **0.93**<!-- cell: results/run.md | 4096x4096x4096 | fraction --> and "
            "0.925<!-- cell: results/run.md | 4096x4096x4096 | fraction --> of cuBLAS.\n")
        self.assertClean(result, 2)

    def test_wrong_rounding_is_caught(self):
        result = self.check(
            "At 4096³ 0.92<!-- cell: results/run.md | 4096x4096x4096 | fraction -->.\n")
        self.assertProblem(result, "the source says 0.925")

    def test_more_decimals_than_the_source_is_caught(self):
        result = self.check(
            "0.9250<!-- cell: results/run.md | 4096x4096x4096 | fraction -->.\n")
        self.assertProblem(result, "more decimals than the source")

    def test_nth_number_of_a_cell(self):
        result = self.check(
            "smallest 1.20×<!-- cell: results/run.md | 4096x4096x4096 | geometric mean@3 -->, "
            "mean 2.68×<!-- cell: results/run.md | 4096x4096x4096 | geometric mean -->.\n")
        self.assertClean(result, 2)
        result = self.check("1.20×<!-- cell: results/run.md | 4096x4096x4096 | geometric mean@2 "
                            "-->\n")
        self.assertProblem(result, "more decimals than the source (51)")

    def test_grouped_thousands(self):
        result = self.check(
            "a mean of 1 519 718.39<!-- cell: results/run.md | 1x1x1 | geometric mean -->.\n")
        self.assertClean(result, 1)

    def test_row_with_several_key_parts_and_heading(self):
        heading = "results/run.md#Shapes where cuBLAS takes at least 20 us"
        result = self.check("mean 0.91<!-- cell: %s | ours; private | geometric mean -->\n"
                            % heading)
        self.assertClean(result, 1)
        result = self.check("mean 0.97<!-- cell: %s | ours | geometric mean -->\n" % heading)
        self.assertProblem(result, "2 rows match")
        result = self.check("mean 0.97<!-- cell: results/run.md | ours; public | "
                            "geometric mean -->\n")
        self.assertProblem(result, "2 rows match")

    def test_missing_row_column_file_and_heading(self):
        cases = {"results/run.md | 512x512x512 | fraction": "no row",
                 "results/run.md | 1x1x1 | speed": "no row",
                 "results/none.md | 1x1x1 | fraction": "does not exist",
                 "results/run.md#Nowhere | 1x1x1 | fraction": "no heading"}
        for binding, why in cases.items():
            self.assertProblem(self.check("2.11<!-- cell: %s -->\n" % binding), why)

    def test_csv_source_and_superscript_header(self):
        result = self.check(
            "Approach 3 reaches 11.76 %<!-- cell: results/bench.csv | approach 3 | "
            "% of cuBLAS at 2^12 --> of cuBLAS; 2.68 ms<!-- cell: results/bench.csv | "
            "approach 3 | 2¹¹ (ms) --> at 2¹¹.\n")
        self.assertClean(result, 2)

    # ------------------------------------------------------------------ line bindings

    def test_line_binding(self):
        result = self.check("copies at 2962.6 GB/s<!-- line: results/run.md | DRAM copy -->.\n")
        self.assertClean(result, 1)
        result = self.check("6.22 us<!-- line: results/run.md | DRAM copy | @2 -->\n")
        self.assertClean(result, 1)
        result = self.check("2962.7 GB/s<!-- line: results/run.md | DRAM copy -->\n")
        self.assertProblem(result, "the source says 2962.6")
        result = self.check("0.5<!-- line: results/run.md | ours -->\n")
        self.assertProblem(result, "lines of results/run.md contain")

    # ------------------------------------------------------------------ table bindings

    def test_table_binding_subset_any_order(self):
        result = self.check(
            "<!-- table: results/run.md -->\n"
            "| shape rows x inner x cols | fraction | cuBLAS ms |\n|---|---:|---:|\n"
            "| 4096×4096×4096 | **0.925** | 2.660 |\n| 1x1x1 | 2.11 | 0.0115 |\n")
        self.assertClean(result, 4)

    def test_table_binding_mismatch_and_unknown_row(self):
        result = self.check(
            "<!-- table: results/run.md -->\n"
            "| shape rows x inner x cols | fraction |\n|---|---:|\n"
            "| 4096x4096x4096 | 0.926 |\n| 2x2x2 | 1.0 |\n")
        self.assertProblem(result, "the source says 0.925")
        self.assertProblem(result, "no row '2x2x2'")

    def test_table_binding_keys_on_text_columns(self):
        result = self.check(
            "<!-- table: results/run.md#Shapes where cuBLAS takes at least 20 us -->\n\n"
            "| kernel | set | geometric mean |\n|---|---|---:|\n"
            "| ours | public | 0.968 |\n| ours | private | 0.912 |\n")
        self.assertClean(result, 2)

    def test_table_binding_columns_must_exist(self):
        result = self.check("<!-- table: results/run.md -->\n"
                            "| shape rows x inner x cols | speed |\n|---|---:|\n| 1x1x1 | 1.5 |\n")
        self.assertProblem(result, "has the columns")

    # ------------------------------------------------------------------ what is a figure

    def test_unbound_figures_and_what_is_not_a_figure(self):
        result = self.check(
            "A 4096×4096 product on 132 SMs with CUDA 12.4, `--repeats 10` and `0.5`, took "
            "3.3 ms and 95 % of the time.\n\n```\n1.25 ms in a code block\n```\n")
        self.assertEqual([figure for _, figure in result.unbound], ["3.3 ms", "95 %"])

    def test_binding_must_follow_its_figure(self):
        result = self.check(
            "0.925 of cuBLAS<!-- cell: results/run.md | 4096x4096x4096 | fraction -->\n")
        self.assertProblem(result, "does not follow a figure")
        self.assertEqual(len(result.unbound), 1)

    def test_quoted_blocks(self):
        result = self.check("<!-- quoted: note 001 -->\n| size | ms |\n|---|---|\n"
                            "| 2^10 | 8.2 |\n\nthen 8.2 ms unbound.\n")
        self.assertEqual(len(result.quoted), 1)
        self.assertEqual([figure for _, figure in result.unbound], ["8.2 ms"])

    def test_bindings_inside_code_are_not_bindings(self):
        result = self.check("Write `1.5<!-- cell: results/run.md | 1x1x1 | fraction -->`.\n")
        self.assertClean(result, 0)

    def test_version_columns_hold_no_figures(self):
        result = self.check("| GPU | compute capability | ran |\n|---|---|---|\n"
                            "| H100 | 9.0 | 3.5 ms |\n")
        self.assertEqual([figure for _, figure in result.unbound], ["3.5 ms"])

    def test_binding_inside_a_table_cell_uses_escaped_bars(self):
        result = self.check("| shape | fraction |\n|---|---|\n| 4096³ | 0.925<!-- cell: "
                            "results/run.md \\| 4096x4096x4096 \\| fraction --> |\n")
        self.assertClean(result, 1)

    def test_a_count_may_be_bound(self):
        result = self.check("41<!-- cell: results/run.md#Shapes where cuBLAS takes at least "
                            "20 us | ours; public | shapes --> shapes\n")
        self.assertClean(result, 1)

    def test_repeated_headers_map_by_occurrence(self):
        (self.repo / "results" / "twice.md").write_text(
            "| tile | ms | efficiency | ms | efficiency |\n|---|---|---|---|---|\n"
            "| 128x128 | 3.32 | 0.618 | 4.92 | 0.417 |\n")
        result = self.check("<!-- table: results/twice.md -->\n"
                            "| tile | efficiency | efficiency |\n|---|---|---|\n"
                            "| 128x128 | 0.618 | 0.417 |\n")
        self.assertClean(result, 2)

    def test_heading_of_a_log_is_the_line_above_the_table(self):
        (self.repo / "results" / "runs.log").write_text(
            "== first\n| lanes | ms |\n|---|---|\n| 1 | 0.50 |\n"
            "== second\n| lanes | ms |\n|---|---|\n| 1 | 0.75 |\n")
        result = self.check("<!-- table: results/runs.log#== second -->\n"
                            "| lanes | ms |\n|---|---|\n| 1 | 0.75 |\n")
        self.assertClean(result, 1)
        result = self.check("<!-- table: results/runs.log -->\n"
                            "| lanes | ms |\n|---|---|\n| 1 | 0.75 |\n")
        self.assertProblem(result, "more than one row")

    # ------------------------------------------------------------------ self-test and CLI

    def test_self_test_catches_every_perturbation(self):
        result = self.check(
            "a fraction of 0.925<!-- cell: results/run.md | 4096x4096x4096 | fraction -->, "
            "2962.6 GB/s<!-- line: results/run.md | DRAM copy -->, "
            "1.29<!-- cell: results/run.md | ours; public | geometric mean -->\n\n"
            "<!-- table: results/run.md -->\n| shape rows x inner x cols | ours ms |\n"
            "|---|---:|\n| 1x1x1 | 0.0054 |\n")
        summary = check_numbers.self_test([result])  # 1.29 is already wrong: not perturbed
        for kind, (caught, total, missed) in summary.items():
            self.assertEqual((caught, missed), (total, []), kind)
        self.assertEqual(summary["last digit"][:2], (3, 3))
        self.assertEqual(summary["unit"][:2], (2, 2))         # GB/s -> TB/s, GiB/s
        self.assertEqual(summary["line"][:2], (1, 1))         # 2962.6 -> 6.22
        self.assertGreater(summary["column"][1], 3)
        self.assertEqual(check_numbers.perturbed("0.929 ms"), "0.920 ms")

    def test_self_test_reports_a_column_that_holds_the_same_value(self):
        # ours ms and min ms agree on 4096³: a binding moved from one to the other must be
        # told apart by the sentence's words ("the kernel took" names ours, not the minimum).
        result = self.check("The kernel took 2.8751 ms<!-- cell: results/run.md | "
                            "4096x4096x4096 | ours ms -->.\n")
        self.assertClean(result, 1)
        summary = check_numbers.self_test([result])
        self.assertEqual(summary["column"][0], summary["column"][1])
        moved = self.check("The kernel took 2.8751 ms<!-- cell: results/run.md | "
                           "4096x4096x4096 | min ms -->.\n")
        self.assertProblem(moved, "'min ms'")
        moved = self.check("Of the runs, the minimum is 2.8751 ms<!-- cell: results/run.md | "
                           "4096x4096x4096 | ours ms -->.\n")
        self.assertProblem(moved, "'ours ms'")

    def test_self_test_reports_a_weak_line_binding(self):
        (self.repo / "results" / "log.txt").write_text("rates 1.5 and 1.6 GB/s\n")
        result = self.check("1.5 GB/s<!-- line: results/log.txt | rates -->\n")
        summary = check_numbers.self_test([result])
        self.assertEqual(summary["line"][:2], (1, 1))  # 1.6 in its place is caught

    def test_command_line_reports_per_file(self):
        (self.repo / "good.md").write_text(
            "a fraction of 0.925<!-- cell: results/run.md | 4096x4096x4096 | fraction -->\n")
        (self.repo / "bad.md").write_text("took 3.3 ms\n")
        out = io.StringIO()
        status = check_numbers.main([str(self.repo / "good.md"), str(self.repo / "bad.md"),
                                     "--strict"], repo=self.repo, out=out)
        self.assertEqual(status, 1)
        self.assertIn("good.md: 1 bound, 0 quoted, 0 unbound, 0 problem(s)", out.getvalue())
        self.assertIn("bad.md:1: 3.3 ms is not bound", out.getvalue())
        out = io.StringIO()
        status = check_numbers.main([str(self.repo / "good.md"), "--strict", "--self-test"],
                                    repo=self.repo, out=out)
        self.assertEqual(status, 0, out.getvalue())
        self.assertIn("perturbed figures caught (100.0 %)", out.getvalue())

    def test_default_files_include_the_labs_notebooks(self):
        for name in ("README.md", "step4_x/README.md", "step4_x/lab/README.md",
                     "step4_x/lab/NOTEBOOK.md", "step4_x/going_further/NOTES.md",
                     "docs/page.md", "build/README.md"):
            (self.repo / name).parent.mkdir(parents=True, exist_ok=True)
            (self.repo / name).write_text("no figures\n")
        found = [str(path.relative_to(self.repo))
                 for path in check_numbers.default_files(self.repo)]
        self.assertIn("step4_x/lab/NOTEBOOK.md", found)
        self.assertIn("step4_x/lab/README.md", found)
        self.assertIn("docs/page.md", found)
        self.assertNotIn("step4_x/going_further/NOTES.md", found)
        self.assertNotIn("build/README.md", found)


if __name__ == "__main__":
    unittest.main(verbosity=2)
