"""The lecture explorer (notebooks/explorer.ipynb) driven in JupyterLab."""

import re

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

from posenc_lib.figures.explorer import ExplorerFigure, dot_line, pair_table

pytestmark = pytest.mark.browser

APP = ".posenc-lecture"
NUMBERS = f"{APP} .posenc-lecture-numbers"
FIGURE = f"{APP} img.posenc-lecture-figure"


def expected_text(pos, d, offset, pair):
    """Texts the numbers panel must show for these values (HTML tags dropped)."""
    html = [dot_line(pos, d, offset), pair_table(pos, d, pair=pair)]
    return [re.sub(r"<[^>]+>", "", s).replace("&#8942;", "\u22ee") for s in html]


def test_explorer_in_jupyterlab(lab_server, page, tmp_path, latency_report):
    open_notebook(page, lab_server, "explorer.ipynb")
    run_all(page)
    assert error_outputs(page) == []
    app = page.locator(APP).first
    sliders = {
        n: app.locator(f".posenc-lecture-{n}") for n in ("pos", "d", "offset", "pair")
    }
    values = {n: readout(page, s) for n, s in sliders.items()}
    n_rows = slider_max(sliders["pos"]) + slider_max(sliders["offset"]) + 1

    def check(name, action, **new):
        values.update(new)
        watch = (NUMBERS, expected_text(**values), FIGURE)
        return step(page, action, watch)

    image_ms = []
    for _ in range(20):
        image_ms.append(
            check("pos", press(sliders["pos"], "ArrowRight"), pos=values["pos"] + 1)[1]
        )
    latency_report(summary("JupyterLab explorer.ipynb, pos key steps", image_ms))
    v = (values["pos"], values["d"], values["offset"], values["pair"])
    assert image_bytes(page, FIGURE) == ExplorerFigure(n_rows).update(*v).png()
    check("d typed", type_into(sliders["d"], 12), d=12)
    check("d key", press(sliders["d"], "ArrowRight"), d=14)
    check("Δ key", press(sliders["offset"], "ArrowRight"), offset=values["offset"] + 1)
    check("pair key", press(sliders["pair"], "ArrowRight"), pair=values["pair"] + 1)
    v = (values["pos"], values["d"], values["offset"], values["pair"])
    assert image_bytes(page, FIGURE) == ExplorerFigure(n_rows).update(*v).png()
    # A wider d_model, then End on the pair slider: the new last pair, 15.
    check("d typed", type_into(sliders["d"], 32), d=32)
    check("pair End", press(sliders["pair"], "End"), pair=15)
    assert readout(page, sliders["pair"]) == 15
    assert error_outputs(page) == []
    page.screenshot(path=str(tmp_path / "explorer-lab.png"), full_page=True)
    for size in LAB_SIZES:  # the file browser stays open beside the notebook
        page.set_viewport_size(size)
        assert_fits(page, APP, within=".jp-NotebookPanel", name=f"lab {size}")
        page.screenshot(path=str(tmp_path / f"explorer-lab-{size['width']}.png"))
    print(f"screenshots: {tmp_path}")
