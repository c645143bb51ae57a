"""Fills the measured-data blocks of docs/deep_dive_fragments.md (between
`<!-- BEGIN name -->` and `<!-- END name -->`) from step 5's committed results; used by
docs/make_results.py. Tables are emitted with their `<!-- table: ... -->` bindings and the
one measured sentence with cell bindings, as on the results pages.
"""
import re

from results_render import GPU_LINE, ResultFile, check_numbers, escape_prose, number


def replace_block(text, name, content):
    pattern = re.compile(r"(<!-- BEGIN %s -->\n).*?(<!-- END %s -->)" % (name, name), re.S)
    if not pattern.search(text):
        raise SystemExit("deep_dive_fragments.md lacks the block %s" % name)
    return pattern.sub(lambda m: m.group(1) + content.rstrip() + "\n" + m.group(2), text)


def provenance(result):
    header = result.header
    gpu = next((l.split(":", 1)[1].strip() for l in result.lines if l.startswith("GPU:")), None)
    if header is None and gpu:
        # A log of several programs where only one names the GPU, and none the date.
        return ("**GPU:** %s (named by a program's output in the same log), **date: not "
                "recorded** in `%s`." % (escape_prose(gpu), result.name))
    if header is None:
        return "**GPU and date: not recorded** in `%s`." % result.name
    return "**Measured on:** %s, **date:** %s (source: `%s`)." % (
        escape_prose(header[0]), header[1], result.name)


def table_at(lines, start):
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[start:end]


def heading_above(lines, index):
    for line in reversed(lines[:index]):
        match = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
        if match:
            return match.group(1)
    return None


def missing(command):
    return ("**No measurement is committed yet.** Run `%s` on a GPU, commit the output and "
            "rerun `python3 docs/make_results.py`." % command)


def layout_block(result):
    return "\n".join([provenance(result), ""] + result.body(3))


def shuffle_block(result):
    lines = result.lines
    # A log may hold several runs: show the widest table (the one with --undefined) and the
    # verdict lines printed right after it.
    starts = [i for i, l in enumerate(lines) if l.startswith("| active lanes")]
    best = max(starts, key=lambda i: (lines[i].count("|"), -i))
    table = table_at(lines, best)
    # The line above the table ("== shuffle undefined") tells it from the log's other runs.
    above = lines[best - 1].strip() if best else ""
    where = above if above and sum(above in line for line in lines) == 1 else \
        heading_above(lines, best)
    out = [provenance(result), ""] + result.markdown_table(where, table)
    for line in lines[best + len(table):]:
        if line.startswith(("|", "==", "exit")) or GPU_LINE.match(line.strip()):
            break
        if line.strip():
            text = result.bound_prose(line.strip())
            out.append("- " + (text if text is not None else "`%s`" % line.strip()))
    return "\n".join(out)


def block_shape_block(result, heading, table):
    rows = [l for l in table[2:] if "block shape" in l]
    out = [provenance(result), ""] + result.markdown_table(heading, table[:2] + rows)
    times = {}
    for row in rows:
        cells = check_numbers.split_row(row)
        if len(cells) >= 4 and number(cells[3]) is not None:
            times[cells[2]] = cells[3]
    square = next((name for name in times if "32x32" in name), None)
    wide = next((name for name in times if "128x4" in name), None)
    if square and wide:
        def bound(name):
            return "%.3g ms<!-- cell: %s#%s | %s | sddmm ms -->" % (
                float(times[name]), result.name, heading, name)
        out += ["On this GPU the 128×4 block took %s against %s for 32×32." % (
            bound(wide), bound(square)), "", "<!-- quoted: note 002 -->",
            "The note measured 128×4 at about 0.55 of the 32×32 time on its GPU (RTX 4090, "
            "Debug build)."]
    return "\n".join(out)


def fill_fragment_deep_dive(repo, docs, results):
    page = docs / "deep_dive_fragments.md"
    if not page.exists():
        return
    files = sorted(p for p in results.glob("*") if p.suffix in (".md", ".txt", ".log")) \
        if results.is_dir() else []
    loaded = [ResultFile(repo, path) for path in files]

    def first(predicate):
        return next((r for r in loaded if predicate(r.lines)), None)

    layout = first(lambda ls: any("accumulator" in l and l.startswith("#") for l in ls))
    shuffle = first(lambda ls: any(l.startswith("| active lanes") for l in ls))
    block_text = None
    for result in loaded:
        for index, line in enumerate(result.lines):
            heading = heading_above(result.lines, index)
            if line.startswith("| experiment") and heading and \
                    heading.lower().startswith("experiments"):
                table = table_at(result.lines, index)
                if any("block shape" in row for row in table[2:]):
                    block_text = block_shape_block(result, heading, table)
    text = page.read_text(encoding="utf-8")
    text = replace_block(text, "measured-fragment-tables", layout_block(layout) if layout else
                         missing("fragment_layout > step5_tensor_core_sddmm/lab/results/"
                                 "fragment_layout.md"))
    text = replace_block(text, "measured-shuffle-table", shuffle_block(shuffle) if shuffle else
                         missing("shuffle_mask --undefined > step5_tensor_core_sddmm/lab/"
                                 "results/shuffle_mask.md"))
    text = replace_block(text, "measured-block-shape", block_text or missing(
        "sddmm_bench --experiments --markdown step5_tensor_core_sddmm/lab/results/sddmm.md"))
    page.write_text(text, encoding="utf-8")


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
