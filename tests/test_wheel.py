"""The library as a user installs it: a wheel built from the committed sources, in a
fresh environment (the course's editable install finds every module in the tree)."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds a wheel and a fresh environment
ROOT = Path(__file__).resolve().parent.parent
UV = Path(sys.executable).parent / "uv"  # installed by scripts/setup_env.py
PYPROJECT = ROOT / "pyproject.toml"


def _run(*command, **kwargs):
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs)


def _copy_committed(target, *paths):
    """Copy the committed files under ``paths`` (not the clone's build/ folder)."""
    files = _run("git", "ls-files", *paths, cwd=ROOT).stdout.split()
    for name in files:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, target / name)


def _build(source, out):
    """Build ``source``'s sdist, then its wheel from that sdist: the output."""
    # byte-compiling off (PYTHONDONTWRITEBYTECODE) is this machine's, not the package's
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    if UV.exists():
        command = [str(UV), "build", "--out-dir", str(out), str(source)]
    else:  # POSENC_NO_UV=1: pip builds the wheel only
        command = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps"]
        command += ["-w", str(out), str(source)]
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``(dist folder, build output)``: both packages, from the committed sources."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("dist")
    _copy_committed(source, "pyproject.toml", "README.md", "LICENSE", "posenc_lib")
    _copy_committed(source, "tools")
    return out, _build(source, out) + _build(source / "tools", out)


@pytest.fixture(scope="module")
def wheel(built):
    (path,) = built[0].glob("posenc_lib-*.whl")
    return path


def test_both_packages_build_without_a_warning(built):
    out, output = built
    warnings = [line for line in output.splitlines() if "warn" in line.lower()]
    assert warnings == []
    names = {path.name for path in out.glob("*.*[lz]")}  # .whl, .tar.gz
    expected = {
        "posenc_lib-0.1.0-py3-none-any.whl",
        "posenc_tools-0.1.0-py3-none-any.whl",
    }
    if UV.exists():
        expected |= {"posenc_lib-0.1.0.tar.gz", "posenc_tools-0.1.0.tar.gz"}
    assert names == expected


@pytest.mark.parametrize(
    ("package", "licence"),
    [("posenc_lib", "MIT AND CC-BY-4.0"), ("posenc_tools", "MIT")],
)
def test_each_wheel_carries_its_spdx_licence_and_licence_file(built, package, licence):
    (path,) = built[0].glob(f"{package}-*.whl")
    with zipfile.ZipFile(path) as archive:
        info = f"{package}-0.1.0.dist-info"
        metadata = archive.read(f"{info}/METADATA").decode()
        packed = archive.read(f"{info}/licenses/LICENSE").decode()
    assert f"License-Expression: {licence}\n" in metadata
    assert "License-File: LICENSE\n" in metadata
    assert "Classifier: License" not in metadata  # the expression says it once
    text = (ROOT / "LICENSE").read_text()
    # posenc-tools' LICENSE is the MIT part of the course's, word for word
    assert packed == (
        text if package == "posenc_lib" else text[text.index("MIT License\n\n") :]
    )


def test_the_wheel_holds_every_module_of_the_library(wheel):
    """(Its static files: page_assets() reads them in the fresh environment.)"""
    source = {p.relative_to(ROOT).as_posix() for p in ROOT.glob("posenc_lib/**/*.py")}
    with zipfile.ZipFile(wheel) as archive:
        assert {name for name in archive.namelist() if name.endswith(".py")} == source


def _install(python, requirement):
    lock = str(ROOT / "requirements" / "lock.txt")  # the locked numpy, matplotlib, ...
    uv = [str(UV), "pip", "install", "--python", str(python)]
    pip = uv if UV.exists() else [str(python), "-m", "pip", "install"]
    _run(*pip, requirement, "-c", lock)


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


def test_a_learner_installs_library_and_jupyterlab_from_a_git_tag(tmp_path):
    """docs/other-machines.md's ``pip install "posenc-lib[course] @
    git+$COURSE@vX.Y.Z"``, with a clone of this repository as ``$COURSE``."""
    text = (ROOT / "docs" / "other-machines.md").read_text()
    (line,) = [line for line in text.splitlines() if "@ git+$COURSE@v" in line]
    command = line.split("#")[0].strip()
    tag = "v" + re.search(r'^version = "(.+)"', PYPROJECT.read_text(), re.M)[1]
    assert command.startswith("pip install ") and command.endswith(f'@{tag}"')
    clone = tmp_path / "course"
    _run("git", "clone", "--quiet", str(ROOT), str(clone))
    _run("git", "-C", str(clone), "tag", tag)
    requirement = shlex.split(command)[2].replace("$COURSE", f"file://{clone}")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", str(venv))
    _install(venv / "bin" / "python", requirement)
    code = "import posenc_lib, ipykernel; print(posenc_lib.__file__)"
    done = _run(str(venv / "bin" / "python"), "-c", code, cwd=tmp_path)
    assert Path(done.stdout.strip()).is_relative_to(venv)
    assert _run(str(venv / "bin" / "jupyter-lab"), "--version").returncode == 0
