"""Fixtures for the browser tests: JupyterLab or Voila on a free loopback port with
a token, serving a copy of ``notebooks/`` and stopped with its kernels; Debian's
Chromium under Playwright (missing: skipped, or failed if POSENC_REQUIRE_BROWSER=1);
the site and the slides, built once per session (one xdist worker: ``STATIC_SITE``
in the root conftest.py).
"""

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import namedtuple
from pathlib import Path

import pytest
from posenc_tools import build_pdf

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path(build_pdf.CHROMIUM)
CHROMIUM_ARGS = build_pdf.CHROMIUM_ARGS  # one list of flags for every headless page
# a quiet JupyterLab: no news toast, no autosave, every cell rendered, no dialogs
LAB_OVERRIDES = {
    "@jupyterlab/apputils-extension:notification":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    "@jupyterlab/notebook-extension:tracker":
        {"windowingMode": "none", "autoStartDefaultKernel": True},
}  # fmt: skip
SERVER_START_TIMEOUT = 90  # seconds; a cold start on 2 busy cores can be slow
BIN = Path(sys.executable).parent


def browser_missing():
    """What to install for the browser tests, or ``None`` when all is there."""
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append("Debian's Chromium: `sudo apt-get install -y chromium`")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append(
            "Playwright for Python: `.venv/bin/python -m pip install playwright` "
            "(never `playwright install`: the tests use /usr/bin/chromium)"
        )
    return "Browser tests need " + " and ".join(missing) + "." if missing else None


def pytest_collection_modifyitems(config, items):
    """No browser: skip the browser tests, or fail them if POSENC_REQUIRE_BROWSER=1."""
    reason = browser_missing()
    required = os.environ.get("POSENC_REQUIRE_BROWSER") == "1"
    for item in items if reason else ():
        if item.get_closest_marker("browser") is None:
            continue
        if required:
            item.add_marker(pytest.mark.usefixtures("_fail_without_browser"))
        else:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def _fail_without_browser():
    pytest.fail(f"POSENC_REQUIRE_BROWSER=1 but: {browser_missing()}", pytrace=False)


def _copy_notebooks(root):
    """A private copy of notebooks/ (outputs included) to serve from."""
    target = root / "notebooks"
    ignore = shutil.ignore_patterns(".ipynb_*")
    shutil.copytree(REPO / "notebooks", target, ignore=ignore)
    return target


def _server_env(root):
    """Environment for a server: this venv first on PATH, private Jupyter dirs."""
    env = dict(os.environ, JUPYTER_PLATFORM_DIRS="1")
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    for name in ("CONFIG", "DATA", "RUNTIME"):
        env[f"JUPYTER_{name}_DIR"] = str(root / f"jupyter_{name.lower()}")
    env["JUPYTER_PATH"] = str(REPO / "share" / "jupyter")  # the posenc Voila template
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    return env


def _answers(url, port):
    """True once the server answers: ``url`` gives 200 (or, without one, it listens)."""
    try:
        if url is None:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return True
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


class Server:
    """A running server: ``url(path)`` adds the token."""

    def __init__(self, base, token, process):
        self.base, self.token, self.process = base, token, process

    def kernels(self):
        """Process ids of the kernels this server runs now (its child processes)."""
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:  # "pid (name) state ppid ...": the name may hold spaces
                parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
                cmdline = (stat.parent / "cmdline").read_bytes()
            except OSError:
                continue  # the process ended while we looked
            if parent == self.process.pid and b"ipykernel" in cmdline:
                children.append(int(stat.parent.name))
        return children

    def url(self, path):
        sep = "&" if "?" in path else "?"
        return f"{self.base}{path}{sep}token={self.token}"


def _run_server(command, root, status_path):
    """Start ``command`` in its own process group; yield it once it answers (fail
    with its log if it does not); stop it and its kernels."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))  # a port nothing listens on right now
        token, port = secrets.token_hex(16), sock.getsockname()[1]
    command = [arg.format(token=token, port=port) for arg in command]
    log = root / "server.log"
    with open(log, "wb") as log_file:
        process = subprocess.Popen(
            command, cwd=root, env=_server_env(root), stdout=log_file,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    server = Server(f"http://127.0.0.1:{port}", token, process)
    try:
        url = None if status_path is None else server.url(status_path)
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while not _answers(url, port):
            if process.poll() is not None or time.monotonic() > deadline:
                why = f"not up after {SERVER_START_TIMEOUT} s"
                why = "exited early" if process.poll() is not None else why
                tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
                pytest.fail(f"server {why}:\n{tail}", pytrace=False)
            time.sleep(0.2)  # polling interval, not a wait for a state
        yield server
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=15)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """JupyterLab serving a copy of notebooks/, with the news toast switched off."""
    root = tmp_path_factory.mktemp("lab")
    settings = root / "app_settings"
    settings.mkdir()
    (settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES, indent=2))
    command = [
        str(BIN / "jupyter"), "lab", "--no-browser", "--ip=127.0.0.1",
        "--port={port}", "--ServerApp.port_retries=0",
        "--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={_copy_notebooks(root)}",
        f"--LabApp.app_settings_dir={settings}",
        f"--LabApp.user_settings_dir={root / 'user_settings'}",
        f"--LabApp.workspaces_dir={root / 'workspaces'}",
    ]  # fmt: skip
    if os.geteuid() == 0:
        command.append("--allow-root")
    yield from _run_server(command, root, "/api/status")


def _voila(tmp_path_factory, cull_idle_seconds):
    """Voila as `make explorer` runs it, with a token and kernel culling."""
    root = tmp_path_factory.mktemp("voila")
    command = [
        str(BIN / "voila"), "--no-browser", "--Voila.ip=127.0.0.1", "--port={port}",
        "--ServerApp.port_retries=0", "--token={token}",
        "--template=posenc",  # as `make explorer`: nothing fetched from a CDN
        f"--MappingKernelManager.cull_idle_timeout={cull_idle_seconds}",
        "--MappingKernelManager.cull_interval=1",
        "--MappingKernelManager.cull_connected=True",
        str(_copy_notebooks(root) / "explorer.ipynb"),
    ]  # fmt: skip
    # Voila has no status page; any GET of "/" would start a kernel.
    yield from _run_server(command, root, None)


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory):
    """Voila serving a copy of notebooks/explorer.ipynb as an app (code hidden)."""
    yield from _voila(tmp_path_factory, cull_idle_seconds=1200)


@pytest.fixture
def culling_voila_server(tmp_path_factory):
    """The same, culling kernels after 3 idle seconds (to watch it happen)."""
    yield from _voila(tmp_path_factory, cull_idle_seconds=3)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium under Playwright, closed at the end of the session."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launch = dict(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        chromium = playwright.chromium.launch(**launch)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser, tmp_path, request):
    """A fresh page (1280 x 800); a screenshot is saved if the test fails."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        yield page
    finally:
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            print(f"screenshot of the failure: {tmp_path / 'failure.png'}")
        context.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item, so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def latency_report(tmp_path_factory, pytestconfig):
    """``latency_report(line)``: printed, in the run's summary and to a file."""
    path = tmp_path_factory.getbasetemp() / "browser-latency.txt"

    def report(line):
        print(line)
        pytestconfig.posenc_summary["latencies"].append(line)
        with open(path, "a") as file:
            file.write(line + "\n")

    yield report


Site = namedtuple("Site", "root pages")


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The web edition (``make site``), built once."""
    from posenc_tools import build_site

    out = tmp_path_factory.mktemp("site") / "site"
    build_site.mathjax_tarball()
    return Site(out, build_site.build(out))


@pytest.fixture(scope="session")
def slides(tmp_path_factory, site):
    """The path of the lecture's slides (``make slides``), built once by the site."""
    from posenc_tools import build_slides

    out = tmp_path_factory.mktemp("slides") / "slides"
    html = build_slides.build(out=out, site=site.root)
    links = [line for line in html.read_text().splitlines() if "src=" in line]
    assert not [line for line in links if "https://" in line or "http://" in line]
    return html
