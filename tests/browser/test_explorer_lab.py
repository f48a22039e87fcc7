"""The lecture explorer (notebooks/explorer.ipynb) driven in JupyterLab."""

import pytest
from pages import (
    LAB_SIZES,
    accessible,
    assert_fits,
    assert_sliders_and_numbers_on_screen,
    error_outputs,
    escape_hands_back_the_keys,
    key_step,
    open_notebook,
    run_all,
    shown,
    summary,
    table_rows,
    widget_root,
)

from posenc_lib.figures.explorer import dot_line, pair_table

pytestmark = pytest.mark.browser

APP = ".posenc-lecture"
GLOSSARY = [["pos", "pos"], ["d_model", "d_model"], ["offset", "Δ"], ["pair", "pair"]]


def expected_rows(pos, d_model):
    """``pair_table(pos, d_model)`` as rows of cell texts (no gap row)."""
    import re

    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", pair_table(pos, d_model))[1:]
    cells = [re.findall(r"<td>(.*?)</td>", row) for row in rows]
    return [row for row in cells if len(row) == 5]


def check_numbers(page, root, pos, d_model, offset):
    """The table and the dot product line are posenc_lib's, to 4 decimals."""
    assert table_rows(page, root) == expected_rows(pos, d_model)
    dot = page.inner_text(f"{root} .posenc-dot").replace("\u2212", "-")
    assert dot.startswith(dot_line(pos, d_model, offset)), dot


def drive_explorer(page, root, report, host):
    """Step every slider by keyboard; check the numbers; report the latencies."""
    pos, d_model, offset, pair = map(int, shown(page, root).split(","))
    a11y = accessible(page, root)
    assert a11y["sliders"] == GLOSSARY
    assert [role for role, _ in a11y["pictures"]] == ["img"] * 3
    assert a11y["pictures"][0][1].startswith(f"PE[{pos}] for d_model = {d_model}: ")

    times = {"pos": [], "d_model": [], "offset": [], "pair": []}

    def steps(name, key, n, change):
        nonlocal pos, d_model, offset, pair
        for _ in range(n):
            pos, d_model, offset, pair = change(pos, d_model, offset, pair)
            expected = f"{pos},{d_model},{offset},{pair}"
            times[name].append(key_step(page, root, name, key, expected))
        check_numbers(page, root, pos, d_model, offset)

    steps("pos", "ArrowRight", 20, lambda p, d, o, i: (p + 1, d, o, i))
    steps("offset", "ArrowRight", 10, lambda p, d, o, i: (p, d, o + 1, i))
    steps("offset", "ArrowLeft", 10, lambda p, d, o, i: (p, d, o - 1, i))
    steps("d_model", "ArrowRight", 20, lambda p, d, o, i: (p, d + 2, o, i))
    label = accessible(page, root)["pictures"][0][1]
    assert label.startswith(f"PE[{pos}] for d_model = {d_model}: "), label
    steps("pair", "ArrowRight", 20, lambda p, d, o, i: (p, d, o, i + 1))
    steps("pair", "End", 1, lambda p, d, o, i: (p, d, o, d // 2 - 1))
    steps("d_model", "Home", 1, lambda p, d, o, i: (p, 2, o, 0))  # pair clamped
    for name, measured in times.items():
        report(summary(f"{host} explorer, {name} key steps", measured))
    assert escape_hands_back_the_keys(page, root, "d_model"), host
    return pos, d_model, offset, pair


def at_each_d_model_extreme(page, root):
    """Set ``d_model`` to 2, then 64 (``pos`` 1: the longest table strings);
    yield each."""
    pos, d_model, offset, pair = map(int, shown(page, root).split(","))
    for key, d_model in (("Home", 2), ("End", 64)):
        pair = min(pair, d_model // 2 - 1)
        key_step(page, root, "d_model", key, f"{pos},{d_model},{offset},{pair}")
        if pos != 1:
            pos = 1
            key_step(page, root, "pos", "Home", f"0,{d_model},{offset},{pair}")
            key_step(page, root, "pos", "ArrowRight", f"1,{d_model},{offset},{pair}")
        yield d_model


def test_explorer_in_jupyterlab(lab_server, page, tmp_path, latency_report):
    open_notebook(page, lab_server, "explorer.ipynb")
    run_all(page)
    assert error_outputs(page) == []
    root = widget_root(page, APP)
    drive_explorer(page, root, latency_report, "JupyterLab")
    assert error_outputs(page) == []
    for size in LAB_SIZES:  # the file browser stays open beside the notebook
        page.set_viewport_size(size)
        for d_model in at_each_d_model_extreme(page, root):
            name = f"lab {size}, d_model {d_model}"
            assert_fits(page, APP, within=".jp-NotebookPanel", name=name)
            assert_sliders_and_numbers_on_screen(
                page, root, within=".jp-NotebookPanel", name=name
            )
            png = f"explorer-lab-{size['width']}-d{d_model}.png"
            page.screenshot(path=str(tmp_path / png))
    print(f"screenshots: {tmp_path}")
