"""Command-line argument types and options shared by the grading scripts."""
import argparse
import os


def positive(kind):
    """An argparse type: a number of `kind` (int or float) greater than zero."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got '{text}'") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
        return value
    return parse


def seed_value(text):
    """An argparse type: a seed of the tests' inputs, a whole number in 0..2^64-1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{text}'") from None
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
    parser.add_argument("--timeout", type=positive(float), default=timeout,
                        help="seconds per plain run (and per evidence run: one small product)")
    parser.add_argument("--sanitizer-timeout", type=positive(float), default=sanitizer_timeout,
                        help="seconds per compute-sanitizer run")


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
