"""Token embeddings and sinusoidal positional encoding, for the course notebooks.

Import what you need from here:

>>> from posenc_lib import pos_encoding
>>> pos_encoding(3, 4).round(4)
array([ 0.1411, -0.99  ,  0.03  ,  0.9996])

The package has three rooms. Here, the maths a learner reads:
:mod:`~posenc_lib.positional` (the formula; :mod:`~posenc_lib.exact` makes it
exact and fast), :mod:`~posenc_lib.embedding`, :mod:`~posenc_lib.properties`
(why sines), :mod:`~posenc_lib.mistakes` (chapter 04),
:mod:`~posenc_lib.attention` and :mod:`~posenc_lib.word_vectors` (chapters 06
and 01), :mod:`~posenc_lib.conventions` and :mod:`~posenc_lib.identify` (the
layouts other libraries use, chapter 07), :mod:`~posenc_lib.validation` and
:mod:`~posenc_lib.formatting`; ``import posenc_lib`` loads numpy and these only.
:mod:`posenc_lib.exercise` is the learner's exercise (chapter 05) and
:mod:`posenc_lib.figures` the chapters' figures and sliders (matplotlib and
ipywidgets, when imported). Grading a class is one of the course's tools, in
``tools/posenc_tools``, outside this package.
"""

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
from .properties import offset_similarity, similarity, similarity_matrix

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
    "similarity_matrix",
    "sinusoidal_positions",
    "wavelengths",
]
