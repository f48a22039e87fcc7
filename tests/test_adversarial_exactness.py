"""Every function that turns a position or an offset into an angle, against mpmath.

``sinusoidal_positions`` promises every value within ``BOUND = 1e-12`` of the
exact ``sin`` or ``cos`` of ``pos / divisor`` (the library's float64 divisor) at
every accepted position and base. Below ``2**12`` the formula rounds the quotient
once (at most ``2**-42``), then sin rounds (``SIN_ERROR``); elsewhere
``posenc_lib.exact`` is within ``EXACT = 1e-15``. Every other function shares the
exact angles, held here to mpmath with bounds from ``EXACT`` and the float64
rounding ``EPS`` of the operations after it. Then the refusals, and the sizes.
"""

import re
import tracemalloc
from functools import partial

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import mpmath_rows

from posenc_lib import (
    encode,
    exact,
    frequencies,
    identify_encoding,
    lookup,
    offset_similarity,
    rotation_matrix,
    similarity,
    sinusoidal_positions,
)
from posenc_lib import properties as props
from posenc_lib import word_vectors as wv
from posenc_lib.attention import (
    AttentionHead,
    LearnedPositions,
    init_head,
    permutation_gap,
    position_scores,
    rope,
    rope_score,
    self_attention,
    softmax,
)
from posenc_lib.conventions import encoding_table, tensor2tensor_base
from posenc_lib.embedding import row_cosines
from posenc_lib.exact import takes_over
from posenc_lib.lookback import evaluate, train
from posenc_lib.positional import _divisors
from posenc_lib.properties import min_distance, pair_angle_gaps

BOUND = 1e-12  # the promise of sinusoidal_positions, at any accepted position
EXACT = 1e-15  # one sine or cosine of posenc_lib.exact against the exact angle
SIN_ERROR = 1e-15  # numpy's sin or cos (SIMD or not): a few units of 1.1e-16
EPS = 2.0**-52  # float64 rounding of one further operation on numbers up to 2
LAST = 2**53 - 1  # the largest accepted position, and |offset|

SETTINGS = settings(max_examples=60, deadline=None)
positions = st.one_of(
    st.integers(0, LAST),
    st.integers(0, 10_000),
    st.floats(0, 53).map(lambda e: min(int(2**e), LAST)),
    st.sampled_from([0, 1, 10**12 + 3, 10**15, 10**15 + 7, 2**52 + 1, LAST]),
)
offsets = st.builds(lambda p, sign: p * sign, positions, st.sampled_from([1, -1]))
bases = st.one_of(
    st.just(10000.0), st.floats(0, 100).map(lambda e: 10.0**e), st.just(1e100)
)
widths = st.integers(1, 8).map(lambda m: 2 * m)
unit = st.floats(-1, 1, allow_nan=False)


def exact_angles(value, d_model, base=10000.0):
    """mpmath angles ``value / divisor`` for every pair, the library's divisors."""
    return [
        mpmath.mpf(int(value)) / mpmath.mpf(float(w)) for w in _divisors(d_model, base)
    ]


def exact_sin_cos(value, d_model, base=10000.0):
    row = mpmath_rows([value], d_model, base)[0]  # sin, cos, sin, cos, ...
    return row[0::2], row[1::2]


# -- sinusoidal_positions: 1e-12 everywhere, by two paths ------------------------

small = st.integers(0, 2**12 - 1)


@SETTINGS
@given(st.lists(small, min_size=1, max_size=63), widths, bases)
def test_the_formula_as_written_is_within_its_rounding_below_2_12(values, d, base):
    assert not takes_over(np.array(values))  # the plain formula, not exact.py
    table = sinusoidal_positions(values, d, base=base)
    error = np.abs(table - mpmath_rows(values, d, base)).max()
    assert error <= 2.0**-42 + SIN_ERROR  # the quotient's half unit, then sin
    assert error <= BOUND


@SETTINGS
@given(st.lists(st.one_of(positions, small), min_size=1, max_size=70), widths, bases)
def test_any_positions_are_within_1e_12_over_the_whole_range(values, d, base):
    table = sinusoidal_positions(values, d, base=base)
    expected = mpmath_rows(values, d, base)
    assert np.abs(table - expected).max() <= BOUND
    large = [row for row, value in enumerate(values) if value >= 2**12]
    if takes_over(np.array(values)):  # exact.py: as exact as rotation_matrix
        assert np.abs(table[large] - expected[large]).max(initial=0) <= EXACT


@SETTINGS
@given(positions, st.integers(1, 5000), widths, bases)
def test_any_run_is_within_1e_12_over_the_whole_range(start, n, d, base):
    start = min(start, LAST + 1 - n)
    table = sinusoidal_positions(range(start, start + n), d, base=base)  # (n, d)
    rows = sorted({0, n // 3, n // 2, n - 2, n - 1} & set(range(n)))  # a sample
    expected = mpmath_rows([start + row for row in rows], d, base)
    exact_path = takes_over(np.arange(start, start + n))
    assert np.abs(table[rows] - expected).max() <= (EXACT if exact_path else BOUND)


@SETTINGS
@given(positions, offsets, widths)
def test_the_rotation_property_holds_at_any_position(p, offset, d):
    q = p + offset
    if not 0 <= q <= LAST:
        q, offset = p - offset, -offset
    if not 0 <= q <= LAST:
        return
    rows = sinusoidal_positions([p, q], d)  # (2, d), each entry within BOUND
    # one pair: [[c, s], [-s, c]] @ [a, b] with c, s within EXACT and a, b within
    # BOUND (c**2 + s**2 == 1): within 2 EXACT + sqrt(2) BOUND, two roundings
    # more, and PE[q] itself within BOUND
    bound = 2 * EXACT + (np.sqrt(2) + 1) * BOUND + 2 * EPS
    assert np.abs(rotation_matrix(offset, d) @ rows[0] - rows[1]).max() <= bound


# -- each function against mpmath, over the whole accepted range -----------------


@SETTINGS
@given(offsets, widths, bases)
def test_rotation_matrix_is_exact(offset, d_model, base):
    matrix = rotation_matrix(offset, d_model, base=base)
    sin, cos = exact_sin_cos(offset, d_model, base)
    even = np.arange(0, d_model, 2)
    assert np.abs(matrix[even, even] - cos).max() <= EXACT
    assert np.abs(matrix[even + 1, even + 1] - cos).max() <= EXACT
    assert np.abs(matrix[even, even + 1] - sin).max() <= EXACT
    assert np.abs(matrix[even + 1, even] + sin).max() <= EXACT


@SETTINGS
@given(st.lists(positions, min_size=1, max_size=4), widths)
def test_offset_similarity_is_exact(values, d_model):
    pairs = d_model // 2
    got = offset_similarity(values, d_model)  # (m,)
    for offset, value in zip(values, got, strict=True):
        expected = exact_sin_cos(offset, d_model)[1].sum()  # pairs exact cosines
        assert abs(value - expected) <= pairs * (EXACT + pairs * EPS)


@SETTINGS
@given(positions, positions, widths)
def test_similarity_is_exact(p, q, d_model):
    pairs = d_model // 2
    expected = exact_sin_cos(abs(p - q), d_model)[1].sum()  # cos((p - q) w_i)
    bound = pairs * (4 * EXACT + pairs * EPS)  # both rows' errors, then a sum
    assert abs(similarity(p, q, d_model) - expected) <= bound


@SETTINGS
@given(positions, positions, widths)
def test_pair_angle_gaps_are_exact(p, q, d_model):
    with mpmath.workdps(60):
        turns = [a % (2 * mpmath.pi) for a in exact_angles(q - p, d_model)]
        expected = np.array([float(min(t, 2 * mpmath.pi - t)) for t in turns])
    gaps = pair_angle_gaps(p, q, d_model)
    assert np.all((gaps >= 0) & (gaps <= np.pi))
    assert np.abs(gaps - expected).max() <= 3 * EXACT  # atan2 of exact sin, cos


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 120), widths)
def test_min_distance_is_exact(n_positions, d_model):
    with mpmath.workdps(40):
        distances = []
        for offset in range(1, n_positions):
            halves = [mpmath.sin(a / 2) for a in exact_angles(offset, d_model)]
            distances.append(float(2 * mpmath.sqrt(sum(h**2 for h in halves))))
    distance, offset = min_distance(n_positions, d_model)
    assert abs(distance - min(distances)) <= d_model * (EXACT + d_model * EPS)
    assert abs(distances[offset - 1] - distance) <= d_model * (EXACT + d_model * EPS)


@SETTINGS
@given(st.lists(positions, min_size=1, max_size=3), widths, bases, st.data())
def test_rope_is_exact(values, d, base, data):
    x = np.array(
        data.draw(
            st.lists(
                st.lists(unit, min_size=d, max_size=d),
                min_size=len(values),
                max_size=len(values),
            )
        )
    )
    got = rope(x, values, base=base)  # (n, d)
    for row, pos, out in zip(x, values, got, strict=True):
        sin, cos = exact_sin_cos(pos, d, base)
        px, py = row[0::2], row[1::2]
        bound = (np.abs(px) + np.abs(py)) * (EXACT + EPS) + 1e-300
        assert np.all(np.abs(out[0::2] - (px * cos - py * sin)) <= 2 * bound)
        assert np.all(np.abs(out[1::2] - (px * sin + py * cos)) <= 2 * bound)


@SETTINGS
@given(positions, positions, widths, st.data())
def test_rope_score_is_exact_and_depends_on_the_offset_only(m, n, d, data):
    vector = st.lists(unit, min_size=d, max_size=d).map(np.array)
    q, k = data.draw(vector), data.draw(vector)
    # q.Q(m)^T Q(n) k = sum over pairs of (qx kx + qy ky) cos t + (qy kx - qx ky) sin t
    sin, cos = exact_sin_cos(n - m, d)  # t = (n - m) w_i
    qx, qy, kx, ky = q[0::2], q[1::2], k[0::2], k[1::2]
    expected = np.sum((qx * kx + qy * ky) * cos + (qy * kx - qx * ky) * sin)
    bound = d * (2 * np.sqrt(2) * 2 * (EXACT + EPS) + 2 * d * EPS)
    assert abs(rope_score(q, k, m, n) - expected) <= bound


# -- the cases of the second pass ------------------------------------------------


@pytest.mark.parametrize("far", [10**12 + 3, 10**15 + 7, 2**52 + 1])
def test_far_offsets_are_exact(far):
    rows = sinusoidal_positions([3, 3 + far], 8)  # (2, 8)
    assert np.abs(rotation_matrix(far, 8) @ rows[0] - rows[1]).max() <= 1e-14
    assert abs(offset_similarity([far], 8)[0] - similarity(0, far, 8)) < 1e-14
    sin, cos = exact_sin_cos(far, 8)
    rotated = rope([[1.0, 0.0] * 4], [far])[0]  # (1, 0) turns to (cos, sin)
    assert np.abs(rotated[0::2] - cos).max() <= EXACT
    assert np.abs(rotated[1::2] - sin).max() <= EXACT
    q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.2, 1.0, 0.4])
    assert abs(rope_score(q, k, far, far + 3) - rope_score(q, k, 0, 3)) <= 1e-14


# -- refusals: no nan from finite-looking input, complex by name ------------------

HEAD, HUGE, T2T = init_head(4), np.full(4, 1e200), "tensor2tensor"
SA, PS, PG, V = self_attention, position_scores, permutation_gap, [1.0, 0.0]
OVERFLOW = "holds numbers too large for float64: the result overflowed (scale them"
REFUSED = [  # (call, error, the message's start)
    (lambda: rope([[np.inf, 0.0]], [0]), ValueError, "x[0, 0] == inf, must be a "),
    (lambda: rope_score([np.inf, 0.0], [1.0, 0.0], 0, 1), ValueError, "q[0] == inf"),
    (lambda: softmax(np.array([1j, 2.0])), TypeError, "scores has dtype complex128"),
    (lambda: softmax([1.0], axis="a"), TypeError, "axis == 'a' (str), must be an "),
    (lambda: softmax([[1.0]], axis=2), ValueError, "axis == 2, must be an integer in "),
    (lambda: SA([[1e200, -1e200]], init_head(2)), ValueError, f"x {OVERFLOW}"),
    (lambda: SA(np.eye(2), (1, 2, 3)), TypeError, "head == (1, 2, 3), must be an Att"),
    (lambda: PS(HUGE, -HUGE, HEAD, 3, method="add"), ValueError, "x_q or x_k holds"),
    (lambda: PS(HUGE, HUGE[1:], HEAD, 3, method="add"), ValueError, "x_k has shape (3"),
    (lambda: PG(3, np.eye(2), [1, 0]), TypeError, "layer == 3 (int), must be"),
    (lambda: PG(lambda x: x[:1], np.eye(2), [1, 0]), ValueError, "layer(x) has shape"),
    (lambda: rope_score(V, V, 2**53, 0), ValueError, f"m == {2**53}, must be "),
    (lambda: similarity(-(10**5000), 0, 4), ValueError, "p == -100000000000...(5001 "),
    (lambda: encoding_table(T2T, [1], 4, base=1e300), ValueError, "base == 1e+300, m"),
    (
        lambda: encoding_table(T2T, [1], 4, base=1e100),
        ValueError,
        "base == 1e+100 with d_model == 4, must be at most 1e+50: tensor2tensor's "
        "frequencies at this width are the lesson's with base ** 2, and the "
        "lesson's base must be at most 1e100.",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_refusals_name_the_argument(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()


# -- sizes: every array a function builds, refused from the arguments first -------

LIMIT = re.escape(
    "more than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES)."
)
N, WIDE = np.broadcast_to(0, (10**7,)), np.broadcast_to(1.0, (10**3,))  # no memory
ZEROS = np.broadcast_to(0, (10**5,))
BYTES = np.broadcast_to(np.int8(1), (6000, 6000))  # 34 MiB; 275 MiB as float64
LONG = np.broadcast_to(np.int8(1), (2, 2**24 + 2))  # 32 MiB; 256 MiB + as float64
WIDE_HEAD = AttentionHead(*[np.broadcast_to(0.0, (2, 2**22))] * 3)  # d_head 2**22
COPY = "would give a float64 copy of shape"
ROWS, ROW, Z = np.zeros((2, 2**14)), np.zeros((1, 2**14)), np.zeros((30_000, 2))
TALL, TOKENS = np.broadcast_to(0.0, (2**25 + 2, 1)), np.zeros((64, 12), int)
IDS = "token_ids and table would give the result of shape"
ANGLES = "positions and d_model would give the angles of shape (4000, 16384)"


def _wide_lookback():
    model = train(steps=1)[0]
    wide = np.broadcast_to(0.0, (32, 2**17))
    weights = {"w_q": wide, "w_k": wide, "w_v": wide, "w_o": wide.T[:, :16]}
    return model._replace(weights=weights)


PS_WIDE = partial(position_scores, np.ones(2), np.ones(2), WIDE_HEAD, method="add")
SIZES = [  # (call, the refusal's start, whether check_array first scans the input)
    (lambda: exact.sin_cos(N, WIDE), "positions and divisors would give sines", 0),
    (lambda: exact.sinusoidal_table(N, WIDE, np.float32), "positions and divisors", 0),
    (lambda: sinusoidal_positions(range(4000), 2**15, dtype=np.float16), ANGLES, 0),
    (lambda: frequencies(2**40), "d_model would give the frequencies of shape (5", 0),
    (lambda: props.property_report(Z), "table would give table @ ta", 0),
    (lambda: props.min_row_distance(Z), "table would give distances of", 0),
    (lambda: props.rotation_error(ROWS, 1), "table would give the rotatio", 0),
    (
        lambda: props.shift_map_error(ROWS, 1),
        "table would give the fitted matrix of shape",
        0,
    ),
    (lambda: props.pair_turns(BYTES), f"matrix {COPY} (6000, 6000)", 1),
    (lambda: props.diagonal_spread(BYTES), f"matrix {COPY} (6000, 6000)", 1),
    (lambda: lookup(ROW, ZEROS), f"{IDS} (100000, 16384)", 0),
    (lambda: encode(ROW, ZEROS), f"{IDS} (100000, 16384)", 0),
    (lambda: row_cosines(LONG, LONG), f"a {COPY} (2, 16777218)", 1),
    (lambda: softmax(BYTES), f"scores {COPY} (6000, 6000)", 1),
    (lambda: rope(BYTES, [0] * 6000), f"x {COPY} (6000, 6000)", 1),
    (lambda: rope_score(*LONG, 0, 1), "q and k would give the rotated pair of sha", 1),
    (lambda: self_attention(np.zeros((100, 2)), WIDE_HEAD), "x and head would give", 1),
    (lambda: PS_WIDE(100), "n_positions and head would give the queries of sha", 1),
    (lambda: permutation_gap(abs, TALL, [0]), "x would give x[perm] of shape (335", 1),
    (lambda: LearnedPositions(1, 2**19)([0] * 600), "positions would give the re", 0),
    (lambda: evaluate(_wide_lookback(), TOKENS), "tokens would give the queries", 1),
    (lambda: wv.train_word_vectors(ROW, [(0, 0)] * 10**5), "pairs and table", 0),
    (lambda: wv.cosine_similarity(LONG), f"vectors {COPY} (2, 16777218)", 1),
    (lambda: wv.project_2d(LONG), f"vectors {COPY} (2, 16777218)", 1),
]


@pytest.mark.parametrize(("call", "start", "scans"), SIZES)
def test_too_large_arrays_are_refused_before_they_are_built(call, start, scans):
    """Up front: nothing near the refused array's size is allocated, only (scans)
    check_array's scans of a given array below 256 MiB."""
    tracemalloc.start()  # numpy reports its allocations to tracemalloc
    try:
        with pytest.raises(ValueError, match=f"^{re.escape(start)}.*: {LIMIT}$"):
            call()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < (2**28 if scans else 2**24)


def test_tensor2tensor_base_at_its_largest_is_accepted():
    assert tensor2tensor_base(1e50, 4) == 1e100
    table = encoding_table("tensor2tensor", [0], 4, base=1e50)
    assert table.tolist() == [[0.0, 0.0, 1.0, 1.0]]


@pytest.mark.parametrize("base", [1.0, 10000.0, 1e100])
def test_identify_encoding_of_pe_0_cannot_tell_the_base(base):
    found = identify_encoding(sinusoidal_positions([0], 8, base=base))
    assert (found.convention, found.base) == ("interleaved", None)
    assert "I cannot tell the base" in found.message
    assert "every base gives the same PE[0]" in found.message
    found = identify_encoding(sinusoidal_positions([0, 1], 8, base=500.0))
    assert (found.convention, found.base) == ("interleaved", 500.0)
