"""Settings shared by the whole test suite (at the top, out of doctest collection)."""

import os
import sys

import pytest
from hypothesis import settings

# Property-based tests are reproducible: the same examples on every run and in CI,
# no example database written into the checkout, no per-example time limit.
settings.register_profile(
    "course", derandomize=True, database=None, max_examples=40, deadline=None
)
settings.load_profile("course")


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
    """Make nbval compare stored PNGs too, byte for byte (it skips them by default).

    A figure cell whose code changed without a re-run, or a stored image swapped
    for another, then fails like a changed number would. The PNGs carry no
    version stamp and came out byte-identical on every re-run here (see the
    README's maintainer notes); nbval's own ``--nbdime`` switch would do the same
    but crashes on pytest 9.

    Only in the locked environment the notebooks were stored from: another
    matplotlib draws other pixels, so ``make test-oldest`` and ``make test-latest``
    set ``POSENC_COMPARE_PNG=0`` (every text output is still compared there).
    """
    if os.environ.get("POSENC_COMPARE_PNG", "1") == "0":
        return
    for parent in {item.parent for item in items}:
        skipped = getattr(parent, "skip_compare", None)
        if skipped is not None and "image/png" in skipped:
            parent.skip_compare = tuple(key for key in skipped if key != "image/png")
