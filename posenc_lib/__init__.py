"""Token embeddings and sinusoidal positional encoding, for the course notebooks.

Import what you need from here:

>>> from posenc_lib import pos_encoding
>>> pos_encoding(3, 4).round(4)
array([ 0.1411, -0.99  ,  0.03  ,  0.9996])

Only numpy is imported with the package; plotting and widget helpers live in
``posenc_lib.plotting`` and ``posenc_lib.widgets`` and import matplotlib and
ipywidgets when you import them.
"""

from .commands import CommandError, run_commands
from .embedding import encode, lookup, one_hot
from .exercise import (
    CheckResult,
    check_lookup,
    check_pos_encoding,
    check_sinusoidal_positions,
)
from .positional import (
    frequencies,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
    wavelengths,
)
from .properties import offset_similarity, similarity, similarity_matrix

__all__ = [
    "CheckResult",
    "CommandError",
    "check_lookup",
    "check_pos_encoding",
    "check_sinusoidal_positions",
    "run_commands",
    "encode",
    "frequencies",
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
