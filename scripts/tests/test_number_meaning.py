#!/usr/bin/env python3
"""CPU tests of what scripts/check_numbers.py reads around a figure, run by ctest (label
scripts): units, the one number a `line:` binding names, the column a `cell:` binding names
(by the sentence's words), the extremes and counts (`max:`, `min:`, `count:`, `lines:`) that
superlatives and ranges claim, and the design notes' quoted tables.

    python3 scripts/tests/test_number_meaning.py
"""
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import check_numbers  # noqa: E402
import note_tables  # noqa: E402

RUN = """GPU: NVIDIA H100 80GB HBM3 (sm_90, 132 SMs), date: 2026-11-26

Times in ms. LIMIT rates measured at start-up: DRAM copy 2981.0 GB/s; L2 gather 8227.2 GB/s; launch floor 5.81 us.

| matrix | approach | sddmm | min | other | prep | vs cuSPARSE | extra MiB |
|---|---|---:|---:|---:|---:|---:|---:|
| cage11 | 4 hybrid | 0.049 | 0.048 | 1.106 | 0.392 | 1.37 | 96.6 |
| wave | 4 hybrid | 0.144 | 0.143 | 2.330 | 2.046 | 1.71 | 192.0 |
| karate | 4 hybrid | 0.007 | 0.006 | 0.104 | 0.094 | 1.33 | 0.5 |
| matrix_106000 | 4 hybrid | 0.339 | 0.339 | 1.196 | 0.244 | 1.13 | 45.0 |
"""

LOG = """== memcheck
Invalid __global__ read of size 4
Invalid __global__ read of size 4
Program hit cudaErrorLaunchFailure on cudaFree
ERROR SUMMARY: 3 errors
"""

NOTE = """| method | 2^10 | 2^12 | note line |
|---|---:|---:|---:|
| serial CPU | 1753.2 | 538651.5 | 2 |
"""


class Meaning(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.repo = pathlib.Path(self.folder.name)
        (self.repo / "results").mkdir()
        (self.repo / "results" / "run.md").write_text(RUN, encoding="utf-8")
        (self.repo / "results" / "log.txt").write_text(LOG, encoding="utf-8")
        (self.repo / "docs" / "note_tables").mkdir(parents=True)
        (self.repo / "docs" / "note_tables" / "note_001.md").write_text(
            "# Note 001\n\nTimes in ms.\n\n## Table 1\n\n" + NOTE, encoding="utf-8")

    def tearDown(self):
        self.folder.cleanup()

    def check(self, page):
        path = self.repo / "page.md"
        path.write_text(page, encoding="utf-8")
        return check_numbers.check_page(path, check_numbers.Sources(self.repo))

    def problems(self, page):
        return [problem[3] for problem in self.check(page).problems]

    def assertClean(self, page):
        result = self.check(page)
        self.assertEqual((result.unbound, result.problems), ([], []))
        return result

    def assertCaught(self, page, text):
        found = self.problems(page)
        self.assertTrue(any(text in why for why in found), "%r not in %r" % (text, found))

    # ------------------------------------------------------------------ units

    def test_a_unit_is_bound_with_its_figure(self):
        cell = "<!-- cell: results/run.md | cage11 | sddmm -->"
        self.assertClean("The kernel took 0.049 ms%s." % cell)
        self.assertCaught("The kernel took 0.049 s%s." % cell, "the figure is in s, the "
                          "source in ms")
        self.assertCaught("The kernel took 0.049 µs%s." % cell, "the source in ms")
        self.assertCaught("The kernel took 0.049×%s." % cell, "ratio")
        extra = "<!-- cell: results/run.md | cage11 | extra MiB -->"
        self.assertClean("Padding copies 96.6 MiB%s more." % extra)
        self.assertCaught("Padding copies 96.6 GiB%s more." % extra, "in GiB, the source in MiB")
        self.assertCaught("1.37 %<!-- cell: results/run.md | cage11 | vs cuSPARSE --> of "
                          "cuSPARSE", "percentage")

    def test_a_line_number_keeps_its_unit(self):
        self.assertClean("a launch costs 5.81 µs<!-- line: results/run.md | launch floor -->")
        self.assertCaught("a launch costs 5.81 ms<!-- line: results/run.md | launch floor -->",
                          "the source in µs")

    # ------------------------------------------------------------------ line bindings

    def test_a_line_binding_names_one_number(self):
        line = "results/run.md | LIMIT rates"
        self.assertClean("gathers at 8227.2 GB/s<!-- line: %s | L2 gather -->" % line)
        self.assertClean("gathers at 8227.2 GB/s<!-- line: %s | @2 -->" % line)
        self.assertClean("copies at 2981.0 GB/s<!-- line: results/run.md | DRAM copy -->")
        # Another number of the same line does not pass: the binding names one.
        self.assertCaught("gathers at 2981.0 GB/s<!-- line: %s | L2 gather -->" % line,
                          "the source says 8227.2")
        self.assertCaught("gathers at 8227.2 GB/s<!-- line: %s -->" % line,
                          "the source says 2981.0")
        self.assertCaught("at 1.0 GB/s<!-- line: %s | nowhere -->" % line, "is not on the line")

    def test_lines_counts_the_lines_that_hold_a_text(self):
        log = "results/log.txt"
        self.assertClean("3 errors: 2<!-- lines: %s | Invalid __global__ read --> invalid reads "
                         "and 1<!-- lines: %s | Program hit --> failed call" % (log, log))
        self.assertCaught("3<!-- lines: %s | Invalid __global__ read --> invalid reads" % log,
                          "the source says 2")

    # ------------------------------------------------------------------ columns by meaning

    def test_a_column_is_named_by_the_sentence(self):
        sddmm = "<!-- cell: results/run.md | matrix_106000 | sddmm -->"
        minimum = "<!-- cell: results/run.md | matrix_106000 | min -->"
        self.assertClean("The kernel took 0.339 ms%s." % sddmm)
        self.assertClean("Its minimum over the runs was 0.339 ms%s." % minimum)
        # sddmm and min hold the same value: the words must say which one is meant.
        self.assertCaught("The kernel took 0.339 ms%s." % minimum, "'min'")
        self.assertCaught("Its `other` took 1.196 ms<!-- cell: results/run.md | matrix_106000 "
                          "| prep -->.", "the source says 0.244")
        self.assertCaught("It spends 0.392 ms<!-- cell: results/run.md | cage11 | prep --> "
                          "in the kernel.", "'prep'")

    def test_a_table_cell_is_named_by_its_header(self):
        self.assertClean("| case | other |\n|---|---:|\n| cage11 | 1.106 ms<!-- cell: "
                         "results/run.md \\| cage11 \\| other --> |\n")
        self.assertCaught("| case | kernel |\n|---|---:|\n| cage11 | 1.106 ms<!-- cell: "
                          "results/run.md \\| cage11 \\| other --> |\n", "'other'")

    # ------------------------------------------------------------------ extremes and counts

    def test_a_superlative_is_bound_to_the_extreme_of_its_column(self):
        run = "results/run.md"
        self.assertClean("`other` is largest on wave, 2.330 ms<!-- max: %s | 4 hybrid | other "
                         "-->." % run)
        self.assertCaught("`other` is largest on cage11, 1.106 ms<!-- cell: %s | cage11 | "
                          "other -->." % run, "claim the max")
        self.assertCaught("`other` is largest on cage11, 1.106 ms<!-- max: %s | 4 hybrid | "
                          "other -->." % run, "the source says 2.330")
        self.assertClean("`other` is at least 0.104 ms<!-- min: %s | * | other -->." % run)
        self.assertClean("`other` is smallest on karate, 0.104 ms<!-- min: %s | ~^k | other "
                         "-->." % run)

    def test_a_range_names_both_ends(self):
        run = "results/run.md"
        both = ("`other` ranges from 0.104 ms<!-- min: %s | * | other --> to 2.330 ms<!-- max: "
                "%s | * | other -->." % (run, run))
        self.assertClean(both)
        self.assertCaught("`other` ranges from 0.104 ms<!-- min: %s | * | other --> to 1.106 ms"
                          "<!-- cell: %s | cage11 | other -->." % (run, run), "claim the max")
        self.assertCaught("`other` takes 0.104<!-- cell: %s | karate | other -->–1.106 ms"
                          "<!-- cell: %s | cage11 | other -->." % (run, run), "claim the min")
        # A change is not a range: the same row before and after.
        self.assertClean("The plan of cage11 went from 0.392 ms<!-- cell: %s | cage11 | prep "
                         "--> to 1.106 ms<!-- cell: %s | cage11 | other --> of `other`." % (
                             run, run))

    def test_a_count_claim_is_bound_to_a_count(self):
        run = "results/run.md"
        self.assertClean("`other` exceeds the kernel on 4<!-- count: %s | 4 hybrid | other > "
                         "sddmm --> of 4<!-- count: %s | * | * --> matrices." % (run, run))
        self.assertCaught("on 3<!-- count: %s | 4 hybrid | other > sddmm --> matrices" % run,
                          "the source says 4")
        self.assertClean("the kernel beats cuSPARSE by half again on 1<!-- count: %s | * | vs "
                         "cuSPARSE > 1.5 --> matrix" % run)

    # ------------------------------------------------------------------ the notes' tables

    def test_a_quoted_note_table_is_bound_to_the_transcription(self):
        table = ("| method (the note's machine) | 2¹⁰ | 2¹² |\n|---|---:|---:|\n"
                 "| serial CPU (one thread) | 1753.2 | 538651.5 |\n")
        binding = "<!-- table: docs/note_tables/note_001.md#Table 1 -->\n"
        result = self.assertClean("<!-- quoted: note 001 -->\n" + binding + table)
        self.assertEqual(len(result.bound), 2)
        self.assertCaught("<!-- quoted: note 001 -->\n" + table, "must be bound to its "
                          "transcription")
        self.assertCaught("<!-- quoted: note 001 -->\n" + binding + table.replace(
            "1753.2", "1753.3"), "the source says 1753.2")
        self.assertCaught("<!-- quoted: note 001 -->\n" + binding + table.replace(
            "| 1753.2 | 538651.5 |", "| 538651.5 | 1753.2 |"), "the source says")

    def test_the_transcription_is_checked_against_the_note(self):
        notes = self.repo / "notes"
        notes.mkdir()
        (notes / "001_abc.txt").write_text("title\n-\t۵۳۸۶۵۱/۵\t۱۷۵۳/۲\tسریال\n",
                                           encoding="utf-8")
        self.assertEqual(note_tables.check_transcriptions(self.repo, notes), (1, []))
        (notes / "001_abc.txt").write_text("title\n-\t۵۳۸۶۵۱/۵\t۱۷۵۳/۳\tسریال\n",
                                           encoding="utf-8")
        checked, problems = note_tables.check_transcriptions(self.repo, notes)
        self.assertEqual(len(problems), 1)
        self.assertIn("1753.2 is not on line 2", problems[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
