"""The lecture explorer in JupyterLab, Voila (offline), the site and the slides,
chapter 02's and 03's sliders in JupyterLab and on the site: the same strings in
every host, also after the same keys; posenc_lib's numbers; every slider driven
by keyboard; the widget fits every screen at either end of ``d_model``.
"""

import pytest
from pages import (
    APP,
    GLOSSARY,
    SIZES,
    assert_fits,
    assert_sliders_and_numbers_on_screen,
    at_each_d_model_extreme,
    check_numbers,
    drive_explorer,
    drive_pair_circle,
    drive_position_explorer,
    error_outputs,
    expected_rows,
    key_step,
    open_and_run,
    seen,
    settled_state,
    smallest_text,
    watch,
    widget_root,
)

pytestmark = pytest.mark.browser
START = "3,8,2,0"
STEPS = [("pos", "ArrowRight", "4,8,2,0"), ("offset", "ArrowRight", "4,8,3,0"),
         ("pair", "ArrowRight", "4,8,3,1")]  # fmt: skip
PANEL = ".jp-NotebookPanel"  # in JupyterLab, the notebook beside the file browser
MIN_AXIS_PX = 18  # Voila: axis text at 1920 x 1080, as the presentation scale
MIN_TEXT_PX = 16  # Voila: any text, at every size from 1024 x 768 up
GROWTH = 1.3  # Voila: smallest text at 1920 x 1080 over that at 1024 x 768


@pytest.fixture(scope="module")
def static_hosts(site, slides):
    """The site and the slides, the session's builds (tests/browser/conftest.py)."""
    return {"site": site.root, "slides": slides}


def _lecture_in(page, host, servers, static_hosts):
    """Open the lecture explorer in ``host``; its root selector."""
    if host == "JupyterLab":
        open_and_run(page, servers["JupyterLab"], "explorer.ipynb")
    elif host == "Voila":
        page.goto(servers["Voila"].url("/"))
    elif host == "site":
        page.goto((static_hosts["site"] / "explorer.html").as_uri())
    else:
        page.goto(static_hosts["slides"].as_uri())
        page.locator(".posenc-static.posenc-ready").first.wait_for(state="attached")
        for _ in range(40):  # to the explorer's slide, as a lecturer does
            if page.locator(f"section.present {APP}").count():
                break
            page.keyboard.press("ArrowRight")
        settled_state(page)  # reveal.js slides the slide in: wait till it is in
        return widget_root(page, f"section.present {APP}")
    return widget_root(page, APP)


def _fits_everywhere(page, root, name, tmp_path, *, within=None, voila=False):
    """At every size and ``d_model`` extreme: no box outside, all on screen
    (Voila: no vertical scroll either); Voila's smallest text by window width."""
    smallest = {}
    for size in SIZES:
        page.set_viewport_size(size)
        for d_model in at_each_d_model_extreme(page, root):
            where = f"{name} {size}, d_model {d_model}"
            assert_fits(page, APP, within=within, name=where)
            assert_sliders_and_numbers_on_screen(page, root, within=within, name=where)
            if voila:
                assert_fits(page, f"{root} .posenc-numbers", within=root, name=where)
                assert page.evaluate(
                    "() => document.documentElement.scrollHeight <= innerHeight + 1"
                ), f"{where}: the page needs a vertical scroll bar"
                text = smallest_text(page, root)
                smallest[size["width"]] = min(smallest.get(size["width"], text), text)
            page.screenshot(
                path=str(tmp_path / f"{name}-{size['width']}-{d_model}.png")
            )
    return smallest


def _voila_is_the_app_alone_and_uses_the_screen(page, root, report, tmp_path):
    assert error_outputs(page, root="body") == []
    text = page.inner_text("body")  # code hidden; no title, no check output
    assert "NBVAL_IGNORE_OUTPUT" not in text
    assert "similarity(" not in text and "the explorer" not in text, text
    smallest = _fits_everywhere(page, root, "voila", tmp_path, voila=True)
    report(f"Voila smallest text by window width: {smallest}")
    assert min(px for px, _ in smallest.values()) >= MIN_TEXT_PX, smallest
    assert smallest[1920][0] >= GROWTH * smallest[1024][0], "text grows with it"
    assert smallest_text(page, f"{root} svg")[0] >= MIN_AXIS_PX  # at 1920 x 1080
    width = page.locator(root).first.bounding_box()["width"]
    assert width >= 0.75 * 1920, f"the explorer spans {width} px of 1920"


def test_the_lecture_explorer_is_the_same_in_every_host(
    lab_server, voila_server, static_hosts, page, latency_report, tmp_path
):
    servers = {"JupyterLab": lab_server, "Voila": voila_server}
    views = {}
    for host in ("JupyterLab", "Voila", "site", "slides"):
        if host == "Voila":
            page.goto("about:blank")  # JupyterLab's requests end here
            watched = watch(page)  # from Voila on, nothing off this machine
        root = _lecture_in(page, host, servers, static_hosts)
        assert page.locator(root).first.get_attribute("data-shown") == START, host
        check_numbers(page, root, 3, 8, 2)
        views[host] = [seen(page, root)]
        for name, key, expected in STEPS:
            latency = key_step(page, root, name, key, expected)
            views[host].append(seen(page, root))
            latency_report(f"{host}: {name} {key} -> drawn in {latency:.0f} ms")
        check_numbers(page, root, 4, 8, 3)
        if host != "site":  # the site's: test_site.py
            drive_explorer(page, root, latency_report, host)
        if host == "JupyterLab":
            assert error_outputs(page) == []
            _fits_everywhere(page, root, "lab", tmp_path, within=PANEL)
        if host == "Voila":
            _voila_is_the_app_alone_and_uses_the_screen(
                page, root, latency_report, tmp_path
            )  # what failed, before leaving (its unload may fail a shutdown call)
            failed = [u for u in watched["failed"] if u.startswith(voila_server.base)]
    print(f"screenshots: {tmp_path}")
    blocked = watched["outside"]
    latency_report(f"Voila: {len(blocked)} remote request(s) blocked: {blocked}")
    assert failed == [], "requests to the Voila server itself failed"
    assert blocked == [], "the explorer must need nothing from the internet"
    reference = views["JupyterLab"]
    assert reference[0]["sliders"] == GLOSSARY
    assert reference[0]["rows"] == expected_rows(3, 8)
    label = reference[0]["pictures"][0][1]
    assert label == (
        "PE[3] for d_model = 8: 0.1411, −0.9900, 0.2955, 0.9553, 0.0300, 0.9996, …"
    )
    assert reference[1]["pictures"][0][1].startswith("PE[4] for d_model = 8")
    for words in ("column k", "Δ", "d_model", "Σᵢ cos(Δ·ωᵢ) = ", "pos·ω"):
        assert any(words in s for s in reference[0]["strings"]), words
    assert not any(s in ("d", "k") for s in reference[0]["strings"]), "old labels"
    for host, shown in views.items():
        assert shown == reference, f"{host} shows the explorer differently"


@pytest.mark.parametrize("host", ["site", "slides"])
def test_the_lecture_explorer_fits_at_every_d_model_on_the_static_pages(
    static_hosts, page, host, tmp_path
):
    for size in (SIZES[0], SIZES[-1]):
        page.set_viewport_size(size)  # the slides pick their canvas when loaded
        root = _lecture_in(page, host, {}, static_hosts)
        for d_model in at_each_d_model_extreme(page, root):
            name = f"{host} {size}, d_model {d_model}"
            assert_fits(page, root, name=name)
            assert_fits(page, f"{root} .posenc-numbers", within=root, name=name)
            png = f"{host}-{size['width']}-d{d_model}.png"
            page.screenshot(path=str(tmp_path / png))
    print(f"screenshots: {tmp_path}")


@pytest.mark.parametrize(
    ("notebook", "selector", "steps", "drive"),
    [
        ("02_sinusoidal_encoding", ".posenc-position",
         [("pos", "ArrowRight", "2,8"), ("d_model", "ArrowRight", "2,10")],
         drive_position_explorer),
        ("04_why_sines", ".posenc-pair-circle", [("offset", "ArrowRight", "4")],
         drive_pair_circle),
    ],
    ids=["chapter-02", "chapter-03"],
)  # fmt: skip
def test_the_chapters_sliders_are_the_same_in_jupyterlab_and_on_the_site(
    lab_server, static_hosts, page, notebook, selector, steps, drive, latency_report,
    tmp_path,
):  # fmt: skip
    views = {}
    for host in ("site", "JupyterLab"):
        if host == "JupyterLab":
            allowed = open_and_run(page, lab_server, f"{notebook}.ipynb")
        else:
            page.goto((static_hosts["site"] / f"{notebook}.html").as_uri())
        root = widget_root(page, selector)
        views[host] = [seen(page, root)]
        for name, key, expected in steps:
            key_step(page, root, name, key, expected)
            views[host].append(seen(page, root))
    assert views["site"] == views["JupyterLab"]
    pictures = views["site"][0]["pictures"]
    assert pictures and all(role == "img" and label for role, label in pictures)
    drive(page, root, latency_report, "JupyterLab")  # as a learner uses them
    assert error_outputs(page, allowed=allowed) == []
    for size in SIZES:  # the file browser stays open beside the notebook
        page.set_viewport_size(size)
        assert_fits(page, root, within=PANEL, name=str(size))
        assert_sliders_and_numbers_on_screen(page, root, within=PANEL, name=str(size))
        page.screenshot(path=str(tmp_path / f"{notebook}-{size['width']}.png"))
    print(f"screenshots: {tmp_path}")
