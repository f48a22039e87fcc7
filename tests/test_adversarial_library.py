"""Adversarial inputs to the library: no silent wrong answer, no raw numpy error.

Each case here was once accepted with a wrong result or ended in numpy's own
(or Python's) message. Over the accepted range (positions in ``[0, 2**53)``,
``base`` in ``[1, 1e100]``) both of ``posenc_lib.exact``'s ways (exact angles row
by row, rotated blocks for a run) are within ``EXACT = 1e-15`` of ``sin`` / ``cos``
of ``pos / divisor`` computed exactly (``divisor`` the float64 value of ``base **
(2 * pair / d)``), and within ``1e-15 + 3e-16 * pos`` of the formula in exact
arithmetic (the divisor's rounding moves the angle by about ``pos * 1e-16``). The
formula as written, below position 2**12: test_adversarial_exactness.py.
"""

import math
import tracemalloc

import numpy as np
import pytest
from reference import mpmath_rows, refused

from posenc_lib import (  # noqa: F401 - the calls of the tables below use them
    frequencies,
    identify_encoding,
    lookup,
    offset_similarity,
    one_hot,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.attention import (  # noqa: F401
    LearnedPositions,
    init_head,
    permutation_gap,
    position_scores,
    rope,
    rope_score,
    self_attention,
    softmax,
)
from posenc_lib.formatting import format_numbers  # noqa: F401
from posenc_lib.mistakes import MISTAKES, POS_ENCODING_MISTAKES, Mistake  # noqa: F401
from posenc_lib.properties import (  # noqa: F401
    diagonal_spread,
    min_distance,
    min_row_distance,
    property_report,
    rotation_error,
    shift_map_error,
    table_of,
)
from posenc_lib.validation import check_permutation  # noqa: F401
from posenc_lib.word_vectors import cosine_similarity, project_2d  # noqa: F401

EXACT = 1e-15  # against sin(pos / float64 divisor), computed exactly
PER_POSITION = 3e-16  # against the exact formula: the divisor's rounding
LAST = 2**53 - 1  # the largest accepted position
TOO_FAR = "(2**53): float64 angles cannot tell larger positions apart."
RNG = np.random.default_rng(13)


def _sample_positions(count):
    """Positions spread log-uniformly over the whole accepted range, ends included."""
    exponents = RNG.uniform(0, math.log2(LAST - 200), size=count)
    return sorted({0, 1, LAST - 100, *(int(2**e) for e in exponents)})


SETTINGS = [(2, 10000.0), (8, 10000.0), (64, 10000.0), (1000, 10000.0), (16, 1.0)]
SETTINGS += [(16, 10.0), (16, 1e6), (16, 1e100), (6, 10**30)]


@pytest.mark.parametrize(("d_model", "base"), SETTINGS, ids=str)
def test_rows_are_exact_over_the_whole_accepted_range(d_model, base):
    positions = _sample_positions(12)  # up to 2**53 - 101: exact.py, row by row
    rows = sinusoidal_positions(positions, d_model, base=base)  # (14, d_model)
    assert np.abs(rows).max() <= 1.0
    exact = mpmath_rows(positions, d_model, base)
    assert np.abs(rows - exact).max() <= EXACT
    formula = mpmath_rows(positions, d_model, base, exact_divisors=True)
    bound = EXACT + PER_POSITION * np.array(positions, dtype=float)[:, None]
    assert np.all(np.abs(rows - formula) <= bound)


@pytest.mark.parametrize(("d_model", "base"), SETTINGS[:5], ids=str)
def test_runs_are_exact_over_the_whole_accepted_range(d_model, base):
    for start in [*_sample_positions(4), LAST - 99]:
        start = min(start, LAST - 99)
        n = 100 if start >= 2**12 else 2**12  # exact.py's rotated blocks either way
        table = sinusoidal_positions(range(start, start + n), d_model, base=base)
        sample = [0, 37, 99]
        positions = [start + k for k in sample]
        assert np.abs(table).max() <= 1.0
        exact = mpmath_rows(positions, d_model, base)
        assert np.abs(table[sample] - exact).max() <= EXACT, start


@pytest.mark.parametrize("start", [10**12, 10**15, 2**60 // 128, LAST - 99])
def test_runs_and_single_rows_agree_far_out(start):
    start = min(start, LAST - 99)
    fast = sinusoidal_positions(range(start, start + 100), 64)  # (100, 64)
    direct = np.array([pos_encoding(start + k, 64) for k in (0, 50, 99)])
    assert np.abs(fast[[0, 50, 99]] - direct).max() <= EXACT


def test_float32_table_is_within_one_float32_step_up_to_1e8():
    positions = [0, 12_345, 10**6 + 7, 10**8]
    table = sinusoidal_positions(positions, 64, dtype=np.float32)
    formula = mpmath_rows(positions, 64, exact_divisors=True)
    assert np.abs(table - formula).max() <= np.finfo(np.float32).eps


def test_neighbouring_large_positions_get_their_own_rows():
    rows = sinusoidal_positions([LAST - 1, LAST], 2)
    assert not np.allclose(rows[0], rows[1])


# -- refused, with the argument named, before anything is built -------------------

TABLE = sinusoidal_positions(range(8), 4)  # (8, 4)
WITH_NAN = np.where(np.arange(32).reshape(8, 4) == 9, np.nan, TABLE)  # [2, 1] is nan
HEAD = init_head(4)
FINITE = "must be a finite number."
NUMBERS = "must hold real numbers (integers or floats)."
BELOW_1 = "must be a number in [1, 1e100]: below 1 an angle would exceed its position."
ABOVE = "must be a number in [1, 1e100]: the exact-angle arithmetic is built for bases"
OFFSET = f"must be an integer with |offset| < {2**53} {TOO_FAR}"

REFUSED = {  # the call -> its error, as Python prints it; each was once accepted,
    # with a wrong (or nan) result, or ended in numpy's, LAPACK's or Python's error
    "pos_encoding(2**53, 4)": (
        f"ValueError: pos == {2**53}, must be a non-negative integer below {2**53} "
        + TOO_FAR
    ),
    "pos_encoding(1, 8, base=1e-300)": f"ValueError: base == 1e-300, {BELOW_1}",
    "pos_encoding(1, 1000, base=1e308)": (
        f"ValueError: base == 1e+308, {ABOVE} up to 1e100."
    ),
    "frequencies(4, base=10**400)": (
        f"ValueError: base == 100000000000...(401 digits), {ABOVE} up to 1e100."
    ),
    "wavelengths(4, base=0.5)": f"ValueError: base == 0.5, {BELOW_1}",
    "rotation_matrix(10**400, 4)": (
        f"ValueError: offset == 100000000000...(401 digits), {OFFSET}"
    ),
    "rotation_matrix(-(2**53), 4)": f"ValueError: offset == {-(2**53)}, {OFFSET}",
    "softmax([])": "ValueError: scores has shape (0,), must hold at least one number.",
    "softmax([-np.inf, -np.inf])": (
        "ValueError: scores has a slice of only -inf: softmax is undefined."
    ),
    "softmax([0.0, np.nan])": "ValueError: scores[1] == nan, must be a number.",
    "softmax(['a', 'b'])": f"TypeError: scores has dtype <U1, {NUMBERS}",
    "self_attention(np.zeros((0, 4)), HEAD)": (
        "ValueError: x has shape (0, 4), must hold at least one number."
    ),
    "self_attention(np.ones((3, 6)), HEAD)": (
        "ValueError: x has shape (3, 6), must be (n, 4)."
    ),
    "rope('abcd', [0])": f"TypeError: x has dtype <U4, {NUMBERS}",
    "rope([['a', 'b']], [0])": f"TypeError: x has dtype <U1, {NUMBERS}",
    "rope(np.ones((2, 4)), [0])": (
        "ValueError: positions has length 1, must be 2 (rows of x)."
    ),
    "rope_score(np.ones(2), np.ones(4), 0, 1)": (
        "ValueError: k has shape (4,), must be (2,), the shape of q."
    ),
    "diagonal_spread([[np.nan, 1.0], [0.0, 5.0]])": (  # was 0.0
        f"ValueError: matrix[0, 0] == nan, {FINITE}"
    ),
    "min_row_distance([[0.0, 0.0], [np.nan, 1.0], [0.0, 0.1]])": (  # row 0 with itself
        f"ValueError: table[1, 0] == nan, {FINITE}"
    ),
    "shift_map_error(np.full((10, 4), np.nan), 1)": (  # LAPACK's error
        f"ValueError: table[0, 0] == nan, {FINITE}"
    ),
    "property_report(WITH_NAN)": f"ValueError: table[2, 1] == nan, {FINITE}",
    "rotation_error(np.where(WITH_NAN != WITH_NAN, np.inf, TABLE), 1)": (
        f"ValueError: table[2, 1] == inf, {FINITE}"
    ),
    "table_of(lambda pos, d: None, 3, 4)": (  # was a (3,) table
        "TypeError: fn(0, 4) returned None, must return d_model == 4 real numbers."
    ),
    "table_of(lambda pos, d: np.full(d, 1j), 3, 4)": (  # was its real part
        "TypeError: fn(0, 4) returned array([0.+1.j, 0.+1.j, 0.+1.j, 0.+1.j]), must "
        "return d_model == 4 real numbers."
    ),
    "table_of(lambda pos, d: np.zeros(d - 1), 3, 4)": (
        "ValueError: fn(0, 4) returned shape (3,), must return d_model == 4 real "
        "numbers."
    ),
    "table_of(lambda pos, d: [0.0, 1.0, np.nan if pos else 0.0, 1.0], 3, 4)": (
        f"ValueError: fn(1, 4)[2] == nan, {FINITE}"
    ),
    "lookup(TABLE, b'\\x00\\x01')": (
        "TypeError: token_ids == b'\\x00\\x01', must be a 1-D sequence of integer "
        "token ids."
    ),
    "self_attention(WITH_NAN, HEAD)": f"ValueError: x[2, 1] == nan, {FINITE}",
    "self_attention(TABLE, HEAD._replace(w_k=HEAD.w_k * np.nan))": (
        f"ValueError: head.w_k[0, 0] == nan, {FINITE}"
    ),
    "permutation_gap(lambda x: x, WITH_NAN, range(8))": (
        f"ValueError: x[2, 1] == nan, {FINITE}"
    ),
    "permutation_gap(lambda x: x * np.nan, TABLE, range(8))": (
        f"ValueError: layer(x[perm])[0, 0] == nan, {FINITE}"
    ),
    "rope(WITH_NAN, range(8))": f"ValueError: x[2, 1] == nan, {FINITE}",
    "rope_score([1.0, np.nan], [1.0, 0.0], 0, 1)": f"ValueError: q[1] == nan, {FINITE}",
    "position_scores([1.0, np.nan, 0, 0], np.ones(4), HEAD, 3, method='add')": (
        f"ValueError: x_q[1] == nan, {FINITE}"
    ),
    "cosine_similarity([[1.0, 0.0], [0.0, 0.0]])": (  # was a row of nan
        "ValueError: vectors[1] == array([0., 0.]), must be nonzero: a zero row has "
        "no direction."
    ),
    "project_2d(WITH_NAN)": f"ValueError: vectors[2, 1] == nan, {FINITE}",
    "MISTAKES['added-to-table'](WITH_NAN, 0)": (
        f"ValueError: table[2, 1] == nan, {FINITE}"
    ),
}


@pytest.mark.parametrize("call", REFUSED)
def test_errors_name_the_argument_and_no_answer_is_silent(call):
    assert refused(call, globals()) == REFUSED[call]


LIMIT = "more than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES)."
TOO_LARGE = {  # the call -> the start of its message, then LIMIT
    "sinusoidal_positions(range(10**9), 2)": (
        "positions would give an int64 array of shape (1000000000,), 7.45 GiB: "
    ),
    "sinusoidal_positions([0], 10**30)": (
        f"positions and d_model would give the result of shape (1, {10**30}), "
        "7.11e+15 PiB: "
    ),
    "sinusoidal_positions(range(10**4), 10**4)": (
        "positions and d_model would give the result of shape (10000, 10000), 763 MiB: "
    ),
    "offset_similarity(range(10**8), 2)": (
        "offsets would give an int64 array of shape (100000000,), 763 MiB: "
    ),
    "offset_similarity(range(10**5), 10**3)": (
        "offsets and d_model would give angles of shape (100000, 500), 381 MiB: "
    ),
    "one_hot([0, 1], 10**9)": (
        "token_ids and vocab_size would give the result of shape (2, 1000000000), "
        "14.9 GiB: "
    ),
    "rotation_matrix(1, 10**5)": (
        "d_model would give the result of shape (100000, 100000), 74.5 GiB: "
    ),
    "min_distance(10**9, 2)": (
        "n_positions and d_model would give angles of shape (999999999, 1), 7.45 GiB: "
    ),
    "table_of(pos_encoding, 10**9, 4)": (
        "n_positions and d_model would give the result of shape (1000000000, 4), "
        "29.8 GiB: "
    ),
    "init_head(10**5)": (
        "d_model and d_head would give projections of shape (3, 100000, 100000), "
        "224 GiB: "
    ),
    "position_scores(np.ones(4), np.ones(4), HEAD, 10**5, method='add')": (
        "n_positions would give scores and rows of shape (100000, 100000), 74.5 GiB: "
    ),
    "LearnedPositions(10**7, 512)": (
        "max_len and d_model would give the result of shape (10000000, 512), 38.1 GiB: "
    ),
    "MISTAKES['sine-only'](0, 10**9)": (  # its loop's np.zeros(d)
        "d would give the result of shape (1000000000,), 7.45 GiB: "
    ),
    "identify_encoding(np.broadcast_to(np.int8(1), (2**13, 2**13)))": (  # rebuilt
        "table would give a float64 copy of shape (8192, 8192), 512 MiB: "
    ),
    "format_numbers(np.broadcast_to(0.0, (10**9,)))": (
        "values would give text of shape (1000000000,), 7.45 GiB: "
    ),
}
UP_FRONT = {call: start + LIMIT for call, start in TOO_LARGE.items()}
UP_FRONT["check_permutation([0, 1], size=10**12)"] = (  # was list(range(size))
    "perm == [0, 1], must be a permutation of range(1000000000000)."
)


@pytest.mark.parametrize("call", UP_FRONT)
def test_too_large_results_are_refused_up_front(call):
    tracemalloc.start()  # numpy reports its allocations to tracemalloc
    try:
        with pytest.raises(ValueError) as e:
            eval(call)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(e.value) == UP_FRONT[call]
    assert peak < 16 * 2**20  # up front: nothing near the result's size allocated


def test_identify_encoding_runs_the_mistakes_loops_on_few_entries(monkeypatch):
    widths, call = [], Mistake.__call__
    monkeypatch.setattr(
        Mistake, "__call__", lambda m, *a: widths.append(a[1]) or call(m, *a)
    )
    assert identify_encoding(np.zeros((64, 2**13))).convention is None
    assert len(widths) == 8 * len(POS_ENCODING_MISTAKES)  # 8 rows of 2**13 each: 2**16
    widths.clear()
    assert identify_encoding(np.zeros((2, 2**16))).convention is None
    assert widths == []  # past d_model == 2**15, none


# -- what is accepted at the edges --------------------------------------------------


def test_a_python_int_base_is_a_number_like_any_other():
    np.testing.assert_array_equal(
        sinusoidal_positions([0, 5], 6, base=10**30),
        sinusoidal_positions([0, 5], 6, base=1e30),
    )


def test_softmax_takes_infinite_scores_as_their_limit():
    np.testing.assert_array_equal(softmax([np.inf, 1.0]), [1.0, 0.0])
    np.testing.assert_array_equal(softmax([np.inf, 1.0, np.inf]), [0.5, 0.0, 0.5])
    np.testing.assert_array_equal(softmax([-np.inf, 0.0]), [0.0, 1.0])
    rows = softmax(np.array([[0.0, 0.0], [np.inf, -np.inf]]))
    np.testing.assert_array_equal(rows, [[0.5, 0.5], [1.0, 0.0]])
    big = softmax([1e308, -1e308])  # finite but extreme: no overflow
    np.testing.assert_array_equal(big, [1.0, 0.0])


@pytest.mark.parametrize(
    "positions", [[0, LAST], [LAST - 1, LAST], [*range(10), LAST]], ids=str
)
def test_identify_encoding_never_complains_of_positions_it_chose(positions):
    """It used to try starts that moved ``LAST`` past 2**53 and refuse them."""
    table = sinusoidal_positions(positions, 8)
    found = identify_encoding(table, positions=positions)
    assert (found.convention, found.first_position) == ("interleaved", positions[0])
    unknown = identify_encoding(np.ones((len(positions), 8)), positions=positions)
    assert unknown.convention is None and "Not a sinusoidal" in unknown.message
