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
PACKAGES = {  # the heading of docs/maintaining.md's table of each package's modules
    "The learner's package": ROOT / "posenc_lib",
    "The course's tools": ROOT / "tools" / "posenc_tools",
}


@pytest.mark.parametrize("heading", PACKAGES)
def test_the_module_map_is_the_tree(heading):
    text = (ROOT / "docs" / "maintaining.md").read_text("utf-8")
    table = text.split(heading, 1)[1].split("\n\n", 2)[1]
    mapped = re.findall(r"^\| `([\w/]+\.py)` \|", table, re.MULTILINE)
    tree = {p.relative_to(PACKAGES[heading]) for p in PACKAGES[heading].rglob("*.py")}
    assert set(mapped) == {path.as_posix() for path in tree}


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
