"""The plots of the results pages (used by docs/make_results.py): one function per kind of
benchmark CSV, each returning [(image file name, caption)]. Every figure is checked before it
is saved: no tick label or title may overlap another (LabelOverlap is raised otherwise), so
that a plot that cannot be read never reaches the book.
"""
import math
import re

from results_render import SHAPE, number, slug


class LabelOverlap(RuntimeError):
    pass


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
        figure.canvas.draw()
        overlaps = label_overlaps(figure)
        if overlaps:
            self.plt.close(figure)
            raise LabelOverlap("%s: labels overlap: %s" % (name, "; ".join(overlaps[:5])))
        path = self.figures_dir / name
        figure.savefig(path)
        self.plt.close(figure)
        return name


def label_overlaps(figure):
    """Pairs of visible texts of @p figure (tick labels of one axis, titles, axis labels,
    legend entries) whose boxes overlap, as readable strings: [] for a clean figure."""
    renderer = figure.canvas.get_renderer()
    groups = []
    # Titles and axis labels of every panel and the figure's title, all together (a long
    # panel title runs into its neighbour's); each axis's tick labels among themselves.
    texts = [figure._suptitle] if figure._suptitle is not None else []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            labels = [t for t in axis.get_ticklabels(which="both")
                      if t.get_visible() and t.get_text().strip()]
            groups.append(labels)
        texts += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
    groups.append([t for t in texts if t.get_visible() and t.get_text().strip()])
    found = []
    for texts in groups:
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i][1], boxes[j][1]
                # Boxes that touch by a pixel are not an overlap a reader sees.
                if (min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and
                        min(a.y1, b.y1) - max(a.y0, b.y0) > 1):
                    found.append("'%s' and '%s'" % (boxes[i][0], boxes[j][0]))
    return found


def tidy_log_axis(axis):
    """Plain tick labels on a log axis (0.5, 1, 2, 5 rather than 5×10⁻¹), dense enough to read
    one decade and sparse enough not to collide over many: the marks 1, 2, 5 of each decade
    where they fit, else 1 of each decade, else every other decade."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    figure = axis.axes.figure
    axis.set_major_formatter(FuncFormatter(lambda value, _: "%g" % value))
    axis.set_minor_formatter(NullFormatter())
    for subs, numticks in (((1.0, 2.0, 5.0), 30), ((1.0,), 30), ((1.0,), 5)):
        axis.set_major_locator(LogLocator(base=10, subs=subs, numticks=numticks))
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels()
                 if t.get_visible() and t.get_text().strip()]
        if not any(min(a.x1, b.x1) - max(a.x0, b.x0) > 1 and
                   min(a.y1, b.y1) - max(a.y0, b.y0) > 1
                   for i, a in enumerate(boxes) for b in boxes[i + 1:]):
            return


SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_two(size):
    """2¹⁰ for 1024 (Unicode superscripts: no 2^10 in a label), the number otherwise."""
    if size > 0 and size & (size - 1) == 0:
        return "2" + str(round(math.log2(size))).translate(SUPERSCRIPT)
    return str(size)


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
            ax.set_xticks([], minor=True)
            ax.set_xticklabels([power_of_two(s) for s in sizes])
            ax.set_xlabel("matrix size n (n×n times n×n)")
            if ax.lines:
                ax.legend(fontsize=7)
            else:
                ax.text(0.5, 0.5, "not measured", ha="center", va="center",
                        transform=ax.transAxes)
    for ax in (axes[0][0], axes[0][1], axes[1][1]):
        if ax.lines:
            ax.set_yscale("log")
            tidy_log_axis(ax.yaxis)
    return finish_figure(plotter, figure, stem, header,
                         "Time, TFLOP/s, fraction of cuBLAS and speedup over serial against "
                         "size (%s). Points not measured are left out.")


def finish_figure(plotter, figure, stem, header, caption):
    """Titles `figure` with its result file's title and provenance, saves it as `stem`.png
    and returns the list of (image, caption) the plot functions return; `caption` holds one
    %s, where the provenance goes."""
    title_figure(figure, "%s: %s" % (figure_title(stem), provenance_title(header)))
    return [(plotter.save(figure, "%s.png" % stem), caption % provenance_title(header))]


def title_figure(figure, title, bottom=0.0):
    """The figure's title in a band of its own at the top (a fixed height in inches, so that
    it clears the panels' titles however tall the figure is), the panels laid out below it
    and above @p bottom inches (the legend's band)."""
    height = figure.get_figheight()
    figure.suptitle(title, y=1 - 0.08 / height, va="top")
    figure.tight_layout(rect=(0, bottom / height, 1, 1 - 0.4 / height))


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
        tidy_log_axis(ax.yaxis)
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
    tidy_log_axis(ax.xaxis)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.axvline(0.8, color="tab:red", linewidth=0.6, linestyle="--")
    ax.set_xlabel("fraction of cuBLAS SGEMM speed (cuBLAS time / ours, log scale; "
                  "* = cuBLAS under 20 µs)")
    ax.legend(loc="lower right", fontsize=8)
    return finish_figure(plotter, figure, stem, header,
                         "Fraction of cuBLAS per shape before and after split-K (%s), sorted "
                         "by the fraction after; the dashed line marks four fifths of cuBLAS's speed.")


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
        tidy_log_axis(ax.xaxis)


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

    attention = re.compile(r"^(block|window|bigbird|causal|local|strided)_")

    def family(row):
        # Attention masks are generated patterns, not matrices of a collection: their own
        # family, every inner size of a mask next to each other.
        if attention.match(row[col["matrix"]]):
            return "attention masks (generated)"
        if len(ks_per_matrix[row[col["matrix"]]]) > 1 and row[col["K"]] != "256":
            return "inner sweep"
        if re.match(r"^matrix_\d+_\d+_\d+$", row[col["matrix"]]):
            return "the note's shapes (uniform random masks)"
        return "real matrices"

    def case_name(row):
        name = re.sub(r"^matrix_(\d+)_(\d+)_(\d+)$", r"\1×\2, nnz \3", row[col["matrix"]])
        swept = len(ks_per_matrix[row[col["matrix"]]]) > 1
        return name + ("" if row[col["K"]] == "256" and not swept else
                       ", inner=" + row[col["K"]])

    def label(text):
        # The baselines keep their precision: fp16 and fp32 cuSPARSE are two series.
        text = re.sub(r"\s*\(B col-major\)", "", text)
        return re.sub(r"^dense then sample.*", "dense then sample", text)

    def baseline(name):
        return name.lower().startswith(("cusparse", "dense then sample"))

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
        # The inner sweep also shows its inner = 256 member, filed with the note's shapes.
        if family_name == "inner sweep":
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
            if not baseline(approach):
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
        axes[1].set_title("speedup ('vs cuSPARSE', log)")
        horizontal_bars(axes[2], cases, other_ratio, colors)
        axes[2].axvline(1.0, color="black", linewidth=0.8)
        axes[2].set_title("'other' / kernel time (log)")
        for ax in axes[1:]:
            ax.tick_params(axis="y", labelleft=False)
        title_figure(figure, "%s, %s: %s" % (figure_title(stem), family_name,
                                             provenance_title(header)), bottom=0.45)
        handles, labels = axes[0].get_legend_handles_labels()
        figure.legend(handles, labels, loc="lower center", ncol=max(len(labels), 1),
                      fontsize=8, frameon=False)
        name = "%s_%s.png" % (stem, slug(family_name.split(" (")[0]))
        figures.append((plotter.save(figure, name),
                        "%s: kernel time, speedup over cuSPARSE and the weight of the "
                        "preprocessing per case (%s). Refused or failed runs are left out." %
                        (family_name[0].upper() + family_name[1:], provenance_title(header))))
    return figures


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


if __name__ == "__main__":
    # A module, not a program: --help says so and names the program that uses it.
    import sys

    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\nUsage: none of its own: a module imported by docs/make_results.py, "
              "which is the program to run (python3 docs/make_results.py --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by docs/make_results.py, not a program: run that "
          "one (see --help)", file=sys.stderr)
    sys.exit(2)
