"""What scripts/check_numbers.py calls a measured figure, and the parts of a page that hold
none (code, comments, link targets, version columns), blanked out with lengths kept.
"""
import re

from result_sources import TABLE_DELIMITER, split_row

UNIT = r"(?:ms|µs|us|ns|s|min|GB/s|TB/s|GiB/s|MiB|GiB|GB|GFLOP/s|TFLOP/s|%|×|x)"
# A number (thousands may be grouped by spaces or commas), not part of a name or a size.
# A unit of time or ratio may also follow without a space ("22.3ms", "5×"; but "80GB" is a
# product's name); 4096×4096 is a size.
ATTACHED_UNIT = r"(?:ms|µs|us|ns|s|min|%|×|x)"
FIGURE = re.compile(r"(?<![\w.^/\\#-])(\d{1,3}(?:[ ,]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
                    r"(?:(\s+" + UNIT + r"|" + ATTACHED_UNIT + r")(?![\w/])(?!\s?\d)"
                    r"|(?![\w^]|\.\d|[×x]\s?\d|[²³⁰¹⁴-⁹]))")
VERSION_CONTEXT = re.compile(
    r"(CUDA|nvcc|sm_|capability|version|CMake|Doxygen|Catch2|§|section|sections|PMPP|C\+\+|"
    r"Python|Debian|Ubuntu|clang|gcc|Chromium|compute-sanitizer|Nsight|HBM|PCIe|v)\s*[\"'(]?$",
    re.I)
COMMENT = re.compile(r"<!--(.*?)-->", re.S)
FENCE = re.compile(r"^\s*(```|~~~)")


def mask(text, keep_comments=False):
    """@p text with everything that holds no figure blanked out, lengths and line breaks kept:
    code blocks (``` fences, @verbatim), code spans, HTML comments (unless @p keep_comments:
    to find the bindings outside code), link targets, heading labels and Doxygen
    references."""
    out = list(text)

    def blank(start, end):
        for index in range(start, end):
            if out[index] != "\n":
                out[index] = " "

    position, fence = 0, None
    for line in text.split("\n"):
        stripped = line.strip()
        end = position + len(line)
        if fence:
            blank(position, end)
            if (fence == "@verbatim" and stripped in ("@endverbatim", "\\endverbatim")) or (
                    fence != "@verbatim" and stripped.startswith(fence)):
                fence = None
        elif FENCE.match(line):
            fence = FENCE.match(line).group(1)
            blank(position, end)
        elif stripped in ("@verbatim", "\\verbatim"):
            fence = "@verbatim"
            blank(position, end)
        position = end + 1
    # Table columns of versions ("compute capability", "CUDA version") hold no figures.
    lines, position = text.split("\n"), 0
    starts = []
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    index = 0
    while index + 1 < len(lines):
        if lines[index].lstrip().startswith("|") and TABLE_DELIMITER.match(lines[index + 1]):
            versions = [n for n, h in enumerate(split_row(lines[index]))
                        if re.search(r"capability|version", h, re.I)]
            end = index + 2
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                if versions:
                    bars = [m.start() for m in re.finditer(r"(?<!\\)\|", lines[end])]
                    offset = 0 if lines[end].lstrip().startswith("|") else -1
                    for n in versions:
                        if n + 1 + offset < len(bars):
                            left = bars[n + offset] if n + offset >= 0 else -1
                            blank(starts[end] + left + 1, starts[end] + bars[n + 1 + offset])
                end += 1
            index = end
            continue
        index += 1
    masked = "".join(out)
    patterns = [] if keep_comments else [COMMENT]
    for pattern in patterns + [re.compile(r"`(?:[^`\n]|\n(?![ \t]*\n))+?`"),
                    re.compile(r"\]\([^)\s]*\)"), re.compile(r"\{#[\w-]+\}"),
                    re.compile(r"[@\\](ref|subpage|anchor|page|image)\s+\S+"),
                    re.compile(r"<[a-zA-Z/][^<>]*>"), re.compile(r"https?://\S+")]:
        for match in pattern.finditer(masked):
            blank(match.start(), match.end())
        masked = "".join(out)
    return masked


def figures_in(masked, whole=False):
    """(start, end, figure text) of each measured figure in masked text; with @p whole, whole
    numbers without a unit too (a count may be bound, though it need not be)."""
    found = []
    for match in FIGURE.finditer(masked):
        number, unit = match.group(1), match.group(2)
        if "." not in number and not unit and not whole:
            continue  # a whole number without a unit: a size, a count, an index
        if VERSION_CONTEXT.search(masked[max(0, match.start() - 24):match.start()]):
            continue
        found.append((match.start(), match.end(), match.group(0)))
    return found


if __name__ == "__main__":
    # A module, not a program: --help says so and names the program that uses it.
    import sys

    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip() + "\n\nUsage: none of its own: a module imported by scripts/check_numbers.py, "
              "which is the program to run (python3 scripts/check_numbers.py --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by scripts/check_numbers.py, not a program: run that "
          "one (see --help)", file=sys.stderr)
    sys.exit(2)
