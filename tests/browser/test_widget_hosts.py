"""One explorer in every host: the same visible strings, posenc_lib's numbers.

The lecture explorer at its opening setting (``pos = 3, d_model = 8, Δ = 2,
pair = 0``, as notebooks/explorer.ipynb and notebooks/lecture.ipynb make it) in
JupyterLab, in Voila (`make explorer`), on the static site (`make site`) and in
the slides (`make slides`); chapter 02's and 03's sliders in JupyterLab and on
the site. Each widget's visible strings (labels, titles, tables, the dot line,
slider readouts) must be identical in every host, its numbers equal to
posenc_lib's to 4 decimals, its sliders named by the glossary and its pictures
``role="img"`` with a text alternative; also after the same keyboard steps.
"""

from pathlib import Path

import pytest
from pages import (
    SIZES,
    accessible,
    assert_fits,
    key_step,
    open_notebook,
    run_all,
    table_rows,
    visible_strings,
    widget_root,
)
from test_explorer_lab import (
    APP,
    GLOSSARY,
    at_each_d_model_extreme,
    check_numbers,
    drive_explorer,
    expected_rows,
)

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
START = "3,8,2,0"
STEPS = [("pos", "ArrowRight", "4,8,2,0"), ("offset", "ArrowRight", "4,8,3,0"),
         ("pair", "ArrowRight", "4,8,3,1")]  # fmt: skip


@pytest.fixture(scope="module")
def static_hosts(site, slides):
    """The site and the slides, the session's builds (tests/browser/conftest.py)."""
    return {"site": site.root, "slides": slides}


def _seen(page, root):
    """What a host shows of the explorer: strings, accessibility, numbers."""
    return {
        "strings": visible_strings(page, root),
        "a11y": accessible(page, root),
        "rows": table_rows(page, root),
    }


def _lecture_in(page, host, lab_server, voila_server, static_hosts):
    """Open the lecture explorer in ``host``; its root selector."""
    if host == "JupyterLab":
        open_notebook(page, lab_server, "explorer.ipynb")
        run_all(page)
    elif host == "Voila":
        page.goto(voila_server.url("/"))
    elif host == "site":
        page.goto((static_hosts["site"] / "explorer.html").as_uri())
    else:
        page.goto(static_hosts["slides"].as_uri())
        page.locator(".posenc-static.posenc-ready").first.wait_for(state="attached")
        for _ in range(40):  # to the explorer's slide, as a lecturer does
            if page.locator(f"section.present {APP}").count():
                break
            page.keyboard.press("ArrowRight")
        page.wait_for_function(  # reveal.js slides the slide in: wait till it is in
            "() => !document.getAnimations().some(a => a instanceof CSSTransition)"
        )
        return widget_root(page, f"section.present {APP}")
    return widget_root(page, APP)


def test_the_lecture_explorer_is_the_same_in_every_host(
    lab_server, voila_server, static_hosts, page, latency_report
):
    seen = {}
    for host in ("JupyterLab", "Voila", "site", "slides"):
        root = _lecture_in(page, host, lab_server, voila_server, static_hosts)
        assert page.locator(root).first.get_attribute("data-shown") == START, host
        check_numbers(page, root, 3, 8, 2)
        seen[host] = [_seen(page, root)]
        for name, key, expected in STEPS:
            latency = key_step(page, root, name, key, expected)
            seen[host].append(_seen(page, root))
            latency_report(f"{host}: {name} {key} -> drawn in {latency:.0f} ms")
        check_numbers(page, root, 4, 8, 3)
    reference = seen["JupyterLab"]
    assert reference[0]["a11y"]["sliders"] == GLOSSARY
    assert reference[0]["rows"] == expected_rows(3, 8)
    label = reference[0]["a11y"]["pictures"][0][1]
    assert (
        label
        == "PE[3] for d_model = 8: 0.1411, −0.9900, 0.2955, 0.9553, 0.0300, 0.9996, …"
    )  # noqa: E501
    assert reference[1]["a11y"]["pictures"][0][1].startswith("PE[4] for d_model = 8")
    for words in ("column k", "Δ", "d_model", "Σᵢ cos(Δ·ωᵢ) = ", "pos·ω"):
        assert any(words in s for s in reference[0]["strings"]), words
    assert not any(s in ("d", "k") for s in reference[0]["strings"]), "old labels"
    for host, shown in seen.items():
        assert shown == reference, f"{host} shows the explorer differently"
    drive_explorer(page, root, latency_report, "slides")  # every slider, 20 steps


@pytest.mark.parametrize("host", ["site", "slides"])
def test_the_lecture_explorer_fits_at_every_d_model_on_the_static_pages(
    static_hosts, page, host, tmp_path
):
    for size in (SIZES[0], SIZES[-1]):
        page.set_viewport_size(size)  # the slides pick their canvas when loaded
        root = _lecture_in(page, host, None, None, static_hosts)
        for d_model in at_each_d_model_extreme(page, root):
            name = f"{host} {size}, d_model {d_model}"
            assert_fits(page, root, name=name)
            assert_fits(page, f"{root} .posenc-numbers", within=root, name=name)
            png = f"{host}-{size['width']}-d{d_model}.png"
            page.screenshot(path=str(tmp_path / png))
    print(f"screenshots: {tmp_path}")


@pytest.mark.parametrize(
    ("notebook", "selector", "steps"),
    [
        ("02_sinusoidal_encoding", ".posenc-position",
         [("pos", "ArrowRight", "2,8"), ("d_model", "ArrowRight", "2,10")]),
        ("04_why_sines", ".posenc-pair-circle", [("offset", "ArrowRight", "4")]),
    ],
    ids=["chapter-02", "chapter-03"],
)  # fmt: skip
def test_the_chapters_sliders_are_the_same_in_jupyterlab_and_on_the_site(
    lab_server, static_hosts, page, notebook, selector, steps
):
    seen = {}
    for host in ("JupyterLab", "site"):
        if host == "JupyterLab":
            open_notebook(page, lab_server, f"{notebook}.ipynb")
            run_all(page)
        else:
            page.goto((static_hosts["site"] / f"{notebook}.html").as_uri())
        root = widget_root(page, selector)
        seen[host] = [_seen(page, root)]
        for name, key, expected in steps:
            key_step(page, root, name, key, expected)
            seen[host].append(_seen(page, root))
    assert seen["site"] == seen["JupyterLab"]
    pictures = seen["site"][0]["a11y"]["pictures"]
    assert pictures and all(role == "img" and label for role, label in pictures)
