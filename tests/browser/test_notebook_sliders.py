"""The sliders of chapters 02 and 03 in JupyterLab, used as a learner uses them."""

import re
from pathlib import Path

import matplotlib
import nbformat
import pytest
from pages import (
    LAB_SIZES,
    assert_fits,
    error_outputs,
    image_bytes,
    open_notebook,
    press,
    readout,
    run_all,
    slider_max,
    step,
    summary,
    type_into,
)

from posenc_lib.figures import setup_notebook
from posenc_lib.figures.explorer import pair_table
from posenc_lib.figures.sliders import PairCircleExplorer, PositionExplorer

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


def test_position_sliders_of_chapter_02(lab_server, page, tmp_path, latency_report):
    name = "02_sinusoidal_encoding.ipynb"
    _open_and_run(page, lab_server, name)
    app = page.locator(".posenc-explorer").first
    pos, d = app.locator(".posenc-pos"), app.locator(".posenc-d")
    values = {"pos": readout(page, pos), "d": readout(page, d)}
    text, image = ".posenc-explorer .posenc-table", ".posenc-explorer img.posenc-image"
    key = "ArrowRight" if values["pos"] + 20 <= slider_max(pos) else "ArrowLeft"

    def expect(action, **new):
        values.update(new)
        return step(page, action, (text, [_table_text(**_args(values))], image))

    latencies = [
        expect(press(pos, key), pos=values["pos"] + (1 if key == "ArrowRight" else -1))[
            1
        ]
        for _ in range(20)
    ]
    latency_report(summary(f"JupyterLab {name}, pos key steps", latencies))
    expect(type_into(d, 12), d=12)
    expect(press(d, "ArrowRight"), d=14)
    top = page.locator(image).bounding_box()["y"]
    expect(type_into(d, 64), d=64)  # the widest table: the figure stays put
    assert page.locator(image).bounding_box()["y"] == top
    expect(type_into(d, 14), d=14)
    with matplotlib.rc_context():  # the notebook's plot defaults, for this render
        setup_notebook()
        limits = {"max_pos": slider_max(pos), "max_d_model": slider_max(d)}
        reference = PositionExplorer(values["pos"], 14, **limits).image.value
    assert image_bytes(page, image) == bytes(reference)
    assert error_outputs(page, allowed=_allowed_errors(name)) == []
    page.screenshot(path=str(tmp_path / "02.png"), full_page=True)
    page.locator(image).scroll_into_view_if_needed()
    for size in LAB_SIZES:  # the file browser stays open beside the notebook
        page.set_viewport_size(size)
        assert_fits(page, ".posenc-explorer", within=PANEL, name=str(size))
        page.screenshot(path=str(tmp_path / f"02-{size['width']}.png"))
    print(f"screenshots: {tmp_path}")


def _args(values):
    return {"pos": values["pos"], "d_model": values["d"]}


def _table_text(pos, d_model):
    """The text the table shows for ``PE[pos]`` (HTML tags dropped)."""
    return re.sub(r"<[^>]+>", "", pair_table(pos, d_model)).replace("&#8942;", "\u22ee")


def test_offset_slider_of_chapter_03(lab_server, page, tmp_path, latency_report):
    name = "03_why_sines.ipynb"
    _open_and_run(page, lab_server, name)
    widget = page.locator(".posenc-pair-circle").first
    slider = widget.locator(".posenc-offset")
    value, top = readout(page, slider), slider_max(slider)
    image = ".posenc-pair-circle img.posenc-image"
    page.locator(image).wait_for()
    latencies, sign = [], 1
    for _ in range(20):
        sign = -1 if value + sign > top else 1 if value + sign < 0 else sign
        value += sign
        key = "ArrowRight" if sign > 0 else "ArrowLeft"
        watch = (".posenc-pair-circle .widget-readout", [str(value)], image)
        latencies.append(step(page, press(slider, key), watch)[1])
        assert readout(page, slider) == value
    latency_report(summary(f"JupyterLab {name}, offset Δ key steps", latencies))
    with matplotlib.rc_context():  # the notebook's plot defaults, for this render
        setup_notebook()
        reference = PairCircleExplorer(value, max_offset=top).image.value
    assert image_bytes(page, image) == bytes(reference)
    assert error_outputs(page, allowed=_allowed_errors(name)) == []
    page.screenshot(path=str(tmp_path / "03.png"), full_page=True)
