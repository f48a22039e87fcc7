"""posenc_lib.figures.explorer: the numbers, the state the browser draws, errors."""

import math
import re

import pytest
from reference import plain_loop

from posenc_lib.figures.explorer import (
    STATIC,
    Explorer,
    dot_line,
    explorer,
    page_assets,
    pair_table,
    static_html,
)


def test_pair_table_shows_the_worked_trace():
    table = pair_table(3, 4)
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", table)
    assert rows == [
        "0</td><td>1</td><td>3</td><td>0.1411</td><td>-0.9900",
        "1</td><td>0.01</td><td>0.03</td><td>0.0300</td><td>0.9996",
    ]


@pytest.mark.parametrize("pos, d_model", [(0, 2), (7, 8), (50, 16)])
def test_pair_table_matches_the_formula(pos, d_model):
    reference = plain_loop([pos], d_model)[0]
    rows = re.findall(r"<tr><td>(.*?)</td></tr>", pair_table(pos, d_model))
    sin_cos = [value for row in rows for value in row.split("</td><td>")[3:]]
    assert sin_cos == [f"{value:.4f}" for value in reference]


def test_wide_table_lists_first_and_last_pairs():
    table = pair_table(5, 64)
    pairs = re.findall(r"<tr[^>]*><td>(\d+|&#8942;)</td>", table)
    assert pairs == ["0", "1", "2", "3", "4", "5", "&#8942;", "30", "31"]


def test_highlighted_pair_is_bold():
    bold = re.findall(
        r'<tr style="font-weight: bold"><td>(\d+)', pair_table(1, 8, pair=2)
    )
    assert bold == ["2"]


@pytest.mark.parametrize("pos, d_model, offset", [(3, 4, 0), (5, 8, 3), (0, 64, 20)])
def test_dot_line_is_the_sum_of_cosines(pos, d_model, offset):
    expected = sum(
        math.cos(offset / 10000 ** (2 * i / d_model)) for i in range(d_model // 2)
    )
    line = dot_line(pos, d_model, offset)
    assert line == f"PE[{pos}] · PE[{pos + offset}] = {expected:.4f}"


def test_every_step_is_drawn_by_the_page_from_the_sliders_alone():
    app = Explorer(pos=3, d_model=8, offset=2, pair=1, max_pos=10, max_offset=5)
    state = app.static_state()
    assert state["kind"] == "lecture" and (state["pos"], state["d_model"]) == (3, 8)
    assert {"max_pos", "max_d_model", "max_offset", "pair", "cmap"} <= set(state)
    assert not any(isinstance(v, dict) for v in state.values()), "no tables sent"
    app.pos, app.offset, app.d_model = 7, 5, 12
    assert app.numbers.value == (
        f"{dot_line(7, 12, 5)}\n= Σᵢ cos(Δ·ωᵢ) = {dot_line(7, 12, 5)[-6:]}"
    )


def test_a_static_page_carries_the_module_and_the_state():
    fragment = static_html(Explorer(pos=3))
    assert fragment.startswith('<div class="posenc-static" data-kind="lecture">')
    assert '"pos":3' in fragment and "</script></div>" in fragment
    assets = page_assets()
    assert "widthTable" in assets and "</script>" not in assets[:-20]
    with pytest.raises(TypeError, match="widget == 3"):
        static_html(3)


def test_narrowing_d_clamps_the_pair():
    app = Explorer(pos=1, d_model=16, offset=1, pair=7)
    app.sliders["d"].value = 4
    assert app.values() == (1, 4, 1, 1)


def test_explorer_displays_as_its_widget():
    app = explorer()
    bundle, _ = app._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == app.model_id
    assert bundle["text/plain"] == "Explorer(pos=1, d_model=8, offset=2, pair=0)"


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"d_model": 7}, ValueError, "d_model == 7, must be an even integer >= 2."),
        (
            {"pos": 51},
            ValueError,
            "pos == 51, must be in [0, 51), i.e. 0 <= pos < max_pos + 1.",
        ),
        (
            {"offset": 2.0},
            TypeError,
            "offset == 2.0 (float), must be an integer in [0, 21).",
        ),
        (
            {"d_model": 8, "pair": 4},
            ValueError,
            "pair == 4, must be in [0, 4), i.e. 0 <= pair < d_model // 2.",
        ),
        (
            {"d_model": 66},
            ValueError,
            "d_model == 66, must be an even integer in [2, 64] (max_d_model == 64).",
        ),
        (
            {"max_pos": 0},
            ValueError,
            "max_pos == 0, must be an integer >= 1.",
        ),
    ],
    ids=["odd-d", "pos-too-big", "float-offset", "pair-too-big", "d-too-big", "max"],
)
def test_bad_arguments_are_named(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        Explorer(**kwargs)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: pair_table(1, 8, pair=4),
            "pair == 4, must be in [0, 4), i.e. 0 <= pair < d_model // 2.",
        ),
    ],
    ids=["pair-past-the-width"],
)
def test_bad_arguments_of_the_tables_and_titles_are_named(call, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


def test_dot_line_rejects_negative_offset():
    with pytest.raises(
        ValueError, match=re.escape("offset == -1, must be an integer >= 0.")
    ):
        dot_line(3, 4, -1)


def test_the_module_draws_every_label_in_the_glossary():
    module = (STATIC / "explorer.js").read_text(encoding="utf-8")
    for label in ('d_model: "d_model"', 'offset: "Δ"', "column k", "Σᵢ cos(Δ·ωᵢ)"):
        assert label in module, label
    assert 'role: "img"' in module and "aria-label" in module
