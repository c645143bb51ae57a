#!/usr/bin/env python3
"""CPU tests of the parts of scripts/check_rendering.py that need no browser (ctest, label
scripts): the defects it finds in a page's Markdown (logs run into a paragraph, figures
without their script, test counts as letters, results pages that do not open with their
headline or name a run by its file), options turned into dashes anywhere in the HTML, and
the Doxygen filter that keeps them two dashes (docs/escape_options.py). The browser half
(markup shown as text, headings drawn over themselves, missing glyphs, figures' alt text)
runs in the docs target.

    python3 scripts/tests/test_check_rendering.py
"""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "docs"))
import check_rendering  # noqa: E402
import escape_options  # noqa: E402


class SourceDefects(unittest.TestCase):
    def defects(self, text):
        with tempfile.TemporaryDirectory() as folder:
            page = pathlib.Path(folder) / "page.md"
            page.write_text(text, encoding="utf-8")
            return check_rendering.source_defects(page, committed={"docs/make_results.py"})

    def test_an_indented_log_in_a_paragraph_is_a_defect(self):
        found = self.defects("size 1024x1024:\n  cuBLAS: 5 run(s), median 0.06 ms\n")
        self.assertEqual([(line, kind) for line, kind, _, _ in found],
                         [(2, "indented text in a paragraph")])

    def test_lists_code_blocks_and_tables_are_not(self):
        self.assertEqual(self.defects(
            "- an item\n  that goes on\n  - a nested item\n    that goes on\n\n"
            "```\nsize 1024:\n  cuBLAS: 5 runs\n```\n\n    indented code\n      more\n\n"
            "| a | b |\n|---|---|\n"), [])

    def test_a_figure_names_its_committed_script(self):
        self.assertEqual(self.defects(
            "<!-- figure: docs/make_results.py -->\n\n![A plot](results_x.png)\n"), [])
        found = self.defects("![A plot](results_x.png)\n")
        self.assertEqual(found[0][1], "figure")
        found = self.defects("<!-- figure: docs/nothing.py -->\n![A plot](results_x.png)\n")
        self.assertIn("not a committed file", found[0][2])


class ResultsPages(unittest.TestCase):
    """A results page opens with its headline and names its runs in words."""

    def defects(self, name, text):
        with tempfile.TemporaryDirectory() as folder:
            page = pathlib.Path(folder) / name
            page.write_text(text, encoding="utf-8")
            return [(line, kind, what) for line, kind, what, _ in
                    check_rendering.source_defects(page, committed=set())]

    HEADLINE = ("# Results: step 9 {#results_step9}\n\n"
                "## The headline (H100, 2026-11-26) {#results_step9_headline}\n\n"
                "### Our kernel against the library (H100, 2026-11-26) {#results_step9_run}\n\n"
                "| set | mean |\n|---|---:|\n| public | 1.20 |\n\n"
                "## Case by case {#results_step9_case}\n\n")

    def test_a_page_that_opens_with_its_headline_is_clean(self):
        rows = "".join("| shape %d | 1.0 |\n" % i for i in range(47))
        self.assertEqual(self.defects("results_step9.md", self.HEADLINE +
                                      "| shape | fraction |\n|---|---:|\n" + rows), [])

    def test_a_long_table_first_is_not_a_headline(self):
        rows = "".join("| shape %d | 1.0 |\n" % i for i in range(47))
        page = ("# Results {#results_step9}\n\n## The headline {#results_step9_headline}\n\n"
                "| shape | fraction |\n|---|---:|\n" + rows)
        found = self.defects("results_step9.md", page)
        self.assertEqual([kind for _, kind, _ in found], ["results page"])
        self.assertIn("47 rows", found[0][2])

    def test_a_section_before_the_headline_is_a_defect(self):
        page = ("# Results {#results_step9}\n\n## Another question {#results_step9_q}\n\n"
                "| a | b |\n|---|---|\n| 1 | 2 |\n\n"
                "## The headline {#results_step9_headline}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
        kinds = [what for _, _, what in self.defects("results_step9.md", page)]
        self.assertTrue(any("does not open with its headline" in what for what in kinds))
        self.assertTrue(any("before the headline" in what for what in kinds))

    def test_a_file_name_is_not_a_heading(self):
        for heading in ("shapes h100 rooms", "panel_choice_public_cost_h100", "ctest_gpu.txt"):
            found = self.defects("results_step9_archive.md", "## %s {#x}\n\ntext\n" % heading)
            self.assertEqual([kind for _, kind, _ in found], ["heading"], heading)
        self.assertEqual(self.defects("results_step9_archive.md",
                                      "## Run on an H100 for sm_90 (2026-11-26) {#x}\n"), [])

    def test_test_counts_are_numbers(self):
        found = self.defects("page.md", "`no GPU: N of the M tests of step4 need one`\n")
        self.assertEqual([kind for _, kind, _ in found], ["test count"])
        self.assertEqual(self.defects("page.md", "`no GPU: 20 of the 54 tests of step4`\n"), [])


class OptionDashes(unittest.TestCase):
    """An option never reads as a dash, in any page: text, tooltips, titles, source pages."""

    def test_dashes_anywhere_in_the_html_are_found(self):
        with tempfile.TemporaryDirectory() as folder:
            html = pathlib.Path(folder)
            (html / "a_source.html").write_text(
                '<div class="ttdoc">help line of &ndash;approach</div>'
                '<a title="with \u2013bench">x</a><p>steps 1\u20133 and 0.1\u20130.6 ms</p>',
                encoding="utf-8")
            (html / "b.html").write_text("<p><code>--approach</code> and \\-- fine</p>",
                                         encoding="utf-8")
            found = check_rendering.option_dashes(html)
            self.assertEqual([(page, option) for page, option, _ in found],
                             [("a_source.html", "approach"), ("a_source.html", "bench")])

    def test_the_code_filter_keeps_two_dashes(self):
        source = ("/// @brief help line of --approach, `--bench` as code\n"
                  "int x = a--; // decrement --b\n"
                  "const char* s = \"--help // not a comment\";\n"
                  "/// @code\n/// prog --keep\n/// @endcode\n")
        out = escape_options.escape(source)
        self.assertEqual(out.split("\n"), [
            "/// @brief help line of \\--approach, `--bench` as code",
            "int x = a--; // decrement \\--b",
            "const char* s = \"--help // not a comment\";",
            "/// @code", "/// prog --keep", "/// @endcode", ""])


if __name__ == "__main__":
    unittest.main(verbosity=2)
