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
    MAX_POSITION,
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
# 1000), tight enough that every lesson mistake is far outside it; and the
# rounding noise under which two candidates tie.
_TOLERANCE = {np.dtype(np.float16): 4e-3}  # 1e-3 for the others
_FLOOR = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-6}  # 1e-9 for float64
_SAMPLE_ROWS = 256  # rows compared for each candidate (all rows for the winner)
_MISTAKE_ROWS = 16  # the mistakes are loops in Python: a few rows suffice


class Identification(NamedTuple):
    """What :func:`identify_encoding` found; ``str()`` of it is the message.

    Attributes
    ----------
    convention : str or None
        One of :data:`CONVENTIONS`, or None (a mistake, or not recognised).
    base : float or None
        The base that reproduces the table; None when it cannot be told (at
        ``d_model == 2``, or when every row encodes one position) or when
        nothing matched.
    first_position : int or None
        The position the first row encodes: ``positions[0]``, or later when the
        rows start late (FSMT's start at ``padding_idx + 1``).
    mistake : str or None
        The id of the lesson's mistake the table matches, if any.
    permutation : numpy.ndarray or None
        The column order with ``table[:, permutation]`` the lesson's table.
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
    ``B = base ** (m / (m - 1))``, which must be in ``[1, 1e100]`` too.

    Examples
    --------
    >>> tensor2tensor_base(10000.0, 4)
    100000000.0
    >>> tensor2tensor_base(1e60, 4)
    Traceback (most recent call last):
    ...
    ValueError: base == 1e+60 with d_model == 4, must be at most 1e+50: tensor2tensor's frequencies at this width are the lesson's with base ** 2, and the lesson's base must be at most 1e100.
    """  # noqa: E501
    m = check_d_model(d_model) // 2
    number, power = check_base(base), m / max(m - 1, 1)
    if math.log10(number) * power > math.log10(BASE_RANGE[1]):
        raise ValueError(
            f"base == {describe(base, kind=False)} with d_model == {m * 2}, must be "
            f"at most {BASE_RANGE[1] ** (1 / power):.3g}: tensor2tensor's frequencies"
            f" at this width are the lesson's with base ** {power:.6g}, and the "
            "lesson's base must be at most 1e100."
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
    """
    convention = check_choice(convention, "convention", CONVENTIONS)
    m = check_d_model(d_model) // 2
    pair = np.arange(m)  # (m,)
    columns = {
        "interleaved": (2 * pair, 2 * pair + 1),
        "concat": (pair, m + pair),
        "cos-first": (m + pair, pair),
    }.get(convention)  # each pair's sine and cosine column
    return None if columns is None else np.stack(columns, axis=1).ravel()  # (d_model,)


# --- identify_encoding: estimate, rebuild, compare ------------------------------


class _Candidate(NamedTuple):
    convention: str | None
    mistake: str | None
    base: float
    first_position: int
    distance: float


def _frequencies(sin, cos, positions):
    """Each pair's angle per position, from rows in order; None from one position.

    ``sin`` and ``cos`` are ``(n, m)``; a pair is the point ``cos + 1j sin``, and
    the angle between two rows ``s`` positions apart is ``s * w``.
    """
    order = np.argsort(positions, kind="stable")
    steps = np.diff(positions[order])  # (n - 1,)
    z = (cos + 1j * sin)[order]  # (n, m)
    turn = np.angle(z[1:] * np.conj(z[:-1]))[steps > 0]  # (k, m), in (-pi, pi]
    return turn.sum(axis=0) / steps[steps > 0].sum() if len(turn) else None  # (m,)


def _estimated_base(freqs, d_model):
    """The base with ``freqs ~ base ** (-2 i / d_model)``, or None: a weighted
    least-squares fit of ``-log w_i`` against ``i`` (slow pairs turn little, so
    their frequency is known less well and counts less)."""
    i = np.arange(d_model // 2)
    ok = None if freqs is None else (freqs > 0) & (i > 0)
    if ok is None or not ok.any():
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
    bases = (
        [10000.0] if estimate is None else [10000.0, float(f"{estimate:.2g}"), estimate]
    )
    return [base for base in dict.fromkeys(bases) if low <= base <= high]


def _first_position(sin, cos, positions, freqs):
    """Position of the first row, from the angles of every pair at that row:
    the slowest pair first (one turn covers the most positions), then each
    faster one refines the estimate. ``freqs`` are the candidate's own."""
    row = int(np.argmin(positions))
    angle = np.angle(cos[row] + 1j * sin[row])  # (m,)
    order = np.argsort(freqs)
    estimate = (angle[order[0]] % (2 * np.pi)) / freqs[order[0]]
    for pair in order[1:]:
        estimate += (
            np.angle(np.exp(1j * (angle[pair] - estimate * freqs[pair]))) / freqs[pair]
        )
    if not abs(estimate) < 2**52:  # no sensible start (or nan): keep the given one
        return int(positions[0])
    return int(round(estimate)) - int(positions[row]) + int(positions[0])


def _sample(n_rows, size):
    """Up to ``size`` row indices spread over ``range(n_rows)``, ends included."""
    return np.unique(np.linspace(0, n_rows - 1, min(n_rows, size)).astype(int))


def _convention_candidates(table, positions):
    """The best guesses for each convention: estimated base and start, rebuilt.

    A start that would move a position outside ``[0, 2**53)`` is not tried: the
    table cannot be those rows.
    """
    d = table.shape[1]
    rows = _sample(len(table), 256)  # all rows are compared for the winner only
    for convention in CONVENTIONS:
        perm = permutation("concat" if convention == "tensor2tensor" else convention, d)
        sin, cos = table[:, perm[0::2]], table[:, perm[1::2]]  # (n, m) each
        estimate = _estimated_base(_frequencies(sin, cos, positions), d)
        for base in _bases(convention, estimate, d):
            freqs = frequencies(
                d,
                tensor2tensor_base(base, d) if convention == "tensor2tensor" else base,
            )
            starts = {int(positions[0])}
            if d >= 4 and freqs.min() > 0:
                starts.add(_first_position(sin, cos, positions, freqs))
            for start in sorted(starts):
                shift = start - int(positions[0])
                if (
                    positions.min() + shift < 0
                    or positions.max() + shift > MAX_POSITION
                ):
                    continue
                rebuilt = encoding_table(
                    convention, positions[rows] + shift, d, base=base
                )
                distance = float(np.max(np.abs(table[rows] - rebuilt)))
                yield _Candidate(convention, None, base, start, distance)


def _mistake_candidates(table, positions):
    """Each of the lesson's mistakes on a few of the table's rows (they are
    Python loops)."""
    rows = _sample(len(table), 16)
    for mistake in POS_ENCODING_MISTAKES:
        rebuilt = np.array(
            [MISTAKES[mistake](p, table.shape[1]) for p in positions[rows]]
        )
        distance = float(np.max(np.abs(table[rows] - rebuilt)))
        yield _Candidate(None, mistake, 10000.0, int(positions[0]), distance)


def _choose(candidates, tolerance, floor):
    """The candidate to report, and whether it matches within ``tolerance``.

    Candidates within ``floor`` (or twice the best distance) of each other tie;
    among them the default base wins, then a mistake, then a round base.
    """
    best = min(candidates, key=lambda c: c.distance)
    if best.distance > tolerance:
        return best, False
    close = [c for c in candidates if c.distance <= max(2 * best.distance, floor)]

    def preference(c):
        round_base = c.base == float(f"{c.base:.2g}")
        return 1 if c.mistake else 0 if c.base == 10000.0 else 3 - round_base

    return min(sorted(close, key=lambda c: c.distance), key=preference), True


def _noise_floor(dtype, positions, tolerance):
    """Differences below this are rounding noise, in which candidates tie.

    A table computed in ``dtype`` has each angle ``p * w`` (``w <= 1``) off by up
    to ``(p + 1) * eps``, and its sine and cosine by as much; the last bits
    depend on the CPU's SIMD kernels. Kept below a quarter of ``tolerance``.
    """
    eps = np.finfo(dtype).eps if np.issubdtype(dtype, np.floating) else 0.0
    bound = (float(np.max(positions)) + 1) * eps
    return min(max(_FLOOR.get(dtype, 1e-9), bound), tolerance / 4)


def _describe(candidate, d_model, base_known=True):
    """``the 'concat' layout ([sin | cos] halves) with base 10000``, for messages."""
    if candidate.mistake is not None:
        return f"the lesson's mistake '{candidate.mistake}'"
    base = f" with base {candidate.base:.6g}" if d_model > 2 and base_known else ""
    return (
        f"the '{candidate.convention}' layout ({_LAYOUT[candidate.convention]}){base}"
    )


def _message(candidate, d_model, positions, base_known):
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
        why = (
            " (every base gives the same PE[0])"
            if candidate.first_position == 0
            else " for certain"
        )
        lines.append(
            "I cannot tell the base: every row encodes one position, and one position "
            f"does not determine it{why}; pass rows of two or more positions."
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
    message = _message(candidate, d_model, positions, base_known)
    base = candidate.base if known else None
    return Identification(
        candidate.convention,
        base,
        candidate.first_position,
        candidate.mistake,
        perm,
        candidate.distance,
        message,
    )


def identify_encoding(table, *, positions=None):
    """Say which sinusoidal convention ``table`` follows, with which base.

    Every convention of :data:`CONVENTIONS` is rebuilt with the base the table's
    angles suggest (the angle each pair turns between rows gives its frequency;
    a fit of those gives the base), that base rounded, and 10000, starting at
    ``positions[0]`` or wherever the rows' angles say they start; then each of
    the lesson's mistakes. The closest is reported if its largest difference is
    within 1e-3 (4e-3 for float16). Among candidates closer to each other than
    the table's own rounding (its dtype's eps times the largest position: the
    last bits are the CPU's), base 10000 is preferred, then a mistake, then a
    round base.

    Parameters
    ----------
    table : array_like of shape (n, d_model)
        A list of rows, a numpy array or anything with ``__array__`` (a torch
        tensor), float16, float32 or float64; ``d_model`` even, no nan or inf.
    positions : sequence of int, shape (n,), optional
        The position of each row; default ``0 .. n - 1``. Any order works.

    Returns
    -------
    Identification

    Examples
    --------
    >>> found = identify_encoding(encoding_table("concat", range(50), 8))
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
    what = "(n_positions, d_model), one row per position"
    array = check_table(table, what=what)  # (n, d_model), finite
    d_model = check_d_model(array.shape[1], name="table.shape[1]")
    table, dtype = array.astype(np.float64), array.dtype
    positions = check_positions(
        np.arange(len(table)) if positions is None else positions
    )
    check_sequence(positions, "positions", length=len(table), per=" (rows of table)")
    tolerance = _TOLERANCE.get(dtype, 1e-3)
    floor = _noise_floor(dtype, positions, tolerance)
    candidates = [
        *_convention_candidates(table, positions),
        *_mistake_candidates(table, positions),
    ]
    best, matched = _choose(candidates, tolerance, floor)
    if matched and best.mistake is None:  # the sample matched: check every row
        shifted = positions + (best.first_position - positions[0])
        rebuilt = encoding_table(best.convention, shifted, d_model, base=best.base)
        best = best._replace(distance=float(np.max(np.abs(table - rebuilt))))
        matched = best.distance <= tolerance
    return _result(best, matched, d_model, positions, tolerance)
