"""Runs the command after `--` only where bwrap can make the grader's sandbox; elsewhere
prints why and exits 77, which ctest reports as skipped (grading/CMakeLists.txt).

Usage: python3 tests/if_sandbox.py -- COMMAND [ARGUMENTS...]

bwrap needs user namespaces: a kernel may refuse them to unprivileged users (Ubuntu 24.04's
AppArmor, a chroot, some containers; docs/distributions.md). The grader refuses to grade
unsandboxed there, and says so; its tests that need the sandbox are skipped, not failed.
"""
import os
import shutil
import subprocess
import sys

SKIPPED = 77


def main():
    arguments = sys.argv[1:]
    if arguments[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if arguments[:1] != ["--"] or len(arguments) < 2:
        print("if_sandbox.py: give the command after '--' (see --help)", file=sys.stderr)
        return 2
    if shutil.which("bwrap") is None:
        print("skipped: bwrap (Debian's bubblewrap) is not installed")
        return SKIPPED
    probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "true"],
                           capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        print("skipped: bwrap cannot make a sandbox on this machine: "
              + (probe.stderr.strip().splitlines() or ["(no message)"])[0])
        return SKIPPED
    os.execvp(arguments[1], arguments[1:])


if __name__ == "__main__":
    sys.exit(main())
