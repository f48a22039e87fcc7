"""Token embeddings and sinusoidal positional encoding, for the course notebooks.

>>> from posenc_lib import pos_encoding
>>> pos_encoding(3, 4).round(4)
array([ 0.1411, -0.99  ,  0.03  ,  0.9996])

One module per topic. The names below load with their module when first used, so
that ``python -m posenc_lib`` reaches ``__main__.py`` before anything imports
numpy; :mod:`posenc_lib.exercise` and :mod:`posenc_lib.figures` when imported.
"""

import importlib

_HOMES = {  # module -> the names of __all__ it holds
    "conventions": "encoding_table",
    "embedding": "encode lookup one_hot",
    "identify": "Identification identify_encoding",
    "positional": "frequencies pos_encoding rotation_matrix sinusoidal_positions "
    "wavelengths",
    "properties": "offset_similarity similarity",
}
_HOME = {name: module for module, names in _HOMES.items() for name in names.split()}
__all__ = [  # a literal: the grader's box reads it without importing the package
    "Identification", "encode", "encoding_table", "frequencies", "identify_encoding",
    "lookup", "offset_similarity", "one_hot", "pos_encoding", "rotation_matrix",
    "similarity", "sinusoidal_positions", "wavelengths",
]  # fmt: skip


def __getattr__(name):
    """A name of ``__all__``, imported from its module on first use (PEP 562)."""
    if name not in _HOME:
        raise AttributeError(f"module 'posenc_lib' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({*globals(), *__all__})
