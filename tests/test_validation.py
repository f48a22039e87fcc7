"""The validation helpers: what they accept, and the exact message for what they don't.

The public functions' own messages are tested beside them (test_positional.py,
test_embedding.py, ...); here each helper on its own, including the inputs numpy
would convert silently: a bool in a list of ints, bytes read as numbers, an
integer too large for int64 or for ``str``.
"""

import functools
import re

import numpy as np
import pytest

from posenc_lib.validation import (
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
    check_sequence,
    check_table,
    check_tables,
    check_token_ids,
    describe,
)

# --- what is accepted, and what comes back ------------------------------------


@pytest.mark.parametrize(
    "value", [2, 4, 512, np.int64(6), np.uint8(8)], ids=["2", "4", "512", "i64", "u8"]
)
def test_check_d_model_returns_a_python_int(value):
    result = check_d_model(value)
    assert type(result) is int and result == value


@pytest.mark.parametrize(
    "positions",
    [[0, 3, 3, 1], (0, 3, 3, 1), np.array([0, 3, 3, 1], dtype=np.uint16)],
    ids=["list", "tuple", "uint16-array"],
)
def test_check_positions_returns_int64_in_the_given_order(positions):
    result = check_positions(positions)
    assert result.dtype == np.int64
    assert result.tolist() == [0, 3, 3, 1]


def test_check_positions_accepts_ranges_and_numpy_integers_in_a_list():
    assert check_positions(range(2, 5)).tolist() == [2, 3, 4]
    assert check_positions(range(9, 0, -4)).tolist() == [9, 5, 1]
    assert check_positions([np.int32(1), 2**40]).tolist() == [1, 2**40]
    last = 2**53 - 1
    assert check_positions(np.array([last], dtype=np.uint64)).tolist() == [last]


def test_check_token_ids_single_id_is_an_int_and_a_list_is_an_array():
    assert check_token_ids(np.int64(2), vocab_size=3) == 2
    assert type(check_token_ids(2, vocab_size=3)) is int
    assert type(check_token_ids(np.array(2), vocab_size=3)) is int  # 0-d array
    assert check_token_ids([2, 0, 2], vocab_size=3).tolist() == [2, 0, 2]


def test_check_table_does_not_copy_a_real_array():
    table = np.ones((3, 2), dtype=np.float32)
    assert check_table(table) is table


def test_check_array_takes_infinities_only_when_asked():
    scores = check_array([[np.inf, -np.inf]], "scores", inf=True)
    assert scores.tolist() == [[np.inf, -np.inf]]


def test_scalar_checks_accept_numpy_values_and_return_python_ones():
    assert check_positive(np.float32(2.5), "base") == 2.5
    assert check_base(10**30) == 1e30 and type(check_base(10**4)) is float
    assert check_dtype(np.float32) == np.dtype(np.float32)
    assert check_position(-(2**53) + 1, "offset", signed=True) == -(2**53) + 1
    assert check_index(3, "token_id", 4, what="vocab_size") == 3


@pytest.mark.parametrize(
    ("value", "kind", "shown"),
    [
        (4.0, True, "4.0 (float)"),
        (np.float64(4.0), True, "4.0 (numpy float64)"),
        (np.True_, True, "True (numpy bool)"),
        (7, False, "7"),
        (-(10**5000), False, "-100000000000...(5001 digits)"),
        (10**40, False, "100000000000...(41 digits)"),
        ([10**5000], True, "<a list too long to show>"),
        (memoryview(b"ab"), True, "<memoryview of 2 bytes>"),
        (b"ab", True, "b'ab'"),
        ("7" * 100, True, "'" + "7" * 56 + "... (str)"),
    ],
    ids=[
        "float",
        "numpy-float",
        "numpy-bool",
        "int",
        "5001-digits",
        "41-digits",
        "list-of-a-huge-int",
        "memoryview",
        "bytes",
        "long-text",
    ],
)
def test_describe_shows_every_value_briefly_and_never_str_of_a_huge_int(
    value, kind, shown
):
    assert describe(value, kind=kind) == shown


# --- rejected, with the exact message ----------------------------------------

NON_NEGATIVE = "must be a non-negative integer"
TOO_FAR = f" below {2**53} (2**53): float64 angles cannot tell larger positions apart."
SEQUENCE = "must be a 1-D sequence of non-negative integers"
REAL = "must hold real numbers (integers or floats)."
FLOAT_DTYPE = "must be a floating-point dtype such as numpy.float64 or numpy.float32."
LIMIT = "more than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES)."
TOKEN_RANGE = "must be in [0, 3), i.e. 0 <= token_id < vocab_size."
non_negative = functools.partial(check_integer, min_value=0)
table_nd = functools.partial(check_table, what="(n, d)")
vector = functools.partial(check_array, ndim=1, what="(d_model,)")

REJECTED = {
    "integer-float": (
        check_integer,
        (1.0, "n"),
        TypeError,
        "n == 1.0 (float), must be an integer.",
    ),
    "integer-negative": (
        non_negative,
        (-1, "n"),
        ValueError,
        "n == -1, must be an integer >= 0.",
    ),
    "integer-bool": (
        check_integer,
        (False, "n"),
        TypeError,
        "n == False (bool), must be an integer.",
    ),
    "d_model-odd": (
        check_d_model,
        (5,),
        ValueError,
        "d_model == 5, must be an even integer >= 2.",
    ),
    "d_model-np-float": (
        check_d_model,
        (np.float64(4.0),),
        TypeError,
        "d_model == 4.0 (numpy float64), must be an even integer >= 2.",
    ),
    "d_model-huge": (
        check_d_model,
        (-(10**5000),),
        ValueError,
        "d_model == -100000000000...(5001 digits), must be an even integer >= 2.",
    ),
    "position-2**53": (
        check_position,
        (2**53,),
        ValueError,
        f"pos == {2**53}, {NON_NEGATIVE}{TOO_FAR}",
    ),
    "offset-minus-2**53": (
        functools.partial(check_position, signed=True),
        (-(2**53), "offset"),
        ValueError,
        f"offset == {-(2**53)}, must be an integer with |offset| < {TOO_FAR[7:]}",
    ),
    "positive-zero": (
        check_positive,
        (0.0, "base"),
        ValueError,
        "base == 0.0, must be a finite number > 0.",
    ),
    "positive-inf": (
        check_positive,
        (float("inf"), "base"),
        ValueError,
        "base == inf, must be a finite number > 0.",
    ),
    "positive-complex": (
        check_positive,
        (1j, "base"),
        TypeError,
        "base == 1j (complex), must be a finite number > 0.",
    ),
    "base-nan": (
        check_base,
        (float("nan"),),
        ValueError,
        "base == nan, must be a number in [1, 1e100].",
    ),
    "base-10**400": (
        check_base,
        (10**400,),
        ValueError,
        "base == 100000000000...(401 digits), must be a number in [1, 1e100]: the "
        "exact-angle arithmetic is built for bases up to 1e100.",
    ),
    "choice-none": (
        check_choice,
        (None, "layout", ("a", "b")),
        TypeError,
        "layout == None, must be one of 'a', 'b'.",
    ),
    "dtype-int": (
        check_dtype,
        ("int32",),
        TypeError,
        f"dtype == int32, {FLOAT_DTYPE}",
    ),
    "dtype-unknown": (
        check_dtype,
        ("no such type",),
        TypeError,
        f"dtype == 'no such type' (str), {FLOAT_DTYPE}",
    ),
    "sequence-length": (
        functools.partial(check_sequence, length=3, per=" (rows of x)"),
        ([1, 2], "positions"),
        ValueError,
        "positions has length 2, must be 3 (rows of x).",
    ),
    "positions-bool-in-list": (
        check_positions,
        ([1, True],),
        TypeError,
        f"positions[1] == True (bool), {NON_NEGATIVE}.",
    ),
    "positions-np-bool": (
        check_positions,
        ([np.True_, 1],),
        TypeError,
        f"positions[0] == True (numpy bool), {NON_NEGATIVE}.",
    ),
    "positions-bool-array": (
        check_positions,
        (np.array([True]),),
        TypeError,
        f"positions[0] == True (bool), {NON_NEGATIVE}.",
    ),
    "positions-too-big": (
        check_positions,
        ([0, 2**70],),
        ValueError,
        f"positions[1] == {2**70}, {NON_NEGATIVE}{TOO_FAR}",
    ),
    "positions-5001-digits": (
        check_positions,
        ([10**5000],),
        ValueError,
        f"positions[0] == 100000000000...(5001 digits), {NON_NEGATIVE}{TOO_FAR}",
    ),
    "positions-uint64-too-big": (
        check_positions,
        (np.array([2**64 - 1], dtype=np.uint64),),
        ValueError,
        f"positions[0] == {2**64 - 1}, {NON_NEGATIVE}{TOO_FAR}",
    ),
    "positions-range-too-far": (
        check_positions,
        (range(2**53 - 1, 2**53 + 1),),
        ValueError,
        f"positions[1] == {2**53}, {NON_NEGATIVE}{TOO_FAR}",
    ),
    "positions-ragged": (
        check_positions,
        ([1, [2]],),
        ValueError,
        f"positions == [1, [2]], {SEQUENCE} (rows of different lengths cannot form "
        "an array).",
    ),
    "positions-none": (
        check_positions,
        (None,),
        TypeError,
        f"positions == None, {SEQUENCE}.",
    ),
    "positions-str": (
        check_positions,
        ("ab",),
        TypeError,
        f"positions == 'ab' (str), {SEQUENCE}.",
    ),
    "positions-bytes": (
        check_positions,
        (b"ab",),
        TypeError,
        f"positions == b'ab', {SEQUENCE}.",
    ),
    "positions-bytearray": (
        check_positions,
        (bytearray(b"ab"),),
        TypeError,
        f"positions == bytearray(b'ab'), {SEQUENCE}.",
    ),
    "positions-memoryview": (
        check_positions,
        (memoryview(b"ab"),),
        TypeError,
        f"positions == <memoryview of 2 bytes>, {SEQUENCE}.",
    ),
    "positions-0d-array": (
        check_positions,
        (np.array(3),),
        ValueError,
        f"positions has shape (), {SEQUENCE}.",
    ),
    "positions-empty": (
        check_positions,
        ([],),
        ValueError,
        f"positions is empty, {SEQUENCE} of length >= 1.",
    ),
    "token-ids-bool-in-list": (
        check_token_ids,
        ([0, True], 3),
        TypeError,
        "token_ids[1] == True (bool), must be an integer token id.",
    ),
    "token-ids-past-vocab": (
        check_token_ids,
        ([3, 0], 3),
        ValueError,
        f"token_ids[0] == 3, {TOKEN_RANGE}",
    ),
    "token-ids-bytes": (
        check_token_ids,
        (b"\x00", 3),
        TypeError,
        "token_ids == b'\\x00', must be a 1-D sequence of integer token ids.",
    ),
    "token-id-0d-negative": (
        check_token_ids,
        (np.array(-1), 3),
        ValueError,
        f"token_ids == -1, {TOKEN_RANGE}",
    ),
    "token-id-huge": (
        check_token_ids,
        (-(10**5000), 3),
        ValueError,
        f"token_ids == -100000000000...(5001 digits), {TOKEN_RANGE}",
    ),
    "token-id-none": (
        check_token_ids,
        (None, 3),
        TypeError,
        "token_ids == None, must be an integer in [0, 3).",
    ),
    "index-past-end": (
        functools.partial(check_index, what="vocab_size"),
        (5, "row", 5),
        ValueError,
        "row == 5, must be in [0, 5), i.e. 0 <= row < vocab_size.",
    ),
    "array-ragged": (
        table_nd,
        ([[1.0], [2.0, 3.0]],),
        ValueError,
        "table == [[1.0], [2.0, 3.0]], must be 2-D: (n, d); its rows have different "
        "lengths.",
    ),
    "array-object": (
        table_nd,
        (np.array([["a"]], dtype=object),),
        TypeError,
        f"table has dtype object, {REAL}",
    ),
    "array-bool": (table_nd, ([[True]],), TypeError, f"table has dtype bool, {REAL}"),
    "array-complex": (
        table_nd,
        ([[1j]],),
        TypeError,
        f"table has dtype complex128, {REAL}",
    ),
    "array-1d": (
        table_nd,
        ([1.0],),
        ValueError,
        "table has shape (1,), must be 2-D: (n, d).",
    ),
    "array-shape": (
        functools.partial(check_table, what="(n, 2)", shape=(None, 2)),
        ([[1.0]], "pairs"),
        ValueError,
        "pairs has shape (1, 1), must be (n, 2).",
    ),
    "array-empty": (
        table_nd,
        (np.zeros((2, 0)),),
        ValueError,
        "table has shape (2, 0), must hold at least one number.",
    ),
    "array-nan": (
        table_nd,
        ([[0.0, 1.0], [np.nan, 2.0]],),
        ValueError,
        "table[1, 0] == nan, must be a finite number.",
    ),
    "array-minus-inf": (
        vector,
        ([1.0, -np.inf], "similarities"),
        ValueError,
        "similarities[1] == -inf, must be a finite number.",
    ),
    "array-nan-with-inf": (
        functools.partial(check_array, inf=True),
        ([np.inf, np.nan], "scores"),
        ValueError,
        "scores[1] == nan, must be a number.",
    ),
    "array-scalar-nan": (
        check_array,
        (np.nan, "x"),
        ValueError,
        "x == nan, must be a finite number.",
    ),
    "array-not-positive": (
        functools.partial(vector, positive=True),
        ([6.3, -1.0], "wavelengths"),
        ValueError,
        "wavelengths[1] == -1.0, must be a finite number > 0.",
    ),
    "table-zero-row": (
        functools.partial(table_nd, nonzero=True),
        ([[1.0], [0.0]], "a"),
        ValueError,
        "a[1] == array([0.]), must be nonzero: a zero row has no direction.",
    ),
    "permutation-repeated": (
        check_permutation,
        ([0, 1, 1],),
        ValueError,
        "perm == [0, 1, 1], must be a permutation of range(3).",
    ),
    "permutation-short": (
        functools.partial(check_permutation, size=3),
        ([1, 0], "permutations['concat']"),
        ValueError,
        "permutations['concat'] == [1, 0], must be a permutation of range(3).",
    ),
    "permutation-negative": (
        check_permutation,
        ([0, -1],),
        ValueError,
        f"perm[1] == -1, {NON_NEGATIVE}.",
    ),
    "tables-empty": (
        functools.partial(check_tables, what="(n, d)"),
        ({}, "tables"),
        TypeError,
        "tables == {}, must be a non-empty dict of name -> table.",
    ),
    "tables-inf": (
        functools.partial(check_tables, what="(n, d)"),
        ({"a": [[np.inf]]}, "tables"),
        ValueError,
        "tables['a'][0, 0] == inf, must be a finite number.",
    ),
    "instance": (
        functools.partial(check_instance, what="a str"),
        (3, "word", str),
        TypeError,
        "word == 3 (int), must be a str.",
    ),
    "size-10**400": (
        check_array_size,
        ((1, 10**400), "d_model"),
        ValueError,
        "d_model would give the result of shape (1, 100000000000...(401 digits)), "
        f"about 1e+400 B: {LIMIT}",
    ),
}


@pytest.mark.parametrize("case", REJECTED, ids=str)
def test_rejected_with_exact_message(case):
    check, args, error, message = REJECTED[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        check(*args)


def test_a_huge_range_is_refused_before_anything_is_built():
    message = f"positions[0] == {-(10**30)}, {NON_NEGATIVE}."
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_positions(range(-(10**30), 10**30))
    message = (
        f"positions would give an int64 array of shape (1000000000,), 7.45 GiB: {LIMIT}"
    )
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        check_positions(range(10**9))
