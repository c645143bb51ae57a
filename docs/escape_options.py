#!/usr/bin/env python3
"""Doxygen input filter for the C++ and CUDA sources: in their documentation comments, writes
a command-line option `--name` as `\\--name`, which Doxygen prints as two dashes.

Doxygen's Markdown turns a bare `--` into an en dash, so a comment saying "the help line of
--approach" would read "–approach" in the API pages, in the file lists and in every tooltip
of the source pages and the lessons' links. The filter leaves code alone: the code itself,
`code spans` and @code / @verbatim blocks of the comments. Lines are neither added nor
removed, so Doxygen's line numbers stay those of the file (the source browser shows the
file itself, not this output).

Usage: python3 docs/escape_options.py FILE.hpp    # the file with its comments' options escaped
"""
import re
import sys

OPTION = re.compile(r"(?<![\w\\-])--(?=[A-Za-z])")
BLOCK_START = re.compile(r"[@\\](code|verbatim)\b")
BLOCK_END = re.compile(r"[@\\]end(code|verbatim)\b")


def escape_text(text):
    """@p text (comment text) with each `--option` outside code spans written `\\--option`."""
    parts = text.split("`")
    return "`".join(OPTION.sub(r"\\--", part) if index % 2 == 0 else part
                    for index, part in enumerate(parts))


def segments(line, in_block):
    """The parts of a line, [(is comment, text)], and whether a /* */ comment is still open
    at its end (a comment starts at `//` or `/*` outside a string or character literal)."""
    parts, start, index, quote = [], 0, 0, None
    while index < len(line):
        if in_block:
            end = line.find("*/", index)
            if end < 0:
                parts.append((True, line[start:]))
                return parts, True
            parts.append((True, line[start:end + 2]))
            start = index = end + 2
            in_block = False
            continue
        char = line[index]
        if quote:
            if char == "\\":
                index += 2
                continue
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif line.startswith("//", index):
            parts.append((False, line[start:index]))
            parts.append((True, line[index:]))
            return parts, False
        elif line.startswith("/*", index):
            parts.append((False, line[start:index]))
            start, in_block = index, True
            index += 2
            continue
        index += 1
    if start < len(line) or not parts:
        parts.append((in_block, line[start:]))
    return parts, in_block


def escape(source):
    """@p source with the options of its documentation comments escaped."""
    out, in_block, verbatim = [], False, False
    for line in source.split("\n"):
        parts, in_block = segments(line, in_block)
        rewritten = []
        for is_comment, text in parts:
            if is_comment:
                if verbatim:
                    verbatim = not BLOCK_END.search(text)
                elif BLOCK_START.search(text):
                    verbatim = not BLOCK_END.search(text)
                else:
                    text = escape_text(text)
            rewritten.append(text)
        out.append("".join(rewritten))
    return "\n".join(out)


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(arguments) != 1 or any(argument.startswith("-") for argument in arguments):
        print(f"{sys.argv[0]}: takes one argument, the source file, got "
              f"{' '.join(arguments) or 'none'} (see --help)", file=sys.stderr)
        return 2
    with open(arguments[0], encoding="utf-8") as source:
        sys.stdout.write(escape(source.read()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
