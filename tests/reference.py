"""The lesson's formula written out, the references the tests hold ``posenc_lib``
to (imported as ``reference``; pytest puts ``tests/`` on ``sys.path``). They share
no code with the library: a plain loop of ``math.sin`` and ``math.cos``, as the
card writes it, and the same at 60 digits with ``mpmath``; and the one way the tests
hold a refusal to its exact message (:func:`refused`).
"""

import math

import mpmath
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


def mpmath_rows(positions, d_model, base=10000.0, *, exact_divisors=False):
    """sin and cos of ``pos / divisor`` at 60 digits, interleaved, rounded once to
    float64, shape (len(positions), d_model).

    ``divisor`` is the float64 ``base ** (2 * pair / d_model)`` the library uses,
    or with ``exact_divisors`` that power in exact arithmetic (the formula itself).

    >>> mpmath_rows([3], 4, exact_divisors=True).round(4).tolist()
    [[0.1411, -0.99, 0.03, 0.9996]]
    """
    with mpmath.workdps(60):
        if exact_divisors:
            exponents = [mpmath.mpf(2 * pair) / d_model for pair in range(d_model // 2)]
            divisors = [mpmath.power(mpmath.mpf(base), x) for x in exponents]
        else:
            floats = float(base) ** (2 * np.arange(d_model // 2) / d_model)
            divisors = [mpmath.mpf(float(w)) for w in floats]
        rows = [
            [
                float(f(mpmath.mpf(int(pos)) / w))
                for w in divisors
                for f in (mpmath.sin, mpmath.cos)
            ]
            for pos in positions
        ]
    return np.array(rows).reshape(len(positions), d_model)


def refused(call, namespace):
    """What ``eval(call, namespace)`` raised, as Python prints it ("ValueError: ...").

    >>> refused("int('x')", {})
    "ValueError: invalid literal for int() with base 10: 'x'"
    """
    try:
        eval(call, namespace)
    except (TypeError, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    raise AssertionError(f"{call} raised nothing")
