"""Command-line argument types shared by the grading scripts."""
import argparse


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
