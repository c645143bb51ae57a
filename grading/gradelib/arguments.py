"""Command-line argument types and options shared by the grading scripts.

Numbers follow the course's one grammar (common/cli.hpp): decimal only, an optional leading
'-', no spaces around them, no '+', no '_' (which Python's int() and float() take), no hex,
no inf or nan; a real number may have a fraction and an exponent (1e-3).
"""
import argparse
import os
import re

WHOLE = re.compile(r"-?[0-9]+")
DECIMAL = re.compile(r"-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
# The longest time limit a grading option takes: a day. 'inf' or 1e308 would turn a time-out
# into none, and a run that hangs would hang the class.
MAX_SECONDS = 86400.0


def number_text(kind, text):
    """The number `text` holds, of `kind` (int or float), by the course's grammar; raises
    argparse.ArgumentTypeError naming the rule otherwise."""
    if kind is int:
        if not WHOLE.fullmatch(text):
            raise argparse.ArgumentTypeError(
                f"expected a whole number (decimal digits with an optional '-', no spaces, "
                f"'+' or '_'), got '{text}'")
        return int(text)
    if not DECIMAL.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"expected a decimal number such as 30, 0.5 or 1e3 (no spaces, '+', '_', hex, inf "
            f"or nan), got '{text}'")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"beyond the largest number (about 1.8e308), got {text}")
    return value


def positive(kind, most=None):
    """An argparse type: a number of `kind` (int or float) greater than zero, and at most
    `most` when given."""
    def parse(text):
        value = number_text(kind, text)
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most:g}, got {text}")
        return value
    return parse


def seconds(text):
    """An argparse type: a time limit in seconds, more than 0 and at most MAX_SECONDS."""
    return positive(float, MAX_SECONDS)(text)


def seed_value(text):
    """An argparse type: a seed of the tests' inputs, a whole number in 0..2^64-1."""
    value = number_text(int, text)
    if not 0 <= value < 2 ** 64:
        raise argparse.ArgumentTypeError(f"must be in 0..2^64-1, got {text}")
    return value


def add_seed(parser, help_text="seed of the tests' inputs (default: a fresh one, printed)"):
    """--seed, the same for every grading script."""
    parser.add_argument("--seed", type=seed_value, default=None, help=help_text)


def add_cmake_arg(parser):
    """--cmake-arg, repeatable, handed to CMake's configure step."""
    parser.add_argument("--cmake-arg", action="append", default=[],
                        help="extra configure argument (repeatable), e.g. "
                             "--cmake-arg=-DCMAKE_CUDA_ARCHITECTURES=90")


def add_time_limits(parser, timeout, sanitizer_timeout):
    """--timeout and --sanitizer-timeout: seconds per plain and per compute-sanitizer run."""
    parser.add_argument("--timeout", type=seconds, default=timeout,
                        help="seconds per plain run (and per evidence run: one small product; "
                             "at most a day)")
    parser.add_argument("--sanitizer-timeout", type=seconds, default=sanitizer_timeout,
                        help="seconds per compute-sanitizer run (at most a day)")


def add_sanitizer(parser):
    """--sanitizer: the compute-sanitizer executable (default: $COMPUTE_SANITIZER, else the
    one on PATH)."""
    parser.add_argument("--sanitizer", default=os.environ.get("COMPUTE_SANITIZER",
                                                              "compute-sanitizer"),
                        help="compute-sanitizer executable")


def add_test_jobs(parser, default, help_text):
    """--test-jobs: how many test processes run side by side."""
    parser.add_argument("--test-jobs", dest="test_jobs", type=positive(int), default=default,
                        help=help_text)
