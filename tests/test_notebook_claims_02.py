"""Every claim of notebooks/02_sinusoidal_encoding.ipynb, asserted with the library."""

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from posenc_lib import (
    encode,
    frequencies,
    lookup,
    pos_encoding,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.attention import init_head, self_attention
from posenc_lib.figures.sliders import describe_position

NOTEBOOK = (
    Path(__file__).resolve().parent.parent
    / "notebooks"
    / "02_sinusoidal_encoding.ipynb"
)
DOG_BITES_MAN, MAN_BITES_DOG = [0, 1, 2], [2, 1, 0]


def _rows(array):
    return sorted(map(tuple, array))


def test_order_is_missing_without_positions_and_present_with_them():
    table = np.random.default_rng(0).normal(size=(3, 4)).round(2)
    assert _rows(lookup(table, [0, 1, 2])) == _rows(lookup(table, [2, 1, 0]))
    assert _rows(encode(table, [0, 1, 2])) != _rows(encode(table, [2, 1, 0]))


def _attention_outputs(with_positions):
    """The chapter's opening demo: one random head on both sentences."""
    table = np.random.default_rng(0).normal(size=(3, 4)).round(2)
    head = init_head(4, seed=0)
    pe = sinusoidal_positions(range(3), 4) if with_positions else 0.0
    return [
        self_attention(lookup(table, ids) + pe, head)
        for ids in (DOG_BITES_MAN, MAN_BITES_DOG)
    ]


def test_the_hooks_visible_lines_are_the_librarys_self_attention():
    """softmax(Q K^T / sqrt(d)) V, written out in the hook, equals self_attention."""
    table = np.random.default_rng(0).normal(size=(3, 4)).round(2)
    x = lookup(table, DOG_BITES_MAN)  # (3, d_model)
    head = init_head(4, seed=0)
    q, k, v = (x @ w for w in head)  # (3, d_model) each
    scores = q @ k.T / np.sqrt(4)  # (3, 3)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    by_hand = weights @ v  # (3, d_model)
    # the library shifts the scores by their maximum first: the same numbers up to
    # rounding (values below 1, about 1e-16 an operation; exp may differ by a few
    # ulps between CPUs), far below the 0.001 the cell prints
    np.testing.assert_allclose(by_hand, self_attention(x, head), rtol=0, atol=1e-14)
    np.testing.assert_allclose(weights.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    np.testing.assert_allclose(
        by_hand.round(3),
        [
            [-0.059, 0.176, 0.348, 0.162],
            [-0.041, 0.16, 0.328, 0.141],
            [-0.38, 0.412, 0.893, 0.766],
        ],
    )


def test_the_hook_writes_the_layer_before_its_first_prediction():
    cells = [(c["cell_type"], "".join(c["source"])) for c in _cells()]
    first_prompt = next(
        i for i, (_, s) in enumerate(cells) if s.startswith("**Predict.**")
    )
    written = [
        i
        for i, (kind, s) in enumerate(cells)
        if kind == "code" and "Q @ K.T / np.sqrt(4)" in s and "np.exp(scores)" in s
    ]
    assert written and written[0] < first_prompt
    check = _cells()[written[0] + 2]
    assert "".join(check["source"]) == (
        "np.allclose(out_dbm, self_attention(dog_bites_man, head))"
    )
    assert ["".join(o["data"]["text/plain"]) for o in check["outputs"]] == ["True"]
    prose = cells[written[0] - 1][1]
    assert r"\operatorname{softmax}(Q K^\top / \sqrt{d_{model}})\, V" in prose


def test_attention_without_positions_gives_the_same_rows_reordered():
    out_dbm, out_mbd = _attention_outputs(with_positions=False)
    reordered = out_dbm[[2, 1, 0]]
    assert np.allclose(out_mbd, reordered)
    assert np.abs(out_mbd - reordered).max() < 1e-12
    assert not np.allclose(out_dbm, out_mbd)  # reordered, not identical


def test_adding_the_encoding_breaks_the_reordering():
    out_dbm, out_mbd = _attention_outputs(with_positions=True)
    gap = np.abs(out_mbd - out_dbm[[2, 1, 0]]).max()
    assert not np.allclose(out_mbd, out_dbm[[2, 1, 0]])
    assert round(gap, 2) == 0.46  # "maxdiff: 0.46", "up to 0.46 apart"


def test_divisors_and_frequencies_for_d_model_8():
    pair = np.arange(8) // 2
    np.testing.assert_array_equal(pair, [0, 0, 1, 1, 2, 2, 3, 3])
    np.testing.assert_allclose(
        10000 ** (2 * pair / 8), [1, 1, 10, 10, 100, 100, 1e3, 1e3]
    )
    np.testing.assert_allclose(frequencies(8), [1, 0.1, 0.01, 0.001])


# The worked trace PE[3] (d = 4) and the sum with [0.5, -0.5, 1, 0] have one home
# each: tests/test_positional.py and tests/test_embedding.py.


def test_position_zero_is_0_1_0_1_for_every_even_width_up_to_512():
    for d_model in range(2, 513, 2):
        expected = [0.0, 1.0] * (d_model // 2)
        np.testing.assert_array_equal(pos_encoding(0, d_model), expected)


def test_the_cards_two_examples():
    np.testing.assert_allclose(
        sinusoidal_positions([0, 1], 4),
        [[0, 1, 0, 1], [0.841471, 0.540302, 0.00999983, 0.99995]],
        rtol=0,
        atol=5e-7,
    )
    np.testing.assert_allclose(
        sinusoidal_positions([2, 0, 5], 2),
        [[0.909297, -0.416147], [0, 1], [-0.958924, 0.283662]],
        rtol=0,
        atol=5e-7,
    )


def test_column_0_changes_sign_about_every_3_rows_column_31_never():
    table = sinusoidal_positions(range(64), 32)
    signs = np.sign(table[1:])  # row 0 of a sine column is sin 0 = 0
    assert np.all(signs[:, 0] != 0)
    sign_changes = (np.diff(signs, axis=0) != 0).sum(axis=0)
    assert (sign_changes[0], sign_changes[31]) == (20, 0)
    assert round(62 / sign_changes[0], 1) == 3.1
    rows = np.flatnonzero(np.diff(signs[:, 0]))
    assert set(np.diff(rows).tolist()) == {3, 4}  # "one colour for 3 or 4 rows"
    assert round(wavelengths(32)[15]) == 35_333  # column 31 is pair 15


def test_column_0_never_changes_sign_on_consecutive_rows():
    """The old claim ("flips colour from one row to the next") is false."""
    col = np.sign(sinusoidal_positions(range(1, 64), 32)[:, 0])
    flips = np.flatnonzero(col[1:] != col[:-1])
    assert np.diff(flips).min() >= 3


def test_wavelengths_of_the_drawn_waves():
    np.testing.assert_allclose(
        wavelengths(32)[[0, 3, 6]].round(2), [6.28, 35.33, 198.69]
    )
    turns = 40 / wavelengths(32)[[0, 6]]  # over 40 positions: six turns, a fifth
    assert turns[0] == pytest.approx(6.4, abs=0.1)
    assert turns[1] == pytest.approx(0.2, abs=0.01)


def test_wavelengths_from_2pi_to_just_short_of_10000_2pi():
    lam = wavelengths(64)
    assert lam[0] == pytest.approx(2 * math.pi)
    assert round(lam[-1]) == 47_117 and lam[-1] < 10000 * 2 * math.pi
    assert round(10000 * 2 * math.pi) == 62_832
    np.testing.assert_allclose(lam[1:] / lam[:-1], 10000 ** (2 / 64))


@pytest.mark.parametrize("d_model", [2, 4, 8, 16, 32, 64, 512])
def test_longest_wavelength_is_exactly_2pi_10000_to_the_d_model_minus_2_over_d_model(
    d_model,
):
    longest = 2 * math.pi * 10000 ** ((d_model - 2) / d_model)
    assert wavelengths(d_model)[-1] == pytest.approx(longest, rel=1e-12)
    assert wavelengths(d_model)[-1] < 10000 * 2 * math.pi


def _cells():
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]


def _printed(cell):
    return "".join("".join(out.get("text", "")) for out in cell.get("outputs", []))


# "2\pi \cdot 10000^{62/64} \approx 47{,}117" and "10000 \cdot 2\pi \approx 62{,}832"
BOUND = re.compile(r"2\\pi \\cdot 10000\^\{(\d+)/(\d+)\}\s*\\approx\s*([\d{},]+)")
UPPER = re.compile(r"10000 \\cdot 2\\pi\s*\\approx\s*([\d{},]+)")


def _number(text):
    return int(text.replace("{,}", "").replace(",", ""))


def test_every_wavelength_bound_in_the_text_is_exact_and_printed_under_it():
    cells = _cells()
    found = 0
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = "".join(cell["source"])
        bounds = [
            (_number(n), 2 * math.pi * 10000 ** (int(a) / int(b)))
            for a, b, n in BOUND.findall(text)
        ]
        bounds += [(_number(n), 10000 * 2 * math.pi) for n in UPPER.findall(text)]
        if not bounds:
            continue
        after = next(c for c in cells[index + 1 :] if c["cell_type"] == "code")
        for stated, exact in bounds:
            found += 1
            assert stated == round(exact), (index, stated, exact)
            if "<details>" not in text and "**Predict.**" not in text:
                assert f"{stated:,}" in _printed(after), (index, stated)
    assert found >= 3  # the longest wavelength and 10000·2π, stated and printed


def test_tap_a_position():
    assert describe_position(1, 8).startswith(
        "pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403;\n"
        "pair 1 (frequency 0.1): sin 0.1 = 0.0998, cos 0.1 = 0.9950;\n"
        "pair 2 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 1.0000"
    )
    assert describe_position(3, 4) == (
        "pair 0 (frequency 1): sin 3 = 0.1411, cos 3 = -0.9900;\n"
        "pair 1 (frequency 0.01): sin 0.03 = 0.0300, cos 0.03 = 0.9996"
    )
