"""The lecture explorer served by Voila, as `make explorer` does, fully offline."""

from urllib.parse import urlparse

import pytest
from pages import (
    SIZES,
    assert_fits,
    assert_uses_most_of_the_width,
    error_outputs,
    image_bytes,
    install_watch,
    press,
    readout,
    step,
    summary,
)
from test_explorer_lab import FIGURE, NUMBERS, expected_text

from posenc_lib.figures.explorer import ExplorerFigure

pytestmark = pytest.mark.browser
LOOPBACK = {"127.0.0.1", "localhost"}


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
    app = page.locator(".posenc-lecture")
    app.wait_for(timeout=120_000)
    page.locator(FIGURE).wait_for()
    install_watch(page)
    sliders = {
        n: app.locator(f".posenc-lecture-{n}") for n in ("pos", "d", "offset", "pair")
    }
    values = {n: readout(page, s) for n, s in sliders.items()}
    n_rows = (
        sum(
            int(float(s.locator(".noUi-handle").get_attribute("aria-valuemax")))
            for n, s in sliders.items()
            if n in ("pos", "offset")
        )
        + 1
    )
    image_ms = []
    for _ in range(20):
        values["pos"] += 1
        watch = (NUMBERS, expected_text(**values), FIGURE)
        image_ms.append(step(page, press(sliders["pos"], "ArrowRight"), watch)[1])
    latency_report(summary("Voila explorer.ipynb, pos key steps", image_ms))
    v = (values["pos"], values["d"], values["offset"], values["pair"])
    assert image_bytes(page, FIGURE) == ExplorerFigure(n_rows).update(*v).png()
    assert error_outputs(page, root="body") == []
    assert "NBVAL_IGNORE_OUTPUT" not in page.inner_text("body")  # code is hidden
    text = page.inner_text("body")  # the app alone: no title, no check output
    assert "similarity(" not in text and "the explorer" not in text, text
    for size in SIZES:
        page.set_viewport_size(size)
        assert_fits(page, ".posenc-lecture", name=f"voila {size}")
        page.screenshot(path=str(tmp_path / f"voila-{size['width']}.png"))
    assert_uses_most_of_the_width(page)
    page.screenshot(path=str(tmp_path / "explorer-voila.png"), full_page=True)
    print(f"screenshot: {tmp_path / 'explorer-voila.png'}")
    remote = sorted(set(blocked) | {u for u in failed if u in blocked})
    local_failures = sorted({u for u in failed if u not in blocked})
    latency_report(f"Voila: {len(remote)} remote request(s) blocked: {remote}")
    assert local_failures == [], "requests to the Voila server itself failed"
    assert remote == [], "the explorer must need nothing from the internet"
