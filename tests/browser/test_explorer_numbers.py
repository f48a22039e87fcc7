"""explorer.js, run by Chromium for every ``d_model`` and row the lecture's sliders
reach: its ``PE`` is ``sinusoidal_positions`` within ``DRAWN_TOLERANCE``, and
every string it prints (table rows, dot product, circle titles) Python's."""

import math

import numpy as np
import pytest
from pages import expected_rows

from posenc_lib import frequencies, sinusoidal_positions
from posenc_lib.figures.explorer import (
    DRAWN_TOLERANCE,
    STATIC,
    Explorer,
    dot_line,
)

pytestmark = pytest.mark.browser
APP = Explorer()
WIDTHS = range(2, APP.max_d_model + 1, 2)  # every d_model the slider reaches
N_ROWS = APP.max_pos + APP.max_offset + 1  # every pos and pos + Δ drawn

_RUN_JS = """
async ([code, widths, nRows, maxOffset]) => {
  const url = URL.createObjectURL(new Blob([code], {type: 'text/javascript'}));
  const m = await import(url);
  return widths.map((d) => {
    const table = m.widthTable(d, nRows);
    const offsets = [...Array(maxOffset + 1).keys()];
    return {
      pe: table.pe,
      rows: table.pe.map((_, pos) => m.tableRows(table, pos).filter((r) => r)),
      sim: offsets.map((o) => m.fixed4(m.similarity(table, o))),
      circle: table.omega.map((_, i) => offsets.map((o) => m.circleTitle(table, i, o))),
    };
  });
}
"""


def _circle_title(pair, offset, omega):
    """The circle's title: ``Δ·ω``, and past a whole turn, turns plus the rest."""
    angle = offset * omega
    turns = int(angle // (2 * math.pi))
    lines = [f"pair {pair}: Δ·ω = {angle:.3g} rad"]
    if turns:
        unit = "turn" if turns == 1 else "turns"
        lines.append(f"= {turns} {unit} + {angle - 2 * math.pi * turns:.3g} rad")
    return lines


@pytest.fixture(scope="module")
def computed(browser):
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><title>numbers</title>")
        code = (STATIC / "explorer.js").read_text(encoding="utf-8")
        args = [code, list(WIDTHS), N_ROWS, APP.max_offset]
        return dict(zip(WIDTHS, page.evaluate(_RUN_JS, args), strict=True))
    finally:
        page.close()


def test_the_browser_computes_sinusoidal_positions_for_every_width(computed):
    worst = 0.0
    for d_model, numbers in computed.items():
        expected = sinusoidal_positions(range(N_ROWS), d_model)  # (71, d_model)
        error = np.max(np.abs(np.array(numbers["pe"]) - expected))
        assert error <= DRAWN_TOLERANCE, (d_model, error)
        worst = max(worst, error)
    print(f"largest |browser - sinusoidal_positions|: {worst:.2e}")


def test_the_browser_prints_the_numbers_as_python_does(computed):
    for d_model, numbers in computed.items():
        for pos in range(N_ROWS):
            assert numbers["rows"][pos] == expected_rows(pos, d_model), (d_model, pos)
        dots = [dot_line(0, d_model, o).rsplit(" = ", 1)[1] for o in range(21)]
        assert numbers["sim"] == dots, d_model
        for pair, omega in enumerate(frequencies(d_model)):
            titles = [_circle_title(pair, o, omega) for o in range(21)]
            assert numbers["circle"][pair] == titles, (d_model, pair)
