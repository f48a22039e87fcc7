"""Every function that turns a position or an offset into an angle, against mpmath.

``sinusoidal_positions`` promises every value within ``BOUND = 1e-12`` of ``sin``
or ``cos`` of ``pos / divisor`` computed exactly (``divisor`` the float64 value
the library uses), at every accepted position (``[0, 2**53)``) and base
(``[1, 1e100]``). Two paths keep it. Below position ``2**12`` (and under
``2**12`` rows) the formula as written: the quotient is rounded once, by at most half a
unit in its last place, ``2**-42`` (2.3e-13) for an angle below ``2**12``, and
sin and cos move by no more than their argument, then round by a few units of
1e-16 (``SIN_ERROR``). Everywhere else ``posenc_lib.exact``, which recovers the
rounding (Dekker's error-free product) and is within ``EXACT = 1e-15``.

The second adversarial pass found ``rotation_matrix``, ``offset_similarity``,
``rope`` and ``rope_score`` computing ``offset * frequency`` in float64: 1e-2 off
near ``2**53``. They share the exact angles (``positional.exact_sin_cos``), so
each is held here to mpmath at 60 digits over its whole accepted range, with a
bound derived from ``EXACT`` and the float64 rounding ``EPS`` of the few
operations after it. Then the refusals that pass also found missing.
"""

import re

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import mpmath_rows

from posenc_lib import (
    frequencies,
    identify_encoding,
    offset_similarity,
    rotation_matrix,
    similarity,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.attention import (
    init_head,
    permutation_gap,
    position_scores,
    rope,
    rope_score,
    self_attention,
    softmax,
)
from posenc_lib.conventions import encoding_table, tensor2tensor_base
from posenc_lib.exact import takes_over
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
    with mpmath.workdps(60):
        angles = exact_angles(value, d_model, base)
        sin = [float(mpmath.sin(a)) for a in angles]
        cos = [float(mpmath.cos(a)) for a in angles]
    return np.array(sin), np.array(cos)


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


# -- the cases of the second pass, each its own test ------------------------------


def test_rotation_matrix_moves_pe_3_to_pe_3_plus_offset_far_out():
    for offset in (10**15 + 7, 2**52 + 1):
        rows = sinusoidal_positions([3, 3 + offset], 8)  # (2, 8)
        assert np.abs(rotation_matrix(offset, 8) @ rows[0] - rows[1]).max() <= 1e-14


def test_offset_similarity_agrees_with_similarity_at_2_52_plus_1():
    offset = 2**52 + 1
    assert abs(offset_similarity([offset], 8)[0] - similarity(0, offset, 8)) < 1e-14


@pytest.mark.parametrize("pos", [10**12 + 3, 2**52 + 1])
def test_rope_of_a_far_position_is_exact(pos):
    sin, cos = exact_sin_cos(pos, 8)
    rotated = rope([[1.0, 0.0] * 4], [pos])[0]  # (1, 0) turns to (cos, sin)
    assert np.abs(rotated[0::2] - cos).max() <= EXACT
    assert np.abs(rotated[1::2] - sin).max() <= EXACT


def test_rope_score_far_out_equals_the_score_at_the_same_offset():
    q, k = np.array([1.0, 2.0, 0.5, -1.0]), np.array([0.3, -0.2, 1.0, 0.4])
    far = rope_score(q, k, 10**15, 10**15 + 3)
    assert abs(far - rope_score(q, k, 0, 3)) <= 1e-14


# -- refusals: no nan from finite-looking input, complex by name, sizes -----------

REFUSED = {
    "rope-of-inf": (
        lambda: rope([[np.inf, 0.0]], [0]),
        ValueError,
        "x[0, 0] == inf, must be a finite number.",
    ),
    "rope_score-of-inf": (
        lambda: rope_score([np.inf, 0.0], [1.0, 0.0], 0, 1),
        ValueError,
        "q[0] == inf, must be a finite number.",
    ),
    "softmax-of-complex": (
        lambda: softmax(np.array([1 + 1j, 2.0])),
        TypeError,
        "scores has dtype complex128, must hold real numbers (integers or floats).",
    ),
    "softmax-axis-string": (
        lambda: softmax([1.0, 2.0], axis="a"),
        TypeError,
        "axis == 'a' (str), must be an integer in [-1, 0].",
    ),
    "softmax-axis-out-of-range": (
        lambda: softmax([[1.0, 2.0]], axis=2),
        ValueError,
        "axis == 2, must be an integer in [-2, 1].",
    ),
    "self_attention-overflow": (
        lambda: self_attention([[1e200, -1e200]], init_head(2)),
        ValueError,
        "x holds numbers too large for float64: the result overflowed (scale them "
        "down).",
    ),
    "self_attention-head-tuple": (
        lambda: self_attention(np.eye(2), (1, 2, 3)),
        TypeError,
        "head == (1, 2, 3), must be an AttentionHead(w_q, w_k, w_v), e.g. from "
        "init_head.",
    ),
    "position_scores-widths": (
        lambda: position_scores(np.ones(4), np.ones(3), init_head(4), 3, method="add"),
        ValueError,
        "x_k has shape (3,), must be (4,): one embedding of width d_model, the rows "
        "of head.w_q.",
    ),
    "position_scores-overflow": (
        lambda: position_scores(
            np.full(4, 1e200), np.full(4, -1e200), init_head(4), 3, method="add"
        ),
        ValueError,
        "x_q or x_k holds numbers too large for float64: the result overflowed "
        "(scale them down).",
    ),
    "permutation_gap-layer-not-callable": (
        lambda: permutation_gap(3, np.eye(2), [1, 0]),
        TypeError,
        "layer == 3 (int), must be a function of an (n, d) array.",
    ),
    "permutation_gap-layer-drops-rows": (
        lambda: permutation_gap(lambda rows: rows[:1], np.eye(2), [1, 0]),
        ValueError,
        "layer(x) has shape (1, 2) and layer(x[perm]) (1, 2), must be one shape "
        "with 2 rows (one per row of x).",
    ),
    "rope_score-position-named-m": (
        lambda: rope_score([1.0, 0.0], [1.0, 0.0], 2**53, 0),
        ValueError,
        "m == 9007199254740992, must be a non-negative integer below "
        "9007199254740992 (2**53): float64 angles cannot tell larger positions "
        "apart.",
    ),
    "similarity-huge-negative": (
        lambda: similarity(-(10**5000), 0, 4),
        ValueError,
        "p == -100000000000...(5001 digits), must be an integer >= 0.",
    ),
    "similarity-past-2**53": (
        lambda: similarity(0, 2**53, 4),
        ValueError,
        "q == 9007199254740992, must be a non-negative integer below "
        "9007199254740992 (2**53): float64 angles cannot tell larger positions "
        "apart.",
    ),
    "d_model-10**400": (
        lambda: sinusoidal_positions([1], 10**400),
        ValueError,
        "positions and d_model would give the result of shape (1, "
        "100000000000...(401 digits)), about 1e+400 B: more than the limit of 256 "
        "MiB (posenc_lib.validation.MAX_ARRAY_BYTES).",
    ),
    "frequencies-2**40": (
        lambda: frequencies(2**40),
        ValueError,
        "d_model would give the frequencies of shape (549755813888,), 4 TiB: more "
        "than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES).",
    ),
    "frequencies-2**27": (
        lambda: frequencies(2**27),
        ValueError,
        "d_model would give the frequencies of shape (67108864,), 512 MiB: more "
        "than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES).",
    ),
    "wavelengths-2**27": (
        lambda: wavelengths(2**27),
        ValueError,
        "d_model would give the frequencies of shape (67108864,), 512 MiB: more "
        "than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES).",
    ),
    "tensor2tensor-1e300": (
        lambda: encoding_table("tensor2tensor", [1], 4, base=1e300),
        ValueError,
        "base == 1e+300, must be a number in [1, 1e100]: the exact-angle "
        "arithmetic is built for bases up to 1e100.",
    ),
    "tensor2tensor-names-the-callers-base": (
        lambda: encoding_table("tensor2tensor", [1], 4, base=1e100),
        ValueError,
        "base == 1e+100 with d_model == 4, must be at most 1e+50: tensor2tensor's "
        "frequencies at this width are the lesson's with base ** 2, and the "
        "lesson's base must be at most 1e100.",
    ),
}


@pytest.mark.parametrize("case", REFUSED, ids=str)
def test_refusals_name_the_argument(case):
    call, error, message = REFUSED[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()


def test_tensor2tensor_base_at_its_largest_is_accepted():
    assert tensor2tensor_base(1e50, 4) == 1e100
    assert encoding_table("tensor2tensor", [0], 4, base=1e50).tolist() == [
        [0.0, 0.0, 1.0, 1.0]
    ]


@pytest.mark.parametrize("base", [1.0, 10000.0, 1e100])
def test_identify_encoding_of_pe_0_cannot_tell_the_base(base):
    found = identify_encoding(sinusoidal_positions([0], 8, base=base))
    assert (found.convention, found.base) == ("interleaved", None)
    assert "I cannot tell the base" in found.message
    assert "every base gives the same PE[0]" in found.message


def test_identify_encoding_of_two_positions_still_tells_the_base():
    found = identify_encoding(sinusoidal_positions([0, 1], 8, base=500.0))
    assert (found.convention, found.base) == ("interleaved", 500.0)
