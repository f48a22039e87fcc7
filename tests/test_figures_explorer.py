"""posenc_lib.figures.explorer: the numbers as text, the state the browser draws,
and the check of what it drew (bad arguments: test_adversarial_figures.py)."""

import json
import math
import re

import numpy as np
import pytest
from reference import plain_loop

from posenc_lib import pos_encoding, rotation_matrix, sinusoidal_positions
from posenc_lib.figures import explorer as ex

ROW = re.compile(r"<tr><td>(.*?)</td></tr>")


def test_pair_table_shows_the_worked_trace():
    assert ROW.findall(ex.pair_table(3, 4)) == [
        "0</td><td>1</td><td>3</td><td>0.1411</td><td>-0.9900",
        "1</td><td>0.01</td><td>0.03</td><td>0.0300</td><td>0.9996",
    ]


@pytest.mark.parametrize("pos, d_model", [(0, 2), (7, 8), (50, 16)])
def test_pair_table_matches_the_formula(pos, d_model):
    rows = ROW.findall(ex.pair_table(pos, d_model))
    sin_cos = [value for row in rows for value in row.split("</td><td>")[3:]]
    assert sin_cos == [f"{value:.4f}" for value in plain_loop([pos], d_model)[0]]


def test_wide_table_lists_first_and_last_pairs_and_the_pair_in_bold():
    pairs = re.findall(r"<tr[^>]*><td>(\d+|&#8942;)</td>", ex.pair_table(5, 64))
    assert pairs == ["0", "1", "2", "3", "4", "5", "&#8942;", "30", "31"]
    bold = r'<tr style="font-weight: bold"><td>(\d+)'
    assert re.findall(bold, ex.pair_table(1, 8, pair=2)) == ["2"]


@pytest.mark.parametrize("pos, d_model, offset", [(3, 4, 0), (5, 8, 3), (0, 64, 20)])
def test_dot_line_is_the_sum_of_cosines(pos, d_model, offset):
    pairs = range(d_model // 2)
    expected = sum(math.cos(offset / 10000 ** (2 * i / d_model)) for i in pairs)
    line = ex.dot_line(pos, d_model, offset)
    assert line == f"PE[{pos}] · PE[{pos + offset}] = {expected:.4f}"


def test_describe_position_at_0_is_sin_0_cos_1_without_negative_zero():
    # the card's view of position 1 with 8 numbers: chapter 02's stored output
    assert ex.describe_position(0, 6).count("sin 0 = 0.0000, cos 0 = 1.0000") == 3
    assert "-0.0000" not in ex.describe_position(314159, 2)


@pytest.mark.parametrize(("pos", "d_model"), [(3, 4), (17, 10), (50, 64)])
def test_describe_position_numbers_are_pos_encoding(pos, d_model):
    numbers = re.findall(r"= (-?\d\.\d{4})", ex.describe_position(pos, d_model))
    np.testing.assert_allclose(
        np.array(numbers, dtype=float), pos_encoding(pos, d_model), atol=5e-5
    )
    assert ex.describe_position(pos, d_model).count(";\n") == d_model // 2 - 1


@pytest.mark.parametrize(
    ("widget", "kind", "text", "keys"),
    [
        (ex.position_explorer(pos=1, d_model=8, max_pos=30), "position",
         "PositionExplorer(pos=1, d_model=8)",
         {"pos": 1, "d_model": 8, "max_pos": 30, "max_d_model": 64}),
        (ex.PairCircleExplorer(offset=3, d_model=16, pair=1), "pair-circle",
         "PairCircleExplorer(offset=3, d_model=16)",
         {"max_offset": 15, "pair": 1, "n_positions": 16, "starts": [0, 5],
          "max_pos": 20}),  # rows up to max(starts) + max_offset
        (ex.Explorer(pos=3, d_model=8, offset=2, pair=1, max_pos=10, max_offset=5),
         "lecture", "Explorer(pos=3, d_model=8, offset=2, pair=1)",
         {"pos": 3, "d_model": 8, "max_pos": 10, "max_d_model": 64, "max_offset": 5,
          "pair": 1}),
    ],
    ids=["position", "pair-circle", "lecture"],
)  # fmt: skip
def test_each_page_draws_from_the_sliders_alone(widget, kind, text, keys):
    state = widget.static_state()
    assert (state["kind"], repr(widget)) == (kind, text)
    assert {key: state[key] for key in keys} == keys and len(state["cmap"]) == 64
    assert not {"drawn", "problem"} & set(state), "a page's report stays live"
    assert not any(isinstance(v, dict) for v in state.values()), "no tables sent"
    fragment = ex.static_html(widget)
    assert fragment.startswith(f'<div class="posenc-static" data-kind="{kind}">')
    assert json.dumps(state, separators=(",", ":")) in fragment


def test_the_lecture_explorers_numbers_follow_its_sliders():
    app = ex.Explorer(pos=3, d_model=8, offset=2, pair=1, max_pos=10, max_offset=5)
    app.pos, app.offset, app.d_model = 7, 5, 12
    line = ex.dot_line(7, 12, 5)
    assert app.numbers.value == f"{line}\n= Σᵢ cos(Δ·ωᵢ) = {line[-6:]}"
    app = ex.Explorer(pos=1, d_model=16, offset=1, pair=7)
    app.sliders["d"].value = 4  # narrowing d_model clamps the pair
    assert (app.pos, app.d_model, app.offset, app.pair) == (1, 4, 1, 1)
    app = ex.explorer()
    bundle, _ = app._repr_mimebundle_()  # displays as its widget
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == app.model_id
    assert bundle["text/plain"] == "Explorer(pos=1, d_model=8, offset=2, pair=0)"


@pytest.fixture
def position():
    return ex.PositionExplorer(pos=1, d_model=8, max_pos=30)


@pytest.mark.parametrize(("pos", "d_model"), [(1, 8), (12, 4), (30, 64)])
def test_drawn_row_is_the_pages_report_once_it_drew_these_values(
    position, pos, d_model
):
    position.pos, position.d_model = pos, d_model  # what the sliders do
    np.testing.assert_allclose(
        position.drawn_row(), pos_encoding(pos, d_model), rtol=0, atol=5e-5
    )
    row = sinusoidal_positions([pos], d_model)[0] + 1e-13  # the browser's numbers
    position.drawn = {"pos": pos, "d_model": d_model, "row": row.tolist()}
    assert position.problem == ""
    np.testing.assert_array_equal(position.drawn_row(), row.round(4))


def test_a_row_drawn_wrong_is_reported_on_the_page(position):
    row = sinusoidal_positions([3], 8)[0]
    row[5] += 2e-12
    position.drawn = {"pos": 3, "d_model": 8, "row": row.tolist()}
    assert position.problem == (
        "PE[3] drawn for d_model = 8 is 2.0e-12 off sinusoidal_positions "
        "(more than 1e-12)."
    )
    position.pos, position.d_model = 3, 10  # not what the page drew: the formula's
    np.testing.assert_allclose(position.drawn_row(), pos_encoding(3, 10), atol=5e-5)


@pytest.mark.parametrize("offset", [0, 1, 7, 15])
def test_pair_circle_arrows_join_pe_of_p_and_p_plus_offset(offset):
    circle = ex.PairCircleExplorer(offset=3, d_model=16, pair=1)
    circle.offset = offset
    starts, ends = circle.arrow_points().transpose(1, 0, 2)  # (2, n_starts, 2)
    table = sinusoidal_positions(range(40), 16)  # (40, 16)
    np.testing.assert_allclose(starts, table[[0, 5], 2:4], rtol=0, atol=5e-5)
    np.testing.assert_allclose(ends, table[[offset, 5 + offset], 2:4], atol=5e-5)
    rotated = table[[0, 5], 2:4] @ rotation_matrix(offset, 16)[2:4, 2:4].T
    np.testing.assert_allclose(ends, rotated, rtol=0, atol=5e-5)


def test_the_page_carries_the_module_and_draws_every_label_in_the_glossary():
    assets = ex.page_assets()
    assert "widthTable" in assets and "</script>" not in assets[:-20]
    module = (ex.STATIC / "explorer.js").read_text(encoding="utf-8")
    for label in ('d_model: "d_model"', 'offset: "Δ"', "column k", "Σᵢ cos(Δ·ωᵢ)"):
        assert label in module, label
    assert 'role: "img"' in module and "aria-label" in module
