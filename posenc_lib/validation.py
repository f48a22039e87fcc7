"""Argument checks shared by every public function.

Each check either returns a clean value (a Python ``int`` or a numpy array of a
known dtype and shape) or raises an error whose message names the argument, the
value it got and what was expected, in the style of scikit-learn's
``check_scalar``: ``d_model == 7, must be an even integer >= 2.``

Wrong *kind* of value (a float where an integer belongs, a string) raises
``TypeError``; the right kind with a wrong *value* (odd, negative, past the
vocabulary) raises ``ValueError``.
"""

import math
import numbers
from collections.abc import Mapping

import numpy as np

__all__ = [
    "MAX_ARRAY_BYTES",
    "MAX_POSITION",
    "check_array_size",
    "check_base",
    "check_callable",
    "check_choice",
    "check_d_model",
    "check_dtype",
    "check_index",
    "check_instance",
    "check_integer",
    "check_permutation",
    "check_position",
    "check_positions",
    "check_positive",
    "check_sequence",
    "check_table",
    "check_tables",
    "check_token_ids",
    "check_vector",
    "describe",
]


MAX_POSITION = 2**53 - 1
"""The largest position accepted: float64 holds every integer up to ``2**53``
exactly, so each position up to here has its own angle (``2**53 + 1`` would be
read as ``2**53``)."""

MAX_ARRAY_BYTES = 2**28
"""The largest array a function may build (256 MiB), checked before building it:
a table of 100,000 positions by 256 columns in float64 is 195 MiB."""

BASE_RANGE = (1.0, 1e100)
"""Accepted ``base`` of the wavelengths: from 1 (every divisor >= 1, so every angle
is at most its position) to 1e100 (far past any model's 1e4 to 1e6, and 200
orders of magnitude away from where the exact-angle arithmetic under- or
overflows)."""

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
    text = _digits(value) if _is_int(value) else repr(value)
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
        raise ValueError(f"{name} == {_digits(value)}, must be {expected}.")
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
        raise ValueError(f"{name} == {_digits(d_model)}, {expected}.")
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
    number = _as_float(value)
    if not np.isfinite(number) or number <= 0:
        raise ValueError(f"{name} == {value}, must be a finite number > 0.")
    return number


def _as_float(value):
    """``float(value)``, or ``inf`` (with the sign) for an int too large for it."""
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")


def check_base(base, name="base"):
    """Return ``base`` as a ``float``, or raise unless it is a number in
    :data:`BASE_RANGE`, ``[1, 1e100]``.

    Examples
    --------
    >>> check_base(10000)
    10000.0
    >>> check_base(0.5)
    Traceback (most recent call last):
    ...
    ValueError: base == 0.5, must be a number in [1, 1e100]: below 1 an angle would exceed its position.
    """  # noqa: E501
    low, high = BASE_RANGE
    expected = "must be a number in [1, 1e100]"
    if not isinstance(base, numbers.Real) or isinstance(base, _BOOLS):
        raise TypeError(f"{name} == {describe(base)}, {expected}.")
    number = _as_float(base)
    if number < low:
        expected += ": below 1 an angle would exceed its position"
    elif number > high:
        expected += ": the exact-angle arithmetic is built for bases up to 1e100"
    if not low <= number <= high:
        shown = _digits(base) if isinstance(base, numbers.Integral) else base
        raise ValueError(f"{name} == {shown}, {expected}.")
    return number


def check_array_size(shape, name, *, itemsize=8, what="the result"):
    """Raise ``ValueError`` if an array of ``shape`` would exceed
    :data:`MAX_ARRAY_BYTES`; ``name`` says which arguments set the shape.

    Examples
    --------
    >>> check_array_size((10, 4), "positions and d_model")
    >>> check_array_size((10**9, 2), "positions and d_model")
    Traceback (most recent call last):
    ...
    ValueError: positions and d_model would give the result of shape (1000000000, 2), 14.9 GiB: more than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES).
    """  # noqa: E501
    size = itemsize
    for length in shape:
        size *= int(length)
    if size > MAX_ARRAY_BYTES:
        lengths = [_digits(length) for length in shape]
        shape = f"({lengths[0]},)" if len(lengths) == 1 else f"({', '.join(lengths)})"
        raise ValueError(
            f"{name} would give {what} of shape {shape}, {_bytes(size)}: more than "
            f"the limit of {_bytes(MAX_ARRAY_BYTES)} "
            "(posenc_lib.validation.MAX_ARRAY_BYTES)."
        )


def _bytes(size):
    """``size`` bytes in the largest binary unit, e.g. ``'14.9 GiB'``; past
    float64's range as a power of ten (``'about 1e+400 B'``), never overflowing."""
    if size >= 10**300:
        return f"about 1e+{_n_digits(size) - 1} B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024 or unit == "PiB":
            return f"{size:.3g} {unit}" if unit != "B" else f"{size} B"
        size /= 1024
    raise AssertionError("unreachable")


def check_callable(value, name, *, what="a function"):
    """Return ``value`` if it can be called, or raise a TypeError naming ``name``.

    Examples
    --------
    >>> check_callable(len, "fn") is len
    True
    >>> check_callable("len", "fn", what="a function like pos_encoding(pos, d)")
    Traceback (most recent call last):
    ...
    TypeError: fn == 'len' (str), must be a function like pos_encoding(pos, d).
    """
    if not callable(value):
        raise TypeError(f"{name} == {describe(value)}, must be {what}.")
    return value


def check_instance(value, name, kind, *, what):
    """Return ``value`` if it is a ``kind``, or raise a TypeError naming ``name``.

    ``what`` says what was expected, for the message.

    Examples
    --------
    >>> check_instance(3, "n", int, what="an int")
    3
    >>> check_instance("3", "ax", int, what="a matplotlib Axes")
    Traceback (most recent call last):
    ...
    TypeError: ax == '3' (str), must be a matplotlib Axes.
    """
    if not isinstance(value, kind):
        raise TypeError(f"{name} == {describe(value)}, must be {what}.")
    return value


def check_sequence(values, name, *, what="a sequence", length=None, per=""):
    """Return ``values`` if it is a sized sequence (not a string) of ``length``
    items, if given; TypeError or ValueError naming ``name`` otherwise.

    ``what`` says what was expected, ``per`` why that length (for the messages).

    Examples
    --------
    >>> check_sequence(["a", "b"], "words", what="a list of str", length=2)
    ['a', 'b']
    >>> check_sequence("ab", "words", what="a list of str")
    Traceback (most recent call last):
    ...
    TypeError: words == 'ab' (str), must be a list of str.
    >>> check_sequence([1, 2], "positions", length=3, per=" (rows of x)")
    Traceback (most recent call last):
    ...
    ValueError: positions has length 2, must be 3 (rows of x).
    """
    if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
        raise TypeError(f"{name} == {describe(values)}, must be {what}.")
    if length is not None and len(values) != length:
        raise ValueError(f"{name} has length {len(values)}, must be {length}{per}.")
    return values


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


def _range_array(values, name, one, below):
    """``values`` (a range) as an int64 array, after checking its two ends and its
    size, so that ``range(10**30)`` is refused before anything is built."""
    sign = 1 if values.step > 0 else -1
    length = max(0, (values.stop - values.start + values.step - sign) // values.step)
    for index in (0, length - 1) if length else ():
        item = values.start + index * values.step
        if not -(2**63) <= item < below:
            raise ValueError(
                f"{name}[{index}] == {_digits(item)}, must be {one}{_BELOW[below]}"
            )
    check_array_size((length,), name, what="an int64 array")
    return np.arange(values.start, values.stop, values.step, dtype=np.int64)


def _as_1d_integers(values, name, one, below=2**63):
    """Turn ``values`` into a 1-D int64 array, or raise naming the bad element.

    ``one`` describes a single element, e.g. ``"a non-negative integer"``; every
    element must be below ``below``.
    """
    many = f"a 1-D sequence of {one.split(' ', 1)[1]}s"
    check_sequence(values, name, what=many)
    try:
        array = None if isinstance(values, range) else np.asarray(values)
    except ValueError:
        raise ValueError(
            f"{name} == {describe(values)}, must be {many} "
            "(rows of different lengths cannot form an array)."
        ) from None
    if array is None:
        array = _range_array(values, name, one, below)  # 1000x faster than asarray
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
        if not -(2**63) <= item < below:
            raise ValueError(f"{name}[{index}] == {item}, must be {one}{_BELOW[below]}")
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
    >>> check_positions([2**53])
    Traceback (most recent call last):
    ...
    ValueError: positions[0] == 9007199254740992, must be a non-negative integer below 9007199254740992 (2**53): float64 angles cannot tell larger positions apart.
    """  # noqa: E501
    one = "a non-negative integer"
    array = _as_1d_integers(positions, name, one, below=MAX_POSITION + 1)
    bad = np.flatnonzero((array < 0) | (array > MAX_POSITION))
    if bad.size:
        index = int(bad[0])
        if array[index] < 0:
            raise ValueError(f"{name}[{index}] == {array[index]}, must be {one}.")
        raise ValueError(_too_far(f"{name}[{index}]", array[index]))
    return array


def check_permutation(perm, name="perm", *, size=None):
    """Return ``perm`` as a 1-D int64 array holding each of ``0 .. size - 1`` once.

    ``size`` defaults to ``len(perm)``: a table's width, for a column order.

    Examples
    --------
    >>> check_permutation([0, 2, 1, 3])
    array([0, 2, 1, 3])
    >>> check_permutation([0, 2, 2, 3])
    Traceback (most recent call last):
    ...
    ValueError: perm == [0, 2, 2, 3], must be a permutation of range(4).
    >>> check_permutation([1, 0], size=4)
    Traceback (most recent call last):
    ...
    ValueError: perm == [1, 0], must be a permutation of range(4).
    """
    array = check_positions(perm, name)  # (n,)
    size = len(array) if size is None else size
    if sorted(array.tolist()) != list(range(size)):
        raise ValueError(
            f"{name} == {describe(array.tolist())}, must be a permutation of "
            f"range({size})."
        )
    return array


def check_position(value, name="pos", *, signed=False):
    """Return ``value`` as an ``int``, or raise unless it is an integer in
    ``[0, 2**53)`` (``(-2**53, 2**53)`` if ``signed``, for an offset).

    Examples
    --------
    >>> check_position(7)
    7
    >>> check_position(-3, "offset", signed=True)
    -3
    """
    value = check_integer(value, name, min_value=None if signed else 0)
    if abs(value) > MAX_POSITION:
        if signed:
            bound = _BELOW[2**53].replace(" below ", f" with |{name}| < ")
            raise ValueError(f"{name} == {_digits(value)}, must be an integer{bound}")
        raise ValueError(_too_far(name, value))
    return value


def _n_digits(value):
    """The number of decimal digits of ``abs(value)``, without ``str`` (which
    refuses integers past 4300 digits)."""
    value = abs(int(value))
    if value.bit_length() < 1000:
        return len(str(value))
    digits = int(math.log10(value)) + 1  # a float estimate, then made exact
    if value < 10 ** (digits - 1):
        digits -= 1
    elif value >= 10**digits:
        digits += 1
    return digits


def _digits(value):
    """An int for a message: whole up to 40 digits, else its start and length.

    Examples
    --------
    >>> _digits(-(10**5000))
    '-100000000000...(5001 digits)'
    """
    value = int(value)
    digits = _n_digits(value)
    if digits <= 40:
        return str(value)
    start = str(abs(value) // 10 ** (digits - 12))
    return f"{'-' if value < 0 else ''}{start}...({digits} digits)"


def _too_far(name, value):
    return f"{name} == {_digits(value)}, must be a non-negative integer{_BELOW[2**53]}"


_BELOW = {
    2**63: " below 2**63.",
    2**53: (
        f" below {2**53} (2**53): float64 angles cannot tell larger positions apart."
    ),
}


def _numeric_array(values, name, ndim, what):
    """``values`` as a numeric numpy array of ``ndim`` dimensions, none of them 0."""
    try:
        array = np.asarray(values)
    except ValueError:
        raise ValueError(
            f"{name} must be {ndim}-D: {what}; its rows have different lengths."
        ) from None
    if array.dtype.kind not in "iuf":
        raise TypeError(
            f"{name} has dtype {array.dtype}, must be numeric (integers or floats)."
        )
    if array.ndim != ndim:
        raise ValueError(f"{name} has shape {array.shape}, must be {ndim}-D: {what}.")
    if 0 in array.shape:
        least = "one row and column" if ndim == 2 else "one value"
        raise ValueError(f"{name} has shape {array.shape}, must have at least {least}.")
    return array


def _check_finite(array, name, *, positive=False):
    """``array``, unless an entry is nan or infinite (or <= 0 if ``positive``):
    then ValueError naming the first such entry, ``table[2, 0] == nan``."""
    bad = ~np.isfinite(array)
    if positive:
        bad |= array <= 0
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        expected = "a finite number > 0" if positive else "a finite number"
        where = ", ".join(map(str, index))
        raise ValueError(f"{name}[{where}] == {array[index]}, must be {expected}.")
    return array


def check_table(
    table, name="table", *, what="(vocab_size, d), one row per token", finite=False
):
    """Return ``table`` as a 2-D numeric numpy array (no copy when it already is one).

    ``what`` says which 2-D shape is expected, for the message; with ``finite``,
    a nan or infinite entry is an error too.

    Examples
    --------
    >>> check_table([[1.0, 2.0], [3.0, 4.0]]).shape
    (2, 2)
    >>> check_table([1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: table has shape (2,), must be 2-D: (vocab_size, d), one row per token.
    >>> check_table([[1.0, np.inf]], finite=True)
    Traceback (most recent call last):
    ...
    ValueError: table[0, 1] == inf, must be a finite number.
    """
    array = _numeric_array(table, name, 2, what)
    return _check_finite(array, name) if finite else array


def check_vector(vector, name, *, what, positive=False):
    """Return ``vector`` as a 1-D float64 array of finite numbers (> 0 if
    ``positive``), at least one; ``what`` says which shape is expected.

    Examples
    --------
    >>> check_vector([1, 2], "vector", what="(d_model,)")
    array([1., 2.])
    >>> check_vector([[1.0, 2.0]], "vector", what="(d_model,), one value per column")
    Traceback (most recent call last):
    ...
    ValueError: vector has shape (1, 2), must be 1-D: (d_model,), one value per column.
    >>> check_vector([6.3, 0.0], "wavelengths", what="(n_pairs,)", positive=True)
    Traceback (most recent call last):
    ...
    ValueError: wavelengths[1] == 0.0, must be a finite number > 0.
    """
    array = _numeric_array(vector, name, 1, what).astype(np.float64)
    return _check_finite(array, name, positive=positive)


def check_tables(tables, name, *, what, entries="name -> table"):
    """Return ``tables``, a non-empty dict of finite 2-D tables, each checked as
    :func:`check_table` does and named by its key (``panels['a']``).

    ``entries`` says what the keys and values are, for the message.

    Examples
    --------
    >>> check_tables({"a": [[1.0]]}, "tables", what="(n, d)")
    {'a': array([[1.]])}
    >>> check_tables({"a": [1.0]}, "tables", what="(n, d)")
    Traceback (most recent call last):
    ...
    ValueError: tables['a'] has shape (1,), must be 2-D: (n, d).
    >>> check_tables([], "panels", what="(n, n)", entries="title -> scores")
    Traceback (most recent call last):
    ...
    TypeError: panels == [], must be a non-empty dict of title -> scores.
    """
    if not isinstance(tables, Mapping) or not tables:
        raise TypeError(
            f"{name} == {describe(tables)}, must be a non-empty dict of {entries}."
        )
    return {
        key: check_table(table, f"{name}[{key!r}]", what=what, finite=True)
        for key, table in tables.items()
    }


def check_index(value, name, size, *, what, each=None):
    """Return ``value`` as an ``int`` in ``[0, size)``; negative values never wrap.

    ``each`` names one value in the message's bound when ``name`` is a plural
    (``token_ids == 5, ... 0 <= token_id < vocab_size``); default ``name``.

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
            f"{name} == {value}, must be in [0, {size}), "
            f"i.e. 0 <= {each or name} < {what}."
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
        return check_index(
            token_ids, name, vocab_size, what="vocab_size", each="token_id"
        )
    array = _as_1d_integers(token_ids, name, "an integer token id")
    bad = np.flatnonzero((array < 0) | (array >= vocab_size))
    if bad.size:
        index = int(bad[0])
        raise ValueError(
            f"{name}[{index}] == {array[index]}, must be in [0, {vocab_size}), "
            "i.e. 0 <= token_id < vocab_size."
        )
    return array
