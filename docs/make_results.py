#!/usr/bin/env python3
"""Regenerates the results pages of the course book from the measurements committed in
the step folders.

    python3 docs/make_results.py            # from the repository root (needs matplotlib)

For every step it reads `stepN_*/lab/results/` (or `stepN_*/results/` in a step without a lab):

* every `*.csv` a benchmark wrote with `--csv PATH` becomes a table and a set of plots;
  the kind of benchmark is recognised from the CSV's columns (step 2/3 square benchmark,
  step 4 shape benchmark, step 5 SDDMM benchmark; any other CSV is shown as a table);
* the GPU and date come from the `GPU: <name> (...), date: YYYY-MM-DD` line that every
  benchmark prints first (course::benchmark_header()). Commit the program's Markdown
  output next to its CSV under the same name (`table1.csv` + `table1.md`, `.txt` or `.log`
  also work); a `# GPU: ...` comment line at the top of the CSV works too. A table whose
  GPU and date cannot be found says so instead of guessing;
* every other `*.md` / `*.txt` / `*.log` in results/ that has no CSV of the same name (the
  fragment-layout tables, the shuffle-mask table, ...) is shown as it is, with its GPU line;
  the prose and "## ..." sections of a CSV's companion file (notes, summaries, experiment
  tables) are shown under the CSV's table.

It writes `docs/results_step1.md` ... `docs/results_step5.md` (Doxygen pages) and
`docs/figures/results_*.png`, and fills the measured-data blocks of
`docs/deep_dive_fragments.md` (between `<!-- BEGIN name -->` and `<!-- END name -->`).
A step without measurements gets a page saying that nothing is committed yet: the script
never invents a number. Cells that were not measured ("-", empty, "n/a") are left out of
the plots and shown as "-" in the tables.
"""
import argparse
import csv
import math
import pathlib
import re
import sys

GPU_LINE = re.compile(r"^\s*#*\s*GPU:\s*(?P<gpu>.+?),\s*date:\s*(?P<date>\d{4}-\d{2}-\d{2})\s*$")
# Progress lines a benchmark prints on stderr, which end up in a committed log mixed with
# the tables ("matrix_... K=256 done in 11.962 s").
PROGRESS_LINE = re.compile(r"K=\d+ done in [\d.]+ s$")
MISSING = {"", "-", "–", "n/a", "na", "nan", "none"}

# (step number, folder, page id, page title, lesson page id, what the benchmark is)
STEPS = [
    (1, "step1_naive", "results_step1", "Results: step 1 (naive, one block)",
     "md_step1_naive_README",
     "Step 1 has no benchmark: its only size class (at most 32×32, one block) is too small "
     "to time meaningfully, and the program prints its kernel time on every run."),
    (2, "step2_three_approaches", "results_step2", "Results: step 2 (three approaches)",
     "md_step2_three_approaches_README",
     "The note's Table 1: square products of sizes 2^10, 2^11 and 2^12 for the serial CPU "
     "product, approaches 1 to 3 and cuBLAS SGEMM, measured with "
     "`step2_three_approaches --bench --csv results/NAME.csv > results/NAME.md`."),
    (3, "step3_shared_tiling", "results_step3", "Results: step 3 (shared-memory tiling)",
     "md_step3_shared_tiling_README",
     "The note's Table 2: approach 4 (tiles in shared memory) next to the serial product, "
     "step 2's approaches 2 and 3 and cuBLAS SGEMM, measured with "
     "`step3_shared_tiling --bench --csv results/NAME.csv > results/NAME.md`."),
    (4, "step4_boundary_checks", "results_step4", "Results: step 4 (boundary checks)",
     "md_step4_boundary_checks_README",
     "Every step 4 approach next to cuBLAS SGEMM on square and ragged shapes, each result "
     "checked against cuBLAS, measured with `step4_approach_bench "
     "--csv lab/results/NAME.csv --markdown lab/results/NAME.md`; and the shape benchmark, the "
     "fast kernel against cuBLAS on the public shape set, before and after split-K "
     "(`step4_shape_bench --shapes lab/shapes/public_shapes.txt --csv "
     "lab/results/NAME.csv --markdown lab/results/NAME.md`). When the files below were "
     "measured, the two were `step4_boundary_checks --bench` and `--bench --shapes`."),
    (5, "step5_tensor_core_sddmm", "results_step5", "Results: step 5 (Tensor Core SDDMM)",
     "md_step5_tensor_core_sddmm_README",
     "The SDDMM approaches next to cuSPARSE on the note's shapes, a K sweep and real "
     "matrices (`sddmm_bench --csv lab/results/NAME.csv > lab/results/NAME.md`), plus the "
     "fragment-layout and shuffle-mask experiments (`fragment_layout > "
     "lab/results/fragment_layout.md`, `shuffle_mask --undefined > lab/results/shuffle_mask.md`)."),
]

TEXT_SUFFIXES = (".md", ".txt", ".log")
MAX_LOG_LINES = 40


# ----------------------------------------------------------------------------- helpers

def number(cell):
    """The cell as a float, or None when it is not a measurement."""
    text = (cell or "").strip().rstrip("%").replace(",", "")
    if text.lower() in MISSING:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def escape_cell(text):
    """Makes a table cell or a line of prose safe for Doxygen's Markdown."""
    text = (text or "").strip()
    if text.lower() in MISSING:
        return "-"
    text = text.replace("\\", "\\\\").replace("@", "\\@").replace("<", "&lt;")
    text = text.replace(">", "&gt;").replace("|", "\\|").replace("#", "\\#")
    text = re.sub(r"%(?=\w)", r"\\%", text)
    return text


def escape_prose(text):
    """Escapes a line of prose (keeps `code` spans and Markdown emphasis)."""
    text = text.replace("\\", "\\\\").replace("@", "\\@").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"%(?=\w)", r"\\%", text)


def numeric_column(rows, index):
    """True when most measured cells of the column are numbers (right-aligned then)."""
    cells = [r[index] for r in rows if index < len(r) and r[index].strip().lower() not in MISSING]
    return bool(cells) and sum(number(c) is not None for c in cells) * 2 >= len(cells)


# The book's text column is 974 px wide at the 1280 px window that
# scripts/check_rendering.py uses (docs/course.css: tables in 13 px type, headers at 110 %).
# A table cannot be narrower than the sum of its columns' narrowest widths (the longest word
# of a header or a text cell; a whole right-aligned cell, which course.css keeps on one
# line); wider than the column, it would be cut at the right. The estimate is generous (a
# wide glyph, the padding and border) and the budget leaves a margin.
TABLE_BUDGET_PX = 930
BODY_CHAR_PX = 7.6
HEAD_CHAR_PX = 9.6
CELL_PADDING_PX = 16
# Columns that name a row: a table split into parts repeats them in every part.
KEY_COLUMNS = {"approach", "K", "inner", "matrix", "mask"}


def words(cell):
    return re.split(r"\s+", cell or "")


def min_column_px(header, align, cells):
    """Narrowest width a column can take: its longest run of text without a break
    opportunity (a whole cell where the column is right-aligned, course.css's nowrap)."""
    head = max((len(word) for word in words(header)), default=1) * HEAD_CHAR_PX
    right = align.strip().endswith(":") and not align.strip().startswith(":")
    body = max((len((cell or "").strip()) if right else
                max((len(word) for word in words(cell)), default=1) for cell in cells),
               default=1) * BODY_CHAR_PX
    return max(head, body) + CELL_PADDING_PX


def column_groups(headers, align, rows):
    """Splits the columns of a table too wide for the page into parts that fit: lists of
    column indices, each starting with the columns that name a row (the first column, and
    any of KEY_COLUMNS). One part, all columns, when the table fits."""
    widths = [min_column_px(h, align[i], [r[i] if i < len(r) else "" for r in rows])
              for i, h in enumerate(headers)]
    if sum(widths) <= TABLE_BUDGET_PX or len(headers) <= 2:
        return [list(range(len(headers)))]
    keys = [0] + [i for i, h in enumerate(headers) if i > 0 and h in KEY_COLUMNS]
    key_width = sum(widths[i] for i in keys)
    groups, current, width = [], [], key_width
    for i in range(len(headers)):
        if i in keys:
            continue
        if current and width + widths[i] > TABLE_BUDGET_PX:
            groups.append(keys + current)
            current, width = [], key_width
        current.append(i)
        width += widths[i]
    if current:
        groups.append(keys + current)
    return groups


def table_text(headers, align, rows):
    """Markdown of one table from cells already escaped; a table too wide for the page is
    split into parts that repeat the columns naming each row (column_groups)."""
    groups = column_groups(headers, align, rows)
    parts = []
    for number_, group in enumerate(groups):
        lines = []
        if len(groups) > 1:
            lines += ["*Part %d of %d of the table (columns %s):*" % (
                number_ + 1, len(groups), ", ".join(headers[i] for i in group)), ""]
        lines += ["| " + " | ".join(headers[i] for i in group) + " |",
                  "|" + "|".join(align[i] for i in group) + "|"]
        for row in rows:
            lines.append("| " + " | ".join(row[i] if i < len(row) else "" for i in group)
                         + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def markdown_table(headers, rows):
    align = ["---:" if numeric_column(rows, i) else ":---" for i in range(len(headers))]
    cells = [[escape_cell(c) for c in (list(row) + [""] * (len(headers) - len(row)))[:len(headers)]]
             for row in rows]
    return table_text([escape_cell(h) for h in headers], align, cells)


def find_header(lines):
    """(gpu, date) from the first benchmark header line among @p lines, or None."""
    for line in lines:
        match = GPU_LINE.match(line.strip().strip("`"))
        if match:
            return match.group("gpu").strip(), match.group("date")
    return None


def provenance_text(header, source, hint=True):
    if header is None:
        return ("**GPU and date: not recorded** in `%s`%s." % (source, (
            " (commit the benchmark's Markdown output, whose first line names them, under the "
            "same name)") if hint else ""))
    return "**Measured on:** %s, **date:** %s (source: `%s`)." % (
        escape_prose(header[0]), header[1], source)


# The step-4 benchmarks' shape column; CSVs written before the glossary (docs/glossary.md)
# call it "shape IxJxK" after the note's letters, and read_csv gives them this name.
SHAPE = "shape rows x inner x cols"
OLD_HEADERS = {"shape IxJxK": SHAPE}


def read_csv(path):
    """(comment lines, headers, rows) of a CSV; lines starting with '#' are comments."""
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    comments = [line for line in text if line.lstrip().startswith("#")]
    body = [line for line in text if line.strip() and not line.lstrip().startswith("#")]
    table = list(csv.reader(body))
    if not table:
        return comments, [], []
    headers = [OLD_HEADERS.get(h.strip(), h.strip()) for h in table[0]]
    rows = [[c.strip() for c in row] for row in table[1:] if any(c.strip() for c in row)]
    return comments, headers, rows


def split_markdown(lines):
    """Splits Markdown text into (preamble lines, [(heading, lines)]) at '## ' headings."""
    preamble, sections = [], []
    for line in lines:
        if re.match(r"^#{1,3} ", line):
            sections.append((line.lstrip("#").strip(), []))
        elif sections:
            sections[-1][1].append(line)
        else:
            preamble.append(line)
    return preamble, sections


def is_rule_row(cells):
    return bool(cells) and all(re.fullmatch(r"\s*:?-+:?\s*", c) for c in cells)


def render_table_lines(table_lines):
    """Re-emits one Markdown table of a program's output: cells escaped, split into parts
    when too wide for the page. A table the program printed with no rows (its header and rule
    only) becomes a sentence: Doxygen would show the bare header as text."""
    rows = [[c for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]] for line in table_lines]
    if len(rows) >= 2 and is_rule_row(rows[1]):
        headers, align, body = rows[0], [c.strip() for c in rows[1]], rows[2:]
        headers = [escape_cell(c.replace("\\|", "|")) for c in headers]
        if not body:
            return ["The program printed this table with no rows (columns: %s)."
                    % ", ".join(headers)]
        body = [[escape_cell(c.replace("\\|", "|")) for c in row] for row in body]
        align = (align + ["---"] * len(headers))[:len(headers)]
        return table_text(headers, align, body).split("\n")
    return ["| " + " | ".join(escape_cell(c.replace("\\|", "|")) for c in row) + " |"
            for row in rows]


def heading_text(heading):
    """A heading of a program's output for a Doxygen heading: no code spans (Doxygen shows
    their markup as text in a heading)."""
    return escape_prose(heading.replace("`", ""))


def render_markdown_lines(lines):
    """Re-emits Markdown output of a program: tables escaped cell by cell (and split when too
    wide for the page), prose escaped, benchmark header lines dropped (they are shown as
    provenance)."""
    out, table = [], []
    for line in lines + [""]:
        stripped = line.strip()
        if GPU_LINE.match(stripped.strip("`")) or stripped.startswith("CSV written to") \
                or PROGRESS_LINE.search(stripped):
            continue
        if stripped.startswith("|"):
            table.append(stripped)
            continue
        if table:
            out += render_table_lines(table)
            table = []
        out.append(escape_prose(line.rstrip()))
    text = "\n".join(out).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", text)


def first_table(lines, start_predicate=lambda line: True):
    """The first run of consecutive table lines whose first line satisfies the predicate,
    with the non-table lines right after it that are sentences (a verdict, a count)."""
    for index, line in enumerate(lines):
        if line.startswith("|") and start_predicate(line):
            end = index
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            return lines[index:end]
    return []


def slug(text):
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


# ----------------------------------------------------------------------------- plots

class Plotter:
    """Draws the figures with matplotlib (imported on first use)."""

    def __init__(self, figures_dir):
        self.figures_dir = figures_dir
        self._plt = None

    @property
    def plt(self):
        if self._plt is None:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            plt.rcParams.update({"font.size": 9, "axes.grid": True, "grid.alpha": 0.3,
                                 "figure.dpi": 110, "savefig.bbox": "tight"})
            self._plt = plt
        return self._plt

    def save(self, figure, name):
        path = self.figures_dir / name
        figure.savefig(path)
        self.plt.close(figure)
        return name


def figure_title(stem):
    """'results_step4_bench_h200' -> 'Step 4, bench h200'."""
    match = re.match(r"results_step(\d+)_(.*)", stem)
    return "Step %s, %s" % (match.group(1), match.group(2).replace("_", " ")) if match else stem


def provenance_title(header):
    return "%s, %s" % header if header else "GPU and date not recorded"


def square_plots(plotter, headers, rows, header, stem):
    """Step 2/3 square benchmark: time, TFLOP/s, % of cuBLAS and speedup against size."""
    size_columns = []
    for index, name in enumerate(headers):
        match = re.fullmatch(r"(?:2\^(\d+)|(\d+))\s*\(ms\)", name)
        if match:
            size = 2 ** int(match.group(1)) if match.group(1) else int(match.group(2))
            size_columns.append((index, size))
    if not size_columns:
        return []
    series = {}
    for row in rows:
        times = [(size, number(row[i]) if i < len(row) else None) for i, size in size_columns]
        series[row[0]] = [(s, t) for s, t in times if t is not None and t > 0]
    cublas = next((name for name in series if "cublas" in name.lower()), None)
    serial = next((name for name in series if "serial" in name.lower()), None)
    if not any(series.values()):
        return []
    plt = plotter.plt
    figure, axes = plt.subplots(2, 2, figsize=(10, 7.2))
    sizes = [s for _, s in size_columns]
    colors = color_map(plt, list(series))
    for name, points in series.items():
        if not points:
            continue
        xs = [s for s, _ in points]
        axes[0][0].plot(xs, [t for _, t in points], marker="o", label=name, color=colors[name])
        axes[0][1].plot(xs, [2.0 * s ** 3 / (t * 1e-3) / 1e12 for s, t in points], marker="o",
                        label=name, color=colors[name])
    lookup = {name: dict(points) for name, points in series.items()}
    for name, points in series.items():
        if cublas and name != cublas and name != serial:
            pts = [(s, lookup[cublas][s] / t * 100.0) for s, t in points if s in lookup[cublas]]
            if pts:
                axes[1][0].plot([s for s, _ in pts], [v for _, v in pts], marker="o", label=name,
                                color=colors[name])
        if serial and name != serial:
            pts = [(s, lookup[serial][s] / t) for s, t in points if s in lookup[serial]]
            if pts:
                axes[1][1].plot([s for s, _ in pts], [v for _, v in pts], marker="o", label=name,
                                color=colors[name])
    titles = [["median time (ms, log scale)", "TFLOP/s (2n³ / time, log scale)"],
              ["% of cuBLAS SGEMM speed", "speedup over the serial CPU product (log scale)"]]
    for r in range(2):
        for c in range(2):
            ax = axes[r][c]
            ax.set_title(titles[r][c])
            ax.set_xscale("log", base=2)
            ax.set_xticks(sizes)
            ax.set_xticklabels(["2^%d" % round(math.log2(s)) if s & (s - 1) == 0 else str(s)
                                for s in sizes])
            ax.set_xlabel("matrix size n (n×n times n×n)")
            if ax.lines:
                ax.legend(fontsize=7)
            else:
                ax.text(0.5, 0.5, "not measured", ha="center", va="center",
                        transform=ax.transAxes)
    for ax in (axes[0][0], axes[0][1], axes[1][1]):
        if ax.lines:
            ax.set_yscale("log")
    return finish_figure(plotter, figure, stem, header,
                         "Time, TFLOP/s, fraction of cuBLAS and speedup over serial against "
                         "size (%s). Points not measured are left out.")


def finish_figure(plotter, figure, stem, header, caption):
    """Titles `figure` with its result file's title and provenance, saves it as `stem`.png
    and returns the list of (image, caption) the plot functions return; `caption` holds one
    %s, where the provenance goes."""
    figure.suptitle("%s: %s" % (figure_title(stem), provenance_title(header)))
    figure.tight_layout()
    return [(plotter.save(figure, "%s.png" % stem), caption % provenance_title(header))]


def color_map(plt, names):
    """One fixed colour per series name, so a method keeps its colour in every panel."""
    palette = plt.get_cmap("tab10" if len(names) <= 10 else "tab20").colors
    return {name: palette[index % len(palette)] for index, name in enumerate(names)}


def grouped_bars(ax, groups, series, log=False, colors=None):
    """Bars of series[name][group] for every group; missing values leave a gap."""
    names = [n for n in series if any(v is not None for v in series[n].values())]
    width = 0.8 / max(len(names), 1)
    for offset, name in enumerate(names):
        xs, ys = [], []
        for index, group in enumerate(groups):
            value = series[name].get(group)
            if value is not None and (value > 0 or not log):
                xs.append(index - 0.4 + width * (offset + 0.5))
                ys.append(value)
        ax.bar(xs, ys, width=width, label=name, color=(colors or {}).get(name))
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=30 if len(groups) > 4 else 0, ha="right"
                       if len(groups) > 4 else "center", fontsize=7)
    if log:
        ax.set_yscale("log")
    if names:
        ax.legend(fontsize=7)


def shape_plots(plotter, headers, rows, header, stem):
    """Step 4 benchmark: TFLOP/s and fraction of cuBLAS per shape and approach."""
    col = {name: i for i, name in enumerate(headers)}
    need = [SHAPE, "approach", "TFLOP/s", "fraction of cuBLAS"]
    if any(n not in col for n in need):
        return []
    shapes, tflops, fraction = [], {}, {}
    for row in rows:
        if len(row) < len(headers):
            continue
        shape, approach = row[col[SHAPE]], row[col["approach"]]
        if shape not in shapes:
            shapes.append(shape)
        tflops.setdefault(approach, {})[shape] = number(row[col["TFLOP/s"]])
        if "cublas" not in approach.lower():
            fraction.setdefault(approach, {})[shape] = number(row[col["fraction of cuBLAS"]])
    if not shapes:
        return []
    plt = plotter.plt
    figure, axes = plt.subplots(2, 1, figsize=(10, 7.5))
    colors = color_map(plt, list(tflops))
    grouped_bars(axes[0], shapes, tflops, log=True, colors=colors)
    axes[0].set_title("TFLOP/s (2·rows·inner·cols / median time, log scale)")
    grouped_bars(axes[1], shapes, fraction, colors=colors)
    axes[1].axhline(1.0, color="black", linewidth=0.8)
    axes[1].set_title("fraction of cuBLAS SGEMM speed (cuBLAS time / kernel time; 1 = cuBLAS)")
    for ax in axes:
        ax.set_xlabel("shape rows×inner×cols")
    return finish_figure(plotter, figure, stem, header,
                         "TFLOP/s and fraction of cuBLAS per shape and approach (%s). Rows "
                         "marked WRONG or not measured are left out.")


def shape_set_plots(plotter, headers, rows, header, stem):
    """Step 4 shape benchmark: fraction of cuBLAS per shape, before and after split-K."""
    col = {name: i for i, name in enumerate(headers)}
    need = [SHAPE, "fraction", "before fraction", "cuBLAS ms"]
    if any(n not in col for n in need):
        return []
    points = []
    for row in rows:
        after, before = number(row[col["fraction"]]), number(row[col["before fraction"]])
        if after is not None and before is not None:
            points.append((row[col[SHAPE]], before, after,
                           number(row[col["cuBLAS ms"]]) or 0.0))
    if not points:
        return []
    points.sort(key=lambda point: point[2])
    plt = plotter.plt
    figure, ax = plt.subplots(figsize=(10, 0.22 * len(points) + 1.6))
    positions = list(range(len(points)))
    ax.scatter([p[1] for p in points], positions, marker="x", color="tab:gray",
               label="before split-K")
    ax.scatter([p[2] for p in points], positions, marker="o", color="tab:blue",
               label="with split-K and the shape-driven choice")
    ax.set_yticks(positions)
    ax.set_yticklabels(["%s%s" % (p[0], " *" if p[3] < 0.020 else "") for p in points],
                       fontsize=7)
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.axvline(0.8, color="tab:red", linewidth=0.6, linestyle="--")
    ax.set_xlabel("fraction of cuBLAS SGEMM speed (cuBLAS time / ours, log scale; "
                  "* = cuBLAS under 20 µs)")
    ax.legend(loc="lower right", fontsize=8)
    return finish_figure(plotter, figure, stem, header,
                         "Fraction of cuBLAS per shape before and after split-K (%s), sorted "
                         "by the fraction after; the dashed line is 0.8.")


def horizontal_bars(ax, cases, series, colors, log=True):
    """Horizontal grouped bars: one group per case (top to bottom), one bar per series."""
    names = [n for n in series if any(series[n].get(c) is not None for c in cases)]
    height = 0.8 / max(len(names), 1)
    for offset, name in enumerate(names):
        ys, xs = [], []
        for index, case in enumerate(cases):
            value = series[name].get(case)
            if value is not None and value > 0:
                ys.append(index - 0.4 + height * (offset + 0.5))
                xs.append(value)
        ax.barh(ys, xs, height=height, label=name, color=colors.get(name))
    ax.set_yticks(range(len(cases)))
    ax.set_yticklabels(cases, fontsize=7)
    ax.set_ylim(len(cases) - 0.5, -0.5)
    if log:
        ax.set_xscale("log")


def sddmm_plots(plotter, headers, rows, header, stem):
    """Step 5 benchmark: per family of matrices (the note's shapes, the K sweep, real
    matrices), kernel time, speedup over cuSPARSE and preprocessing / kernel time."""
    # Tables before the glossary named the sizes M, N, K; later ones rows, cols, inner.
    headers = [{"rows": "M", "cols": "N", "inner": "K"}.get(name, name) for name in headers]
    col = {name: i for i, name in enumerate(headers)}
    if any(n not in col for n in ["matrix", "K", "approach", "sddmm"]):
        return []
    rows = [r for r in rows if len(r) >= len(headers)
            and not r[col["check"] if "check" in col else 0].startswith("skipped")]
    ks_per_matrix = {}
    for row in rows:
        ks_per_matrix.setdefault(row[col["matrix"]], set()).add(row[col["K"]])

    def family(row):
        if len(ks_per_matrix[row[col["matrix"]]]) > 1 and row[col["K"]] != "256":
            return "K sweep"
        if re.match(r"^matrix_\d+_\d+_\d+$", row[col["matrix"]]):
            return "the note's shapes (uniform random masks)"
        return "real matrices"

    def case_name(row):
        name = re.sub(r"^matrix_(\d+)_(\d+)_(\d+)$", r"\1×\2, nnz \3", row[col["matrix"]])
        swept = len(ks_per_matrix[row[col["matrix"]]]) > 1
        return name + ("" if row[col["K"]] == "256" and not swept else ", K=" + row[col["K"]])

    def label(text):
        return "cuSPARSE" if text.lower().startswith("cusparse") else text

    approaches = []
    for row in rows:
        if label(row[col["approach"]]) not in approaches:
            approaches.append(label(row[col["approach"]]))
    plt = plotter.plt
    colors = color_map(plt, approaches)
    figures = []
    families = []
    for row in rows:
        if family(row) not in families:
            families.append(family(row))
    for family_name in families:
        chosen = [r for r in rows if family(r) == family_name]
        # The K sweep also shows its K = 256 member, which is filed with the note's shapes.
        if family_name == "K sweep":
            sweep = {r[col["matrix"]] for r in chosen}
            chosen = [r for r in rows if r[col["matrix"]] in sweep]
            chosen.sort(key=lambda r: int(r[col["K"]]) if r[col["K"]].isdigit() else 0)
        cases, sddmm, speedup, other_ratio = [], {}, {}, {}
        for row in chosen:
            case = case_name(row)
            cases += [case] if case not in cases else []
            approach = label(row[col["approach"]])
            kernel = number(row[col["sddmm"]])
            sddmm.setdefault(approach, {})[case] = kernel
            if approach != "cuSPARSE":
                if "vs cuSPARSE" in col:
                    speedup.setdefault(approach, {})[case] = number(row[col["vs cuSPARSE"]])
                other = number(row[col["other"]]) if "other" in col else None
                other_ratio.setdefault(approach, {})[case] = (
                    other / kernel if other is not None and kernel else None)
        if not any(v is not None for series in sddmm.values() for v in series.values()):
            continue
        height = 1.6 + 0.42 * len(cases)
        figure, axes = plt.subplots(1, 3, figsize=(13, height), sharey=True)
        horizontal_bars(axes[0], cases, sddmm, colors)
        axes[0].set_title("kernel time (ms, log)")
        horizontal_bars(axes[1], cases, speedup, colors)
        axes[1].axvline(1.0, color="black", linewidth=0.8)
        axes[1].set_title("speedup over cuSPARSE (log; >1 = faster)")
        horizontal_bars(axes[2], cases, other_ratio, colors)
        axes[2].axvline(1.0, color="black", linewidth=0.8)
        axes[2].set_title("'other' (preprocessing) / kernel time (log)")
        for ax in axes[1:]:
            ax.tick_params(axis="y", labelleft=False)
        figure.suptitle("%s, %s: %s" % (figure_title(stem), family_name,
                                          provenance_title(header)))
        handles, labels = axes[0].get_legend_handles_labels()
        figure.legend(handles, labels, loc="lower center", ncol=max(len(labels), 1),
                      fontsize=8, frameon=False)
        figure.tight_layout(rect=(0, 0.45 / height, 1, 1))
        name = "%s_%s.png" % (stem, slug(family_name.split(" (")[0]))
        figures.append((plotter.save(figure, name),
                        "%s: kernel time, speedup over cuSPARSE and the weight of the "
                        "preprocessing per matrix (%s). Refused or failed runs are left out." %
                        (family_name[0].upper() + family_name[1:], provenance_title(header))))
    return figures


def pivot(headers, rows, row_column, col_column, value_column, transform=None):
    """A summary table: one row per value of @p row_column, one column per value of
    @p col_column, cells from @p value_column (in order of first appearance)."""
    col = {name: i for i, name in enumerate(headers)}
    if any(c not in col for c in (row_column, col_column, value_column)):
        return None
    row_keys, col_keys, cells = [], [], {}
    for row in rows:
        if len(row) < len(headers):
            continue
        r = row[col[row_column]] if transform is None else transform(row, col)[0]
        c = row[col[col_column]] if transform is None else transform(row, col)[1]
        row_keys += [r] if r not in row_keys else []
        col_keys += [c] if c not in col_keys else []
        cells[(r, c)] = row[col[value_column]]
    table_rows = [[r] + [cells.get((r, c), "-") for c in col_keys] for r in row_keys]
    return markdown_table([row_column] + col_keys, table_rows)


def summary_table(kind, headers, rows):
    """(title, Markdown) of a compact view of a long benchmark table, or None."""
    if kind == "shapes":
        table = pivot(headers, rows, "approach", SHAPE, "fraction of cuBLAS")
        return ("Fraction of cuBLAS's speed per approach and shape (1 = as fast as cuBLAS; "
                "`-` = not measured or wrong)", table) if table else None
    if kind == "sddmm":
        def keys(row, col):
            # Tables before the glossary name the inner size K, later ones inner.
            inner = "inner" if "inner" in col else "K"
            size = row[col[inner]]
            name = row[col["matrix"]] + ("" if size == "256" else f", {inner}={size}")
            approach = row[col["approach"]]
            if not approach.lower().startswith("cusparse"):
                return name, approach
            # Both cuSPARSE precisions have a column of their own (fp32 must not overwrite fp16).
            precision = next((p for p in ("fp16", "fp32") if p in approach), "")
            return name, f"cuSPARSE {precision}".strip()
        check = headers.index("check") if "check" in headers else None
        kept = [r for r in rows if check is None or check >= len(r)
                or not r[check].startswith("skipped")]
        table = pivot(headers, kept, "matrix", "approach", "vs cuSPARSE", keys)
        return ("Speedup over cuSPARSE per matrix and approach (cuSPARSE time / kernel time; "
                "inner = 256 unless stated)", table) if table else None
    return None


def classify(headers):
    if headers and headers[0] == "method" and any(h.endswith("(ms)") for h in headers):
        return "square", square_plots
    if SHAPE in headers and "before fraction" in headers:
        return "shape_set", shape_set_plots
    if SHAPE in headers:
        return "shapes", shape_plots
    if "matrix" in headers and "sddmm" in headers:
        return "sddmm", sddmm_plots
    return "table", None


# ----------------------------------------------------------------------------- pages

def companion_of(csv_path):
    for suffix in TEXT_SUFFIXES:
        candidate = csv_path.with_suffix(suffix)
        if candidate.exists():
            return candidate
    return None


def render_csv(repo, csv_path, plotter, stem_prefix):
    comments, headers, rows = read_csv(csv_path)
    companion = companion_of(csv_path)
    companion_lines = (companion.read_text(encoding="utf-8", errors="replace").splitlines()
                       if companion else [])
    header = find_header(comments) or find_header(companion_lines)
    source = str(csv_path.relative_to(repo))
    if companion:
        source += "` and `" + str(companion.relative_to(repo))
    title = csv_path.stem.replace("_", " ")
    parts = ["## %s {#%s}" % (title, stem_prefix), "", provenance_text(header, source), ""]
    if not headers or not rows:
        parts += ["This CSV holds no data rows.", ""]
        return parts
    kind, plot = classify(headers)
    if plot is not None:
        try:
            figures = plot(plotter, headers, rows, header, stem_prefix)
        except ImportError:
            print("matplotlib is missing: pip install matplotlib", file=sys.stderr)
            raise
        for name, caption in figures:
            parts += ["![%s](%s)" % (escape_prose(caption), name), ""]
    summary = summary_table(kind, headers, rows)
    if summary:
        parts += ["**%s:**" % summary[0], "", summary[1], "", "**All measurements:**", ""]
    parts += [markdown_table(headers, rows), ""]
    if companion_lines:
        preamble, sections = split_markdown(companion_lines)
        # The preamble holds the header, the table the CSV repeats and the notes: keep the
        # prose only.
        notes = [line for line in preamble if not line.strip().startswith("|")]
        notes_text = render_markdown_lines(notes)
        if notes_text:
            parts += ["Notes printed by the benchmark:", "", notes_text, ""]
        for heading, lines in sections:
            parts += ["### %s" % heading_text(heading), "", render_markdown_lines(lines), ""]
    return parts


def render_text_result(repo, path, stem_prefix):
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    header = find_header(lines)
    source = str(path.relative_to(repo))
    level = "##" if path.suffix == ".md" else "###"
    parts = ["%s %s {#%s}" % (level, path.stem.replace("_", " "), stem_prefix), ""]
    if path.suffix != ".md":
        # A log (test run, sanitizer, demo output): shown verbatim, the start of it only.
        shown = [l.rstrip() for l in lines[:MAX_LOG_LINES] if "@endverbatim" not in l
                 and "\\endverbatim" not in l]
        parts += ["Program output committed as `%s`%s%s." % (
            source, "" if header is None else " (%s, %s)" % (escape_prose(header[0]), header[1]),
            "" if len(lines) <= MAX_LOG_LINES else
            "; the first %d of its %d lines" % (MAX_LOG_LINES, len(lines))), "",
                  "@verbatim"] + shown + ["@endverbatim", ""]
        return parts
    preamble, sections = split_markdown(lines)
    parts += [provenance_text(header, source), ""]
    text = render_markdown_lines(preamble)
    if text:
        parts += [text, ""]
    for heading, body in sections:
        parts += ["### %s" % heading_text(heading), "", render_markdown_lines(body), ""]
    return parts


def results_dir(repo, folder):
    """Where a step keeps its committed measurements: `lab/results/` once the step has a lab
    (step 5), else `results/`. Returned relative to the repository as well as absolute."""
    lab = pathlib.Path(folder) / "lab" / "results"
    relative = lab if (repo / lab).is_dir() else pathlib.Path(folder) / "results"
    return repo / relative, relative.as_posix()


def step_page(repo, step, plotter):
    number_, folder, page_id, title, lesson, what = step
    results, results_name = results_dir(repo, folder)
    csvs = sorted(results.glob("*.csv")) if results.is_dir() else []
    texts = sorted(p for p in results.glob("*") if p.suffix in TEXT_SUFFIXES
                   and not p.with_suffix(".csv").exists()) if results.is_dir() else []
    lesson_exists = (repo / folder / "README.md").exists()
    lesson_link = ("@ref %s \"the lesson of step %d\"" % (lesson, number_) if lesson_exists
                   else "the lesson of step %d (`%s/README.md`)" % (number_, folder))
    parts = ["# %s {#%s}" % (title, page_id), "",
             "<!-- Generated by docs/make_results.py from %s/: edit the script, "
             "not this file. -->" % results_name, "",
             "%s Back to %s; all results: @ref results_overview \"results overview\"." %
             (what, lesson_link), ""]
    if not csvs and not texts:
        parts += ["**No measurement is committed yet.** This page shows only data measured "
                  "on a GPU and committed under `%s/`; once it is there, "
                  "`python3 docs/make_results.py` regenerates this page with the tables and "
                  "plots." % results_name, ""]
    for csv_path in csvs:
        parts += render_csv(repo, csv_path, plotter,
                            "results_step%d_%s" % (number_, slug(csv_path.stem)))
    logs = [p for p in texts if p.suffix != ".md"]
    for path in [p for p in texts if p.suffix == ".md"] + logs:
        if logs and path == logs[0]:
            parts += ["## Other committed output {#results_step%d_logs}" % number_, "",
                      "Test runs, sanitizer reports and demonstrations committed with the "
                      "measurements, shown as the programs printed them.", ""]
        parts += render_text_result(repo, path, "results_step%d_%s" % (number_, slug(path.stem)))
    return "\n".join(parts).rstrip() + "\n", bool(csvs or texts)


# ----------------------------------------------------------------------------- deep dive

def replace_block(text, name, content):
    pattern = re.compile(r"(<!-- BEGIN %s -->\n).*?(<!-- END %s -->)" % (name, name), re.S)
    if not pattern.search(text):
        raise SystemExit("deep_dive_fragments.md lacks the block %s" % name)
    return pattern.sub(lambda m: m.group(1) + content.rstrip() + "\n" + m.group(2), text)


def block_shape_sentence(rows):
    """One sentence comparing the measured block shapes (the 'sddmm ms' column)."""
    times = {}
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) >= 4 and number(cells[3]) is not None:
            times[cells[2]] = number(cells[3])
    square = next((t for name, t in times.items() if "32x32" in name), None)
    wide = next((t for name, t in times.items() if "128x4" in name), None)
    if not square or not wide:
        return ""
    # No ratio of our own: a quoted figure must appear in the source file (scripts/
    # check_numbers.py); the note's figure goes in a paragraph marked as quoted.
    return ("On this GPU the 128×4 block took %.3g ms against %.3g ms for 32×32.\n\n"
            "<!-- quoted: note 002 -->\n"
            "The note measured 128×4 at about 0.55 of the 32×32 time on its GPU (RTX 4090, "
            "Debug build)." % (wide, square))


def fill_fragment_deep_dive(repo, docs):
    page = docs / "deep_dive_fragments.md"
    if not page.exists():
        return
    results, _ = results_dir(repo, "step5_tensor_core_sddmm")
    files = sorted(p for p in results.glob("*") if p.suffix in TEXT_SUFFIXES) \
        if results.is_dir() else []
    contents = {p: p.read_text(encoding="utf-8", errors="replace").splitlines() for p in files}

    def source_of(predicate):
        return next((p for p, lines in contents.items() if predicate(lines)), None)

    def sourced(path, body):
        header = find_header(contents[path])
        gpu = next((l.split(":", 1)[1].strip() for l in contents[path]
                    if l.startswith("GPU:")), None)
        if header is None and gpu:
            # A log of several programs where only one names the GPU, and none the date.
            line = ("**GPU:** %s (named by a program's output in the same log), **date: not "
                    "recorded** in `%s`." % (escape_prose(gpu), path.relative_to(repo)))
        else:
            line = provenance_text(header, str(path.relative_to(repo)), hint=False)
        return "\n".join([line, "", body])

    layout = source_of(lambda ls: any("accumulator" in l and l.startswith("#") for l in ls))
    if layout:
        _, sections = split_markdown(contents[layout])
        body = []
        for heading, lines in sections:
            body += ["#### %s" % heading_text(heading), "", render_markdown_lines(lines), ""]
        layout_text = sourced(layout, "\n".join(body))
    else:
        layout_text = ("**No measurement is committed yet.** Run `fragment_layout > "
                       "step5_tensor_core_sddmm/lab/results/fragment_layout.md` on a GPU, commit "
                       "the file and rerun `python3 docs/make_results.py`.")

    shuffle = source_of(lambda ls: any(l.startswith("| active lanes") for l in ls))
    if shuffle:
        lines = contents[shuffle]
        # A log may hold several runs: show the widest table (the one with --undefined) and
        # the verdict lines printed right after it.
        starts = [i for i, l in enumerate(lines) if l.startswith("| active lanes")]
        best = max(starts, key=lambda i: (lines[i].count("|"), -i))
        table = first_table(lines[best:])
        verdicts = []
        for line in lines[best + len(table):]:
            if line.startswith(("|", "==", "exit")) or GPU_LINE.match(line.strip()):
                break
            if line.strip():
                verdicts.append(line.strip())
        shuffle_text = sourced(shuffle, render_markdown_lines(table) + "\n\n" +
                               "\n".join("- " + escape_prose(v) for v in verdicts))
    else:
        shuffle_text = ("**No measurement is committed yet.** Run `shuffle_mask --undefined > "
                        "step5_tensor_core_sddmm/lab/results/shuffle_mask.md` on a GPU, commit the "
                        "file and rerun `python3 docs/make_results.py`.")

    block_text = None
    for path, lines in contents.items():
        _, sections = split_markdown(lines)
        for heading, body in sections:
            if not heading.lower().startswith("experiments"):
                continue
            table = first_table(body, lambda l: l.startswith("| experiment"))
            rows = [l for l in table[2:] if "block shape" in l]
            if rows:
                block_text = sourced(path, render_markdown_lines(table[:2] + rows) + "\n\n" +
                                     block_shape_sentence(rows))
    if block_text is None:
        block_text = ("**No measurement is committed yet.** Run `sddmm_bench --experiments "
                      "--csv step5_tensor_core_sddmm/lab/results/sddmm.csv > "
                      "step5_tensor_core_sddmm/lab/results/sddmm.md` on a GPU, commit both files "
                      "and rerun `python3 docs/make_results.py`.")

    text = page.read_text(encoding="utf-8")
    text = replace_block(text, "measured-fragment-tables", layout_text)
    text = replace_block(text, "measured-shuffle-table", shuffle_text)
    text = replace_block(text, "measured-block-shape", block_text)
    page.write_text(text, encoding="utf-8")


# ----------------------------------------------------------------------------- main

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
    for step in STEPS:
        text, measured = step_page(repo, step, plotter)
        (docs / ("%s.md" % step[2])).write_text(text, encoding="utf-8")
        print("%-22s %s" % (step[2] + ".md", "measured data" if measured else
                            "no measurement committed yet"))
    fill_fragment_deep_dive(repo, docs)
    print("figures:", ", ".join(sorted(p.name for p in figures.glob("results_*.png"))) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
