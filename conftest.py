"""Settings shared by the whole test suite (at the top, out of doctest collection).

Under pytest-xdist (``make test``: ``-n auto --dist loadfile``) each file runs in
one worker, so a notebook's cells share one kernel and a module's fixtures are
made once; the files of the built site's tests go to one worker together (the
site and the slides are built once per worker), and the units that take longest
(those, then the other browser tests, then the slow ones) are handed out first.
What the workers report for the summary (figures compared, slider latencies)
comes back in ``workeroutput``.
"""

import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Property-based tests are reproducible: the same examples on every run and in CI,
# no example database written into the checkout, no per-example time limit.
settings.register_profile(
    "course", derandomize=True, database=None, max_examples=40, deadline=None
)
settings.load_profile("course")

# the files whose tests use the session's site and slides (tests/browser/conftest.py)
STATIC_SITE = {
    f"tests/browser/test_{name}.py": "static-site"
    for name in ("site", "accessibility", "pdf", "slides", "widget_hosts")
}
# what is handed to the workers first (the longest): the built site's unit, then
# the other browser tests, then the slow ones
_FIRST = ("static-site", "browser", "slow")


def _unit(nodeid):
    """The unit of work a test belongs to: its file, or the built site's files."""
    path = nodeid.split("::", 1)[0]
    return STATIC_SITE.get(path, path)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile``, with the built site's files as one unit.

    (``--dist loadgroup`` would do it with marks, but pytest 9.2's structured
    node ids lose xdist 3.8's group suffix: pytest-xdist issue 1386.)
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class ByUnit(LoadFileScheduling):
        def _split_scope(self, nodeid):
            return _unit(nodeid)

    return ByUnit(config, log)


def pytest_configure(config):
    """What the summary prints: ``config.posenc_summary`` (filled by the workers)."""
    config.posenc_summary = {"compared": [], "skipped": [], "latencies": []}


@pytest.fixture(autouse=True)
def _restore_numpy_printing():
    """Undo a test's numpy print options (``setup_notebook`` sets legacy scalars)."""
    import numpy as np

    options = np.get_printoptions()
    yield
    np.set_printoptions(**options)


@pytest.fixture(autouse=True)
def _close_figures():
    """Close the figures a test opened (only where the test loaded pyplot)."""
    yield
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")


def pytest_collection_modifyitems(config, items):
    """The units of work longest first, each unit's tests together and in order."""
    rank = {}  # unit -> its rank in _FIRST, in the order units first appear
    for item in items:
        unit = _unit(item.nodeid)
        rank[unit] = min(rank.get(unit, len(_FIRST)), _rank(item, unit))
    order = {unit: n for n, unit in enumerate(rank)}
    items.sort(key=lambda item: (rank[_unit(item.nodeid)], order[_unit(item.nodeid)]))
    _compare_pngs(config, items)


def _rank(item, unit):
    marks = {unit, *(mark.name for mark in item.iter_markers())}
    return next((n for n, name in enumerate(_FIRST) if name in marks), len(_FIRST))


def _compare_pngs(config, items):
    """Make nbval compare stored PNGs byte for byte where they can be the same.

    nbval skips ``image/png``; a figure cell edited without a re-run would pass.
    ``make notebooks`` records the matplotlib that drew each notebook
    (``metadata.posenc.matplotlib``); where this environment has the same one, its
    PNGs are compared too. Another matplotlib draws other pixels (Python 3.10's
    lock has an older one): there the text outputs are still compared, and the
    summary says which notebooks' figures were not.
    """
    import matplotlib

    for parent in {item.parent for item in items}:
        skipped = getattr(parent, "skip_compare", None)
        if skipped is None or "image/png" not in skipped:
            continue
        drawn = parent.nb.metadata.get("posenc", {}).get("matplotlib")
        name = Path(str(parent.fspath)).name
        summary = config.posenc_summary
        if drawn == matplotlib.__version__:
            parent.skip_compare = tuple(key for key in skipped if key != "image/png")
            summary["compared"].append(name)
        else:
            summary["skipped"].append(f"{name} (drawn with matplotlib {drawn})")


def pytest_sessionfinish(session):
    """In an xdist worker: hand the summary to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["posenc_summary"] = session.config.posenc_summary


def pytest_testnodedown(node, error):
    """In the xdist controller: every worker collected every notebook (the same
    figures lines); the latencies are each worker's own."""
    found = getattr(node, "workeroutput", {}).get("posenc_summary")
    if found is None:
        return
    summary = node.config.posenc_summary
    for key in ("compared", "skipped"):
        summary[key] = sorted(set(summary[key]) | set(found[key]))
    summary["latencies"] += found["latencies"]


def pytest_terminal_summary(terminalreporter, config):
    summary = config.posenc_summary
    if summary["latencies"]:  # shown whether or not pytest captures output
        terminalreporter.section("slider step -> updated output (report, no limit)")
        for line in summary["latencies"]:
            terminalreporter.write_line(line)
    if summary["compared"] or summary["skipped"]:
        import matplotlib

        compared = len(summary["compared"])
        line = f"figures: {compared} notebooks' PNGs compared byte for byte"
        if summary["skipped"]:
            line += (
                f"; not compared with matplotlib {matplotlib.__version__}: "
                + ", ".join(sorted(summary["skipped"]))
            )
        terminalreporter.write_line(line)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Say how to fix a stored output that no longer comes out of its cell."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and type(item).__name__ == "IPyNbCell":
        notebook = Path(str(item.fspath)).relative_to(Path(__file__).parent)
        report.sections.append(
            (
                "how to fix",
                f"The stored output of this cell is not what it computes now. If "
                f"the change is intended, run `make notebook NB={notebook}` (it "
                "re-runs the notebook, stores its outputs and checks it), then "
                "commit the notebook.",
            )
        )
