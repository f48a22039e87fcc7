"""The sliders of chapters 02 and 03 in JupyterLab, used as a learner uses them."""

from pathlib import Path

import nbformat
import numpy as np
import pytest
from pages import (
    LAB_SIZES,
    accessible,
    assert_fits,
    assert_sliders_and_numbers_on_screen,
    error_outputs,
    key_step,
    open_notebook,
    run_all,
    shown,
    summary,
    table_rows,
    widget_root,
)
from test_explorer_lab import expected_rows

from posenc_lib import sinusoidal_positions

pytestmark = pytest.mark.browser

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PANEL = ".jp-NotebookPanel"  # the notebook beside the open file browser


def _allowed_errors(name):
    """Indices (among code cells) of cells tagged ``raises-exception``."""
    cells = nbformat.read(NOTEBOOKS / name, as_version=4).cells
    code = [cell for cell in cells if cell.cell_type == "code"]
    return {
        i
        for i, c in enumerate(code)
        if "raises-exception" in c.metadata.get("tags", [])
    }


def _open_and_run(page, lab_server, name):
    assert (NOTEBOOKS / name).exists(), f"notebooks/{name} is missing"
    open_notebook(page, lab_server, name)
    run_all(page)
    assert error_outputs(page, allowed=_allowed_errors(name)) == []


def _arrow_steps(page, root, name, shown_after):
    """Press ArrowRight on slider ``name`` once per entry of ``shown_after`` (what
    the widget shows after that step); the time each step took to be drawn."""
    return [key_step(page, root, name, "ArrowRight", text) for text in shown_after]


def drive_position_explorer(page, root, report, host):
    """Step ``pos`` and ``d_model`` by keyboard; the table is posenc_lib's."""
    pos, d_model = map(int, shown(page, root).split(","))
    assert accessible(page, root)["sliders"] == [["pos", "pos"], ["d_model", "d_model"]]
    shown_after = [f"{pos + step},{d_model}" for step in range(1, 21)]
    times = _arrow_steps(page, root, "pos", shown_after)
    pos += 20
    report(summary(f"{host} chapter 02, pos key steps", times))
    assert table_rows(page, root) == expected_rows(pos, d_model)
    top = page.locator(f"{root} .posenc-pictures").bounding_box()["y"]
    shown_after = [f"{pos},{d_model + 2 * step}" for step in range(1, 21)]
    times = _arrow_steps(page, root, "d_model", shown_after)
    d_model += 40
    report(summary(f"{host} chapter 02, d_model key steps", times))
    assert table_rows(page, root) == expected_rows(pos, d_model)
    key_step(page, root, "d_model", "End", f"{pos},64")  # the widest table
    assert page.locator(f"{root} .posenc-pictures").bounding_box()["y"] == top
    label = accessible(page, root)["pictures"][0][1]
    assert label.startswith(f"PE[{pos}] for d_model = 64: "), label


def drive_pair_circle(page, root, report, host):
    """Step ``Δ`` both ways; the arrows' ends and the title follow."""
    offset = int(shown(page, root))
    assert accessible(page, root)["sliders"] == [["offset", "Δ"]]
    times, sign = [], 1
    for _ in range(20):
        sign = -1 if offset + sign > 15 else 1 if offset + sign < 0 else sign
        offset += sign
        key = "ArrowRight" if sign > 0 else "ArrowLeft"
        times.append(key_step(page, root, "offset", key, str(offset)))
    report(summary(f"{host} chapter 03, Δ key steps", times))
    ends = page.evaluate(
        """(root) => [...document.querySelectorAll(`${root} .posenc-arrow`)]
             .map(a => [+a.getAttribute('x2'), +a.getAttribute('y2')])""",
        root,
    )
    table = sinusoidal_positions([offset, 5 + offset], 16)[:, 2:4]  # (2, 2)
    expected = [[240 + 165 * s, 250 - 165 * c] for s, c in table]  # the SVG's circle
    np.testing.assert_allclose(ends, expected, atol=165 * 5e-5 + 1e-6)
    label = accessible(page, root)["pictures"][0][1]
    assert label.startswith(f"pair 1 of d_model = 16: Δ = {offset} "), label


def test_position_sliders_of_chapter_02(lab_server, page, tmp_path, latency_report):
    name = "02_sinusoidal_encoding.ipynb"
    _open_and_run(page, lab_server, name)
    root = widget_root(page, ".posenc-position")
    drive_position_explorer(page, root, latency_report, "JupyterLab")
    assert error_outputs(page, allowed=_allowed_errors(name)) == []
    for size in LAB_SIZES:  # the file browser stays open beside the notebook
        page.set_viewport_size(size)
        assert_fits(page, root, within=PANEL, name=str(size))
        assert_sliders_and_numbers_on_screen(page, root, within=PANEL, name=str(size))
        page.screenshot(path=str(tmp_path / f"02-{size['width']}.png"))
    print(f"screenshots: {tmp_path}")


def test_offset_slider_of_chapter_03(lab_server, page, tmp_path, latency_report):
    name = "04_why_sines.ipynb"
    _open_and_run(page, lab_server, name)
    root = widget_root(page, ".posenc-pair-circle")
    drive_pair_circle(page, root, latency_report, "JupyterLab")
    assert error_outputs(page, allowed=_allowed_errors(name)) == []
    page.locator(root).scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "03.png"))
