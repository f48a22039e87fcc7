"""posenc_lib.exact, the path of ``sinusoidal_positions`` from position 2**12 on
or for 2**12 rows and more: its tables against the formula as one outer product,
a plain loop and mpmath; its scratch memory (tracemalloc); which inputs it gets
(a spy). Nothing is timed (``benchmarks/``); test_adversarial_exactness.py holds
every path to mpmath over the whole accepted range.
"""

import tracemalloc

import numpy as np
import pytest
from reference import mpmath_rows
from reference import plain_loop as math_loop

from posenc_lib import exact, sinusoidal_positions

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


def tolerance(positions):
    """``direct_formula`` rounds ``pos / divisor`` by half a unit in its last place
    (9.1e-13 below 2**14, 5.8e-11 below 2**20), the library not: 1e-12, 1e-10."""
    largest = max(positions)
    assert largest < 1_000_000
    return 1e-12 if largest < 10_000 else 1e-10


CONTIGUOUS = {
    "range-4096x512": (range(4096), 512),
    "arange-from-5000": (np.arange(5000, 10_000), 64),
    "list-from-123": (list(range(123, 4300)), 32),
    "odd-n-4099": (range(1000, 5099), 6),
    "prime-n-997-width-2": (range(9000, 9997), 2),
    "smallest-fast-n-4096": (range(300, 4396), 16),
    "tiny-n-3": (range(7, 10), 8),
    "long-100000x16": (range(100_000), 16),
    "near-a-million": (np.arange(990_001, 1_000_000), 128),
    "wide-1024": (range(2000, 6100), 1024),
}


@pytest.mark.parametrize(
    ("positions", "d_model"), CONTIGUOUS.values(), ids=CONTIGUOUS.keys()
)
def test_runs_equal_the_direct_formula(positions, d_model):
    result = sinusoidal_positions(positions, d_model)
    assert result.shape == (len(positions), d_model)
    expected = direct_formula(positions, d_model)
    np.testing.assert_allclose(result, expected, rtol=0, atol=tolerance(positions))


@pytest.mark.parametrize("first", [0, 10**4, 10**6, 10**8, 10**9 - 100])
def test_float32_is_within_2e_7_of_30_digits(first):
    positions = np.arange(first, first + 100)  # a run: rotated blocks
    table = sinusoidal_positions(positions, 64, dtype=np.float32)
    assert table.dtype == np.float32
    sample = [0, 1, 50, 98, 99]
    exact = mpmath_rows(positions[sample], 64, exact_divisors=True)
    error = np.abs(table[sample].astype(np.float64) - exact).max()
    assert error <= 2e-7


@pytest.mark.parametrize("layout", ["interleaved", "concat"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "positions",
    [range(4096), np.random.default_rng(0).permutation(4096)],
    ids=["run", "shuffled"],
)
def test_peak_scratch_memory_is_under_10_percent_of_the_output(
    positions, dtype, layout
):
    tracemalloc.start()
    try:
        table = sinusoidal_positions(positions, 512, dtype=dtype, layout=layout)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak >= table.nbytes  # tracemalloc does see numpy's arrays
    assert peak - table.nbytes <= 0.10 * table.nbytes


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "positions",
    [range(4096), range(10**9 - 100, 10**9), [5, 0, 17, 3, 3]],
    ids=["run", "run-at-a-billion", "formula"],
)
def test_concat_layout_is_the_interleaved_table_regrouped(positions, dtype):
    interleaved = sinusoidal_positions(positions, 64, dtype=dtype)
    concat = sinusoidal_positions(positions, 64, dtype=dtype, layout="concat")
    assert concat.dtype == dtype
    halves = np.concatenate([interleaved[:, 0::2], interleaved[:, 1::2]], axis=1)
    np.testing.assert_array_equal(concat, halves)


@pytest.fixture
def handed_over(monkeypatch):
    """The positions ``exact.sinusoidal_table`` was given, call by call."""
    seen, original = [], exact.sinusoidal_table

    def spy(positions, divisors, dtype):
        seen.append(positions.tolist())
        return original(positions, divisors, dtype)

    monkeypatch.setattr(exact, "sinusoidal_table", spy)
    return seen


EXACT = {
    "range-4096": range(4096),
    "arange-from-7": np.arange(7, 4200),
    "shuffled-4096": np.random.default_rng(1).permutation(4096),
    "one-position-4096": [4096],
    "large-among-small": [0, 5, 900_000],
}
FORMULA = {  # every table the course draws: at most 1000 rows below 2**12
    "range-4095": range(4095),
    "1000-rows-of-chapter-07": range(1000),
    "one-position-4095": [4095],
    "shuffled-10": np.random.default_rng(1).permutation(10),
    "repeated": [5] * 4095,
}


@pytest.mark.parametrize("positions", EXACT.values(), ids=EXACT.keys())
def test_large_positions_and_many_rows_are_handed_over(handed_over, positions):
    result = sinusoidal_positions(positions, 16)
    assert handed_over == [list(positions)]
    expected = direct_formula(positions, 16)
    np.testing.assert_allclose(result, expected, rtol=0, atol=tolerance(positions))


@pytest.mark.parametrize("positions", FORMULA.values(), ids=FORMULA.keys())
def test_the_formula_itself_computes_small_short_inputs(handed_over, positions):
    result = sinusoidal_positions(positions, 16)
    assert handed_over == []
    np.testing.assert_allclose(result, math_loop(positions, 16), rtol=0, atol=1e-12)
