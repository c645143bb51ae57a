#!/usr/bin/env python3
"""CPU tests of the Markdown half of scripts/check_rendering.py (ctest, label scripts): the
defects it finds in a page's source without a browser. The browser half (markup shown as
text, dashes, exponents, missing glyphs, figures' alt text) runs in the docs target.

    python3 scripts/tests/test_check_rendering.py
"""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import check_rendering  # noqa: E402


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


if __name__ == "__main__":
    unittest.main(verbosity=2)
