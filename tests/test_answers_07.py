"""The worked answers of notebooks/answers/07_answers.ipynb, recomputed.

The peers' recipes are the independent transcriptions of ``test_conventions.py``
(float32, as the libraries compute); the answers notebook writes its own in
float64, so the tolerances below are float32's.
"""

import math

import numpy as np
import pytest
from test_conventions import diffusers, tensor2tensor, transformer_xl

from posenc_lib import frequencies, identify_encoding, sinusoidal_positions
from posenc_lib.attention import rope
from posenc_lib.conventions import permutation, tensor2tensor_base


def test_1_diffusers_defaults_are_tensor2tensor_and_stable_diffusion_cos_first():
    default = identify_encoding(diffusers(range(64), 16))
    stable = identify_encoding(
        diffusers(range(64), 16, flip_sin_to_cos=True, downscale_freq_shift=0)
    )
    assert (default.convention, default.base) == ("tensor2tensor", 10000.0)
    assert (stable.convention, stable.base) == ("cos-first", 10000.0)


def test_1_the_shift_decides_the_last_frequency():
    last = [math.exp(-math.log(10000) * 7 / (8 - shift)) for shift in (1, 0)]
    assert [float(f"{f:.4g}") for f in last] == [0.0001, 0.0003162]
    assert last[0] == pytest.approx(1e-4, rel=1e-15)  # exactly 1 / base
    assert last[1] == pytest.approx(frequencies(16)[-1], rel=1e-15)  # the lesson's


def test_2_tensor2tensor_is_the_lessons_table_with_base_13459_6():
    base = tensor2tensor_base(1e4, 64)
    assert round(base, 1) == 13459.6
    assert base == pytest.approx(1e4 ** (32 / 31))
    interleaved = tensor2tensor(100, 64)[:, permutation("concat", 64)]
    np.testing.assert_allclose(
        interleaved, sinusoidal_positions(range(100), 64, base=base), atol=5e-5
    )  # the reference computes in float32, as tensor2tensor does
    wrong_base = np.abs(interleaved - sinusoidal_positions(range(100), 64)).max()
    assert round(float(wrong_base), 2) == 1.07  # the order alone is not enough


def test_3_the_regrouping_order():
    half = np.r_[0:8:2, 1:8:2]
    assert np.argsort(half).tolist() == [0, 4, 1, 5, 2, 6, 3, 7]


def test_3_regrouping_the_projections_keeps_the_scores():
    d, rng = 8, np.random.default_rng(3)
    x = rng.normal(size=(6, d))
    w_q, w_k = rng.normal(size=(d, d)), rng.normal(size=(d, d))
    order = np.argsort(np.r_[0:d:2, 1:d:2])

    def scores(w_q, w_k, layout):
        q = rope(x @ w_q, range(6), layout=layout)
        k = rope(x @ w_k, range(6), layout=layout)
        return q @ k.T

    trained = scores(w_q, w_k, "half")
    np.testing.assert_allclose(
        scores(w_q[:, order], w_k[:, order], "interleaved"), trained, atol=1e-12
    )
    change = np.abs(scores(w_q, w_k, "interleaved") - trained).max()
    largest = np.abs(trained).max()
    assert (round(float(change), 1), round(float(largest), 1)) == (145.9, 75.2)
    assert change > largest  # "larger than the largest score itself"


def test_4_reversed_rows_are_not_recognised_without_their_positions():
    table = sinusoidal_positions(range(49, -1, -1), 16, layout="concat")
    np.testing.assert_allclose(table, transformer_xl(50, 16), atol=1e-5)
    found = identify_encoding(table)
    assert found.convention is None
    assert found.message == (
        "Not a sinusoidal encoding I recognise. The nearest candidate is the "
        "'cos-first' layout ([cos | sin] halves) with base 10000, with a largest "
        "difference of 0.888 in one entry (a match is within 0.001). If the rows "
        "are not positions 0, 1, 2, ..., pass positions=."
    )


def test_4_each_pair_turns_backwards():
    table = sinusoidal_positions(range(49, -1, -1), 16, layout="concat")
    turns = np.diff(np.unwrap(np.arctan2(table[:, 0], table[:, 8])))
    np.testing.assert_allclose(turns, -1.0, atol=1e-12)


def test_4_with_its_positions_it_is_found_again():
    for table in (
        sinusoidal_positions(range(49, -1, -1), 16, layout="concat"),
        transformer_xl(50, 16),
    ):
        found = identify_encoding(table, positions=range(49, -1, -1))
        assert (found.convention, found.first_position) == ("concat", 49)
