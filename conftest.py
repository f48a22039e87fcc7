"""Settings shared by the whole test suite (at the top, out of doctest collection)."""

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

_PNGS = {"compared": [], "skipped": []}


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


def pytest_collection_modifyitems(items):
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
        if drawn == matplotlib.__version__:
            parent.skip_compare = tuple(key for key in skipped if key != "image/png")
            _PNGS["compared"].append(name)
        else:
            _PNGS["skipped"].append(f"{name} (drawn with matplotlib {drawn})")


def pytest_terminal_summary(terminalreporter):
    if _PNGS["compared"] or _PNGS["skipped"]:
        import matplotlib

        line = (
            f"figures: {len(_PNGS['compared'])} notebooks' PNGs compared byte for byte"
        )
        if _PNGS["skipped"]:
            line += (
                f"; not compared with matplotlib {matplotlib.__version__}: "
                + ", ".join(sorted(_PNGS["skipped"]))
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
