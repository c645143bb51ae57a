"""What the lab's report scripts share (limit_by_mask_kind.py, valued_against_pattern.py,
ab_rounds.py): a Markdown table row split into cells, a refusal of input that is not a report,
and the argparse type of an input file.

Usage: none of its own: a module imported by those scripts.
"""
import argparse
import pathlib
import sys


def cells(line):
    """The cells of one Markdown table row, stripped."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def fail(message):
    """Stops on input that is not what the script reads: the message, exit status 2."""
    print(message, file=sys.stderr)
    sys.exit(2)


def existing_file(text):
    """argparse type: a path that names a readable file (exit status 2 otherwise)."""
    path = pathlib.Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError("%s: no such file" % text)
    return path


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__.strip())
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by the lab's report scripts, not a program",
          file=sys.stderr)
    sys.exit(2)
