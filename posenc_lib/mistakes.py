"""The lesson's common mistakes: one record each, and the code that makes it.

A :class:`Mistake`'s code is ``RIGHT[task]`` with its one line replaced
(``.source``); calling the record checks the arguments as the library does, then
runs that code. The checkers, :func:`posenc_lib.identify_encoding`, chapter 05's
map, the grader's fake submissions and the tests all read :data:`MISTAKES`. To
add one, see CONTRIBUTING.md ("Add a mistake the checker names").

>>> MISTAKES["sine-only"].wrong_line
'pe[k] = np.sin(angle)'
>>> MISTAKES["sine-only"](0, 4)
array([0., 0., 0., 0.])
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .validation import (
    check_array_size,
    check_d_model,
    check_index,
    check_integer,
    check_table,
)

__all__ = ["CHAPTER", "MISTAKES", "POS_ENCODING_MISTAKES", "RIGHT", "Mistake"]

CHAPTER = "05_common_mistakes.ipynb"  #: the chapter with one section per mistake
_01, _02 = "01_embeddings.ipynb", "02_sinusoidal_encoding.ipynb"
_FORMULA = (_02, "The formula")

#: the right function of each task, as a learner writes it in chapter 03
RIGHT = {
    "pos_encoding": """\
def pos_encoding(pos, d):
    pe = np.zeros(d)  # (d,)
    for k in range(d):
        pair = k // 2
        angle = pos / 10000 ** (2 * pair / d)
        pe[k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)
    return pe""",
    "lookup": """\
def lookup(table, token_id):
    return table[token_id].copy()""",
}


def _checked_pos_encoding(pos, d):
    pos, d = check_integer(pos, "pos", min_value=0), check_d_model(d, name="d")
    check_array_size((d,), "d")  # before its np.zeros(d)
    return pos, d


def _checked_lookup(table, token_id):
    table = check_table(table)  # (vocab_size, d)
    return table, check_index(token_id, "token_id", table.shape[0], what="vocab_size")


_CHECKS = {"pos_encoding": _checked_pos_encoding, "lookup": _checked_lookup}


@dataclass(frozen=True)
class Mistake:
    """One common mistake, and a function that makes it."""

    id: str  # e.g. "sine-only": the checker's CheckResult.mistake
    task: str  # the function it gets wrong: "pos_encoding" or "lookup"
    right_line: str  # a line of RIGHT[task]
    wrong_line: str  # the line the mistake writes instead
    explanation: str  # what goes wrong: the checker says it
    breaks: str  # what it breaks, in chapter 05's map
    shown_by: str  # the number chapter 05's map shows it with
    taught: tuple  # (notebook, section) where the course teaches the right line
    bullet: int | None  # the lesson's bullet (1 to 5) it comes from, if any
    recognised_by: str = "answers"  # or "view": the checker tells it by a view

    @property
    def section(self):
        """Its section of chapter 05: the ``## `` heading, up to the colon."""
        return f"{list(MISTAKES).index(self.id) + 1}. `{self.id}`"

    @property
    def source(self):
        """The right function with the wrong line in place of the right one."""
        return RIGHT[self.task].replace(self.right_line, self.wrong_line, 1)

    @cached_property
    def function(self):
        """The function ``.source`` defines (numpy as ``np``), unchecked."""
        namespace = {"np": np}
        exec(compile(self.source, f"<mistake {self.id}>", "exec"), namespace)  # noqa: S102
        return namespace[self.task]

    def __call__(self, *args):
        """The mistake's answer, after checking ``args`` as the library does."""
        return self.function(*_CHECKS[self.task](*args))

    def __repr__(self):
        return f"<mistake {self.id!r}: {self.wrong_line}>"


_ANGLE = "angle = pos / 10000 ** (2 * pair / d)"
_VALUE = "pe[k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)"
_RECORDS = [  # id, task, right_line, wrong_line, explanation, breaks, shown_by, taught
    Mistake(
        "k-instead-of-pair", "pos_encoding", _ANGLE,
        "angle = pos / 10000 ** (2 * k / d)",
        "The exponent uses the column k instead of pair = k // 2, so the two "
        "columns of a pair get different frequencies.",
        "a shift is a rotation", "`rotation error`, `shift map error`", _FORMULA,
        bullet=1,
    ),
    Mistake(
        "swapped-sin-cos", "pos_encoding", _VALUE,
        "pe[k] = np.cos(angle) if k % 2 == 0 else np.sin(angle)",
        "Cosine is in the even columns and sine in the odd ones, so position 0 is "
        "[1, 0, 1, 0, ...] instead of [0, 1, 0, 1, ...].",
        r"the direction of $R(\Delta)$", "$R(3)$ tried both ways", (_02, "Position 0"),
        bullet=2,
    ),
    Mistake(
        "sine-only", "pos_encoding", _VALUE, "pe[k] = np.sin(angle)",
        "Every column holds a sine, so both columns of a pair are equal and "
        "PE[pos] . PE[pos] is no longer d / 2.",
        "the squared length $d_{model}/2$", "`squared-length error`", _FORMULA,
        bullet=2,
    ),
    Mistake(
        "integer-division", "pos_encoding", _ANGLE,
        "angle = pos / 10000 ** ((2 * pair) // d)",
        "The exponent (2 * pair) // d truncates to 0, so every pair gets frequency "
        "1 and repeats sin(pos), cos(pos).",
        "distinct positions", "`min distance`", _FORMULA, bullet=3,
    ),
    Mistake(
        "integer-power", "pos_encoding", _ANGLE,
        "angle = pos / int(10000 ** (2 * pair / d))",
        "The divisor 10000 ** (2 * pair / d) is truncated to an integer, so "
        "frequencies are slightly off wherever it is not a whole number.",
        "the frequencies, slightly", "the drift of one angle", _FORMULA, bullet=4,
    ),
    Mistake(
        "added-to-table", "lookup", "return table[token_id].copy()",
        "return table[token_id]",
        "lookup returns a view of the row, so adding the encoding in place writes "
        "it into the embedding table.",
        "the embedding table", "`np.shares_memory`", (_01, "The lookup returns a copy"),
        bullet=5, recognised_by="view",
    ),
]  # fmt: skip

#: id -> :class:`Mistake`, in chapter 05's order
MISTAKES = {mistake.id: mistake for mistake in _RECORDS}
#: the ids of the mistakes ``pos_encoding`` (and ``sinusoidal_positions``) can make
POS_ENCODING_MISTAKES = tuple(m.id for m in _RECORDS if m.task == "pos_encoding")
