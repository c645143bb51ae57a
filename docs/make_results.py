#!/usr/bin/env python3
"""Regenerates the results pages of the course book from the measurements committed in the
step folders and each step's manifest.

    python3 docs/make_results.py            # from anywhere (needs matplotlib)

Each step with results keeps a manifest, `<step>/lab/results/manifest.json` (steps without a
lab: `<step>/results/manifest.json`), written by hand:

    {"headline": {"title": "...", "files": ["run_h100.md", "other_h100.md#Summary"],
                  "note": "GPU, date and baseline in one sentence (Markdown)"},
     "sections": [{"question": "Does X pay?", "files": ["..."], "note": "..."}],
     "archive": ["older_run_h100.md", "..."],
     "titles": {"run_h100": "What ran, in words (H100, 2026-11-26)", "...": "..."}}

A file is named relative to the results folder; `name#Heading` shows only the tables under
that heading of the file. Every run (the files of one name) has a title in words under
"titles", its heading on the pages: a heading is never a file name. From it this script writes:

* `docs/results_stepN.md`: the headline tables of the headline run first (with the manifest's
  note: GPU, date, baseline), then one section per question, each file with its plots (from
  the CSV of the same name) and its tables;
* `docs/results_stepN_archive.md`: every other run (those the manifest archives and those it
  does not name), newest first by the date the file states (else its git date); tables up to
  about 30 on the page, then the runs are listed with their files;
* `docs/figures/results_*.png`, and the measured-data blocks of docs/deep_dive_fragments.md.

Every table is written right after `<!-- table: PATH[#Heading] -->` and every figure of a
program's prose with `<!-- line: ... -->`, so scripts/check_numbers.py binds each figure to
its source; logs sit in fenced code blocks (results_render.py). A step without measurements
gets a page saying so: the script never invents a number.
"""
import argparse
import json
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from results_deep_dive import fill_fragment_deep_dive  # noqa: E402
from results_plots import LabelOverlap, Plotter, classify  # noqa: E402
from results_render import ResultFile, escape_prose, figure_lines, read_csv, slug  # noqa: E402

TEXT_SUFFIXES = (".md", ".txt", ".log")
RESULT_SUFFIXES = TEXT_SUFFIXES + (".csv",)
PAGE_TABLE_BUDGET = 30

# (step number, folder, page id, page title, lesson page id, what the benchmark is)
STEPS = [
    (1, "step1_naive", "results_step1", "Results: step 1 (naive, one block)",
     "md_step1_naive_README",
     "Step 1 has no benchmark: its only size class (at most 32×32, one block) is too small "
     "to time meaningfully, and the program prints its kernel time on every run."),
    (2, "step2_three_approaches", "results_step2", "Results: step 2 (three approaches)",
     "md_step2_three_approaches_README",
     "The note's Table 1: square products of sizes 2¹⁰, 2¹¹ and 2¹² for the serial CPU "
     "product, approaches 1 to 3 and cuBLAS SGEMM, measured with "
     "`step2_three_approaches --bench --csv results/NAME.csv > results/NAME.md`."),
    (3, "step3_shared_tiling", "results_step3", "Results: step 3 (shared-memory tiling)",
     "md_step3_shared_tiling_README",
     "The note's Table 2: approach 4 (tiles in shared memory) next to the serial product, "
     "step 2's approaches 2 and 3 and cuBLAS SGEMM, measured with "
     "`step3_shared_tiling --bench --csv results/NAME.csv > results/NAME.md`."),
    (4, "step4_boundary_checks", "results_step4", "Results: step 4 (boundary checks)",
     "md_step4_boundary_checks_README",
     "The fast kernel against cuBLAS SGEMM on the public shape set, before and after split-K "
     "(`step4_shape_bench --shapes lab/shapes/public_shapes.txt --csv lab/results/NAME.csv "
     "--markdown lab/results/NAME.md`), and every step-4 approach next to cuBLAS "
     "(`step4_approach_bench`)."),
    (5, "step5_tensor_core_sddmm", "results_step5", "Results: step 5 (Tensor Core SDDMM)",
     "md_step5_tensor_core_sddmm_README",
     "The SDDMM approaches next to cuSPARSE (fp16 and fp32 inputs) and dense-then-sample "
     "(cuBLAS fp16, then a gather) on attention masks, the note's shapes and real matrices "
     "(`sddmm_bench --csv lab/results/NAME.csv --markdown lab/results/NAME.md`)."),
]


def results_dir(repo, folder):
    """Where a step keeps its committed measurements: `lab/results/` once the step has a lab,
    else `results/`."""
    lab = repo / folder / "lab" / "results"
    return lab if lab.is_dir() else repo / folder / "results"


def run_files(results):
    """{run name (path without suffix, relative to results/): [files]} of every result file."""
    runs = {}
    for path in sorted(results.rglob("*")) if results.is_dir() else []:
        if path.is_file() and path.suffix in RESULT_SUFFIXES and path.name != "README.md":
            runs.setdefault(path.relative_to(results).with_suffix("").as_posix(), []).append(path)
    return runs


def git_date(repo, path):
    try:
        return subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%ad",
                               "--date=short", "--", str(path)], capture_output=True,
                              text=True, check=True).stdout.strip() or "0000-00-00"
    except (OSError, subprocess.CalledProcessError):
        return "0000-00-00"


class Run:
    """The files of one run (same name, several suffixes) and how a page shows them, under
    the title the manifest gives it in words."""

    def __init__(self, repo, step_number, name, files, title=None):
        self.repo, self.name, self.files = repo, name, files
        self.title = title or name.replace("_", " ")
        self.by_suffix = {path.suffix: path for path in files}
        self.anchor = "results_step%d_%s" % (step_number, slug(name))
        texts = [ResultFile(repo, p) for p in files if p.suffix in (".md",)]
        header = next((t.header for t in texts if t.header), None)
        if header is None:
            for path in files:
                header = ResultFile(repo, path).header or header
        self.header = header
        self.date = header[1] if header else git_date(repo, files[0])

    def provenance(self):
        names = ", ".join("`%s`" % p.relative_to(self.repo).as_posix() for p in self.files)
        if self.header is None:
            return "**GPU and date: not recorded** in %s (committed %s)." % (names, self.date)
        return "**Measured on:** %s, **date:** %s (%s)." % (
            escape_prose(self.header[0]), self.header[1], names)

    def plots(self, plotter):
        csv_path = self.by_suffix.get(".csv")
        if csv_path is None:
            return []
        _, headers, rows = read_csv(csv_path)
        kind, plot = classify(headers)
        if plot is None or not rows:
            return []
        return plot(plotter, headers, rows, self.header, self.anchor)

    def render(self, level, plotter=None, only=None, anchor=None, columns=None):
        """(Markdown lines, number of tables) of the run under a heading of @p level: with
        @p plotter its plots, with @p only the tables under that heading of its file, with
        @p columns only those columns of them."""
        md = self.by_suffix.get(".md")
        shown = ResultFile(self.repo, md) if md else None
        title = escape_prose(self.title)
        if only:
            # The file's heading, its figures bound to it like the rest of the page.
            part = shown.bound_prose(only) if shown is not None else None
            title += ": %s" % lower_first(part if part is not None else escape_prose(only))
        out = ["%s %s {#%s}" % ("#" * level, title, anchor or self.anchor), "",
               self.provenance(), ""]
        figures = self.plots(plotter) if plotter is not None else []
        tables = 0
        if shown is not None and shown.has_tables():
            out += shown.body(level, only=only, figures=figures, columns=columns)
            tables += shown.tables
        elif ".csv" in self.by_suffix:
            out += figure_lines(figures)
            csv_file = ResultFile(self.repo, self.by_suffix[".csv"])
            out += csv_file.csv_table()
            tables += csv_file.tables
            if shown is not None:
                out += shown.body(level)
        elif shown is not None:
            out += shown.body(level)
        for suffix in (".txt", ".log"):
            if suffix in self.by_suffix:
                log = ResultFile(self.repo, self.by_suffix[suffix])
                out += log.log(level + 1, "%s_%s" % (self.anchor, suffix[1:]))
        return out, tables


def lower_first(heading):
    """A heading continued after a colon: "Against every baseline and the LIMIT" reads
    "against every baseline and the LIMIT" (a word in capitals keeps them)."""
    if len(heading) > 1 and heading[0].isupper() and not heading[1].isupper():
        return heading[0].lower() + heading[1:]
    return heading


def titled(results, manifest, name):
    """The title in words the manifest gives the run @p name (its "titles"); a results page
    does not show a file name as a heading."""
    title = manifest.get("titles", {}).get(name)
    if not title:
        raise SystemExit("%s/manifest.json gives no title to the run %s: add it to \"titles\" "
                         "(a heading in words: what ran, on which GPU, when)" % (results, name))
    return title


def read_manifest(results):
    path = results / "manifest.json"
    if not path.is_file():
        return {"headline": None, "sections": [], "archive": []}
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.setdefault("headline", None)
    manifest.setdefault("sections", [])
    manifest.setdefault("archive", [])
    return manifest


def entry_run(entry, runs, results):
    name, _, only = entry.partition("#")
    stem = pathlib.PurePosixPath(name).with_suffix("").as_posix()
    if stem not in runs:
        raise SystemExit("%s/manifest.json names %s, which is not in the folder" % (
            results, name))
    return stem, (only.strip() or None)


def step_pages(repo, step, plotter):
    number_, folder, page_id, title, lesson, what = step
    results = results_dir(repo, folder)
    relative = results.relative_to(repo).as_posix()
    runs = run_files(results)
    manifest = read_manifest(results)
    lesson_link = ("@ref %s \"the lesson of step %d\"" % (lesson, number_)
                   if (repo / folder / "README.md").exists() else "the lesson of step %d" % number_)
    page = ["# %s {#%s}" % (title, page_id), "",
            "<!-- Generated by docs/make_results.py from %s/ and its manifest.json: edit those, "
            "not this file. -->" % relative, "",
            "%s Back to %s; all results: @ref results_overview \"results overview\"." % (
                what, lesson_link), ""]
    archive_id = "%s_archive" % page_id
    if not runs:
        page += ["**No measurement is committed yet.** This page shows only data measured on "
                 "a GPU and committed under `%s/`." % relative, ""]
        return page, None, 0
    named, anchors, tables = set(), set(), 0
    blocks = []
    if manifest["headline"]:
        blocks.append((manifest["headline"].get("title", "Headline"), "headline",
                       manifest["headline"]))
    for section in manifest["sections"]:
        blocks.append((section["question"], slug(section["question"]), section))
    for heading, key, block in blocks:
        page += ["## %s {#%s_%s}" % (heading, page_id, key), ""]
        if block.get("note"):
            page += [block["note"], ""]
        for entry in block.get("files", []):
            stem, only = entry_run(entry, runs, results)
            run = Run(repo, number_, stem, runs[stem], titled(results, manifest, stem))
            # A file's own anchor (where the lessons' links land) goes to its fullest view.
            anchor = run.anchor if not only and run.anchor not in anchors else \
                "%s_%s" % (run.anchor, key)
            if only and key != "headline" and run.anchor not in anchors:
                anchor = run.anchor
            if anchor in anchors and only:  # two headings of one file in one section
                anchor = "%s_%s" % (anchor, slug(only))
            anchors.add(anchor)
            # Plots go with a whole file, or with a section's selection (not the headline's).
            shows_plots = not only or key != "headline"
            lines, count = run.render(3, plotter if shows_plots else None, only=only,
                                      anchor=anchor, columns=block.get("columns"))
            page += lines
            tables += count
            named.add(stem)
    archived = [Run(repo, number_, stem, files, titled(results, manifest, stem))
                for stem, files in runs.items() if stem not in named]
    archived.sort(key=lambda run: (run.date, run.name), reverse=True)
    if archived:
        page += ["## Older runs {#%s_older}" % page_id, "",
                 "The %d runs these results supersede, newest first, are on the page "
                 "@subpage %s \"older runs of step %d\"." % (len(archived), archive_id, number_),
                 ""]
    if not blocks:
        page += ["The manifest (`%s/manifest.json`) names no headline yet: every committed run "
                 "is on the page of older runs." % relative, ""]
    return page, archive_page(repo, step, archived, archive_id), tables


def archive_page(repo, step, archived, archive_id):
    number_, _, page_id, title, _, _ = step
    if not archived:
        return None
    page = ["# %s: older runs {#%s}" % (title, archive_id), "",
            "<!-- Generated by docs/make_results.py: edit the manifest or the script, not this "
            "file. -->", "",
            "Runs superseded by those on @ref %s \"%s\", newest first. Each names the GPU and "
            "the date it was measured on; the tables of the newest are shown, up to about %d on "
            "this page, and the others are listed with their committed files." % (
                page_id, title, PAGE_TABLE_BUDGET), ""]
    tables = 0
    for run in archived:
        lines, count = run.render(2)
        if tables + count <= PAGE_TABLE_BUDGET:
            page += lines
            tables += count
        else:
            page += ["## %s {#%s}" % (escape_prose(run.title), run.anchor), "",
                     run.provenance(), "",
                     "Not shown on this page (it keeps to about %d tables): %d table(s) in the "
                     "committed file." % (PAGE_TABLE_BUDGET, count), ""]
    return page


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=pathlib.Path, default=here.parent,
                        help="repository root (default: the one this script is in)")
    parser.add_argument("--docs", type=pathlib.Path, default=None,
                        help="where the pages go (default: <repo>/docs)")
    args = parser.parse_args()
    repo = args.repo.resolve()
    docs = (args.docs or repo / "docs").resolve()
    figures = docs / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    for stale in figures.glob("results_*.png"):
        stale.unlink()
    plotter = Plotter(figures)
    status = 0
    for step in STEPS:
        try:
            page, archive, tables = step_pages(repo, step, plotter)
        except LabelOverlap as error:
            print("error: %s" % error, file=sys.stderr)
            return 1
        (docs / ("%s.md" % step[2])).write_text("\n".join(page).rstrip() + "\n", encoding="utf-8")
        archive_path = docs / ("%s_archive.md" % step[2])
        if archive:
            archive_path.write_text("\n".join(archive).rstrip() + "\n", encoding="utf-8")
        elif archive_path.exists():
            archive_path.unlink()
        print("%-22s %d table(s)%s" % (step[2] + ".md", tables,
                                        ", archive page" if archive else ""))
        if tables > PAGE_TABLE_BUDGET:
            print("warning: %s.md holds %d tables, more than about %d: move runs of its "
                  "manifest to the archive" % (step[2], tables, PAGE_TABLE_BUDGET),
                  file=sys.stderr)
            status = 1
    fill_fragment_deep_dive(repo, docs, results_dir(repo, "step5_tensor_core_sddmm"))
    print("figures:", ", ".join(sorted(p.name for p in figures.glob("results_*.png"))) or "none")
    return status


if __name__ == "__main__":
    sys.exit(main())
