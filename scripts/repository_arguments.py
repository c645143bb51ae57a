"""The command line the scripts share: the repository checks' optional ROOT, a copy of the
repository, with --help (check_layout.py, check_glossary.py, check_exercises.py), and the
answer of a module that is not a program when it is run (module_only).

Usage: none of its own: a module imported by those scripts.
"""
import pathlib
import sys


def repository_root(needs, usage):
    """The ROOT argument (default: the repository holding this script), refused with status
    2 when it is not a folder or lacks @p needs (a predicate on the folder); --help prints
    @p usage (the calling script's docstring) and exits 0."""
    arguments = sys.argv[1:]
    if any(argument in ("-h", "--help") for argument in arguments):
        print(usage.strip())
        sys.exit(0)
    name = pathlib.Path(sys.argv[0]).name
    if len(arguments) > 1 or (arguments and arguments[0].startswith("-")):
        usage_error(f"{name}: takes one argument, ROOT (a copy of the repository); got "
                    f"{' '.join(arguments)} (see --help)")
    root = pathlib.Path(arguments[0] if arguments else
                        pathlib.Path(__file__).resolve().parent.parent).resolve()
    if not root.is_dir():
        usage_error(f"{name}: ROOT {root} is not a folder (see --help)")
    if not needs(root):
        usage_error(f"{name}: {root} is not a copy of the course's repository: nothing to "
                    f"check there (see --help)")
    return root


def usage_error(message):
    """Prints @p message on stderr and exits with status 2 (a bad command line)."""
    print(message, file=sys.stderr)
    sys.exit(2)


def module_only(doc, program):
    """What a module that is not a program does when it is run: --help prints @p doc and
    names @p program, the script that imports it (status 0); anything else is refused with
    status 2."""
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(doc.strip() + f"\n\nUsage: none of its own: a module imported by {program} "
              f"(python3 {program} --help).")
        sys.exit(0)
    print(f"{sys.argv[0]}: a module imported by {program}, not a program: run that one "
          "(see --help)", file=sys.stderr)
    sys.exit(2)


if __name__ == "__main__":
    module_only(__doc__, "scripts/check_layout.py")
