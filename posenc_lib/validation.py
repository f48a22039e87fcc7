"""Argument checks shared by every public function.

Each returns a clean value or raises naming the argument, its value and what was
expected (``d_model == 7, must be an even integer >= 2.``): a ``TypeError`` for a
wrong *kind* (with its type), a ``ValueError`` for a wrong *value*.
"""

import math
import numbers
from collections.abc import Callable, Mapping

import numpy as np

__all__ = [  # the checks, and the limits they hold
    "BASE_RANGE", "MAX_ARRAY_BYTES", "MAX_POSITION", "check_array", "check_array_size",
    "check_base", "check_callable", "check_choice", "check_d_model", "check_dtype",
    "check_index", "check_instance", "check_integer", "check_permutation",
    "check_position", "check_positions", "check_positive", "check_seconds",
    "check_sequence", "check_table", "check_tables", "check_token_ids", "describe",
]  # fmt: skip

MAX_POSITION = 2**53 - 1  # float64 holds every integer up to 2**53: one angle each
MAX_ARRAY_BYTES = 2**28  # 256 MiB: larger arrays are refused before they are built
BASE_RANGE = (1.0, 1e100)  # below 1 an angle would exceed its position; up to 1e100
# the error-free products of posenc_lib.exact stay far from overflow
_TOO_FAR = f"below {2**53} (2**53): float64 angles cannot tell larger positions apart"
_TEXT = (str, bytes, bytearray, memoryview)  # sequences, but not of numbers
_BOOLS = frozenset((bool, np.bool_))


def describe(value, *, kind=True):
    """A short form of ``value`` for a message; with ``kind``, its type after it.

    >>> describe(4.0), describe(np.int64(3), kind=False), describe(-(10**5000))
    ('4.0 (float)', '3', '-100000000000...(5001 digits) (int)')
    """
    name = type(value).__name__
    if isinstance(value, np.generic):
        name, value = f"numpy {np.dtype(type(value)).name}", value.item()
    if _is_int(value):
        text = _digits(int(value))
    elif isinstance(value, memoryview):
        text = f"<memoryview of {value.nbytes} bytes>"
    elif isinstance(value, np.dtype):
        text = str(value)
    else:
        try:
            text = repr(value)
        except ValueError:  # it holds an int past 4300 digits
            text = f"<a {name} too long to show>"
    text = text if len(text) <= 60 else text[:57] + "..."
    shown = kind and isinstance(value, numbers.Number | str)
    return f"{text} ({name})" if shown else text


def _digits(value, *, count=False):
    """``str(value)``, past 40 digits its first 12 and their count (the count
    alone if ``count``), never ``str`` of a huge int."""
    size = abs(value)
    if size.bit_length() < 1000:
        digits = len(str(size))
    else:  # a float estimate, made exact
        digits = int(math.log10(size)) + 1
        digits += (size >= 10**digits) - (size < 10 ** (digits - 1))
    if count or digits <= 40:
        return digits if count else str(value)
    return f"{'-' * (value < 0)}{size // 10 ** (digits - 12)}...({digits} digits)"


def _fail(name, value, expected, error=ValueError):
    """The error ``name == value, must be expected.``: every message on a value."""
    return error(
        f"{name} == {describe(value, kind=error is TypeError)}, must be {expected}."
    )


def _is_int(value):  # Python and numpy integers, not bools
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_integer(value, name, *, min_value=None, max_value=None):
    """Return ``value`` as an ``int``, or raise unless it is an integer in range
    (a ``max_value`` comes with a ``min_value``)."""
    low, high = min_value is not None, max_value is not None
    expected = f"an integer{f' >= {min_value}' * low}"
    if high:
        expected = f"an integer in [{min_value}, {max_value}]"
    if not _is_int(value):
        raise _fail(name, value, expected, TypeError)
    if (low and value < min_value) or (high and value > max_value):
        raise _fail(name, value, expected)
    return int(value)


def check_d_model(d_model, name="d_model"):
    """Return ``d_model`` as an ``int``, or raise unless it is an even integer >= 2."""
    if not _is_int(d_model) or d_model < 2 or d_model % 2:
        error = ValueError if _is_int(d_model) else TypeError
        raise _fail(name, d_model, "an even integer >= 2", error)
    return int(d_model)


def check_position(value, name="pos", *, signed=False):
    """Return ``value`` as an ``int`` in ``[0, 2**53)`` (an offset, ``signed``, in
    ``(-2**53, 2**53)``)."""
    value = check_integer(value, name, min_value=None if signed else 0)
    if abs(value) > MAX_POSITION:
        bound = f"with |{name}| < {_TOO_FAR[6:]}" if signed else _TOO_FAR
        one = "an integer" if signed else "a non-negative integer"
        raise _fail(name, value, f"{one} {bound}")
    return value


def _real(value, name, expected, within=lambda number: True):
    """``value`` as a float (a huge int as inf): a TypeError unless it is real, a
    ValueError unless ``within(it)``."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise _fail(name, value, expected, TypeError)
    try:
        number = float(value)
    except OverflowError:
        number = math.inf if value > 0 else -math.inf
    if not within(number):
        raise _fail(name, value, expected)
    return number


def check_positive(value, name):
    """Return ``value`` as a float, or raise unless it is a finite number > 0."""
    return _real(value, name, "a finite number > 0", lambda x: 0 < x < math.inf)


def check_seconds(value, name="time_limit"):
    """Return ``value`` as a float, or raise unless it is a number in ``(0, 3600]``."""
    expected = "a number of seconds in (0, 3600]"
    return _real(value, name, expected, lambda x: 0 < x <= 3600)


def check_base(base, name="base"):
    """Return ``base`` as a float, or raise unless it is a number in ``[1, 1e100]``."""
    expected = "a number in [1, 1e100]"
    number = _real(base, name, expected)  # then a message for each side
    if not BASE_RANGE[0] <= number <= BASE_RANGE[1]:  # nan too
        if number < BASE_RANGE[0]:
            expected += ": below 1 an angle would exceed its position"
        elif number > BASE_RANGE[1]:
            expected += ": the exact-angle arithmetic is built for bases up to 1e100"
        raise _fail(name, base, expected)
    return number


def check_array_size(shape, name, *, itemsize=8, what="the result"):
    """Raise a ValueError naming ``name`` if ``shape`` passes MAX_ARRAY_BYTES."""
    size = math.prod(int(length) for length in shape) * itemsize
    if size <= MAX_ARRAY_BYTES:
        return
    units = ("KiB", "MiB", "GiB", "TiB", "PiB")
    power = min((size.bit_length() - 1) // 10, len(units))  # >= 1: size > 2**28
    shown = f"about 1e+{_digits(size, count=True) - 1} B"  # past float64
    if size < 10**300:
        shown = f"{size / 1024**power:.3g} {units[power - 1]}"
    lengths = ", ".join(_digits(int(length)) for length in shape)
    raise ValueError(
        f"{name} would give {what} of shape ({lengths}{',' * (len(shape) == 1)}), "
        f"{shown}: more than the limit of 256 MiB "
        "(posenc_lib.validation.MAX_ARRAY_BYTES)."
    )


def check_callable(value, name, *, what="a function"):
    """:func:`check_instance` of anything that can be called."""
    return check_instance(value, name, Callable, what=what)


def check_instance(value, name, kind, *, what):
    """Return ``value`` if it is a ``kind``; a TypeError saying ``what`` if not."""
    if not isinstance(value, kind):
        raise _fail(name, value, what, TypeError)
    return value


def check_choice(value, name, choices):
    """Return ``value`` if it is one of the strings ``choices``, else raise."""
    if not isinstance(value, str) or value not in choices:
        error = ValueError if isinstance(value, str) else TypeError
        raise _fail(name, value, "one of " + ", ".join(map(repr, choices)), error)
    return value


def check_dtype(dtype, name="dtype"):
    """Return ``numpy.dtype(dtype)``, or raise unless it is a floating-point type."""
    expected = "a floating-point dtype such as numpy.float64 or numpy.float32"
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        raise _fail(name, dtype, expected, TypeError) from None
    if dtype.kind != "f":
        raise _fail(name, dtype, expected, TypeError)
    return dtype


def check_sequence(values, name, *, what="a sequence", length=None, per=""):
    """Return ``values`` if a sized sequence, not text (``what``), of ``length``
    items if given (``per`` says why)."""
    if isinstance(values, _TEXT) or not hasattr(values, "__len__"):
        raise _fail(name, values, what, TypeError)
    if length is not None and len(values) != length:
        raise ValueError(f"{name} has length {len(values)}, must be {length}{per}.")
    return values


def _integers(values, name, one, high, expected):
    """``values`` as a 1-D int64 array in ``[0, high]``, or an error naming the first
    bad item (``one`` an item; ``expected`` below 0, above ``high``)."""
    many = f"a 1-D sequence of {one.split(' ', 1)[1]}s"
    if isinstance(values, np.ma.MaskedArray):  # its mask would be read past
        raise TypeError(
            f"{name} is a masked array, must be {many}: pass {name}.compressed() "
            f"(the unmasked items) or {name}.filled(v)."
        )
    check_sequence(values, name, what=many)
    if isinstance(values, range) and values:  # its ends bound it: check them first
        last = (values[-1] - values[0]) // values.step
        for index, item in ((0, values[0]), (last, values[-1])):
            if not 0 <= item <= high:
                raise _fail(f"{name}[{index}]", item, expected[item > 0])
        check_array_size((last + 1,), name, what="an int64 array")
        return np.arange(values.start, values.stop, values.step, dtype=np.int64)
    try:
        array = np.asarray(values)
    except ValueError:
        why = " (rows of different lengths cannot form an array)"
        raise _fail(name, values, many + why) from None
    if array.ndim != 1:
        raise ValueError(f"{name} has shape {array.shape}, must be {many}.")
    if array.size == 0:
        raise ValueError(f"{name} is empty, must be {many} of length >= 1.")
    if array.dtype.kind not in "iu" or not (
        isinstance(values, np.ndarray) or _BOOLS.isdisjoint(map(type, values))
    ):  # one item at a time, as Python sees them
        for index, item in enumerate(array.tolist() if array is values else values):
            if not _is_int(item):
                raise _fail(f"{name}[{index}]", item, one, TypeError)
        array = np.array(list(values), dtype=object)  # Python ints of any size
    bad = np.flatnonzero((array < 0) | (array > high))
    if bad.size:
        item = array[bad[0]]
        raise _fail(f"{name}[{bad[0]}]", item, expected[bool(item > 0)])
    return array.astype(np.int64)


def check_positions(positions, name="positions"):
    """Return ``positions`` as a 1-D int64 array of integers in ``[0, 2**53)``.

    >>> check_positions(range(3))
    array([0, 1, 2])
    """
    one = "a non-negative integer"
    return _integers(positions, name, one, MAX_POSITION, (one, f"{one} {_TOO_FAR}"))


def check_token_ids(token_ids, vocab_size, name="token_ids"):
    """Return ``token_ids`` as an int, or a 1-D int64 array, in ``[0, vocab_size)``."""
    if isinstance(token_ids, np.ndarray) and token_ids.ndim == 0:
        token_ids = token_ids.item()  # a 0-d array is one id
    each = {"what": "vocab_size", "each": "token_id"}
    if not hasattr(token_ids, "__len__"):
        return check_index(token_ids, name, vocab_size, **each)
    expected = (f"in [0, {vocab_size}), i.e. 0 <= token_id < vocab_size",) * 2
    return _integers(token_ids, name, "an integer token id", vocab_size - 1, expected)


def check_index(value, name, size, *, what, each=None):
    """Return ``value`` as an ``int`` in ``[0, size)`` (``what`` names ``size``;
    ``each`` one value, when ``name`` is a plural)."""
    if not _is_int(value):
        raise _fail(name, value, f"an integer in [0, {size})", TypeError)
    if not 0 <= value < size:
        raise _fail(name, value, f"in [0, {size}), i.e. 0 <= {each or name} < {what}")
    return int(value)


def check_permutation(perm, name="perm", *, size=None):
    """Return ``perm`` as an int64 array holding each of ``0 .. size - 1`` once
    (``size`` defaults to ``len(perm)``)."""
    array = check_positions(perm, name)  # (n,)
    size = len(array) if size is None else size
    if len(array) != size or not np.array_equal(np.sort(array), np.arange(size)):
        shown = array[:30].tolist()  # as much as describe() shows
        raise _fail(name, shown, f"a permutation of range({size})")
    return array


def check_array(
    values, name, *, ndim=None, what="", shape=None, positive=False, inf=False
):
    """Return ``values`` as a numpy array of at least one real number, each finite
    (> 0 if ``positive``; ``inf`` allows infinities, never nan), of ``ndim`` and
    ``shape`` if given (None: any length; ``what`` says which, for the message).

    >>> check_array([[1.0, np.inf]], "table", ndim=2, what="(n, d)")
    Traceback (most recent call last):
    ...
    ValueError: table[0, 1] == inf, must be a finite number.
    """
    ndim = len(shape) if shape and ndim is None else ndim
    try:
        array = np.asarray(values)
    except ValueError:
        why = f"{ndim}-D: {what}" if ndim else "an array"
        raise _fail(name, values, f"{why}; its rows have different lengths") from None
    if array.dtype.kind not in "iuf":
        real = "real numbers (integers or floats)"
        raise TypeError(f"{name} has dtype {array.dtype}, must hold {real}.")
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} has shape {array.shape}, must be {ndim}-D: {what}.")
    lengths = zip(shape or (), array.shape, strict=True)  # lazy
    if shape and any(n not in (None, m) for n, m in lengths):
        raise ValueError(f"{name} has shape {array.shape}, must be {what}.")
    if array.size == 0:
        raise ValueError(
            f"{name} has shape {array.shape}, must hold at least one number."
        )
    if array.dtype.kind != "f" and not positive:  # integers: finite, no mask
        return array
    bad = np.isnan(array) if inf else ~np.isfinite(array) | (positive & (array <= 0))
    if bad.any():
        index = tuple(int(i) for i in np.argwhere(bad)[0])
        where = f"[{', '.join(map(str, index))}]" if index else ""
        expected = "a number" if inf else f"a finite number{' > 0' * positive}"
        raise _fail(name + where, array[index], expected)
    return array


_ROWS = "(vocab_size, d), one row per token"


def check_table(table, name="table", *, what=_ROWS, shape=None, nonzero=False):
    """:func:`check_array` of a 2-D table; ``nonzero`` refuses a row of zeros."""
    table = check_array(table, name, ndim=2, what=what, shape=shape)
    if nonzero and not table.any(axis=1).all():
        row = int(np.flatnonzero(~table.any(axis=1))[0])
        raise _fail(
            f"{name}[{row}]", table[row], "nonzero: a zero row has no direction"
        )
    return table


def check_tables(tables, name, *, what, entries="name -> table"):
    """Return ``tables``, a non-empty dict of tables that pass :func:`check_table`."""
    if not isinstance(tables, Mapping) or not tables:
        raise _fail(name, tables, f"a non-empty dict of {entries}", TypeError)
    return {
        key: check_table(t, f"{name}[{key!r}]", what=what) for key, t in tables.items()
    }
