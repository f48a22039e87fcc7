"""The validation helpers: what they accept, and the exact message for what they don't.

The public functions' messages are tested beside them (test_adversarial_library.py,
...); here each helper, with the inputs numpy would convert silently (a bool in a
list of ints, bytes read as numbers, an integer too large for int64 or ``str``).
Each case is the call as a user writes it, and what Python prints of its error.
"""

import numpy as np
import pytest
from reference import refused

from posenc_lib.validation import (  # noqa: F401 - the calls below use them
    check_array,
    check_array_size,
    check_base,
    check_choice,
    check_d_model,
    check_dtype,
    check_index,
    check_instance,
    check_integer,
    check_permutation,
    check_position,
    check_positions,
    check_positive,
    check_seconds,
    check_sequence,
    check_table,
    check_tables,
    check_token_ids,
    describe,
)

LAST = 2**53 - 1

# --- what is accepted, and what comes back ------------------------------------


def test_check_d_model_returns_a_python_int():
    for value in [2, 4, 512, np.int64(6), np.uint8(8)]:
        result = check_d_model(value)
        assert type(result) is int and result == value


@pytest.mark.parametrize(
    ("positions", "expected"),
    [
        ([0, 3, 3, 1], [0, 3, 3, 1]),
        ((0, 3, 3, 1), [0, 3, 3, 1]),
        (np.array([0, 3, 3, 1], dtype=np.uint16), [0, 3, 3, 1]),
        (range(2, 5), [2, 3, 4]),
        (range(9, 0, -4), [9, 5, 1]),
        ([np.int32(1), 2**40], [1, 2**40]),
        (np.array([LAST], dtype=np.uint64), [LAST]),
    ],
    ids=["list", "tuple", "uint16", "range", "range-down", "numpy-int", "uint64"],
)
def test_check_positions_returns_int64_in_the_given_order(positions, expected):
    result = check_positions(positions)
    assert result.dtype == np.int64 and result.tolist() == expected


def test_the_checks_return_python_values_and_never_copy_a_real_array():
    assert check_token_ids(np.int64(2), vocab_size=3) == 2
    assert type(check_token_ids(2, vocab_size=3)) is int
    assert type(check_token_ids(np.array(2), vocab_size=3)) is int  # 0-d array
    assert check_token_ids([2, 0, 2], vocab_size=3).tolist() == [2, 0, 2]
    table = np.ones((3, 2), dtype=np.float32)
    assert check_table(table) is table
    scores = check_array([[np.inf, -np.inf]], "scores", inf=True)
    assert scores.tolist() == [[np.inf, -np.inf]]
    assert check_positive(np.float32(2.5), "base") == 2.5
    assert check_base(10**30) == 1e30 and type(check_base(10**4)) is float
    assert check_dtype(np.float32) == np.dtype(np.float32)
    assert check_position(-LAST, "offset", signed=True) == -LAST
    assert check_index(3, "token_id", 4, what="vocab_size") == 3


DESCRIBED = {
    "float": (4.0, True, "4.0 (float)"),
    "numpy-float": (np.float64(4.0), True, "4.0 (numpy float64)"),
    "numpy-bool": (np.True_, True, "True (numpy bool)"),
    "int": (7, False, "7"),
    "5001-digits": (-(10**5000), False, "-100000000000...(5001 digits)"),
    "41-digits": (10**40, False, "100000000000...(41 digits)"),
    "list-of-a-huge-int": ([10**5000], True, "<a list too long to show>"),
    "memoryview": (memoryview(b"ab"), True, "<memoryview of 2 bytes>"),
    "bytes": (b"ab", True, "b'ab'"),
    "long-text": ("7" * 100, True, "'" + "7" * 56 + "... (str)"),
}


@pytest.mark.parametrize("case", DESCRIBED)
def test_describe_shows_every_value_briefly_and_never_str_of_a_huge_int(case):
    value, kind, shown = DESCRIBED[case]
    assert describe(value, kind=kind) == shown


# --- rejected, with the exact message ----------------------------------------

NON_NEGATIVE = "must be a non-negative integer"
TOO_FAR = f" below {2**53} (2**53): float64 angles cannot tell larger positions apart."
SEQUENCE = "must be a 1-D sequence of non-negative integers"
REAL = "must hold real numbers (integers or floats)."
FLOAT_DTYPE = "must be a floating-point dtype such as numpy.float64 or numpy.float32."
TOKEN_RANGE = "must be in [0, 3), i.e. 0 <= token_id < vocab_size."
TABLE = "check_table({}, what='(n, d)')"

REJECTED = {  # the call -> its error, as Python prints it
    "check_integer(1.0, 'n')": "TypeError: n == 1.0 (float), must be an integer.",
    "check_integer(-1, 'n', min_value=0)": (
        "ValueError: n == -1, must be an integer >= 0."
    ),
    "check_integer(False, 'n')": "TypeError: n == False (bool), must be an integer.",
    "check_d_model(5)": "ValueError: d_model == 5, must be an even integer >= 2.",
    "check_d_model(np.float64(4.0))": (
        "TypeError: d_model == 4.0 (numpy float64), must be an even integer >= 2."
    ),
    "check_positive(0.0, 'base')": (
        "ValueError: base == 0.0, must be a finite number > 0."
    ),
    "check_positive(np.inf, 'base')": (
        "ValueError: base == inf, must be a finite number > 0."
    ),
    "check_positive(1j, 'base')": (
        "TypeError: base == 1j (complex), must be a finite number > 0."
    ),
    "check_seconds(10**400)": (
        "ValueError: time_limit == 100000000000...(401 digits), must be a number of "
        "seconds in (0, 3600]."
    ),
    "check_base(np.nan)": "ValueError: base == nan, must be a number in [1, 1e100].",
    "check_choice(None, 'layout', ('a', 'b'))": (
        "TypeError: layout == None, must be one of 'a', 'b'."
    ),
    "check_dtype('int32')": f"TypeError: dtype == int32, {FLOAT_DTYPE}",
    "check_dtype('no such type')": (
        f"TypeError: dtype == 'no such type' (str), {FLOAT_DTYPE}"
    ),
    "check_sequence([1, 2], 'positions', length=3, per=' (rows of x)')": (
        "ValueError: positions has length 2, must be 3 (rows of x)."
    ),
    "check_positions([1, True])": (
        f"TypeError: positions[1] == True (bool), {NON_NEGATIVE}."
    ),
    "check_positions([np.True_, 1])": (
        f"TypeError: positions[0] == True (numpy bool), {NON_NEGATIVE}."
    ),
    "check_positions(np.array([True]))": (
        f"TypeError: positions[0] == True (bool), {NON_NEGATIVE}."
    ),
    "check_positions([0, 2**70])": (
        f"ValueError: positions[1] == {2**70}, {NON_NEGATIVE}{TOO_FAR}"
    ),
    "check_positions([10**5000])": (
        "ValueError: positions[0] == 100000000000...(5001 digits), "
        f"{NON_NEGATIVE}{TOO_FAR}"
    ),
    "check_positions(np.array([2**64 - 1], dtype=np.uint64))": (
        f"ValueError: positions[0] == {2**64 - 1}, {NON_NEGATIVE}{TOO_FAR}"
    ),
    "check_positions(range(2**53 - 1, 2**53 + 1))": (
        f"ValueError: positions[1] == {2**53}, {NON_NEGATIVE}{TOO_FAR}"
    ),
    "check_positions(range(-(10**30), 10**30))": (  # its ends, before it is built
        f"ValueError: positions[0] == {-(10**30)}, {NON_NEGATIVE}."
    ),
    "check_positions([1, [2]])": (
        f"ValueError: positions == [1, [2]], {SEQUENCE} (rows of different lengths "
        "cannot form an array)."
    ),
    "check_positions(None)": f"TypeError: positions == None, {SEQUENCE}.",
    "check_positions('ab')": f"TypeError: positions == 'ab' (str), {SEQUENCE}.",
    "check_positions(bytearray(b'ab'))": (
        f"TypeError: positions == bytearray(b'ab'), {SEQUENCE}."
    ),
    "check_positions(memoryview(b'ab'))": (
        f"TypeError: positions == <memoryview of 2 bytes>, {SEQUENCE}."
    ),
    "check_positions(np.array(3))": f"ValueError: positions has shape (), {SEQUENCE}.",
    "check_positions([])": (
        f"ValueError: positions is empty, {SEQUENCE} of length >= 1."
    ),
    "check_token_ids([0, True], 3)": (
        "TypeError: token_ids[1] == True (bool), must be an integer token id."
    ),
    "check_token_ids([3, 0], 3)": f"ValueError: token_ids[0] == 3, {TOKEN_RANGE}",
    "check_token_ids(np.array(-1), 3)": f"ValueError: token_ids == -1, {TOKEN_RANGE}",
    "check_token_ids(None, 3)": (
        "TypeError: token_ids == None, must be an integer in [0, 3)."
    ),
    "check_index(5, 'row', 5, what='vocab_size')": (
        "ValueError: row == 5, must be in [0, 5), i.e. 0 <= row < vocab_size."
    ),
    TABLE.format("[[1.0], [2.0, 3.0]]"): (
        "ValueError: table == [[1.0], [2.0, 3.0]], must be 2-D: (n, d); its rows "
        "have different lengths."
    ),
    TABLE.format("np.array([['a']], dtype=object)"): (
        f"TypeError: table has dtype object, {REAL}"
    ),
    TABLE.format("[[True]]"): f"TypeError: table has dtype bool, {REAL}",
    TABLE.format("[[1j]]"): f"TypeError: table has dtype complex128, {REAL}",
    TABLE.format("[1.0]"): "ValueError: table has shape (1,), must be 2-D: (n, d).",
    "check_table([[1.0]], 'pairs', what='(n, 2)', shape=(None, 2))": (
        "ValueError: pairs has shape (1, 1), must be (n, 2)."
    ),
    TABLE.format("np.zeros((2, 0))"): (
        "ValueError: table has shape (2, 0), must hold at least one number."
    ),
    "check_array([1.0, -np.inf], 'similarities', ndim=1)": (
        "ValueError: similarities[1] == -inf, must be a finite number."
    ),
    "check_array(np.nan, 'x')": "ValueError: x == nan, must be a finite number.",
    "check_array([6.3, -1.0], 'wavelengths', positive=True)": (
        "ValueError: wavelengths[1] == -1.0, must be a finite number > 0."
    ),
    "check_array([1, 0], 'wavelengths', positive=True)": (  # integers too
        "ValueError: wavelengths[1] == 0, must be a finite number > 0."
    ),
    "check_permutation([0, 1, 1])": (
        "ValueError: perm == [0, 1, 1], must be a permutation of range(3)."
    ),
    "check_permutation([1, 0], \"permutations['concat']\", size=3)": (
        "ValueError: permutations['concat'] == [1, 0], must be a permutation of "
        "range(3)."
    ),
    "check_permutation([*range(39, -1, -1), 40, 40])": (  # shown briefly
        "ValueError: perm == [39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26,"
        " ..., must be a permutation of range(42)."
    ),
    "check_permutation([0, -1])": f"ValueError: perm[1] == -1, {NON_NEGATIVE}.",
    "check_tables({}, 'tables', what='(n, d)')": (
        "TypeError: tables == {}, must be a non-empty dict of name -> table."
    ),
    "check_tables({'a': [[np.inf]]}, 'tables', what='(n, d)')": (
        "ValueError: tables['a'][0, 0] == inf, must be a finite number."
    ),
    "check_instance(3, 'word', str, what='a str')": (
        "TypeError: word == 3 (int), must be a str."
    ),
    "check_array_size((1, 10**400), 'd_model')": (
        "ValueError: d_model would give the result of shape (1, 100000000000...(401 "
        "digits)), about 1e+400 B: more than the limit of 256 MiB "
        "(posenc_lib.validation.MAX_ARRAY_BYTES)."
    ),
}


@pytest.mark.parametrize("call", REJECTED)
def test_rejected_with_exact_message(call):
    assert refused(call, globals()) == REJECTED[call]
