"""`make explorer` as a shared lecture machine sees it: a token, and culled kernels."""

import re
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"


def test_make_explorer_asks_for_a_token_and_culls_kernels():
    text = MAKEFILE.read_text()
    recipe = re.search(r"^explorer:.*?(?=^\S)", text, re.MULTILINE | re.DOTALL)[0]
    assert "EXPLORER_CULL ?= 1200" in text  # 20 minutes, as README
    for option in (
        "--token",
        "--MappingKernelManager.cull_idle_timeout=$(EXPLORER_CULL)",
        "--MappingKernelManager.cull_interval=60",
        "--MappingKernelManager.cull_connected=True",
    ):
        assert option in recipe, option


def _get(url):
    """Status and final URL of a GET, its body read to the end: Voila answers once
    it has run the notebook, so a kernel the request started is running by then."""
    with urllib.request.urlopen(url, timeout=120) as response:
        response.read()
        return response.status, response.url


def test_voila_without_the_token_is_refused_and_starts_no_kernel(
    voila_server, latency_report
):
    before = voila_server.kernels()
    for _ in range(5):
        status, url = _get(f"{voila_server.base}/")
        assert "/login" in url and status == 200, url  # the token form, no app
    assert "/login" in _get(f"{voila_server.base}/?token=wrong")[1]
    after = voila_server.kernels()  # each page has ended: none was started
    # the same event shows a kernel when there is one: a load with the token
    status, url = _get(voila_server.url("/"))
    assert "/login" not in url and status == 200, url
    started = set(voila_server.kernels()) - set(after)
    latency_report(
        f"Voila: kernels before / after 5 anonymous page loads: {len(before)} / "
        f"{len(after)}; after one with the token: {len(started)} more"
    )
    assert after == before
    assert len(started) == 1, started


def test_idle_kernels_are_culled(culling_voila_server, page, latency_report):
    server = culling_voila_server
    page.goto(server.url("/"))  # returns once Voila has run the notebook
    started = server.kernels()
    assert len(started) == 1, started
    deadline = time.monotonic() + 60
    while server.kernels() and time.monotonic() < deadline:
        time.sleep(0.5)  # polling interval
    assert server.kernels() == [], "the idle kernel was not culled within 60 s"
    latency_report("Voila: the idle kernel of an open page was culled")
