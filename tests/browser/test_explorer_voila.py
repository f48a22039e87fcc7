"""The lecture explorer served by Voila, as `make explorer` does, fully offline.

It uses the screen: text, sliders and pictures grow with the window (the
template sets the explorer's font size from it), the smallest text is at least
16 px at 1024 x 768 and larger on a larger screen, and nothing is cut off or
needs a scroll bar at any of the sizes a lecture meets, at either end of the
``d_model`` slider (2, and 64 with the widest table).
"""

from urllib.parse import urlparse

import pytest
from pages import (
    SIZES,
    assert_fits,
    assert_sliders_and_numbers_on_screen,
    error_outputs,
    smallest_svg_text,
    smallest_text,
    widest,
    widget_root,
)
from test_explorer_lab import APP, at_each_d_model_extreme, drive_explorer

pytestmark = pytest.mark.browser
LOOPBACK = {"127.0.0.1", "localhost"}
MIN_AXIS_PX = 18  # axis text at 1920 x 1080, as the presentation scale promises
MIN_TEXT_PX = 16  # any text, at every size from 1024 x 768 up
GROWTH = 1.3  # the smallest text at 1920 x 1080 over that at 1024 x 768, at least


def test_explorer_in_voila(voila_server, page, tmp_path, latency_report):
    blocked, failed = [], []
    page.on("requestfailed", lambda request: failed.append(request.url))

    def offline(route):  # anything not on this machine is cut off, as in a lecture
        if urlparse(route.request.url).hostname in LOOPBACK:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    page.route("**/*", offline)
    page.goto(voila_server.url("/"))
    root = widget_root(page, APP)
    drive_explorer(page, root, latency_report, "Voila")
    assert error_outputs(page, root="body") == []
    assert "NBVAL_IGNORE_OUTPUT" not in page.inner_text("body")  # code is hidden
    text = page.inner_text("body")  # the app alone: no title, no check output
    assert "similarity(" not in text and "the explorer" not in text, text
    smallest, edges = {}, {}
    for size in SIZES:
        page.set_viewport_size(size)
        for d_model in at_each_d_model_extreme(page, root):
            name = f"voila {size}, d_model {d_model}"
            assert_fits(page, APP, name=name)
            assert_fits(page, f"{root} .posenc-numbers", within=root, name=name)
            assert_sliders_and_numbers_on_screen(page, root, name=name)
            assert page.evaluate(
                "() => document.documentElement.scrollHeight <= innerHeight + 1"
            ), f"{name}: the page needs a vertical scroll bar"
            edges[size["width"], d_model] = widest(page, root)
            text = smallest_text(page, root)
            smallest[size["width"]] = min(smallest.get(size["width"], text), text)
            png = f"voila-{size['width']}-d{d_model}.png"
            page.screenshot(path=str(tmp_path / png))
    latency_report(f"Voila widest element (window width, d_model): {edges}")
    latency_report(f"Voila smallest text by window width: {smallest}")
    assert min(px for px, _ in smallest.values()) >= MIN_TEXT_PX, smallest
    assert smallest[1920][0] >= GROWTH * smallest[1024][0], "text grows with it"
    assert smallest_svg_text(page, root) >= MIN_AXIS_PX  # at 1920 x 1080
    width = page.evaluate(
        "(r) => document.querySelector(r).getBoundingClientRect().width", root
    )
    assert width >= 0.75 * 1920, f"the explorer spans {width} px of 1920"
    print(f"screenshots: {tmp_path}")
    remote = sorted(set(blocked) | {u for u in failed if u in blocked})
    local_failures = sorted({u for u in failed if u not in blocked})
    latency_report(f"Voila: {len(remote)} remote request(s) blocked: {remote}")
    assert local_failures == [], "requests to the Voila server itself failed"
    assert remote == [], "the explorer must need nothing from the internet"
