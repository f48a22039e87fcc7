"""The slider widgets of chapters 02 and 03: their text and the state they draw."""

import re

import numpy as np
import pytest

from posenc_lib import (
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
)
from posenc_lib.figures.explorer import (
    PairCircleExplorer,
    PositionExplorer,
    describe_position,
    position_explorer,
)


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
    assert repr(explorer) == "PositionExplorer(pos=1, d_model=8)"
    state = explorer.static_state()
    assert {"pos", "d_model", "max_pos", "max_d_model", "cmap"} <= set(state)
    assert not {"drawn", "problem"} & set(state), "a page's report stays live"


@pytest.mark.parametrize(("pos", "d_model"), [(1, 8), (12, 4), (30, 64)])
def test_drawn_row_is_the_pages_report_once_it_drew_these_values(
    explorer, pos, d_model
):
    explorer.pos, explorer.d_model = pos, d_model  # what the sliders do
    np.testing.assert_allclose(
        explorer.drawn_row(), pos_encoding(pos, d_model), rtol=0, atol=5e-5
    )
    row = sinusoidal_positions([pos], d_model)[0] + 1e-13  # the browser's numbers
    explorer.drawn = {"pos": pos, "d_model": d_model, "row": row.tolist()}
    assert explorer.problem == ""
    np.testing.assert_array_equal(explorer.drawn_row(), row.round(4))


def test_a_row_drawn_wrong_is_reported_on_the_page(explorer):
    row = sinusoidal_positions([3], 8)[0]
    row[5] += 2e-12
    explorer.drawn = {"pos": 3, "d_model": 8, "row": row.tolist()}
    assert explorer.problem == (
        "PE[3] drawn for d_model = 8 is 2.0e-12 off sinusoidal_positions "
        "(more than 1e-12)."
    )
    explorer.pos = 3
    explorer.d_model = 10  # not what the page drew: the formula's numbers
    np.testing.assert_allclose(explorer.drawn_row(), pos_encoding(3, 10), atol=5e-5)


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
    assert circle.max_pos == 20, "rows up to max(starts) + max_offset"
    assert repr(circle) == "PairCircleExplorer(offset=3, d_model=16)"


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
