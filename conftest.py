"""Settings shared by the whole test suite (at the top, out of doctest collection)."""

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
