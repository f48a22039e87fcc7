"""Your output beside the reference's, line by line, the first difference marked.

The exercise's command scripts print one line per query. To see whether your
``lookup`` and ``pos_encoding`` print what the library's do, run the script
twice and compare the two outputs with :func:`compare_outputs`: it pairs the
lines up by number, marks every line that differs, and points at the first
one, down to the first number that differs in it. It compares the text as
printed, to 4 decimals (the checkers compare numbers within 1e-6): a line
whose numbers are the reference's rounded to fewer decimals is named so.
"""

import html
from dataclasses import dataclass

from ..formatting import is_number
from ..validation import describe

__all__ = ["OutputComparison", "compare_outputs"]

_MISSING = "(no line)"
_HIGHLIGHT = "#ffcdd2"  # the first differing line
_DIFFERS = "#fff3e0"  # later differing lines


@dataclass(frozen=True, repr=False)
class OutputComparison:
    """Two outputs paired line by line.

    Attributes
    ----------
    rows : tuple of (str or None, str or None)
        ``(mine, reference)`` for each line number; None where one output has
        fewer lines.
    first : int or None
        The 1-based number of the first line that differs, or None if none does.

    Examples
    --------
    >>> comparison = compare_outputs("1.0000\\n2.0000", "1.0000\\n2.5000")
    >>> comparison
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
        if self.same:
            n = len(self.rows)
            return f"Same output, as printed to 4 decimals: all {n} lines agree."
        mine, reference = self.rows[self.first - 1]
        differing = sum(a != b for a, b in self.rows)
        where = _first_word(mine, reference) + _rounded(mine, reference)
        return (
            f"{differing} of {len(self.rows)} lines differ; the first is line "
            f"{self.first}{where}."
        )

    def __repr__(self):
        return f"OutputComparison(same={self.same}, first={self.first})"

    def __str__(self):
        width = max([len("yours")] + [len(_text(mine)) for mine, _ in self.rows])
        lines = [self.summary(), f"{'':6}{'yours':{width}}  reference"]
        for number, (mine, reference) in enumerate(self.rows, start=1):
            mark = ">>" if number == self.first else "!=" if mine != reference else ""
            lines.append(
                f"{mark:2} {number:2} {_text(mine):{width}}  {_text(reference)}"
            )
        return "\n".join(lines)

    def _repr_html_(self):
        cells = "".join(
            _html_row(number, mine, reference, self.first)
            for number, (mine, reference) in enumerate(self.rows, start=1)
        )
        colour = "#2e7d32" if self.same else "#c62828"
        return (
            f"<div style='border-left: 4px solid {colour}; padding: 0.3em 0.8em'>"
            f"<strong>{html.escape(self.summary())}</strong>"
            "<table style='font-family: monospace; margin: 0.4em 0 0'>"
            "<tr><th></th><th style='text-align: left'>yours</th>"
            "<th style='text-align: left'>reference</th></tr>"
            f"{cells}</table></div>"
        )


def _text(line):
    return _MISSING if line is None else line


def _first_word(mine, reference):
    """', number N: yours X, reference Y' for the first differing number."""
    if mine is None or reference is None:
        return f" ({'yours' if mine is None else 'the reference'} has no line there)"
    words, expected = mine.split(), reference.split()
    for index, (a, b) in enumerate(zip(words, expected, strict=False), start=1):
        if a != b:  # name the number, if both are numbers (an error line is not)
            numbers = is_number(a) and is_number(b)
            return f", number {index}: yours {a}, reference {b}" if numbers else ""
    return f" (yours has {len(words)} numbers, the reference {len(expected)})"


def _rounded(mine, reference):
    """' (yours look rounded to n decimals)' if every number of ``mine`` is the
    reference's rounded to n = 1, 2 or 3 decimals, else ''."""
    words, expected = (mine or "").split(), (reference or "").split()
    if len(words) != len(expected) or not all(map(is_number, words + expected)):
        return ""
    pairs = [(float(a), float(b)) for a, b in zip(words, expected, strict=True)]
    for n in (1, 2, 3):  # the reference is itself rounded: 5e-5 more
        if all(a == round(a, n) and abs(a - b) <= 0.5 / 10**n + 5e-5 for a, b in pairs):
            return f" (yours look rounded to {n} decimal{'s' * (n > 1)})"
    return ""


def _html_row(number, mine, reference, first):
    """One ``<tr>``: highlighted if it is the first difference, tinted if later."""
    style = ""
    if number == first:
        style = f" style='background: {_HIGHLIGHT}; font-weight: bold'"
    elif mine != reference:
        style = f" style='background: {_DIFFERS}'"
    mark = "&#9654;" if number == first else "&ne;" if mine != reference else ""
    return (
        f"<tr{style}><td style='white-space: nowrap'>{mark} {number}</td>"
        f"<td style='text-align: left'>{html.escape(_text(mine))}</td>"
        f"<td style='text-align: left'>{html.escape(_text(reference))}</td></tr>"
    )


def _lines(value, name):
    """``value`` as a list of lines, stripped of trailing spaces; or a TypeError."""
    if isinstance(value, str):
        return [line.rstrip() for line in value.strip("\n").split("\n")]
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return [line.rstrip() for line in value]
    raise TypeError(
        f"{name} == {describe(value)}, must be a str (the printed output) or a "
        "list of str (its lines)."
    )


def compare_outputs(mine, reference):
    """Pair two printed outputs line by line and find the first difference.

    Parameters
    ----------
    mine : str or list of str
        Your output, e.g. ``run_commands(script, lookup=lookup,
        pos_encoding=pos_encoding)``.
    reference : str or list of str
        The reference output, e.g. ``run_commands(script)`` (the library's
        functions).

    Returns
    -------
    OutputComparison
        ``.same``, ``.first`` (1-based line number or None) and ``.rows``;
        ``print()`` it for a text table, or let a notebook show it as HTML with
        the first differing line highlighted. Trailing spaces and a final
        newline are ignored; nothing else is.

    Raises
    ------
    TypeError
        If ``mine`` or ``reference`` is neither a str nor a list of str.

    Examples
    --------
    >>> print(compare_outputs("0.5000 1.0000\\n2.0000", "0.5000 1.0000\\n1.5403"))
    1 of 2 lines differ; the first is line 2, number 1: yours 2.0000, reference 1.5403.
          yours          reference
        1 0.5000 1.0000  0.5000 1.0000
    >>  2 2.0000         1.5403
    >>> compare_outputs("1.0000", ["1.0000"]).same
    True
    """  # noqa: E501
    mine, reference = _lines(mine, "mine"), _lines(reference, "reference")
    n = max(len(mine), len(reference))
    rows = tuple(
        (
            mine[i] if i < len(mine) else None,
            reference[i] if i < len(reference) else None,
        )
        for i in range(n)
    )
    first = next((i + 1 for i, (a, b) in enumerate(rows) if a != b), None)
    return OutputComparison(rows, first)
