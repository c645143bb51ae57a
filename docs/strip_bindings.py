#!/usr/bin/env python3
"""Doxygen input filter for the Markdown pages: drops the number bindings
(`<!-- cell: ... -->`, `<!-- line: ... -->`, `<!-- lines:`, `max:`, `min:`, `count:`,
`<!-- table: ... -->`, `<!-- figure: ... -->`).

They are for scripts/check_numbers.py and scripts/check_rendering.py, which read the Markdown
itself. Doxygen, given such a comment, also drops the space that follows it, so that
"20.9 ms<!-- cell: ... --> against" would read "20.9 msagainst" in the book. Removed here,
within its line (line numbers stay), the text reads as written.

Usage: python3 docs/strip_bindings.py PAGE.md    # the page without its bindings, on stdout
"""
import re
import sys

BINDING = re.compile(r"<!--\s*(?:cell|line|lines|max|min|count|table|figure):.*?-->")


def strip_line(line):
    """The line without its bindings, leaving those inside `code spans` as written."""
    parts = line.split("`")
    # Even parts lie outside code spans (an unpaired backtick leaves the rest as text).
    return "`".join(BINDING.sub("", part) if index % 2 == 0 or index == len(parts) - 1 else part
                    for index, part in enumerate(parts))


def strip(text):
    """The text with every binding comment removed, each within its own line; fenced code
    blocks and code spans, where a page shows what a binding looks like, are left as written."""
    lines, fence = [], None
    for line in text.splitlines(keepends=True):
        marker = line.lstrip()[:3]
        if marker in ("```", "~~~"):
            fence = None if fence == marker else (fence or marker)
            lines.append(line)
            continue
        lines.append(line if fence else strip_line(line))
    return "".join(lines)


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 1 or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes one argument, the Markdown page, got {' '.join(arguments) or 'none'} "
              "(see --help)", file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as page:
        sys.stdout.write(strip(page.read()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
