"""The library as a user installs it: built into a wheel, in a fresh environment.

The course's own environments install it editable, which finds every module
in the source tree; only a built wheel shows what ``pip install`` would get.
"""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds a wheel and a fresh environment
ROOT = Path(__file__).resolve().parent.parent
UV = Path(sys.executable).parent / "uv"  # installed by scripts/setup_env.py


def _run(*command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel built from a fresh copy of the committed sources (setuptools
    would otherwise reuse the clone's build/ folder, stale modules and all)."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("dist")
    files = _run(
        "git", "ls-files", "pyproject.toml", "README.md", "posenc_lib", cwd=ROOT
    )
    for name in files.stdout.split():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    if UV.exists():
        _run(str(UV), "build", "--wheel", "--out-dir", str(out), str(source))
    else:  # POSENC_NO_UV=1
        _run(
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-w",
            str(out),
            str(source),
        )
    (path,) = out.glob("posenc_lib-*.whl")
    return path


def test_the_wheel_holds_every_module_of_the_library(wheel):
    source = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "posenc_lib").rglob("*.py")
    }
    with zipfile.ZipFile(wheel) as archive:
        packed = {name for name in archive.namelist() if name.endswith(".py")}
    assert packed == source


def test_the_wheel_holds_the_module_the_explorers_are_drawn_with(wheel):
    static = ROOT / "posenc_lib" / "figures" / "static"
    source = {p.relative_to(ROOT).as_posix() for p in static.iterdir()}
    assert {"posenc_lib/figures/static/explorer.js"} <= source
    with zipfile.ZipFile(wheel) as archive:
        assert source <= set(archive.namelist())


def _install(python, requirement):
    lock = str(ROOT / "requirements" / "lock.txt")  # the locked numpy, matplotlib, ...
    if UV.exists():
        _run(
            str(UV), "pip", "install", "--python", str(python), requirement, "-c", lock
        )
    else:
        _run(str(python), "-m", "pip", "install", requirement, "-c", lock)


def test_the_wheel_installs_and_imports_in_a_fresh_environment(wheel, tmp_path):
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", str(venv))
    python = venv / "bin" / "python"
    _install(python, str(wheel))
    code = (
        "import posenc_lib, posenc_lib.figures, posenc_lib.exercise.checkers\n"
        "from posenc_lib.figures.explorer import page_assets; page_assets()\n"
        "print(posenc_lib.__file__)\n"
        "print(posenc_lib.sinusoidal_positions([3], 4).round(4).tolist())"
    )
    done = _run(str(python), "-c", code, cwd=tmp_path)  # not from the source tree
    where, table = done.stdout.splitlines()
    assert Path(where).is_relative_to(venv)
    assert table == "[[0.1411, -0.99, 0.03, 0.9996]]"
    assert "posenc grade" in _run(str(venv / "bin" / "posenc"), "--help").stdout
    # the grader is the course's tools, not the learner's: one sentence says so
    (tmp_path / "alice.ipynb").write_text("{}")
    command = [str(venv / "bin" / "posenc"), "grade", "alice.ipynb", "--out", "out"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "`make lab`" in done.stderr
    assert not (tmp_path / "out").exists()
