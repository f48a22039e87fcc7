r"""The sinusoidal layouts real code uses, and a function that recognises them.

Every library below computes the same sines and cosines of ``pos * w_i``; they
differ in where each number goes and, for one family, in the frequencies:

================== ==================================== ===========================
convention         row for position ``p``               frequencies ``w_i``
================== ==================================== ===========================
``interleaved``    ``[sin w_0 p, cos w_0 p, sin w_1 p,  ``base ** (-2 i / d)``
                   ...]`` (the paper, this lesson)
``concat``         ``[sin w_0 p ... | cos w_0 p ...]``  ``base ** (-2 i / d)``
``cos-first``      ``[cos w_0 p ... | sin w_0 p ...]``  ``base ** (-2 i / d)``
``tensor2tensor``  ``[sin w_0 p ... | cos w_0 p ...]``  ``base ** (-i / (d/2 - 1))``
================== ==================================== ===========================

The first three hold the same numbers: a column permutation turns one into
another (:func:`permutation`). The tensor2tensor spacing ends exactly at
``1 / base`` instead of just short of it, so no permutation matches the lesson's
table with the same base; it *is* the ``concat`` table with the larger base
``base ** (m / (m - 1))``, ``m = d / 2`` (:func:`tensor2tensor_base`).

:func:`identify_encoding` takes any table (rows = positions) and says which of
these it is, with which base and starting position, or which of the lesson's
mistakes (:mod:`posenc_lib.mistakes`) it matches, or that it is none
of them and what it is nearest to.

References
----------
.. [1] A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017, section 3.5.
.. [2] tensor2tensor, ``common_attention.get_timing_signal_1d``.
.. [3] J. Ho et al., "Denoising Diffusion Probabilistic Models", 2020 (its
   timestep embedding: tensor2tensor's); P. Dhariwal and A. Nichol, "Diffusion
   Models Beat GANs on Image Synthesis", 2021 (guided-diffusion: cos-first).
"""

import math
from typing import NamedTuple

import numpy as np

from .mistakes import DESCRIPTION, MISTAKES, POS_ENCODING_MISTAKES
from .positional import frequencies, sinusoidal_positions
from .validation import (
    BASE_RANGE,
    check_base,
    check_choice,
    check_d_model,
    check_positions,
    check_sequence,
    check_table,
    describe,
)

__all__ = [
    "CONVENTIONS",
    "USED_BY",
    "Identification",
    "encoding_table",
    "identify_encoding",
    "permutation",
    "tensor2tensor_base",
]

CONVENTIONS = ("interleaved", "concat", "cos-first", "tensor2tensor")

USED_BY = {
    "interleaved": "the original paper, this lesson, the PyTorch tutorial, "
    "DistilBERT's create_sinusoidal_embeddings, keras_hub's SinePositionEncoding "
    "and d2l",
    "concat": "Marian and RoFormer in Hugging Face transformers, GPT-J's "
    "sinusoidal positions, Transformer-XL and many diffusion codebases",
    "cos-first": "the timestep embeddings of OpenAI's guided-diffusion and GLIDE, "
    "and diffusers' get_timestep_embedding with flip_sin_to_cos=True and "
    "downscale_freq_shift=0",
    "tensor2tensor": "tensor2tensor's get_timing_signal_1d, fairseq, FSMT and "
    "M2M100 in Hugging Face transformers, the DDPM timestep embedding, and "
    "diffusers' get_timestep_embedding by default",
}

_LAYOUT = {
    "interleaved": "sin and cos interleaved, pair by pair",
    "concat": "[sin | cos] halves",
    "cos-first": "[cos | sin] halves",
    "tensor2tensor": "[sin | cos] halves with frequencies base ** (-i / (d/2 - 1))",
}

# Largest |difference| in one entry that still counts as the same encoding: loose
# enough for a peer that computes its angles in float32 (5.6e-5 off by row
# 1000), tight enough that every lesson mistake is far outside it.
_TOLERANCE = {np.dtype(np.float16): 4e-3}
_DEFAULT_TOLERANCE = 1e-3
_FLOOR = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-6}  # rounding noise
_DEFAULT_FLOOR = 1e-9
_SAMPLE_ROWS = 256  # rows compared for each candidate (all rows for the winner)
_MISTAKE_ROWS = 16  # the mistakes are loops in Python: a few rows suffice


class Identification(NamedTuple):
    """What :func:`identify_encoding` found; ``str()`` of it is the message.

    Attributes
    ----------
    convention : str or None
        One of :data:`CONVENTIONS`, or None (a mistake, or not recognised).
    base : float or None
        The base that reproduces the table (None when ``d_model == 2``, where
        every base gives the same table, when every row encodes one position,
        which cannot tell the base, or when nothing matched).
    first_position : int or None
        The position the first row encodes: ``positions[0]``, or later when the
        rows start late (FSMT's start at ``padding_idx + 1``).
    mistake : str or None
        The id of the lesson's mistake the table matches, if any.
    permutation : numpy.ndarray or None
        Column order with ``table[:, permutation]`` equal to the lesson's table
        (same positions and base), when one exists.
    distance : float
        Largest |difference| between the table and the named (or nearest)
        candidate.
    message : str
        One paragraph for a person, naming libraries that use the convention.

    Examples
    --------
    >>> found = identify_encoding(encoding_table("cos-first", range(30), 8))
    >>> found.convention, found.base, found.mistake
    ('cos-first', 10000.0, None)
    >>> print(found)  # doctest: +ELLIPSIS
    This is the 'cos-first' layout ([cos | sin] halves) with base 10000, as used...
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


def tensor2tensor_base(base, d_model):
    """The lesson's base that gives tensor2tensor's frequencies at width ``d_model``.

    tensor2tensor uses ``w_i = base ** (-i / (m - 1))`` with ``m = d_model // 2``
    (``w_0 = 1`` when ``m == 1``); that is ``B ** (-2 i / d_model)`` with
    ``B = base ** (m / (m - 1))``.

    ``base`` must be in ``[1, 1e100]`` and so must ``B``: at most ``1e50`` for
    ``d_model == 4``, about ``1e99.6`` for ``d_model == 512``.

    Raises
    ------
    ValueError
        If ``base`` or ``B`` is outside ``[1, 1e100]`` (the message names the
        ``base`` given, and the largest one this width accepts).

    Examples
    --------
    >>> tensor2tensor_base(10000.0, 4)
    100000000.0
    >>> round(tensor2tensor_base(10000.0, 512), 1)
    10367.8
    >>> tensor2tensor_base(1e60, 4)
    Traceback (most recent call last):
    ...
    ValueError: base == 1e+60 with d_model == 4, must be at most 1e+50: tensor2tensor's frequencies at this width are the lesson's with base ** 2, and the lesson's base must be at most 1e100.
    """  # noqa: E501
    m = check_d_model(d_model) // 2
    number, power = check_base(base), m / max(m - 1, 1)
    if math.log10(number) * power > math.log10(BASE_RANGE[1]):
        largest = BASE_RANGE[1] ** (1 / power)
        shown = base if type(base) is float else describe(base)
        raise ValueError(
            f"base == {shown} with d_model == {m * 2}, must be at most "
            f"{largest:.3g}: tensor2tensor's frequencies at this width are the "
            f"lesson's with base ** {power:.6g}, and the lesson's base must be at "
            "most 1e100."
        )
    return min(number**power, BASE_RANGE[1])


def encoding_table(convention, positions, d_model, *, base=10000.0):
    """The table of ``positions`` in one of :data:`CONVENTIONS`, float64.

    Parameters
    ----------
    convention : {"interleaved", "concat", "cos-first", "tensor2tensor"}
    positions : sequence of int, shape (n,)
    d_model : int
        An even integer >= 2.
    base : float, default 10000.0
        The convention's own base (tensor2tensor's ``max_timescale``).

    Returns
    -------
    numpy.ndarray of shape (n, d_model)

    Examples
    --------
    >>> encoding_table("tensor2tensor", [3], 4).round(4).tolist()
    [[0.1411, 0.0003, -0.99, 1.0]]
    >>> encoding_table("cos-first", [0], 4)
    array([[1., 1., 0., 0.]])
    """
    convention = check_choice(convention, "convention", CONVENTIONS)
    if convention == "interleaved":
        return sinusoidal_positions(positions, d_model, base=base)
    if convention == "tensor2tensor":
        base = tensor2tensor_base(base, d_model)
    table = sinusoidal_positions(positions, d_model, base=base, layout="concat")
    if convention == "cos-first":  # swap the halves: [cos | sin]
        return np.roll(table, d_model // 2, axis=1)
    return table


def permutation(convention, d_model):
    """Column order ``perm`` with ``table[:, perm]`` in the lesson's layout.

    None for ``"tensor2tensor"``: its frequencies differ, so no order works.

    Examples
    --------
    >>> permutation("concat", 6)
    array([0, 3, 1, 4, 2, 5])
    >>> table = encoding_table("concat", [1, 2], 6)
    >>> bool(np.array_equal(table[:, permutation("concat", 6)],
    ...                     encoding_table("interleaved", [1, 2], 6)))
    True
    """
    convention = check_choice(convention, "convention", CONVENTIONS)
    m = check_d_model(d_model) // 2
    pair = np.arange(m)  # (m,)
    sin_col, cos_col = {
        "interleaved": (2 * pair, 2 * pair + 1),
        "concat": (pair, m + pair),
        "cos-first": (m + pair, pair),
    }.get(convention, (None, None))
    if sin_col is None:
        return None
    return np.stack([sin_col, cos_col], axis=1).ravel()  # (d_model,)


# --- identify_encoding: estimate, rebuild, compare ------------------------------


class _Candidate(NamedTuple):
    convention: str | None
    mistake: str | None
    base: float
    first_position: int
    distance: float


def _as_table(table):
    """``table`` as float64 ``(n, d)`` with d even and finite, and its own dtype."""
    what = "(n_positions, d_model), one row per position"
    array = check_table(table, what=what)
    check_d_model(array.shape[1], name="table.shape[1]")
    check_table(array, what=what, finite=True)
    return array.astype(np.float64), array.dtype


def _frequencies(sin, cos, positions):
    """Each pair's angle per position, from consecutive rows; None from one row.

    ``sin`` and ``cos`` are ``(n, m)``; a pair is the point ``cos + 1j sin``, and
    the angle between two rows ``s`` positions apart is ``s * w``.
    """
    order = np.argsort(positions, kind="stable")
    steps = np.diff(positions[order])  # (n - 1,)
    z = (cos + 1j * sin)[order]  # (n, m)
    turn = np.angle(z[1:] * np.conj(z[:-1]))[steps > 0]  # (k, m), in (-pi, pi]
    if not len(turn):
        return None
    return turn.sum(axis=0) / steps[steps > 0].sum()  # (m,)


def _estimated_base(freqs, d_model):
    """The base with ``freqs ~ base ** (-2 i / d_model)``, or None.

    A weighted least-squares fit of ``-log w_i`` against ``i``: slow pairs turn
    little, so their frequency is known less well and counts less.
    """
    if freqs is None or d_model < 4:
        return None
    i = np.arange(len(freqs))
    ok = (freqs > 0) & (i > 0)
    if not ok.any():
        return None
    weight = freqs[ok] ** 2
    slope = np.sum(weight * i[ok] * -np.log(freqs[ok])) / np.sum(weight * i[ok] ** 2)
    base = float(np.exp(slope * d_model / 2))
    return base if np.isfinite(base) and base > 1e-300 else None


def _round(base):
    """``base`` to two significant digits: 10367.8 -> 10000.0."""
    return float(f"{base:.2g}")


def _bases(convention, estimate, d_model):
    """Bases worth trying for ``convention`` given the lesson-spacing estimate."""
    bases = [10000.0]
    if estimate is not None:
        if convention == "tensor2tensor":  # undo B = base ** (m / (m - 1))
            m = d_model // 2
            estimate = estimate ** ((m - 1) / m)
        bases += [_round(estimate), estimate]
    low, high = BASE_RANGE
    if convention == "tensor2tensor":  # the lesson's base it stands for must be valid
        m = d_model // 2
        high = high ** ((m - 1) / m) if m > 1 else high
    return [base for base in dict.fromkeys(bases) if low <= base <= high]


def _model_frequencies(convention, d_model, base):
    if convention == "tensor2tensor":
        base = tensor2tensor_base(base, d_model)
    return frequencies(d_model, base)  # (d_model // 2,)


def _first_position(sin, cos, positions, freqs):
    """Position of the first row, from the angles of every pair at that row.

    Start from the slowest pair (one turn covers the most positions), then let
    each faster pair refine the estimate. ``freqs`` are the candidate's own.
    """
    row = int(np.argmin(positions))
    angle = np.angle(cos[row] + 1j * sin[row])  # (m,)
    order = np.argsort(freqs)
    slowest = order[0]
    estimate = (angle[slowest] % (2 * np.pi)) / freqs[slowest]
    for pair in order[1:]:
        miss = np.angle(np.exp(1j * (angle[pair] - estimate * freqs[pair])))
        estimate += miss / freqs[pair]
    if not abs(estimate) < 2**52:  # no sensible start (or nan): keep the given one
        return int(positions[0])
    return int(round(estimate)) - int(positions[row]) + int(positions[0])


def _sample(n_rows, size):
    """Up to ``size`` row indices spread over ``range(n_rows)``, ends included."""
    return np.unique(np.linspace(0, n_rows - 1, min(n_rows, size)).astype(int))


def _distance(table, other):
    return float(np.max(np.abs(table - other)))


def _convention_candidates(table, positions):
    """The best guesses for each convention: estimated base and start, rebuilt."""
    d = table.shape[1]
    rows = _sample(len(table), _SAMPLE_ROWS)
    for convention in CONVENTIONS:
        perm = permutation("concat" if convention == "tensor2tensor" else convention, d)
        sin, cos = table[:, perm[0::2]], table[:, perm[1::2]]  # (n, m) each
        estimate = _estimated_base(_frequencies(sin, cos, positions), d)
        for base in _bases(convention, estimate, d):
            freqs = _model_frequencies(convention, d, base)  # (m,)
            starts = {int(positions[0])}
            if d >= 4 and freqs.min() > 0:
                starts.add(_first_position(sin, cos, positions, freqs))
            for start in sorted(starts):
                shifted = positions[rows] + (start - positions[0])
                if shifted.min() < 0:
                    continue
                rebuilt = encoding_table(convention, shifted, d, base=base)
                distance = _distance(table[rows], rebuilt)
                yield _Candidate(convention, None, base, start, distance)


def _mistake_candidates(table, positions):
    """Each of the lesson's mistakes on a few of the table's rows."""
    rows = _sample(len(table), _MISTAKE_ROWS)
    for mistake in POS_ENCODING_MISTAKES:
        rebuilt = np.array(
            [MISTAKES[mistake](p, table.shape[1]) for p in positions[rows]]
        )
        distance = _distance(table[rows], rebuilt)
        yield _Candidate(None, mistake, 10000.0, int(positions[0]), distance)


def _preference(candidate):
    """Among equally good matches: the default base, a mistake, a round base."""
    if candidate.mistake is not None:
        return 1
    if candidate.base == 10000.0:
        return 0
    return 2 if candidate.base == _round(candidate.base) else 3


def _noise_floor(dtype, positions, tolerance):
    """Differences below this are rounding noise: candidates within it tie.

    A table computed in ``dtype`` has each angle ``p * w`` (``w <= 1``) off by up
    to ``(p + 1) * eps`` of that dtype, and its sine and cosine by as much; how
    the last bits fall depends on the CPU's SIMD kernels, so two candidates
    within that bound of each other cannot be told apart. Kept below a quarter
    of ``tolerance``, far from every lesson mistake.
    """
    eps = np.finfo(dtype).eps if np.issubdtype(dtype, np.floating) else 0.0
    bound = (float(np.max(positions)) + 1) * eps
    floor = max(_FLOOR.get(dtype, _DEFAULT_FLOOR), bound)
    return min(floor, tolerance / 4)


def _choose(candidates, tolerance, floor):
    """The candidate to report, and whether it matches within ``tolerance``."""
    candidates = sorted(candidates, key=lambda c: c.distance)
    best = candidates[0]
    if best.distance > tolerance:
        return best, False
    close = [c for c in candidates if c.distance <= max(2 * best.distance, floor)]
    return min(close, key=_preference), True  # stable: the earlier on ties


def _describe(candidate, d_model, base_known=True):
    """``the 'concat' layout ([sin | cos] halves) with base 10000``, for messages."""
    if candidate.mistake is not None:
        return f"the lesson's mistake '{candidate.mistake}'"
    known = d_model > 2 and base_known
    base = f" with base {candidate.base:.6g}" if known else ""
    return (
        f"the '{candidate.convention}' layout ({_LAYOUT[candidate.convention]}){base}"
    )


def _message(candidate, d_model, positions, base_known=True):
    """What to tell a person about a recognised table."""
    if candidate.mistake is not None:
        return (
            f"This is {_describe(candidate, d_model)}: {DESCRIPTION[candidate.mistake]}"
        )
    lines = [
        f"This is {_describe(candidate, d_model, base_known)}, as used by "
        f"{USED_BY[candidate.convention]}."
    ]
    if d_model == 2:
        lines.append("At d_model == 2 every base gives the same table.")
    elif not base_known:
        zero = candidate.first_position == 0
        why = " (every base gives the same PE[0])" if zero else " for certain"
        lines.append(_UNKNOWN_BASE.format(why=why))
    if candidate.first_position != positions[0]:
        lines.append(
            f"Its first row encodes position {candidate.first_position}, not "
            f"{positions[0]}: the rows start late, as FSMT's start at "
            "padding_idx + 1."
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


_UNKNOWN_BASE = (
    "I cannot tell the base: every row encodes one position, and one position "
    "does not determine it{why}; pass rows of two or more positions."
)


def _result(candidate, matched, d_model, positions, tolerance):
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
    return Identification(
        candidate.convention,
        candidate.base if known else None,
        candidate.first_position,
        candidate.mistake,
        perm,
        candidate.distance,
        _message(candidate, d_model, positions, base_known),
    )


def identify_encoding(table, *, positions=None):
    """Say which sinusoidal convention ``table`` follows, with which base.

    Tries every convention of :data:`CONVENTIONS` with the base estimated from
    the table (the angle each pair turns between rows gives its frequency; a
    fit of those gives the base), the same base rounded, and 10000, starting at
    ``positions[0]`` or wherever the rows' angles say they start; then the
    lesson's mistakes. The one that rebuilds the table best is reported if its
    largest difference is within 1e-3 (4e-3 for float16); among ones equally
    close, or closer to each other than the table's own rounding (its dtype's
    eps times the largest position: the last bits are the CPU's), base 10000 is
    preferred, then a mistake, then a round base.

    Parameters
    ----------
    table : array_like of shape (n, d_model)
        A list of rows, a numpy array or anything with ``__array__`` (a torch
        tensor), float16, float32 or float64; ``d_model`` even.
    positions : sequence of int, shape (n,), optional
        The position of each row; default ``0 .. n - 1``. Any order works.

    Returns
    -------
    Identification
        ``.convention``, ``.base``, ``.first_position``, ``.mistake``,
        ``.permutation``, ``.distance`` and ``.message``.

    Raises
    ------
    TypeError
        If ``table`` is not numeric.
    ValueError
        If ``table`` is not 2-D, has an odd number of columns or a nan or inf,
        or ``positions`` does not have one non-negative integer per row.

    Examples
    --------
    >>> marian = encoding_table("concat", range(50), 8)
    >>> found = identify_encoding(marian)
    >>> found.convention, found.base, found.permutation.tolist()
    ('concat', 10000.0, [0, 4, 1, 5, 2, 6, 3, 7])
    >>> fsmt = encoding_table("tensor2tensor", range(2, 40), 8)  # rows start at 2
    >>> identify_encoding(fsmt).first_position
    2
    >>> from posenc_lib.mistakes import sine_only
    >>> identify_encoding([sine_only(p, 6) for p in range(20)]).mistake
    'sine-only'
    >>> print(identify_encoding(np.ones((10, 4))))  # doctest: +ELLIPSIS
    Not a sinusoidal encoding I recognise. The nearest candidate is ...
    """
    table, dtype = _as_table(table)  # (n, d_model)
    if positions is None:
        positions = np.arange(len(table))
    positions = check_positions(positions)  # (n,)
    check_sequence(positions, "positions", length=len(table), per=" (rows of table)")
    tolerance = _TOLERANCE.get(dtype, _DEFAULT_TOLERANCE)
    floor = _noise_floor(dtype, positions, tolerance)
    candidates = [
        *_convention_candidates(table, positions),
        *_mistake_candidates(table, positions),
    ]
    best, matched = _choose(candidates, tolerance, floor)
    if matched and best.mistake is None:  # the sample matched: check every row
        shifted = positions + (best.first_position - positions[0])
        rebuilt = encoding_table(
            best.convention, shifted, table.shape[1], base=best.base
        )
        best = best._replace(distance=_distance(table, rebuilt))
        matched = best.distance <= tolerance
    return _result(best, matched, table.shape[1], positions, tolerance)
