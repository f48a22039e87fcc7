"""Your output beside the reference's, line by line, the first difference marked:
the text as printed, to 4 decimals (the checkers compare within 1e-6)."""

import html
import itertools
from dataclasses import dataclass

from ..validation import describe

__all__ = ["MAX_LINES", "OutputComparison", "compare_outputs"]

MAX_LINES = 10**6  # lines of each output compared (a run_commands output's most)
#: how a line is marked, as text and as HTML: the first that differs, a later one
_MARKS = {
    "first": (">>", "&#9654;", " style='background: #ffcdd2; font-weight: bold'"),
    "later": ("!=", "&ne;", " style='background: #fff3e0'"),
    "": ("", "", ""),
}


@dataclass(frozen=True, repr=False)
class OutputComparison:
    """Two outputs paired line by line.

    Attributes
    ----------
    rows : tuple of (str or None, str or None)
        ``(mine, reference)`` for each line; None past the end of one.
    first : int or None
        The 1-based number of the first line that differs, or None.

    Examples
    --------
    >>> compare_outputs("1.0000\\n2.0000", "1.0000\\n2.5000")
    OutputComparison(same=False, first=2)
    """

    rows: tuple
    first: int | None

    @property
    def same(self):
        """True when every line agrees and neither output has extra lines."""
        return self.first is None

    def summary(self):
        """One sentence: identical, or where the first difference is."""
        n = len(self.rows)
        if self.same:
            return f"Same output, as printed to 4 decimals: all {n} lines agree."
        where = _where(*self.rows[self.first - 1])
        differing = f"{sum(a != b for a, b in self.rows)} of {n} lines differ"
        return f"{differing}; the first is line {self.first}{where}."

    def __repr__(self):
        return f"OutputComparison(same={self.same}, first={self.first})"

    def _marked(self):
        """``(mark, number, mine, reference)`` of each line (mark: a key of
        :data:`_MARKS`; a missing line: "(no line)")."""
        for number, (mine, reference) in enumerate(self.rows, start=1):
            mark = "first" if number == self.first else "later" * (mine != reference)
            mine, reference = (
                "(no line)" if x is None else x for x in (mine, reference)
            )
            yield mark, number, mine, reference

    def __str__(self):
        width = max([len("yours")] + [len(mine) for _, _, mine, _ in self._marked()])
        lines = [self.summary(), f"{'':6}{'yours':{width}}  reference"]
        for mark, number, mine, reference in self._marked():
            lines.append(f"{_MARKS[mark][0]:2} {number:2} {mine:{width}}  {reference}")
        return "\n".join(lines)

    def _repr_html_(self):
        cell = "<td style='text-align: left'>{}</td>"
        cells = "".join(
            f"<tr{_MARKS[mark][2]}><td style='white-space: nowrap'>{_MARKS[mark][1]} "
            f"{number}</td>{cell.format(html.escape(mine))}"
            f"{cell.format(html.escape(reference))}</tr>"
            for mark, number, mine, reference in self._marked()
        )
        colour = "#2e7d32" if self.same else "#c62828"
        return (
            f"<div style='border-left: 4px solid {colour}; padding: 0.3em 0.8em'>"
            f"<strong>{html.escape(self.summary())}</strong>"
            "<table style='font-family: monospace; margin: 0.4em 0 0'>"
            "<tr><th>line</th><th style='text-align: left'>yours</th>"
            "<th style='text-align: left'>reference</th></tr>"
            f"{cells}</table></div>"
        )


def _is_number(word):
    try:
        return float(word) is not None
    except ValueError:
        return False


def _where(mine, reference):
    """', number N: yours X, reference Y' for the first differing number, then
    ' (yours look rounded to n decimals)' if every number of ``mine`` is the
    reference's rounded to n = 1, 2 or 3 decimals."""
    if mine is None or reference is None:
        return f" ({'yours' if mine is None else 'the reference'} has no line there)"
    words, expected = mine.split(), reference.split()
    pairs = list(zip(words, expected, strict=False))
    index = next((i for i, (a, b) in enumerate(pairs) if a != b), None)
    if index is None:
        return f" (yours has {len(words)} numbers, the reference {len(expected)})"
    a, b = pairs[index]
    if not (_is_number(a) and _is_number(b)):  # an error line, say
        return ""
    where = f", number {index + 1}: yours {a}, reference {b}"
    if len(words) != len(expected) or not all(map(_is_number, words + expected)):
        return where
    pairs = [(float(a), float(b)) for a, b in pairs]
    for n in (1, 2, 3):  # the reference is itself rounded: 5e-5 more
        if all(a == round(a, n) and abs(a - b) <= 0.5 / 10**n + 5e-5 for a, b in pairs):
            return f"{where} (yours look rounded to {n} decimal{'s' * (n > 1)})"
    return where


def _lines(value, name):
    """``value`` as a list of lines, stripped of trailing spaces; a TypeError if
    it is not text, a ValueError past :data:`MAX_LINES` (counted first)."""
    if isinstance(value, str):
        value = value.strip("\n")
        count = value.count("\n") + 1
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        count = len(value)
    else:
        raise TypeError(
            f"{name} == {describe(value)}, must be a str (the printed output) or a "
            "list of str (its lines)."
        )
    if count > MAX_LINES:
        raise ValueError(
            f"{name} has {count} lines, more than the {MAX_LINES} compare_outputs "
            "compares (posenc_lib.exercise.diff.MAX_LINES)."
        )
    lines = value.split("\n") if isinstance(value, str) else value
    return [line.rstrip() for line in lines]


def compare_outputs(mine, reference):
    """Pair two printed outputs line by line and find the first difference.

    Parameters
    ----------
    mine, reference : str or list of str
        Your output (``run_commands(script, lookup=lookup)``) and the
        reference's, each at most :data:`MAX_LINES` lines (trailing spaces and a
        final newline are ignored).

    Returns
    -------
    OutputComparison
        ``print()`` it for a text table, or let a notebook show it as HTML.

    Raises
    ------
    TypeError, ValueError
        If one is neither a str nor a list of str, or has too many lines.

    Examples
    --------
    >>> print(compare_outputs("0.5000 1.0000\\n2.0000", "0.5000 1.0000\\n1.5403"))
    1 of 2 lines differ; the first is line 2, number 1: yours 2.0000, reference 1.5403.
          yours          reference
        1 0.5000 1.0000  0.5000 1.0000
    >>  2 2.0000         1.5403
    """  # noqa: E501
    mine, reference = _lines(mine, "mine"), _lines(reference, "reference")
    rows = tuple(itertools.zip_longest(mine, reference))
    first = next((i + 1 for i, (a, b) in enumerate(rows) if a != b), None)
    return OutputComparison(rows, first)
