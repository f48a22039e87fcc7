"""Token embeddings and sinusoidal positional encoding, for the course notebooks.

>>> from posenc_lib import pos_encoding
>>> pos_encoding(3, 4).round(4)
array([ 0.1411, -0.99  ,  0.03  ,  0.9996])

``import posenc_lib`` loads numpy and the maths only, one module per topic
(:mod:`~posenc_lib.positional` is the formula); :mod:`posenc_lib.exercise` and
:mod:`posenc_lib.figures` (matplotlib, ipywidgets) load when imported. Grading a
class is a course tool (``tools/posenc_tools``), outside this package.
"""

import os as _os
import sys as _sys

# ``python -m posenc_lib`` puts the working folder first on sys.path: a learner's
# own numpy.py or select.py there must not replace the real ones (``-m`` is
# argv[0] only while the package is found, before posenc_lib/__main__.py runs).
if _sys.argv[:1] == ["-m"] and _sys.path[:1] == [_os.getcwd()]:
    del _sys.path[0]

from .conventions import encoding_table
from .embedding import encode, lookup, one_hot
from .identify import Identification, identify_encoding
from .positional import (
    frequencies,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
    wavelengths,
)
from .properties import offset_similarity, similarity

__all__ = [
    "Identification",
    "encode",
    "encoding_table",
    "frequencies",
    "identify_encoding",
    "lookup",
    "offset_similarity",
    "one_hot",
    "pos_encoding",
    "rotation_matrix",
    "similarity",
    "sinusoidal_positions",
    "wavelengths",
]
