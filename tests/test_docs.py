"""The documents say what the tree holds: docs/maintaining.md's module map, the
docs' ``>>>`` examples run, a numpydoc example for every public name."""

import doctest
import inspect
import re
from pathlib import Path

import pytest

import posenc_lib

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PACKAGES = {
    "posenc_lib": ROOT / "posenc_lib",
    "posenc_tools": ROOT / "tools" / "posenc_tools",
}


def _mapped(package):
    """The modules docs/maintaining.md's table for ``package`` lists."""
    text = (ROOT / "docs" / "maintaining.md").read_text("utf-8")
    heading = (
        "The learner's package" if package == "posenc_lib" else "The course's tools"
    )
    table = text.split(heading, 1)[1].split("\n\n", 2)[1]
    return set(re.findall(r"^\| `([\w/]+\.py)` \|", table, re.MULTILINE))


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_the_module_map_is_the_tree(package):
    folder = PACKAGES[package]
    modules = {path.relative_to(folder).as_posix() for path in folder.rglob("*.py")}
    assert _mapped(package) == modules


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_the_documents_examples_run(path):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    text = path.read_text("utf-8")
    for number, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
        if ">>>" in block:
            runner.run(parser.get_doctest(block, {}, f"{path.name} {number}", None, 0))
    assert runner.failures == 0


@pytest.mark.parametrize("name", posenc_lib.__all__)
def test_public_name_has_a_numpydoc_docstring_with_examples(name):
    doc = inspect.getdoc(getattr(posenc_lib, name)) or ""
    assert re.search(r"^Examples\n-{8}\n", doc, flags=re.MULTILINE), name
    assert ">>> " in doc.split("Examples", 1)[1], name
