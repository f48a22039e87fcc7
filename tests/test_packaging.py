"""The package as installed: its import cost and its docstrings.

Its dependency lists, the locks and environment.yml: test_environment.py.
"""

import inspect
import re

import pytest

import posenc_lib


def test_all_names_are_unique_and_importable():
    assert len(set(posenc_lib.__all__)) == len(posenc_lib.__all__)
    for name in posenc_lib.__all__:
        assert hasattr(posenc_lib, name), name


@pytest.mark.parametrize("name", posenc_lib.__all__)
def test_public_name_has_a_numpydoc_docstring_with_examples(name):
    doc = inspect.getdoc(getattr(posenc_lib, name)) or ""
    assert re.search(r"^Examples\n-{8}\n", doc, flags=re.MULTILINE), name
    assert ">>> " in doc.split("Examples", 1)[1], name
