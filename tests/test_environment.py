"""The environments the course installs: the locks, environment.yml, and this one.

``uv.lock`` (``make lab``, ``make test``, CI), its export for pip
``requirements/lock.txt``, and ``requirements/oldest.txt`` (``make test-oldest``)
are written by ``make lock`` from ``pyproject.toml``; environment.yml is the
conda route to the same packages. These tests keep the five in agreement, and
check that the environment running them holds exactly the versions it was set
up with. How setup_env.py makes the environments: test_setup_env.py.
"""

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.markers import Marker, default_environment
from packaging.requirements import Requirement
from packaging.version import Version
from setup_env_script import ROOT, setup_env

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest itself depends on tomli there
    import tomli as tomllib

PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]
PLATFORMS = {"linux": ("Linux", "posix"), "darwin": ("Darwin", "posix")}
PLATFORMS["win32"] = ("Windows", "nt")
# conda-forge names that differ from the PyPI name of the same package
CONDA_TO_PYPI = {"matplotlib-base": "matplotlib"}
# entries of environment.yml that are not dependencies of the package
NOT_DEPENDENCIES = {"python", "pip"}


def _name(requirement):
    """Normalised project name of a requirement such as ``numpy>=1.24``."""
    name = re.match(r"\s*([A-Za-z0-9._-]+)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def _pyproject(folder=ROOT):
    with open(folder / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]


def _declared():
    """``{name: Requirement}``: the runtime dependencies, the dev extra, the tools'."""
    project, tools = _pyproject(), _pyproject(ROOT / "tools")
    extras = project["optional-dependencies"]
    requirements = project["dependencies"] + extras["dev"] + tools["dependencies"]
    return {_name(req): Requirement(req) for req in requirements}


def _runtime():
    return {_name(req): Requirement(req) for req in _pyproject()["dependencies"]}


def _lock(path):
    """``[(name, Version, Marker or None)]``: every pin of a uv-compiled lock."""
    pins = []
    for line in (ROOT / path).read_text().splitlines():
        if not line or line.startswith((" ", "#")):
            continue
        pin = re.fullmatch(r"([a-z0-9-]+)==([^ ;]+)(?: ; (.+))?", line)
        assert pin, f"{path}: not an exact pin: {line!r}"
        marker = Marker(pin[3]) if pin[3] else None
        pins.append((pin[1], Version(pin[2]), marker))
    return pins


def _environment(python, platform="linux"):
    """Marker environment of CPython ``python`` (e.g. "3.12") on ``platform``."""
    system, os_name = PLATFORMS[platform]
    env = default_environment()
    env.update(python_version=python, python_full_version=f"{python}.0")
    env.update(sys_platform=platform, platform_system=system, os_name=os_name)
    env.update(implementation_name="cpython", platform_python_implementation="CPython")
    return env


def _resolved(path, env):
    """``{name: Version}`` of the pins of ``path`` that apply in ``env``."""
    versions = {}
    for name, version, marker in _lock(path):
        if marker is None or marker.evaluate(env):
            assert name not in versions, f"{path}: two pins of {name} apply"
            versions[name] = version
    return versions


# --- the locks against pyproject.toml ------------------------------------------


def test_the_locks_start_from_the_oldest_supported_python():
    requires = _pyproject()["requires-python"]
    assert requires == f">={setup_env.OLDEST_PYTHON}"
    assert PYTHONS[0] == setup_env.OLDEST_PYTHON


@pytest.mark.parametrize("path", [setup_env.LOCK, setup_env.OLDEST])
@pytest.mark.parametrize("platform", sorted(PLATFORMS))
@pytest.mark.parametrize("python", PYTHONS)
def test_lock_pins_every_declared_package_in_range_for_every_python(
    path, platform, python
):
    versions = _resolved(path, _environment(python, platform))
    for name, requirement in _declared().items():
        assert name in versions, f"{path} has no {name} for Python {python}"
        assert versions[name] in requirement.specifier, (name, versions[name])


@pytest.mark.parametrize("python", ["3.10", "3.11"])
def test_oldest_lock_pins_the_declared_runtime_minimums(python):
    versions = _resolved(setup_env.OLDEST, _environment(python))
    minimums = {name: min_version(req) for name, req in _runtime().items()}
    assert {name: versions[name] for name in minimums} == minimums


def test_minimums_file_is_what_pyproject_declares():
    text = (ROOT / setup_env.MINIMUMS).read_text()
    pins = [line for line in text.splitlines() if not line.startswith("#")]
    assert pins == setup_env.runtime_minimums((ROOT / "pyproject.toml").read_text())
    parsed = {_name(pin): Version(pin.split("==")[1]) for pin in pins}
    assert parsed == {name: min_version(req) for name, req in _runtime().items()}


def test_main_lock_is_newer_than_the_minimums_where_it_can_be():
    """The two locks differ: the main one is not stuck at the minimums."""
    versions = _resolved(setup_env.LOCK, _environment("3.11"))
    for name, requirement in _runtime().items():
        assert versions[name] > min_version(requirement), name


def min_version(requirement):
    """The version of the one ``>=`` bound of ``requirement``."""
    (bound,) = [spec for spec in requirement.specifier if spec.operator == ">="]
    return Version(bound.version)


# --- uv.lock and its export for pip, requirements/lock.txt ----------------------

UV = setup_env.program(Path(sys.prefix), "uv")  # installed by scripts/setup_env.py
NO_UV = "uv is not in this environment (the conda route, or POSENC_NO_UV=1)"


def _uv_lock_versions():
    """``{(name, Version)}``: every package of uv.lock but the course's own two."""
    with open(ROOT / setup_env.UV_LOCK, "rb") as file:
        packages = tomllib.load(file)["package"]
    ours = {_pyproject()["name"], _pyproject(ROOT / "tools")["name"]}
    return {
        (p["name"], Version(p["version"])) for p in packages if p["name"] not in ours
    }


def test_lock_txt_pins_exactly_the_versions_of_uv_lock():
    pins = {(name, version) for name, version, _ in _lock(setup_env.LOCK)}
    assert pins and pins == _uv_lock_versions()


def _uv(*arguments):
    command = [str(UV), *arguments, "--quiet", "--offline"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


@pytest.mark.slow
@pytest.mark.skipif(not UV.exists(), reason=NO_UV)
def test_lock_txt_is_what_uv_exports_from_uv_lock():
    exported = _uv(*setup_env.EXPORT)
    assert exported.returncode == 0, exported.stderr
    text = (ROOT / setup_env.LOCK).read_text()
    assert text == setup_env.LOCK_HEADER + exported.stdout, "run make lock"


@pytest.mark.slow
@pytest.mark.skipif(not UV.exists(), reason=NO_UV)
def test_uv_lock_is_up_to_date_with_pyproject():
    checked = _uv("lock", "--check")
    assert checked.returncode == 0, f"run make lock: {checked.stderr}"


# --- environment.yml ---------------------------------------------------------


def _environment_entries():
    """``(requirement, comment)`` for every list item under ``dependencies:``.

    environment.yml is a flat list (plus one nested ``pip:`` list), so a few
    lines of parsing do instead of a YAML dependency.
    """
    lines = (ROOT / "environment.yml").read_text().splitlines()
    start = lines.index("dependencies:")
    entries = []
    for line in lines[start + 1 :]:
        item = re.match(r"\s+- ([^#]*?)\s*(?:#\s*(.*))?$", line)
        if item and item.group(1) != "pip:":
            entries.append((item.group(1), item.group(2)))
    return entries


def _environment_requirements():
    """``{pypi_name: Requirement}`` for the packages environment.yml installs."""
    requirements = {}
    for entry, _ in _environment_entries():
        if entry.startswith("-"):  # "-e ."
            continue
        name = CONDA_TO_PYPI.get(_name(entry), _name(entry))
        if name not in NOT_DEPENDENCIES:
            requirements[name] = Requirement(re.sub(r"^[^<>=!~ ]+", name, entry))
    return requirements


def test_environment_yml_and_pyproject_name_the_same_packages():
    env, pyproject = set(_environment_requirements()), set(_declared())
    assert "numpy" in env  # the parser found the list at all
    assert env - pyproject == set(), "only in environment.yml"
    assert pyproject - env == set(), "only in pyproject.toml"


def test_environment_yml_declares_the_same_minimums_as_pyproject():
    declared = _declared()
    for name, requirement in _environment_requirements().items():
        assert requirement.specifier == declared[name].specifier, name


@pytest.mark.parametrize("python", ["3.10", "3.11", "3.12", "3.13"])
def test_locked_versions_fit_environment_yml(python):
    versions = _resolved(setup_env.LOCK, _environment(python))
    for name, requirement in _environment_requirements().items():
        assert versions[name] in requirement.specifier, (name, versions[name])


def test_environment_yml_gives_a_reason_for_every_entry():
    missing = [req for req, comment in _environment_entries() if not comment]
    assert missing == []


def test_environment_yml_installs_the_package_itself_from_conda_forge():
    text = (ROOT / "environment.yml").read_text()
    requirements = [requirement for requirement, _ in _environment_entries()]
    assert {"-e .", "-e ./tools"} <= set(requirements)
    assert f"python>={setup_env.OLDEST_PYTHON}" in requirements
    assert re.search(r"channels:\n  - conda-forge\n", text)


# --- the environment running these tests ----------------------------------------

MODE_FILE = Path(sys.prefix) / ".posenc-env"
MODE = MODE_FILE.read_text().strip() if MODE_FILE.exists() else None
LOCK_OF_MODE = {"locked": setup_env.LOCK, "oldest": setup_env.OLDEST}


@pytest.mark.skipif(
    MODE not in LOCK_OF_MODE,
    reason=f"not set up from a lock by scripts/setup_env.py (mode {MODE})",
)
def test_this_environment_has_exactly_the_locked_versions():
    expected = _resolved(LOCK_OF_MODE[MODE], default_environment())
    installed = {name: Version(importlib.metadata.version(name)) for name in expected}
    assert installed == expected


@pytest.mark.skipif(MODE != "oldest", reason="only in make test-oldest's environment")
def test_this_environment_runs_the_declared_minimums():
    import matplotlib
    import numpy

    assert Version(numpy.__version__) == min_version(_runtime()["numpy"])
    assert Version(matplotlib.__version__) == min_version(_runtime()["matplotlib"])
    assert Version(importlib.metadata.version("ipywidgets")) == min_version(
        _runtime()["ipywidgets"]
    )


def test_the_docs_name_the_minimums_make_test_oldest_runs():
    readme = " ".join((ROOT / "docs" / "maintaining.md").read_text().split())
    versions = _resolved(setup_env.OLDEST, _environment("3.11"))
    named = ", ".join(f"{name} {versions[name]}" for name in _runtime())
    assert f"declared minimums ({named})" in readme
