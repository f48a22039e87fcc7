"""Which sinusoidal table is this? :func:`identify_encoding` names its convention
(:mod:`posenc_lib.conventions`), base and first position, or the lesson's mistake.

It estimates and rebuilds: the angle each (sin, cos) pair turns between rows
gives its frequency, a fit of their logarithms the base, the angles of one row its
position. Each convention is rebuilt with that base (rounded and not) and 10000,
as is each mistake; the closest wins if within a tolerance loose enough for a
peer computing in float32 and far tighter than any mistake.
"""

from collections import namedtuple
from typing import NamedTuple

import numpy as np

from .conventions import (
    CONVENTIONS,
    USED_BY,
    encoding_table,
    permutation,
    tensor2tensor_base,
)
from .mistakes import MISTAKES, POS_ENCODING_MISTAKES
from .positional import frequencies
from .validation import (
    BASE_RANGE,
    MAX_POSITION,
    check_array_size,
    check_d_model,
    check_positions,
    check_sequence,
    check_table,
)

__all__ = ["Identification", "identify_encoding"]

_LAYOUT = {
    "interleaved": "sin and cos interleaved, pair by pair",
    "concat": "[sin | cos] halves",
    "cos-first": "[cos | sin] halves",
    "tensor2tensor": "[sin | cos] halves with frequencies base ** (-i / (d/2 - 1))",
}

# The largest |difference| in one entry that is a match (float32 angles are
# 5.6e-5 off by row 1000), and the rounding noise under which candidates tie.
_TOLERANCE = {np.dtype(np.float16): 4e-3}  # 1e-3 for the others
_FLOOR = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-6}  # 1e-9 for float64
_SAMPLE_ROWS = 256  # rows compared for each candidate (all rows for the winner)
_MISTAKE_ENTRIES = 2**16  # the mistakes are Python loops: up to 16 rows, >= 2


class Identification(NamedTuple):
    """What :func:`identify_encoding` found; ``str()`` of it is the message.

    Attributes
    ----------
    convention, mistake : str or None
        One of :data:`~posenc_lib.conventions.CONVENTIONS`; the lesson's mistake.
    base : float or None
        None if it cannot be told (``d_model == 2``, one position) or no match.
    first_position : int or None
        The position the first row encodes (FSMT's rows start at 2).
    permutation : numpy.ndarray or None
        The column order with ``table[:, permutation]`` the lesson's table.
    distance : float
        Largest |difference| from the named (or nearest) candidate.
    message : str

    Examples
    --------
    >>> from posenc_lib import sinusoidal_positions
    >>> identify_encoding(sinusoidal_positions(range(8), 4)).convention
    'interleaved'
    """

    convention: str | None
    base: float | None
    first_position: int | None
    mistake: str | None
    permutation: np.ndarray | None
    distance: float
    message: str

    def __str__(self):
        return self.message


_Candidate = namedtuple("_Candidate", "convention mistake base first_position distance")


def _frequencies(sin, cos, positions):
    """Each pair's angle per position ``(m,)``: ``cos + 1j sin`` turns ``s * w_i``."""
    order = np.argsort(positions, kind="stable")
    steps = np.diff(positions[order])  # (n - 1,)
    z = (cos + 1j * sin)[order]  # (n, m)
    turn = np.angle(z[1:] * np.conj(z[:-1]))[steps > 0]  # (k, m), in (-pi, pi]
    return turn.sum(axis=0) / steps[steps > 0].sum() if len(turn) else None  # (m,)


def _estimated_base(freqs, d_model):
    """The base with ``freqs ~ base ** (-2 i / d_model)`` (or None), by least
    squares on ``-log w_i``, weighted by ``w_i ** 2`` (slow pairs are known less)."""
    i = np.arange(d_model // 2)
    if freqs is None or not (ok := (freqs > 0) & (i > 0)).any():
        return None
    weight = freqs[ok] ** 2
    slope = np.sum(weight * i[ok] * -np.log(freqs[ok])) / np.sum(weight * i[ok] ** 2)
    base = float(np.exp(slope * d_model / 2))
    return base if np.isfinite(base) and base > 1e-300 else None


def _bases(convention, estimate, d_model):
    """Bases worth trying: 10000, and the estimate, rounded to two digits and not."""
    m, (low, high) = d_model // 2, BASE_RANGE
    if estimate is not None and convention == "tensor2tensor":
        estimate = estimate ** ((m - 1) / m)  # undo B = base ** (m / (m - 1))
    if convention == "tensor2tensor" and m > 1:  # the lesson's base must be valid
        high = high ** ((m - 1) / m)
    guesses = [] if estimate is None else [float(f"{estimate:.2g}"), estimate]
    return [b for b in dict.fromkeys([10000.0, *guesses]) if low <= b <= high]


def _first_position(sin, cos, positions, freqs):
    """Position of the first row from its angles: the slowest pair's, refined by
    each faster one (``freqs``, the candidate's)."""
    row = int(np.argmin(positions))
    angle = np.angle(cos[row] + 1j * sin[row])  # (m,)
    order = np.argsort(freqs)
    estimate = (angle[order[0]] % (2 * np.pi)) / freqs[order[0]]
    for pair in order[1:]:
        miss = np.angle(np.exp(1j * (angle[pair] - estimate * freqs[pair])))
        estimate += miss / freqs[pair]
    if not abs(estimate) < 2**52:  # no sensible start (or nan): keep the given one
        return int(positions[0])
    return int(round(estimate)) - int(positions[row]) + int(positions[0])


def _sample(n_rows, size):
    """Up to ``size`` row indices spread over ``range(n_rows)``, ends included."""
    return np.unique(np.linspace(0, n_rows - 1, min(n_rows, size)).astype(int))


def _convention_candidates(table, positions):
    """Each convention rebuilt with its estimated bases and starts (none that
    moves a position outside ``[0, 2**53)``)."""
    d, first = table.shape[1], int(positions[0])
    lowest = first - int(positions.min())  # a start below: a position below 0
    highest = MAX_POSITION - int(positions.max()) + first  # above: past 2**53
    rows = _sample(len(table), _SAMPLE_ROWS)
    for convention in CONVENTIONS:
        t2t = convention == "tensor2tensor"
        perm = permutation("concat" if t2t else convention, d)
        sin, cos = table[:, perm[0::2]], table[:, perm[1::2]]  # (n, m) each
        estimate = _estimated_base(_frequencies(sin, cos, positions), d)
        for base in _bases(convention, estimate, d):
            freqs = frequencies(d, tensor2tensor_base(base, d) if t2t else base)
            starts = {first}
            if d >= 4 and freqs.min() > 0:
                starts.add(_first_position(sin, cos, positions, freqs))
            for start in sorted(s for s in starts if lowest <= s <= highest):
                shifted = positions[rows] + (start - first)
                rebuilt = encoding_table(convention, shifted, d, base=base)
                distance = float(np.max(np.abs(table[rows] - rebuilt)))
                yield _Candidate(convention, None, base, start, distance)


def _mistake_candidates(table, positions):
    """Each mistake on a few rows (none past ``d_model == 2**15``)."""
    d, count = table.shape[1], min(16, _MISTAKE_ENTRIES // table.shape[1])
    rows = _sample(len(table), count)
    for mistake in POS_ENCODING_MISTAKES * (count >= 2):
        rebuilt = np.array([MISTAKES[mistake](p, d) for p in positions[rows]])
        distance = float(np.max(np.abs(table[rows] - rebuilt)))
        yield _Candidate(None, mistake, 10000.0, int(positions[0]), distance)


def _preference(c):
    """Among tied candidates: 10000 first, then a mistake, a round base, any."""
    round_base = c.base == float(f"{c.base:.2g}")
    return 1 if c.mistake else 0 if c.base == 10000.0 else 3 - round_base


def _describe(candidate, d_model, base_known=True):
    """``the 'concat' layout ([sin | cos] halves) with base 10000``, for messages."""
    if candidate.mistake is not None:
        return f"the lesson's mistake '{candidate.mistake}'"
    name, base = candidate.convention, f" with base {candidate.base:.6g}"
    return f"the '{name}' layout ({_LAYOUT[name]}){base * (d_model > 2 and base_known)}"


def _message(candidate, d_model, positions, base_known):
    """What to tell a person about a recognised table."""
    if candidate.mistake is not None:
        mistake = MISTAKES[candidate.mistake].explanation
        return f"This is {_describe(candidate, d_model)}: {mistake}"
    lines = [
        f"This is {_describe(candidate, d_model, base_known)}, as used by "
        f"{USED_BY[candidate.convention]}."
    ]
    if d_model == 2:
        lines.append("At d_model == 2 every base gives the same table.")
    elif not base_known:
        why = " (every base gives the same PE[0])" * (candidate.first_position == 0)
        lines.append(
            "I cannot tell the base: every row encodes one position, and one position "
            f"does not determine it{why or ' for certain'}; pass rows of two or more "
            "positions."
        )
    if candidate.first_position != positions[0]:
        lines.append(
            f"Its first row encodes position {candidate.first_position}, not "
            f"{positions[0]}: the rows start late, as FSMT's start at padding_idx + 1."
        )
    if candidate.convention == "tensor2tensor" and d_model > 2 and base_known:
        lines.append(
            "No column order turns it into the lesson's table with the same base; "
            "it equals the 'concat' layout with base "
            f"{tensor2tensor_base(candidate.base, d_model):.6g}."
        )
    elif candidate.convention != "interleaved":
        lines.append("table[:, result.permutation] is the lesson's interleaved table.")
    return " ".join(lines)


def _result(candidate, matched, d_model, positions, tolerance):
    """The :class:`Identification` of ``candidate``."""
    if not matched:
        message = (
            "Not a sinusoidal encoding I recognise. The nearest candidate is "
            f"{_describe(candidate, d_model)}, with a largest difference of "
            f"{candidate.distance:.3g} in one entry (a match is within "
            f"{tolerance:g}). If the rows are not positions 0, 1, 2, ..., "
            "pass positions=."
        )
        return Identification(None, None, None, None, None, candidate.distance, message)
    perm = None
    if candidate.mistake == "swapped-sin-cos":
        perm = permutation("interleaved", d_model).reshape(-1, 2)[:, ::-1].ravel()
    elif candidate.convention is not None:
        perm = permutation(candidate.convention, d_model)
    base_known = len(np.unique(positions)) > 1  # one position: no angle steps
    known = d_model > 2 and base_known and not candidate.mistake
    found = (candidate.convention, candidate.base if known else None)
    found += (candidate.first_position, candidate.mistake, perm, candidate.distance)
    return Identification(*found, _message(candidate, d_model, positions, base_known))


def identify_encoding(table, *, positions=None):
    """Say which sinusoidal convention ``table`` follows, with which base.

    The closest candidate (module notes) matches if within 1e-3 in every entry
    (4e-3 for float16). Among those as close as the table's rounding, base 10000
    wins, then a mistake (tried up to ``d_model == 2**15``), then a round base.

    Parameters
    ----------
    table : array_like of shape (n, d_model)
        Rows, float16 to float64, finite; ``d_model`` even; 256 MiB as float64.
    positions : sequence of int, shape (n,), optional
        The position of each row, in any order; default ``0 .. n - 1``.

    Examples
    --------
    >>> from posenc_lib.conventions import encoding_table
    >>> found = identify_encoding(encoding_table("concat", range(50), 8))
    >>> found.convention, found.base, found.permutation.tolist()
    ('concat', 10000.0, [0, 4, 1, 5, 2, 6, 3, 7])
    """
    array = check_table(table, what="(n_positions, d_model), one row per position")
    d_model = check_d_model(array.shape[1], name="table.shape[1]")
    check_array_size(array.shape, "table", what="a float64 copy")  # and rebuilt
    table, dtype = array.astype(np.float64), array.dtype
    positions = range(len(table)) if positions is None else positions
    positions = check_positions(positions)  # (n,)
    check_sequence(positions, "positions", length=len(table), per=" (rows of table)")
    tolerance = _TOLERANCE.get(dtype, 1e-3)
    eps = np.finfo(dtype).eps if dtype.kind == "f" else 0.0  # an angle p * w in
    bound = (float(np.max(positions)) + 1) * eps  # dtype is off by (p + 1) * eps
    floor = min(max(_FLOOR.get(dtype, 1e-9), bound), tolerance / 4)  # tie below
    candidates = list(_convention_candidates(table, positions))
    candidates += _mistake_candidates(table, positions)
    best = min(candidates, key=lambda c: c.distance)
    if matched := best.distance <= tolerance:  # within floor or twice best: a tie
        tied = [c for c in candidates if c.distance <= max(2 * best.distance, floor)]
        best = min(tied, key=lambda c: (_preference(c), c.distance))
    if matched and best.mistake is None:  # the sample matched: check every row
        shifted = positions + (best.first_position - positions[0])
        rebuilt = encoding_table(best.convention, shifted, d_model, base=best.base)
        best = best._replace(distance=float(np.max(np.abs(table - rebuilt))))
        matched = best.distance <= tolerance
    return _result(best, matched, d_model, positions, tolerance)
