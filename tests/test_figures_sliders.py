"""The slider widgets of chapters 02 and 03: their text and the state they draw."""

import re

import numpy as np
import pytest

from posenc_lib import (
    frequencies,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
)
from posenc_lib.figures.browser import table_pairs
from posenc_lib.figures.explorer import pair_table
from posenc_lib.figures.sliders import (
    PairCircleExplorer,
    PositionExplorer,
    describe_position,
    position_explorer,
)
from posenc_lib.formatting import format_number


def test_describe_position_matches_the_exercise_card():
    # The card's "tap a position" view of position 1 with 8 numbers.
    assert describe_position(1, 8) == (
        "pair 0 (frequency 1): sin 1 = 0.8415, cos 1 = 0.5403;\n"
        "pair 1 (frequency 0.1): sin 0.1 = 0.0998, cos 0.1 = 0.9950;\n"
        "pair 2 (frequency 0.01): sin 0.01 = 0.0100, cos 0.01 = 1.0000;\n"
        "pair 3 (frequency 0.001): sin 0.001 = 0.0010, cos 0.001 = 1.0000"
    )


def test_describe_position_zero_is_sin_0_cos_1_without_negative_zero():
    text = describe_position(0, 6)
    assert text.count("sin 0 = 0.0000, cos 0 = 1.0000") == 3
    assert "-0.0000" not in describe_position(314159, 2)


@pytest.mark.parametrize(("pos", "d_model"), [(3, 4), (17, 10), (50, 64)])
def test_describe_position_numbers_are_pos_encoding(pos, d_model):
    numbers = re.findall(r"= (-?\d\.\d{4})", describe_position(pos, d_model))
    np.testing.assert_allclose(
        np.array(numbers, dtype=float), pos_encoding(pos, d_model), atol=5e-5
    )
    assert describe_position(pos, d_model).count(";\n") == d_model // 2 - 1


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((1, 7), ValueError, "d_model == 7, must be an even integer >= 2."),
        ((-1, 4), ValueError, "pos == -1, must be an integer >= 0."),
    ],
    ids=["odd-d", "negative-pos"],
)
def test_describe_position_errors(args, error, message):
    with pytest.raises(error, match=re.escape(message)):
        describe_position(*args)


@pytest.fixture
def explorer():
    return position_explorer(pos=1, d_model=8, max_pos=30)


def test_state_and_repr(explorer):
    assert isinstance(explorer, PositionExplorer) and explorer.kind == "position"
    assert (explorer.pos, explorer.d_model) == (1, 8)
    assert (explorer.max_pos, explorer.max_d_model) == (30, 64)
    assert len(explorer.view["pe"]) == 31, "the heatmap's rows 0 .. max_pos"
    assert repr(explorer) == "PositionExplorer(pos=1, d_model=8)"


def _table_text(pos, d_model):
    """``pair_table`` as rows of cell texts (the gap row left out)."""
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", pair_table(pos, d_model))[1:]
    cells = [re.findall(r"<td>(.*?)</td>", row) for row in rows]
    return [row for row in cells if row[0] != "&#8942;"]


def _drawn_table(explorer):
    """The pair table the page shows: ``[pair, ω, pos·ω, sin, cos]`` rows of the
    pairs it lists, from the widget's state, as the page's script reads it."""
    pos, view = explorer.pos, explorer.view
    listed = [i for i in table_pairs(explorer.d_model // 2) if i is not None]
    sin_cos = [format_number(n / 10_000) for n in view["pe"][pos]]
    return [
        [str(i), view["freq"][i], angle, sin_cos[2 * i], sin_cos[2 * i + 1]]
        for i, angle in zip(listed, view["angle"][pos], strict=True)
    ]


@pytest.mark.parametrize(("pos", "d_model"), [(1, 8), (12, 8), (12, 4), (30, 64)])
def test_what_the_page_draws_is_pos_encoding_and_the_pair_table(explorer, pos, d_model):
    explorer.pos, explorer.d_model = pos, d_model  # what the sliders do
    np.testing.assert_allclose(
        explorer.drawn_row(), pos_encoding(pos, d_model), rtol=0, atol=5e-5
    )
    assert _drawn_table(explorer) == _table_text(pos, d_model)


def test_a_pos_step_keeps_the_table_and_a_d_model_step_replaces_it(explorer):
    view = explorer.view
    explorer.pos = 12
    assert explorer.view is view
    explorer.d_model = 16
    assert explorer.view["d_model"] == 16 and len(explorer.view["pe"][0]) == 16


def test_invalid_start_values_raise():
    with pytest.raises(ValueError, match=re.escape("d_model == 5")):
        position_explorer(d_model=5)
    with pytest.raises(ValueError, match=re.escape("pos == 51, must be in [0, 51)")):
        position_explorer(pos=51)


# The pair circle explorer of chapter 03.


@pytest.fixture
def circle():
    return PairCircleExplorer(offset=3, d_model=16, pair=1)


def test_pair_circle_state(circle):
    assert (circle.kind, circle.offset, circle.max_offset) == ("pair-circle", 3, 15)
    assert (circle.pair, circle.n_positions, circle.starts) == (1, 16, [0, 5])
    assert len(circle.view["pe"]) == 21, "rows up to max(starts) + max_offset"
    assert repr(circle) == "PairCircleExplorer(offset=3, d_model=16)"
    assert circle.static_state()["views"] == {}, "one width: the view is enough"


@pytest.mark.parametrize("offset", [0, 1, 7, 15])
def test_pair_circle_arrows_join_pe_of_p_and_p_plus_offset(circle, offset):
    circle.offset = offset
    starts, ends = circle.arrow_points().transpose(1, 0, 2)  # (2, n_starts, 2)
    table = sinusoidal_positions(range(40), 16)  # (40, 16)
    np.testing.assert_allclose(starts, table[[0, 5], 2:4], rtol=0, atol=5e-5)
    np.testing.assert_allclose(
        ends, table[[offset, 5 + offset], 2:4], rtol=0, atol=5e-5
    )
    rotated = table[[0, 5], 2:4] @ rotation_matrix(offset, 16)[2:4, 2:4].T
    np.testing.assert_allclose(ends, rotated, rtol=0, atol=5e-5)
    turn = f"{offset * frequencies(16)[1]:.3f} rad"
    assert circle.view["shift"][offset][1].endswith(turn)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"offset": 16}, "offset == 16, must be in [0, 16)"),
        ({"pair": 8}, "pair == 8, must be in [0, 8), i.e. 0 <= pair < d_model // 2."),
        ({"d_model": 5}, "d_model == 5, must be an even integer >= 2."),
    ],
    ids=["offset-past-max", "pair-past-width", "odd-d"],
)
def test_pair_circle_invalid_values_raise(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        PairCircleExplorer(**kwargs)
