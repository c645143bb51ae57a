"""What a quoted figure means, read from the words around it, for scripts/check_numbers.py:

* the *unit* of a figure against the unit of its source (a time in ms is not one in s);
* the *column* a `cell:` binding names against the words of the sentence: a figure bound to
  the column `min` must stand in a clause that speaks of a minimum ("fastest", "min", ...),
  and where two columns of the row hold the same value, the words nearest the figure must
  name the bound one rather than the other;
* *superlatives and ranges*: "the largest", "closest", "up to", "from A to B", "every" claim
  the extreme (or the count) of a column, so the figure must be bound to it (`max:`, `min:`,
  `count:`), or to a source that states the extreme itself ("smallest 0.90" in the cell).
"""
import re

from result_sources import canonical_unit, normalise, unit_kind

# ----------------------------------------------------------------------------- units


def unit_problem(figure_unit, source_unit, source_kind):
    """None when a figure with @p figure_unit may quote a number whose unit is @p source_unit
    (kind @p source_kind); else why not. A figure without a unit is not checked (a range
    "0.137–1.641 ms" gives its unit once)."""
    unit = canonical_unit(figure_unit)
    if unit is None:
        return None
    kind = unit_kind(unit)
    source_unit = canonical_unit(source_unit)
    if source_unit is not None and source_kind is None:
        source_kind = unit_kind(source_unit)
    if kind in ("time", "size", "rate"):
        if source_unit == unit:
            return None
        if source_unit is None:
            return "the source does not say the unit of this number (the figure says %s)" % unit
        return "the figure is in %s, the source in %s" % (unit, source_unit)
    if kind == "percent":
        if source_unit == "%" or source_kind == "percent":
            return None
        return "the figure is a percentage, the source %s" % (source_unit or source_kind or
                                                             "says no unit")
    if kind == "ratio":
        if source_kind in (None, "ratio") and source_unit in (None, "×"):
            return None
        return "the figure is a ratio (×), the source %s" % (source_unit or source_kind)
    return None

# ----------------------------------------------------------------------------- words

TOKEN = re.compile(r"[a-z0-9µ%^]+(?:[-/][a-z0-9µ%^]+)*")
# Words of a header that say nothing of what its column holds.
STOPWORDS = {"vs", "of", "the", "at", "and", "a", "an", "in", "to", "for", "with", "x", "by",
             "per", "its", "or", "is", "ms", "us", "µs", "s", "ns", "mib", "gib", "gb", "gb/s",
             "tflop/s", "gflop/s", "on", "off", "run", "this", "as", "it", "case"}
# The words a sentence may use for a header's word (each also stands for itself). A word of
# four letters or more also matches the longer words it begins ("preprocess" ...ing).
SYNONYMS = {
    "sddmm": {"kernel", "kernels", "took", "takes", "take", "taking", "time", "times",
              "median", "launch"},
    "median": {"sddmm", "kernel", "took", "takes", "take", "taking", "time", "times"},
    "min": {"minimum", "fastest", "smallest", "lowest", "least", "best", "shortest"},
    "max": {"maximum", "largest", "highest", "most", "worst", "longest", "up"},
    "smallest": {"min", "minimum", "lowest", "least", "weakest", "slowest", "worst",
                 "closest"},
    "largest": {"max", "maximum", "highest", "most", "worst", "furthest"},
    "other": {"preprocess", "upload", "preparation", "plan", "reorganis", "regroup"},
    "prep": {"preprocess", "plan", "preparation", "planning"},
    "plan": {"prep", "preprocess"},
    "total": {"whole", "altogether", "end-to-end", "sum", "together", "all", "score",
              "scored", "scores", "points", "grade", "graded", "100"},
    "fraction": {"speed", "cublas", "share"},
    "geometric": {"geomean", "mean", "average"},
    "geomean": {"geometric", "mean", "average"},
    "mean": {"geometric", "geomean", "average"},
    "speedup": {"faster", "speed", "times", "over", "against", "gain"},
    "better": {"baselines", "both", "best"},
    "fp16": {"half"},
    "fp32": {"single", "float"},
    "limit": {"bound", "headroom"},
    "light": {"bound", "limit"},
    "ours": {"our", "we", "kernel", "approach", "took", "takes"},
    "before": {"earlier", "previous", "first", "was", "without", "old", "from"},
    "after": {"now", "then", "later", "became"},
    "efficiency": {"efficient", "peak", "fraction"},
    "extra": {"more", "memory", "additional", "copies", "copy"},
    "2^10": {"1024"},
    "2^11": {"2048"},
    "2^12": {"4096"},
    "seconds": {"took", "time", "wall"},
    "time": {"took", "takes", "seconds", "wall"},
    "padded": {"padding", "pad", "copies"},
    "warm-up": {"warm", "first"},
    "call": {"first", "second", "third", "calls"},
    "share": {"fraction", "of"},
    "candidate": {"candidates"},
}


def tokens(text):
    """Lower-case words of @p text (superscripts read as ^, × as x), compounds also split."""
    found = []
    for token in TOKEN.findall(normalise(text).lower().replace("`", "")):
        found.append(token)
        if re.search(r"[-/]", token):
            found += [part for part in re.split(r"[-/]", token) if part]
    return found


def header_words(header):
    """The words of a column header that say what it holds (stopwords and units dropped)."""
    return {word for word in tokens(header) if word not in STOPWORDS and not
            re.fullmatch(r"\(?[a-z]\)?", word)}


def meaning_words(words):
    """@p words with the words a sentence may use for each of them."""
    found = set(words)
    for word in words:
        found |= SYNONYMS.get(word, set())
    return found


WORD = re.compile(r"[a-z0-9µ%^⁰¹²³⁴-⁹]+(?:-[a-z0-9]+)*")


def word_positions(text):
    """[(start, word)] of the words of @p text (positions in @p text itself; 2¹² read as
    2^12), and of each two neighbouring words joined ("step 4" is also "step4")."""
    found = [(m.start(), normalise(m.group(0))) for m in WORD.finditer(text.lower())]
    found += [(start, word.replace("-", "")) for start, word in found if "-" in word]
    joined = [(a[0], a[1] + b[1]) for a, b in zip(found, found[1:])
              if re.fullmatch(r"\d+", b[1]) and not re.fullmatch(r"\d+", a[1])]
    return found + joined


def matches(word, wanted):
    """True when a sentence's @p word says one of @p wanted (a long wanted word also matches
    the longer words it begins: 'preprocess' matches 'preprocessing')."""
    if word in wanted:
        return True
    return any((len(w) >= 6 or w.isdigit()) and word.startswith(w) for w in wanted)


def nearest(text, position, wanted):
    """Distance in characters from @p position to the nearest word of @p text that says one
    of @p wanted, or None."""
    best = None
    for start, word in word_positions(text):
        if matches(word, wanted):
            distance = abs(start - position)
            best = distance if best is None else min(best, distance)
    return best

# ----------------------------------------------------------------------------- clauses

CLAUSE_END = re.compile(r"[.;:](?=\s|$)|(?<!\\)\||\n\s*\n|\n\s*([-*+]|\d+\.)\s")
SENTENCE_END = re.compile(r"[.!?](?=\s+[A-Z(*`\[]|\s*$)|(?<!\\)\||\n\s*\n|"
                          r"\n\s*([-*+]|\d+\.)\s")


def clause(text, position, ends=CLAUSE_END):
    """(start, end) of the clause of @p text around @p position: up to the nearest '.', ';'
    or ':' that ends a sentence part, a table cell's bar or a paragraph or list item."""
    start = 0
    for match in ends.finditer(text, 0, position):
        start = match.end()
    after = ends.search(text, position)
    return start, (after.start() if after else len(text))


def sentences(text, position):
    """(start, end) of the sentence of @p text around @p position and the one before it:
    where the words that say what a figure is may stand."""
    start, end = clause(text, position, SENTENCE_END)
    if start > 0:
        start = clause(text, max(0, start - 2), SENTENCE_END)[0]
    return start, end


def column_problem(column, words, rivals, context, position):
    """None when the words of @p context (a clause, with the headers of a table cell) fit the
    bound @p column; else why not. @p words: what the column holds (its header's words, with
    the label its number has in the source cell); @p rivals: [(column, words)] of the other
    columns of the row that hold the same value; @p position: the figure in @p context."""
    wanted = meaning_words(words)
    if wanted and nearest(context, position, wanted) is None:
        return ("the sentence does not say what the column '%s' holds (none of: %s)" % (
            column, ", ".join(sorted(words))))
    for rival, rival_words in rivals:
        own = meaning_words(words) - meaning_words(rival_words)
        other = meaning_words(rival_words) - meaning_words(words)
        near_own, near_other = nearest(context, position, own), nearest(context, position,
                                                                         other)
        if near_other is not None and (near_own is None or near_other < near_own):
            return ("the column '%s' holds the same value, and the words nearest the figure "
                    "name it rather than '%s'" % (rival, column))
        if near_own is None and near_other is None and own != other:
            return ("the columns '%s' and '%s' hold the same value and the sentence does not "
                    "say which it means" % (column, rival))
    return None

# ----------------------------------------------------------------------------- superlatives

MAX_WORDS = r"largest|highest|(?<!at )most|biggest|maximum|longest|strongest|up to|max"
MIN_WORDS = r"smallest|lowest|(?<!at )least|minimum|shortest|weakest|min"
EITHER_WORDS = r"best|worst|fastest|slowest|closest|furthest|farthest"
SUPERLATIVE = re.compile(r"\b(?:(%s)|(%s)|(%s))\b" % (MAX_WORDS, MIN_WORDS, EITHER_WORDS), re.I)
COUNT_CLAIM = re.compile(r"\b(all|every|each)\s*$", re.I)


def claims(lead_in):
    """The claims the words just before a figure make of it: {'max'}, {'min'}, {'max',
    'min'} (either extreme: "best", "closest"), {'count'} ("all 30") or set()."""
    found = set()
    for match in SUPERLATIVE.finditer(lead_in):
        if match.group(1):
            found.add("max")
        elif match.group(2):
            found.add("min")
        else:
            found |= {"max", "min", "either"}
    if COUNT_CLAIM.search(lead_in):
        found.add("count")
    return found


def stated_extremes(text):
    """The extremes a source states of its number (from its header or the words before it in
    the cell or line): a subset of {'max', 'min'}."""
    return {kind for kind, words in (("max", MAX_WORDS + "|worst"), ("min", MIN_WORDS))
            if re.search(r"\b(%s)\b" % words, text or "", re.I)}


# "went from A to B" tells a change (before, after), not the spread of a column.
CHANGE = re.compile(r"\b(went|goes|go|rose|rises|fell|falls|dropped|drops|grew|grows|improved|"
                    r"improves|moved|moves|changed|changes|takes|take|took|came|comes|"
                    r"increased|decreased|shrank|jumped|climbed|brought|brings|cut|cuts)\b"
                    r"(\W+\w+){0,8}\W+from\b", re.I)


def superlative_problems(ordered):
    """Problems of the figures whose words claim an extreme or a count ("the largest", "up
    to", "from A to B", "A–B", "all 30") that their binding does not state. @p ordered:
    [(Bound, lead-in, clause key, text between its binding and the next figure)] of one
    block, in order."""
    problems = []
    wanted = [claims(lead_in) for _, lead_in, _, _ in ordered]

    def spread(low, high):
        """A and B of "from A to B" span a column (the same column of other rows of one
        file, or one end stated as the column's extreme) rather than a change (the same row
        before and after, or two columns)."""
        a, b = low.resolved, high.resolved
        same = (a.kind == b.kind == "cell" and a.column is not None and
                a.column == b.column and a.path == b.path and a.row != b.row)
        return same or "min" in a.extremes or "max" in b.extremes
    for i, (bound, lead_in, clause_key, _) in enumerate(ordered):
        if re.search(r"\bto\s*$", lead_in):  # "from A ... to B" within one clause
            for j in range(i - 1, -1, -1):
                if ordered[j][2] != clause_key:
                    break
                if re.search(r"\bfrom\b", ordered[j][1]):
                    if spread(ordered[j][0], bound) and not CHANGE.search(ordered[j][1]):
                        wanted[j].add("min")
                        wanted[i].add("max")
                    break
        if i > 0 and ordered[i - 1][2] == clause_key and re.fullmatch(
                r"\s*[\u2013-]\s*", ordered[i - 1][3]) and spread(ordered[i - 1][0],
                                                                  bound):  # "A–B"
            wanted[i - 1].add("min")
            wanted[i].add("max")
    for (bound, lead_in, _, _), claim in zip(ordered, wanted):
        if bound.resolved.kind == "table" or not claim:
            continue
        said = [m.group(0).lower() for m in SUPERLATIVE.finditer(lead_in)]
        if bound.resolved.kind == "line" and said and all(
                word in bound.resolved.text.lower() for word in said):
            continue  # the sentence is the source line's own, claims and all
        stated = bound.resolved.extremes
        if "either" in claim:
            ok = bool(stated & {"max", "min"})
        else:
            extremes = claim & {"max", "min"}
            ok = not extremes or bool(stated & extremes)
        if "count" in claim and "count" not in stated:
            ok = False
        if not ok:
            named = sorted(claim & {"max", "min", "count"})
            problems.append((bound.line, bound.figure, bound.binding,
                             "the words before it claim the %s of its column, which its "
                             "binding does not state (bind it with %s, or reword)" % (
                                 " or ".join(named), " or ".join(
                                     "<!-- %s: ... -->" % n for n in named))))
    return problems


if __name__ == "__main__":
    from repository_arguments import module_only

    module_only(__doc__, "scripts/check_numbers.py")
