"""Argument checks shared by every public function.

Each check either returns a clean value (a Python ``int`` or a numpy array of a
known dtype and shape) or raises an error whose message names the argument, the
value it got and what was expected, in the style of scikit-learn's
``check_scalar``: ``d_model == 7, must be an even integer >= 2.``

Wrong *kind* of value (a float where an integer belongs, a string) raises
``TypeError``; the right kind with a wrong *value* (odd, negative, past the
vocabulary) raises ``ValueError``.
"""

import numbers

import numpy as np

__all__ = [
    "check_choice",
    "check_d_model",
    "check_dtype",
    "check_index",
    "check_integer",
    "check_positions",
    "check_positive",
    "check_table",
    "check_token_ids",
    "describe",
]


_BOOLS = (bool, np.bool_)
_BOOL_TYPES = frozenset(_BOOLS)


def describe(value):
    """Short, readable form of a value for an error message.

    A numpy scalar reads as its Python value and its numpy type, ``4.0 (numpy
    float64)``, ``True (numpy bool)``: the same under numpy 1 and 2, whose reprs
    differ (``4.0`` against ``np.float64(4.0)``).
    """
    kind = None
    if isinstance(value, np.generic):
        kind = f"numpy {np.dtype(type(value)).name}"  # "bool_" is "bool" in numpy 2
        value = value.item()
    elif isinstance(value, numbers.Number | str):
        kind = type(value).__name__
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return text if kind is None else f"{text} ({kind})"


def _is_int(value):
    """True for Python and numpy integers, False for bools and everything else."""
    return isinstance(value, numbers.Integral) and not isinstance(value, _BOOLS)


def check_integer(value, name, *, min_value=None, max_value=None):
    """Return ``value`` as an ``int``, or raise unless it is an integer in range.

    Examples
    --------
    >>> check_integer(3, "pos", min_value=0)
    3
    >>> check_integer(-1, "pos", min_value=0)
    Traceback (most recent call last):
    ...
    ValueError: pos == -1, must be an integer >= 0.
    >>> check_integer(9, "pair", min_value=0, max_value=3)
    Traceback (most recent call last):
    ...
    ValueError: pair == 9, must be an integer in [0, 3].
    """
    if min_value is not None and max_value is not None:
        expected = f"an integer in [{min_value}, {max_value}]"
    elif max_value is not None:
        expected = f"an integer <= {max_value}"
    else:
        expected = "an integer" if min_value is None else f"an integer >= {min_value}"
    if not _is_int(value):
        raise TypeError(f"{name} == {describe(value)}, must be {expected}.")
    too_low = min_value is not None and value < min_value
    if too_low or (max_value is not None and value > max_value):
        raise ValueError(f"{name} == {value}, must be {expected}.")
    return int(value)


def check_d_model(d_model, name="d_model"):
    """Return ``d_model`` as an ``int``, or raise unless it is an even integer >= 2.

    Examples
    --------
    >>> check_d_model(4)
    4
    >>> check_d_model(7)
    Traceback (most recent call last):
    ...
    ValueError: d_model == 7, must be an even integer >= 2.
    """
    expected = "must be an even integer >= 2"
    if not _is_int(d_model):
        raise TypeError(f"{name} == {describe(d_model)}, {expected}.")
    if d_model < 2 or d_model % 2:
        raise ValueError(f"{name} == {d_model}, {expected}.")
    return int(d_model)


def check_positive(value, name):
    """Return ``value`` as a ``float``, or raise unless it is a finite number > 0.

    Examples
    --------
    >>> check_positive(10000, "base")
    10000.0
    """
    if not isinstance(value, numbers.Real) or isinstance(value, _BOOLS):
        raise TypeError(f"{name} == {describe(value)}, must be a finite number > 0.")
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} == {value}, must be a finite number > 0.")
    return float(value)


def check_choice(value, name, choices):
    """Return ``value`` if it is one of the strings ``choices``, or raise naming them.

    Examples
    --------
    >>> check_choice("concat", "layout", ("interleaved", "concat"))
    'concat'
    >>> check_choice("halves", "layout", ("interleaved", "concat"))
    Traceback (most recent call last):
    ...
    ValueError: layout == 'halves', must be one of 'interleaved', 'concat'.
    """
    expected = "must be one of " + ", ".join(repr(choice) for choice in choices)
    if not isinstance(value, str):
        raise TypeError(f"{name} == {describe(value)}, {expected}.")
    if value not in choices:
        raise ValueError(f"{name} == {value!r}, {expected}.")
    return value


def check_dtype(dtype, name="dtype"):
    """Return ``numpy.dtype(dtype)``, or raise unless it is a floating-point type.

    Examples
    --------
    >>> check_dtype("float32")
    dtype('float32')
    """
    try:
        resolved = np.dtype(dtype)
    except TypeError:
        raise TypeError(
            f"{name} == {dtype!r}, must be a floating-point dtype "
            "such as numpy.float64 or numpy.float32."
        ) from None
    if resolved.kind != "f":
        raise TypeError(
            f"{name} == {resolved}, must be a floating-point dtype "
            "such as numpy.float64 or numpy.float32."
        )
    return resolved


def _as_1d_integers(values, name, one):
    """Turn ``values`` into a 1-D int64 array, or raise naming the bad element.

    ``one`` describes a single element, e.g. ``"a non-negative integer"``.
    """
    many = f"a 1-D sequence of {one.split(' ', 1)[1]}s"
    if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} == {describe(values)}, must be {many}.")
    try:
        if isinstance(values, range) and abs(values.start) + abs(values.stop) < 2**62:
            array = np.arange(values.start, values.stop, values.step)  # 1000x faster
        else:
            array = np.asarray(values)
    except ValueError:
        raise ValueError(
            f"{name} == {describe(values)}, must be {many} "
            "(rows of different lengths cannot form an array)."
        ) from None
    if array.ndim != 1:
        raise ValueError(f"{name} has shape {array.shape}, must be {many}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty, must be {many} of length >= 1.")
    if array.dtype.kind in "iu" and array.dtype != np.uint64:
        # numpy turns [True, 2] into [1, 2]: a bool in a list must still be an error
        if isinstance(values, np.ndarray | range) or _BOOL_TYPES.isdisjoint(
            map(type, values)
        ):
            return array.astype(np.int64, copy=False)
    items = array.tolist() if isinstance(values, np.ndarray) else list(values)
    for index, item in enumerate(items):
        if not _is_int(item):
            raise TypeError(f"{name}[{index}] == {describe(item)}, must be {one}.")
        if not -(2**63) <= item < 2**63:
            raise ValueError(f"{name}[{index}] == {item}, must be {one} below 2**63.")
    return np.array([int(item) for item in items], dtype=np.int64)


def check_positions(positions, name="positions"):
    """Return ``positions`` as a 1-D int64 array of non-negative integers.

    Examples
    --------
    >>> check_positions(range(3))
    array([0, 1, 2])
    >>> check_positions([0, -2])
    Traceback (most recent call last):
    ...
    ValueError: positions[1] == -2, must be a non-negative integer.
    """
    array = _as_1d_integers(positions, name, "a non-negative integer")
    negative = np.flatnonzero(array < 0)
    if negative.size:
        index = int(negative[0])
        raise ValueError(
            f"{name}[{index}] == {array[index]}, must be a non-negative integer."
        )
    return array


def check_table(table, name="table", *, what="(vocab_size, d), one row per token"):
    """Return ``table`` as a 2-D numeric numpy array (no copy when it already is one).

    ``what`` says which 2-D shape is expected, for the message.

    Examples
    --------
    >>> check_table([[1.0, 2.0], [3.0, 4.0]]).shape
    (2, 2)
    >>> check_table([1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: table has shape (2,), must be 2-D: (vocab_size, d), one row per token.
    """
    try:
        array = np.asarray(table)
    except ValueError:
        raise ValueError(
            f"{name} must be 2-D: {what}; its rows have different lengths."
        ) from None
    if array.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} has dtype {array.dtype}, must be numeric (integers or floats)."
        )
    if array.ndim != 2:
        raise ValueError(f"{name} has shape {array.shape}, must be 2-D: {what}.")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(
            f"{name} has shape {array.shape}, must have at least one row and column."
        )
    return array


def check_index(value, name, size, *, what):
    """Return ``value`` as an ``int`` in ``[0, size)``; negative values never wrap.

    Examples
    --------
    >>> check_index(2, "token_id", 5, what="vocab_size")
    2
    >>> check_index(-1, "token_id", 5, what="vocab_size")
    Traceback (most recent call last):
    ...
    ValueError: token_id == -1, must be in [0, 5), i.e. 0 <= token_id < vocab_size.
    """
    if not _is_int(value):
        raise TypeError(
            f"{name} == {describe(value)}, must be an integer in [0, {size})."
        )
    if not 0 <= value < size:
        raise ValueError(
            f"{name} == {value}, must be in [0, {size}), i.e. 0 <= {name} < {what}."
        )
    return int(value)


def check_token_ids(token_ids, vocab_size, name="token_ids"):
    """Return ``token_ids`` as an int, or a 1-D int64 array, all in ``[0, vocab_size)``.

    Examples
    --------
    >>> check_token_ids([2, 0], vocab_size=3)
    array([2, 0])
    >>> check_token_ids([0, 3], vocab_size=3)
    Traceback (most recent call last):
    ...
    ValueError: token_ids[1] == 3, must be in [0, 3), i.e. 0 <= token_id < vocab_size.
    """
    if isinstance(token_ids, np.ndarray) and token_ids.ndim == 0:
        token_ids = token_ids.item()  # a 0-d array is one id
    if not hasattr(token_ids, "__len__"):
        return check_index(token_ids, "token_id", vocab_size, what="vocab_size")
    array = _as_1d_integers(token_ids, name, "an integer token id")
    bad = np.flatnonzero((array < 0) | (array >= vocab_size))
    if bad.size:
        index = int(bad[0])
        raise ValueError(
            f"{name}[{index}] == {array[index]}, must be in [0, {vocab_size}), "
            "i.e. 0 <= token_id < vocab_size."
        )
    return array
