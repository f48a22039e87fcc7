"""The package as installed: its dependency lists, its import cost, its docstrings."""

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import posenc_lib

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pytest itself depends on tomli there
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]

# conda-forge names that differ from the PyPI name of the same package
CONDA_TO_PYPI = {"matplotlib-base": "matplotlib"}
# entries of environment.yml that are not dependencies of the package
NOT_DEPENDENCIES = {"python", "pip"}


def _name(requirement):
    """Normalised project name of a requirement such as ``numpy>=1.24``."""
    name = re.match(r"\s*([A-Za-z0-9._-]+)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


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


def _environment_packages():
    names = set()
    for requirement, _ in _environment_entries():
        if not requirement.startswith("-"):  # skip "-e ."
            names.add(CONDA_TO_PYPI.get(_name(requirement), _name(requirement)))
    return names - NOT_DEPENDENCIES


def _pyproject_packages():
    with open(ROOT / "pyproject.toml", "rb") as file:
        project = tomllib.load(file)["project"]
    requirements = project["dependencies"] + project["optional-dependencies"]["dev"]
    return {_name(requirement) for requirement in requirements}


def test_environment_yml_and_pyproject_name_the_same_packages():
    env, pyproject = _environment_packages(), _pyproject_packages()
    assert "numpy" in env  # the parser found the list at all
    assert env - pyproject == set(), "only in environment.yml"
    assert pyproject - env == set(), "only in pyproject.toml"


def test_environment_yml_gives_a_reason_for_every_entry():
    missing = [req for req, comment in _environment_entries() if not comment]
    assert missing == []


def test_environment_yml_installs_the_package_itself_from_conda_forge():
    text = (ROOT / "environment.yml").read_text()
    requirements = [requirement for requirement, _ in _environment_entries()]
    assert "-e ." in requirements
    assert "python>=3.10" in requirements
    assert re.search(r"channels:\n  - conda-forge\n", text)


def test_import_does_not_load_plotting_or_widget_libraries():
    code = (
        "import sys, posenc_lib\n"
        "heavy = ('matplotlib', 'ipywidgets')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_all_names_are_unique_and_importable():
    assert len(set(posenc_lib.__all__)) == len(posenc_lib.__all__)
    for name in posenc_lib.__all__:
        assert hasattr(posenc_lib, name), name


@pytest.mark.parametrize("name", posenc_lib.__all__)
def test_public_name_has_a_numpydoc_docstring_with_examples(name):
    doc = inspect.getdoc(getattr(posenc_lib, name)) or ""
    assert re.search(r"^Examples\n-{8}\n", doc, flags=re.MULTILINE), name
    assert ">>> " in doc.split("Examples", 1)[1], name
