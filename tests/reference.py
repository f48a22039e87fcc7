"""The lesson's formula as a plain loop: the one reference the tests hold
``posenc_lib`` to (imported as ``reference``; pytest puts ``tests/`` on
``sys.path``). It shares no code with the library: one ``math.sin`` or
``math.cos`` at a time, as the card writes it.
"""

import math

import numpy as np


def plain_loop(positions, d_model, base=10000.0):
    """``PE[pos, k]`` for every position and column, shape (len(positions), d_model).

    >>> plain_loop([3], 4).round(4).tolist()
    [[0.1411, -0.99, 0.03, 0.9996]]
    """
    return np.array(
        [
            [
                (math.sin, math.cos)[k % 2](pos / base ** (2 * (k // 2) / d_model))
                for k in range(d_model)
            ]
            for pos in positions
        ]
    ).reshape(len(positions), d_model)
