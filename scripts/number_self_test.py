"""The self-test of scripts/check_numbers.py (`--self-test`): every bound figure is changed in
memory, in each way a quoted figure goes wrong, and the checker must catch every change:

* digits: the last digit raised by one (9 becomes 0), and a middle digit (the number read
  wrong, not only rounded wrong);
* units: the unit swapped for another of its kind (ms for s or µs, MiB for GiB, × for %);
* swaps: two neighbouring figures of a paragraph or table row exchanged;
* columns: a `cell:` binding moved to each other column of its row (a column that holds the
  same value must be told apart by the sentence's words);
* lines: a `line:` figure replaced by each other number of its line;
* note tables: the figures of the tables quoted from the design notes (digits, as above),
  counted apart.
"""
import re

from number_bindings import figure_unit
from result_sources import canonical_unit, figure_value, normalise, rounds_to

UNIT_SWAPS = {"ms": ("s", "µs"), "s": ("ms", "min"), "µs": ("ms", "ns"), "ns": ("µs",),
              "min": ("s",), "MiB": ("GiB",), "GiB": ("MiB",), "GB": ("GiB", "MB"),
              "GB/s": ("TB/s", "GiB/s"), "TB/s": ("GB/s",), "TFLOP/s": ("GFLOP/s",),
              "GFLOP/s": ("TFLOP/s",), "%": ("×",), "×": ("%",)}
KINDS = ("last digit", "middle digit", "unit", "swap", "column", "line", "note table")


def perturbed(figure):
    """The figure with its last digit raised by one (9 becomes 0)."""
    index = max(i for i, ch in enumerate(figure) if ch.isdigit())
    digit = (int(figure[index]) + 1) % 10
    return figure[:index] + str(digit) + figure[index + 1:]


def middle_perturbed(figure):
    """The figure with a middle digit (not its last) raised by one, or None for one digit."""
    digits = [i for i, ch in enumerate(figure) if ch.isdigit()]
    if len(digits) < 2:
        return None
    index = digits[(len(digits) - 1) // 2]
    digit = (int(figure[index]) + 1) % 10
    return figure[:index] + str(digit) + figure[index + 1:]


def with_unit(figure, unit):
    """The figure's number with @p unit in place of its own ('1.094 ms' -> '1.094 s')."""
    number = re.match(r"^\s*[\d][\d ,]*(?:\.\d+)?", figure).group(0).rstrip()
    attached = not re.search(r"\d\s+\S+\s*$", figure)
    return number + ("" if attached and unit in ("×", "%") else " ") + unit


def with_number(figure, value):
    """@p value written in place of the figure's number, its unit kept."""
    unit = figure_unit(figure)
    return value if unit is None else with_unit(value, unit)


def cases(results):
    """(kind, page, Bound, perturbed text or description, caught) of every perturbation."""
    for result in results:
        bounds = [b for b in result.bound if not b.verify(b.figure) and not b.meaning()]
        for bound in bounds:
            note = "note_tables/" in bound.binding
            for kind, text in (("last digit", perturbed(bound.figure)),
                               ("middle digit", middle_perturbed(bound.figure))):
                if text is not None:
                    caught = bool(bound.verify(text))
                    yield kind, result.path, bound, text, caught
                    if note:
                        yield "note table", result.path, bound, text, caught
            unit = canonical_unit(figure_unit(bound.figure))
            for other in UNIT_SWAPS.get(unit, ()):
                text = with_unit(bound.figure, other)
                yield "unit", result.path, bound, text, bool(bound.verify(text))
            if bound.resolved.kind == "cell":
                for alternative in bound.resolved.alternatives():
                    if normalise(alternative.column) == normalise(bound.resolved.column):
                        continue  # a repeated header: the binding cannot name the other
                    caught = bool(alternative.verify(bound.figure) or
                                  bound.meaning(alternative))
                    yield "column", result.path, bound, "column '%s'" % alternative.column, \
                        caught
            if bound.resolved.kind == "line":
                for value, _ in bound.resolved.numbers:
                    if value == bound.resolved.value:
                        continue
                    if value.startswith(("-", "−")):
                        continue  # a signed number ('[-1, 1)'): no quoted figure has a sign
                    text = with_number(bound.figure, value)
                    if rounds_to(text, bound.resolved.value) is None:
                        continue  # the other number is this one rounded: no wrong claim
                    yield "line", result.path, bound, text, bool(bound.verify(text))
        for first, second in zip(bounds, bounds[1:]):
            if first.block != second.block or figure_value(first.figure) == figure_value(
                    second.figure):
                continue  # the same number: the swap changes nothing a reader sees
            caught = bool(first.verify(second.figure) or second.verify(first.figure))
            yield "swap", result.path, first, "swapped with %s" % second.figure, caught


def self_test(results):
    """{kind: (caught, total, [(page, Bound, perturbed)] missed)} over every perturbation."""
    summary = {kind: [0, 0, []] for kind in KINDS}
    for kind, path, bound, text, caught in cases(results):
        entry = summary[kind]
        entry[1] += 1
        if caught:
            entry[0] += 1
        else:
            entry[2].append((path, bound, text))
    return {kind: tuple(entry) for kind, entry in summary.items()}


if __name__ == "__main__":
    from repository_arguments import module_only

    module_only(__doc__, "scripts/check_numbers.py")
