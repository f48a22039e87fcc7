"""The rotation fast path of ``sinusoidal_positions`` against independent references.

Contiguous ranges of positions are computed by rotating exactly computed block
starts (``posenc_lib/_fast_table.py``). Here that result is compared with the
direct formula written out in numpy (angles as an outer product, then
``np.sin``/``np.cos``), with a plain ``math.sin`` loop, and with ``mpmath`` at 30
digits; its scratch memory is measured with ``tracemalloc``; and a spy checks
which path each kind of input takes. Nothing here is timed: see ``benchmarks/``.
"""

import math
import tracemalloc

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from posenc_lib import _fast_table, sinusoidal_positions

BASE = 10000.0


def direct_formula(positions, d_model):
    """The formula as one outer product, shape (len(positions), d_model)."""
    positions = np.asarray(positions, dtype=np.float64)  # (n,)
    divisors = BASE ** (np.arange(0, d_model, 2) / d_model)  # (d_model // 2,)
    angle = positions[:, None] / divisors  # (n, d_model // 2)
    table = np.empty((len(positions), d_model))  # (n, d_model)
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def math_loop(positions, d_model):
    """The formula one number at a time with ``math.sin``/``math.cos``."""
    return np.array(
        [
            [
                (math.sin, math.cos)[k % 2](pos / BASE ** (2 * (k // 2) / d_model))
                for k in range(d_model)
            ]
            for pos in positions
        ]
    )


def mpmath_table(positions, d_model, digits=30):
    """The exact formula (exact divisors too) at ``digits`` significant digits."""
    with mpmath.workdps(digits):
        divisors = [
            mpmath.power(BASE, mpmath.mpf(2 * pair) / d_model)
            for pair in range(d_model // 2)
        ]
        rows = [
            [
                f(mpmath.mpf(int(p)) / w)
                for w in divisors
                for f in (mpmath.sin, mpmath.cos)
            ]
            for p in positions
        ]
    return np.array(rows, dtype=np.float64)  # (n, d_model), rounded once


def tolerance(positions):
    """The issue's bound: 1e-12 below position 10,000 and 1e-10 below 1,000,000."""
    largest = max(positions)
    assert largest < 1_000_000
    return 1e-12 if largest < 10_000 else 1e-10


# --- the fast path against the direct formula ---------------------------------

CONTIGUOUS = {
    "range-4096x512": (range(4096), 512),
    "arange-from-5000": (np.arange(5000, 10_000), 64),
    "list-from-123": (list(range(123, 1123)), 32),
    "odd-n-4099": (range(1000, 5099), 6),
    "prime-n-997-width-2": (range(9000, 9997), 2),
    "smallest-fast-n-64": (range(300, 364), 16),
    "tiny-n-3": (range(7, 10), 8),
    "long-100000x16": (range(100_000), 16),
    "near-a-million": (np.arange(990_001, 1_000_000), 128),
    "wide-1024": (range(2000, 2600), 1024),
}


@pytest.mark.parametrize(
    ("positions", "d_model"), CONTIGUOUS.values(), ids=CONTIGUOUS.keys()
)
def test_fast_path_equals_direct_formula(positions, d_model):
    result = sinusoidal_positions(positions, d_model)
    assert result.shape == (len(positions), d_model)
    expected = direct_formula(positions, d_model)
    np.testing.assert_allclose(result, expected, rtol=0, atol=tolerance(positions))


def test_rows_far_past_the_first_block_are_as_accurate_as_the_first():
    n_rows = 8192
    result = sinusoidal_positions(range(n_rows), 64)
    block = _fast_table.block_rows(result, 32)
    assert block < n_rows // 4  # so there are many blocks to check
    error = np.abs(result - direct_formula(range(n_rows), 64)).max(axis=1)  # (n,)
    assert error[-block:].max() <= 1e-12
    assert error[block - 1 :: block].max() <= 1e-12  # each block's last row


@settings(max_examples=30)  # the rest from the "course" profile (conftest)
@given(
    start=st.integers(0, 9000),
    n=st.integers(1, 1000),
    d_model=st.integers(1, 40).map(lambda half: 2 * half),
)
def test_any_range_below_10000_equals_direct_formula(start, n, d_model):
    positions = range(start, min(start + n, 10_000))
    result = sinusoidal_positions(positions, d_model)
    expected = direct_formula(positions, d_model)
    np.testing.assert_allclose(result, expected, rtol=0, atol=1e-12)


def test_sample_of_rows_equals_plain_math_loop():
    table = sinusoidal_positions(range(3000, 9000), 64)  # (6000, 64)
    sample = [0, 1, 63, 64, 1000, 2999, 4321, 5998, 5999]
    expected = math_loop([3000 + row for row in sample], 64)
    np.testing.assert_allclose(table[sample], expected, rtol=0, atol=1e-12)


# --- float32 against 30 digits ------------------------------------------------


@pytest.mark.parametrize("first", [0, 10**4, 10**6, 10**8, 10**9 - 100])
def test_float32_is_within_2e_7_of_30_digits(first):
    positions = np.arange(first, first + 100)  # contiguous: the fast path
    table = sinusoidal_positions(positions, 64, dtype=np.float32)
    assert table.dtype == np.float32
    sample = [0, 1, 50, 98, 99]
    exact = mpmath_table(positions[sample], 64)
    error = np.abs(table[sample].astype(np.float64) - exact).max()
    assert error <= 2e-7


def test_float64_at_a_billion_is_limited_only_by_the_divisors():
    positions = np.arange(10**9, 10**9 + 100)
    table = sinusoidal_positions(positions, 64)
    exact = mpmath_table(positions[[0, 99]], 64)
    assert np.abs(table[[0, 99]] - exact).max() <= 2e-7


# --- memory -------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "positions",
    [range(4096), np.random.default_rng(0).permutation(4096)],
    ids=["fast-path", "direct"],
)
def test_peak_scratch_memory_is_under_10_percent_of_the_output(positions, dtype):
    tracemalloc.start()
    try:
        table = sinusoidal_positions(positions, 512, dtype=dtype)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak >= table.nbytes  # tracemalloc does see numpy's arrays
    assert peak - table.nbytes <= 0.10 * table.nbytes


# --- layout="concat": the same numbers, sines first ---------------------------


def halves(table):
    """An interleaved table regrouped as [sin | cos] halves, written out here."""
    return np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "positions",
    [range(3000), range(10**9 - 100, 10**9), [5, 0, 17, 3, 3]],
    ids=["fast-path", "fast-path-at-a-billion", "direct"],
)
def test_concat_layout_is_the_interleaved_table_regrouped(positions, dtype):
    interleaved = sinusoidal_positions(positions, 64, dtype=dtype)
    concat = sinusoidal_positions(positions, 64, dtype=dtype, layout="concat")
    assert concat.dtype == dtype
    np.testing.assert_array_equal(concat, halves(interleaved))


@pytest.mark.parametrize("first", [0, 10**6, 10**9 - 100])
def test_concat_float32_is_within_2e_7_of_30_digits(first):
    positions = np.arange(first, first + 100)  # contiguous: the fast path
    table = sinusoidal_positions(positions, 64, dtype=np.float32, layout="concat")
    sample = [0, 1, 50, 98, 99]
    exact = halves(mpmath_table(positions[sample], 64))
    assert np.abs(table[sample].astype(np.float64) - exact).max() <= 2e-7


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_concat_layout_keeps_scratch_memory_under_10_percent(dtype):
    tracemalloc.start()
    try:
        table = sinusoidal_positions(range(4096), 512, dtype=dtype, layout="concat")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak - table.nbytes <= 0.10 * table.nbytes


# --- which path is taken ------------------------------------------------------


@pytest.fixture
def calls(monkeypatch):
    """Record which path computes the table: the fast one, or the formula's loop."""
    seen = []
    for name, path in (("rotated_table", "fast"), ("row_blocks", "direct")):
        original = getattr(_fast_table, name)

        def spy(*args, _path=path, _original=original):
            seen.append(_path)
            return _original(*args)

        monkeypatch.setattr(_fast_table, name, spy)
    return seen


FAST = {
    "range": range(100),
    "arange-from-7": np.arange(7, 2000),
    "list": list(range(50, 150)),
    "int32-array": np.arange(64, dtype=np.int32),
}
SLOW = {
    "shuffled": np.random.default_rng(1).permutation(500),
    "two-swapped": np.r_[0, 2, 1, 3:100],
    "reversed": range(99, -1, -1),
    "every-other": range(0, 200, 2),
    "repeated": [5] * 100,
    "only-63": range(63),
}


@pytest.mark.parametrize("positions", FAST.values(), ids=FAST.keys())
def test_contiguous_input_takes_the_fast_path(calls, positions):
    result = sinusoidal_positions(positions, 16)
    assert calls == ["fast"]
    expected = direct_formula(positions, 16)
    np.testing.assert_allclose(result, expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("positions", SLOW.values(), ids=SLOW.keys())
def test_other_input_takes_the_direct_formula(calls, positions):
    result = sinusoidal_positions(positions, 16)
    assert calls == ["direct"]
    expected = direct_formula(positions, 16)
    np.testing.assert_allclose(result, expected, rtol=0, atol=1e-12)


def test_float16_output_takes_the_direct_formula(calls):
    sinusoidal_positions(range(100), 8, dtype=np.float16)
    assert calls == ["direct"]
