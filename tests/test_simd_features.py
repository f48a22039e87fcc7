"""scripts/simd_features.py: the features `make test-baseline-simd` disables."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "simd_features.py"
sys.path.insert(0, str(SCRIPT.parent))
from simd_features import found_features, umath  # noqa: E402


def _found_with(disabled):
    env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": disabled}
    result = subprocess.run(
        [sys.executable, str(SCRIPT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.split(), result.stderr


def test_the_features_are_above_the_baseline():
    found = found_features()
    assert set(found) <= set(umath.__cpu_dispatch__)
    assert not set(found) & set(umath.__cpu_baseline__)


def test_disabling_them_leaves_numpy_at_its_baseline():
    """numpy accepts the list (no warning) and then dispatches to nothing above."""
    found, _ = _found_with("")  # what this CPU has, whatever this run disabled
    lowered, warnings = _found_with(" ".join(found))
    assert (lowered, warnings) == ([], "")


@pytest.mark.skipif(
    os.environ.get("POSENC_BASELINE_SIMD") != "1",
    reason="only under make test-baseline-simd",
)
def test_this_run_is_at_the_baseline():
    assert found_features() == []
