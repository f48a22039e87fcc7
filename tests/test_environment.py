"""The locks ``make lock`` writes (uv.lock, requirements/lock.txt and oldest.txt,
environment.yml) agree with pyproject.toml and each other, and the environment
running these tests holds what it was set up with (how: test_setup_env.py)."""

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


# --- uv.lock, its export for pip (requirements/lock.txt) and environment.yml ------

UV = setup_env.program(Path(sys.prefix), "uv")  # installed by scripts/setup_env.py
PYTHON = (ROOT / setup_env.PYTHON_VERSION).read_text().strip()
#: what make lock writes: uv's arguments, and the file's text from uv's output
UV_MADE = {
    setup_env.UV_LOCK: (["lock", "--check"], None),
    setup_env.LOCK: (setup_env.EXPORT, lambda out: setup_env.LOCK_HEADER + out),
    setup_env.ENVIRONMENT: (
        setup_env.ENVIRONMENT_EXPORT,
        lambda out: setup_env.environment_yml(out, PYTHON),
    ),
}


@pytest.mark.slow
@pytest.mark.skipif(not UV.exists(), reason="no uv here (conda, or POSENC_NO_UV=1)")
@pytest.mark.parametrize("path", list(UV_MADE))
def test_make_lock_wrote_what_uv_makes_of_pyproject_now(path):
    arguments, text = UV_MADE[path]
    command = [str(UV), *arguments, "--quiet", "--offline"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"run make lock: {done.stderr}"
    assert text is None or (ROOT / path).read_text() == text(done.stdout), "make lock"


def _uv_lock_versions():
    """``{(name, Version)}``: every package of uv.lock but the course's own two."""
    with open(ROOT / setup_env.UV_LOCK, "rb") as file:
        packages = tomllib.load(file)["package"]
    ours = {_pyproject()["name"], _pyproject(ROOT / "tools")["name"]}
    return {
        (p["name"], Version(p["version"])) for p in packages if p["name"] not in ours
    }


def test_environment_yml_is_lock_txt_plus_the_hub_extra_for_pip():
    """Its pins are uv.lock's; lock.txt holds all of them but the hub extra's."""
    text = (ROOT / setup_env.ENVIRONMENT).read_text()
    header = setup_env.ENVIRONMENT_HEADER.format(python=PYTHON)
    assert text.startswith(header), "run make lock"
    items = [line.removeprefix("      - ") for line in text[len(header) :].splitlines()]
    lock = (ROOT / setup_env.LOCK).read_text().splitlines()
    pins = [line for line in lock if line and line[0] not in " #"]
    hub = {_name(req) for req in _pyproject()["optional-dependencies"]["hub"]}
    expected = [*pins, "-e .", "-e ./tools"]
    assert [item for item in items if _name(item) not in hub] == expected
    found = re.findall(r"^      - ([a-z0-9-]+)==([^ ;\n]+)", text, re.M)
    assert {(name, Version(version)) for name, version in found} == _uv_lock_versions()
    locked = {(name, version) for name, version, _ in _lock(setup_env.LOCK)}
    assert {name for name, _ in _uv_lock_versions() - locked} == hub


def test_one_python_for_ci_uv_and_the_hub_image():
    """.python-version (CI's, uv's) is environment.yml's too (repo2docker reads
    no .python-version); the locks start from requires-python's oldest."""
    assert _pyproject()["requires-python"] == f">={setup_env.OLDEST_PYTHON}"
    assert PYTHONS[0] == setup_env.OLDEST_PYTHON
    assert re.fullmatch(r"3\.1[01]", PYTHON), "make test-oldest needs 3.10 or 3.11"
    assert f"\n  - python={PYTHON}\n" in (ROOT / setup_env.ENVIRONMENT).read_text()


# --- the environment running these tests ----------------------------------------

MODE_FILE = Path(sys.prefix) / ".posenc-env"
MODE = MODE_FILE.read_text().strip() if MODE_FILE.exists() else None
LOCK_OF_MODE = {"locked": setup_env.LOCK, "oldest": setup_env.OLDEST}


@pytest.mark.skipif(
    MODE not in LOCK_OF_MODE,
    reason=f"not set up from a lock by scripts/setup_env.py (mode {MODE})",
)
def test_this_environment_has_exactly_the_locked_versions():
    """(In make test-oldest's, the declared minimums: the oldest lock pins them.)"""
    expected = _resolved(LOCK_OF_MODE[MODE], default_environment())
    installed = {name: Version(importlib.metadata.version(name)) for name in expected}
    assert installed == expected


def test_the_docs_name_the_minimums_make_test_oldest_runs():
    readme = " ".join((ROOT / "docs" / "maintaining.md").read_text().split())
    versions = _resolved(setup_env.OLDEST, _environment("3.11"))
    named = ", ".join(f"{name} {versions[name]}" for name in _runtime())
    assert f"declared minimums ({named})" in readme
