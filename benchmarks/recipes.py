"""The ways of building a sinusoidal table that ``run.py`` compares.

Every recipe has the signature ``recipe(positions, d_model, dtype)`` with
``positions`` a ``range`` and returns an array of shape
``(len(positions), d_model)``, sines in the even columns and cosines in the odd
ones (``posenc_lib concat``: the ``[sin | cos]`` halves). The tutorial recipes
follow their tutorials line by line, in numpy: ``pytorch (numpy)`` is the
PyTorch tutorial's arithmetic, including its float32 angles, not torch itself.
"""

import math

import numpy as np

from posenc_lib import sinusoidal_positions

__all__ = ["RECIPES"]


def posenc_lib_table(positions, d_model, dtype):
    """This library: the rotation fast path for a range of positions."""
    return sinusoidal_positions(positions, d_model, dtype=dtype)


def posenc_lib_concat(positions, d_model, dtype):
    """This library, ``layout="concat"``: the same fast path, then halves in place."""
    return sinusoidal_positions(positions, d_model, dtype=dtype, layout="concat")


def straightforward_table(positions, d_model, dtype):
    """Angles as an outer product, then np.sin / np.cos into interleaved columns."""
    divisors = 10000.0 ** (np.arange(0, d_model, 2) / d_model)  # (d_model // 2,)
    angle = np.asarray(positions)[:, None] / divisors  # (n, d_model // 2)
    table = np.empty((len(positions), d_model), dtype=dtype)  # (n, d_model)
    table[:, 0::2] = np.sin(angle)
    table[:, 1::2] = np.cos(angle)
    return table


def _get_angles(pos, i, d_model):
    """The TensorFlow tutorial's helper: one angle per column, (n, d_model)."""
    angle_rates = 1 / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    return pos * angle_rates


def tensorflow_tutorial(positions, d_model, dtype):
    """Full (n, d_model) angle matrix, sin of its even and cos of its odd columns."""
    angle_rads = _get_angles(
        np.asarray(positions)[:, np.newaxis],
        np.arange(d_model)[np.newaxis, :],
        d_model,
    )  # (n, d_model), float64
    angle_rads[:, 0::2] = np.sin(angle_rads[:, 0::2])
    angle_rads[:, 1::2] = np.cos(angle_rads[:, 1::2])
    return angle_rads.astype(dtype, copy=False)  # the tutorial casts to float32


def pytorch_tutorial(positions, d_model, dtype):
    """``div_term = exp(arange(0, d, 2) * -(log(10000) / d))``, all in ``dtype``."""
    position = np.asarray(positions, dtype=dtype)[:, None]  # (n, 1)
    div_term = np.exp(
        np.arange(0, d_model, 2, dtype=dtype) * -(math.log(10000.0) / d_model)
    )  # (d_model // 2,)
    pe = np.zeros((len(positions), d_model), dtype=dtype)  # (n, d_model)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def plain_loop(positions, d_model, dtype):
    """One ``math.sin`` or ``math.cos`` per number, in Python."""
    rows = [
        [
            (math.sin, math.cos)[k % 2](pos / 10000.0 ** (2 * (k // 2) / d_model))
            for k in range(d_model)
        ]
        for pos in positions
    ]
    return np.array(rows, dtype=dtype)


def fill_floor(positions, d_model, dtype):
    """Not a recipe: allocate an array of the output's size and write every entry."""
    table = np.empty((len(positions), d_model), dtype=dtype)
    table.fill(0.5)
    return table


# name -> (recipe, dtypes, only the smallest size?, has an accuracy?)
RECIPES = {
    "posenc_lib": (posenc_lib_table, ("float64", "float32"), False, True),
    "posenc_lib concat": (posenc_lib_concat, ("float64",), False, False),
    "straightforward": (straightforward_table, ("float64", "float32"), False, True),
    "tensorflow (numpy)": (tensorflow_tutorial, ("float64", "float32"), False, True),
    "pytorch (numpy)": (pytorch_tutorial, ("float64", "float32"), False, True),
    "plain loop": (plain_loop, ("float64",), True, True),
    "fill floor": (fill_floor, ("float64", "float32"), False, False),
}
