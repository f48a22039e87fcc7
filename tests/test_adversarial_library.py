"""Adversarial inputs to the library: no silent wrong answer, no raw numpy error.

Each case here was once accepted with a wrong result or ended in numpy's own
message. The accepted range is positions in ``[0, 2**53)`` and ``base`` in
``[1, 1e100]``; over it both code paths (the direct formula and the rotated
blocks of ``_fast_table``) must agree with a high-precision reference:

* within ``EXACT = 1e-15`` of ``sin`` / ``cos`` of ``pos / divisor`` computed
  exactly, with ``divisor`` the float64 value of ``base ** (2 * pair / d)``;
* within ``1e-15 + 3e-16 * pos`` of the formula in exact arithmetic (the
  divisor's own rounding moves the angle by about ``pos * 1e-16``).
"""

import math
import re
import tracemalloc

import mpmath
import numpy as np
import pytest

from posenc_lib import (
    frequencies,
    offset_similarity,
    one_hot,
    pos_encoding,
    rotation_matrix,
    similarity_matrix,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.attention import (
    LearnedPositions,
    init_head,
    position_scores,
    rope,
    rope_score,
    self_attention,
    softmax,
)
from posenc_lib.properties import min_distance, table_of

EXACT = 1e-15  # against sin(pos / float64 divisor), computed exactly
PER_POSITION = 3e-16  # against the exact formula: the divisor's rounding
LAST = 2**53 - 1  # the largest accepted position
TOO_FAR = "(2**53): float64 angles cannot tell larger positions apart."
RNG = np.random.default_rng(13)


def _reference(positions, d_model, base, *, float64_divisor):
    """sin/cos of every angle at 60 digits, as an (n, d_model) float64 array."""
    exponents = [mpmath.mpf(2 * pair) / d_model for pair in range(d_model // 2)]
    with mpmath.workdps(60):
        if float64_divisor:
            pair = np.arange(d_model // 2)
            divisors = [mpmath.mpf(float(w)) for w in base ** (2 * pair / d_model)]
        else:
            divisors = [mpmath.power(mpmath.mpf(base), x) for x in exponents]
        rows = [
            [
                float(f(mpmath.mpf(int(p)) / w))
                for w in divisors
                for f in (mpmath.sin, mpmath.cos)
            ]
            for p in positions
        ]
    return np.array(rows)


def _sample_positions(count):
    """Positions spread log-uniformly over the whole accepted range, ends included."""
    exponents = RNG.uniform(0, math.log2(LAST - 200), size=count)
    return sorted({0, 1, LAST - 100, *(int(2**e) for e in exponents)})


SETTINGS = [(2, 10000.0), (8, 10000.0), (64, 10000.0), (1000, 10000.0), (16, 1.0)]
SETTINGS += [(16, 10.0), (16, 1e6), (16, 1e100), (6, 10**30)]


@pytest.mark.parametrize(("d_model", "base"), SETTINGS, ids=str)
def test_direct_path_is_exact_over_the_whole_accepted_range(d_model, base):
    positions = _sample_positions(12)
    rows = np.array([pos_encoding(p, d_model, base=base) for p in positions])
    assert np.abs(rows).max() <= 1.0
    exact = _reference(positions, d_model, base, float64_divisor=True)
    assert np.abs(rows - exact).max() <= EXACT
    formula = _reference(positions, d_model, base, float64_divisor=False)
    bound = EXACT + PER_POSITION * np.array(positions, dtype=float)[:, None]
    assert np.all(np.abs(rows - formula) <= bound)


@pytest.mark.parametrize(("d_model", "base"), SETTINGS[:5], ids=str)
def test_fast_path_is_exact_over_the_whole_accepted_range(d_model, base):
    for start in [*_sample_positions(4), LAST - 99]:
        start = min(start, LAST - 99)
        table = sinusoidal_positions(range(start, start + 100), d_model, base=base)
        sample = [0, 37, 99]
        positions = [start + k for k in sample]
        assert np.abs(table).max() <= 1.0
        exact = _reference(positions, d_model, base, float64_divisor=True)
        assert np.abs(table[sample] - exact).max() <= EXACT, start


@pytest.mark.parametrize("start", [10**12, 10**15, 2**60 // 128, LAST - 99])
def test_fast_and_direct_paths_agree_far_out(start):
    start = min(start, LAST - 99)
    fast = sinusoidal_positions(range(start, start + 100), 64)  # (100, 64)
    direct = np.array([pos_encoding(start + k, 64) for k in (0, 50, 99)])
    assert np.abs(fast[[0, 50, 99]] - direct).max() <= EXACT


def test_float32_table_is_within_one_float32_step_up_to_1e8():
    positions = [0, 12_345, 10**6 + 7, 10**8]
    table = sinusoidal_positions(positions, 64, dtype=np.float32)
    formula = _reference(positions, 64, 10000.0, float64_divisor=False)
    assert np.abs(table - formula).max() <= np.finfo(np.float32).eps


def test_neighbouring_large_positions_get_their_own_rows():
    rows = sinusoidal_positions([LAST - 1, LAST], 2)
    assert not np.allclose(rows[0], rows[1])


# -- refused, with the argument named ---------------------------------------------

REFUSED = {
    "position-2**63-1": (
        lambda: sinusoidal_positions([2**63 - 1], 64),
        f"positions[0] == {2**63 - 1}, must be a non-negative integer below "
        f"{2**53} {TOO_FAR}",
    ),
    "position-2**53+1": (
        lambda: sinusoidal_positions([0, 2**53 + 1], 4),
        f"positions[1] == {2**53 + 1}, must be a non-negative integer below "
        f"{2**53} {TOO_FAR}",
    ),
    "pos_encoding-2**53": (
        lambda: pos_encoding(2**53, 4),
        f"pos == {2**53}, must be a non-negative integer below {2**53} {TOO_FAR}",
    ),
    "range-10**30": (
        lambda: sinusoidal_positions(range(10**30), 4),
        f"positions[{10**30 - 1}] == {10**30 - 1}, must be a non-negative integer "
        f"below {2**53} {TOO_FAR}",
    ),
    "base-1e-300": (
        lambda: pos_encoding(1, 8, base=1e-300),
        "base == 1e-300, must be a number in [1, 1e100]: below 1 an angle would "
        "exceed its position.",
    ),
    "base-1e308": (
        lambda: pos_encoding(1, 1000, base=1e308),
        "base == 1e+308, must be a number in [1, 1e100]: the exact-angle "
        "arithmetic is built for bases up to 1e100.",
    ),
    "base-10**400": (
        lambda: frequencies(4, base=10**400),
        "base == 100000000000...(401 digits), must be a number in [1, 1e100]: the "
        "exact-angle arithmetic is built for bases up to 1e100.",
    ),
    "wavelengths-base-0.5": (
        lambda: wavelengths(4, base=0.5),
        "base == 0.5, must be a number in [1, 1e100]: below 1 an angle would "
        "exceed its position.",
    ),
    "rotation_matrix-10**400": (
        lambda: rotation_matrix(10**400, 4),
        f"offset == 100000000000...(401 digits), must be an integer with "
        f"|offset| < {2**53} {TOO_FAR}",
    ),
    "rotation_matrix-minus-2**53": (
        lambda: rotation_matrix(-(2**53), 4),
        f"offset == {-(2**53)}, must be an integer with |offset| < {2**53} {TOO_FAR}",
    ),
}


@pytest.mark.parametrize("case", REFUSED, ids=str)
def test_refused_with_a_message_naming_the_argument(case):
    call, message = REFUSED[case]
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


def test_a_python_int_base_is_a_number_like_any_other():
    np.testing.assert_array_equal(
        sinusoidal_positions([0, 5], 6, base=10**30),
        sinusoidal_positions([0, 5], 6, base=1e30),
    )


# -- sizes: refused before anything is built --------------------------------------

LIMIT = "more than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES)."
SIZES = {
    "sinusoidal_positions-range-1e9": (
        lambda: sinusoidal_positions(range(10**9), 2),
        "positions would give an int64 array of shape (1000000000,), 7.45 GiB: ",
    ),
    "sinusoidal_positions-d-10**30": (
        lambda: sinusoidal_positions([0], 10**30),
        f"positions and d_model would give the result of shape (1, {10**30}), "
        "7.11e+15 PiB: ",
    ),
    "sinusoidal_positions-wide": (
        lambda: sinusoidal_positions(range(10**4), 10**4),
        "positions and d_model would give the result of shape (10000, 10000), "
        "763 MiB: ",
    ),
    "offset_similarity-range-1e8": (
        lambda: offset_similarity(range(10**8), 2),
        "offsets would give an int64 array of shape (100000000,), 763 MiB: ",
    ),
    "offset_similarity-wide": (
        lambda: offset_similarity(range(10**5), 10**3),
        "offsets and d_model would give angles of shape (100000, 500), 381 MiB: ",
    ),
    "one_hot": (
        lambda: one_hot([0, 1], 10**9),
        "token_ids and vocab_size would give the result of shape (2, 1000000000), "
        "14.9 GiB: ",
    ),
    "rotation_matrix": (
        lambda: rotation_matrix(1, 10**5),
        "d_model would give the result of shape (100000, 100000), 74.5 GiB: ",
    ),
    "similarity_matrix": (
        lambda: similarity_matrix(range(10**5), 2),
        "positions would give the result of shape (100000, 100000), 74.5 GiB: ",
    ),
    "min_distance": (
        lambda: min_distance(10**9, 2),
        "n_positions and d_model would give angles of shape (999999999, 1), 7.45 GiB: ",
    ),
    "table_of": (
        lambda: table_of(pos_encoding, 10**9, 4),
        "n_positions and d_model would give the result of shape (1000000000, 4), "
        "29.8 GiB: ",
    ),
    "init_head": (
        lambda: init_head(10**5),
        "d_model and d_head would give projections of shape (3, 100000, 100000), "
        "224 GiB: ",
    ),
    "position_scores": (
        lambda: position_scores(
            np.ones(4), np.ones(4), init_head(4), 10**5, method="add"
        ),
        "n_positions would give scores and rows of shape (100000, 100000), 74.5 GiB: ",
    ),
    "LearnedPositions": (
        lambda: LearnedPositions(10**7, 512),
        "max_len and d_model would give the result of shape (10000000, 512), "
        "38.1 GiB: ",
    ),
}


@pytest.mark.parametrize("case", SIZES, ids=str)
def test_too_large_results_are_refused_up_front(case):
    call, start = SIZES[case]
    tracemalloc.start()  # numpy reports its allocations to tracemalloc
    try:
        with pytest.raises(ValueError, match=f"^{re.escape(start + LIMIT)}$"):
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20  # up front: nothing near the result's size allocated


# -- attention --------------------------------------------------------------------

ATTENTION = {
    "softmax-empty": (
        lambda: softmax([]),
        ValueError,
        "scores has shape (0,), must hold at least one number.",
    ),
    "softmax-all-minus-inf": (
        lambda: softmax([-np.inf, -np.inf]),
        ValueError,
        "scores has a slice of only -inf: softmax is undefined.",
    ),
    "softmax-nan": (
        lambda: softmax([0.0, np.nan]),
        ValueError,
        "scores holds nan, must be numbers.",
    ),
    "softmax-strings": (
        lambda: softmax(["a", "b"]),
        TypeError,
        "scores == ['a', 'b'], must be an array of numbers.",
    ),
    "self_attention-no-rows": (
        lambda: self_attention(np.zeros((0, 4)), init_head(4)),
        ValueError,
        "x has shape (0, 4), must have at least one row and column.",
    ),
    "self_attention-wrong-width": (
        lambda: self_attention(np.ones((3, 6)), init_head(4)),
        ValueError,
        "x has shape (3, 6), must be 2-D: (n, 4).",
    ),
    "rope-string": (
        lambda: rope("abcd", [0]),
        TypeError,
        "x == 'abcd' (str), must be an array of numbers.",
    ),
    "rope-strings-in-rows": (
        lambda: rope([["a", "b"]], [0]),
        TypeError,
        "x == [['a', 'b']], must be an array of numbers.",
    ),
    "rope-positions-length": (
        lambda: rope(np.ones((2, 4)), [0]),
        ValueError,
        "positions has length 1, must be 2 (rows of x).",
    ),
    "rope_score-mismatched": (
        lambda: rope_score(np.ones(2), np.ones(4), 0, 1),
        ValueError,
        "q has shape (2,) and k has shape (4,), must both be (d,).",
    ),
}


@pytest.mark.parametrize("case", ATTENTION, ids=str)
def test_attention_errors_name_the_argument(case):
    call, error, message = ATTENTION[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()


def test_softmax_takes_infinite_scores_as_their_limit():
    np.testing.assert_array_equal(softmax([np.inf, 1.0]), [1.0, 0.0])
    np.testing.assert_array_equal(softmax([np.inf, 1.0, np.inf]), [0.5, 0.0, 0.5])
    np.testing.assert_array_equal(softmax([-np.inf, 0.0]), [0.0, 1.0])
    rows = softmax(np.array([[0.0, 0.0], [np.inf, -np.inf]]))
    np.testing.assert_array_equal(rows, [[0.5, 0.5], [1.0, 0.0]])
    big = softmax([1e308, -1e308])  # finite but extreme: no overflow
    np.testing.assert_array_equal(big, [1.0, 0.0])
