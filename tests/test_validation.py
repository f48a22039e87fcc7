"""The validation helpers: what they accept, and the exact message for what they don't.

The public functions' own messages are tested in test_positional.py and
test_embedding.py; here each helper is checked on its own, including the inputs
that numpy would otherwise convert silently (a bool in a list of ints, an integer
too large for int64).
"""

import functools
import re

import numpy as np
import pytest

from posenc_lib.validation import (
    check_d_model,
    check_dtype,
    check_index,
    check_instance,
    check_integer,
    check_permutation,
    check_positions,
    check_positive,
    check_table,
    check_tables,
    check_token_ids,
    check_vector,
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


def test_check_positions_accepts_a_range_and_numpy_integers_in_a_list():
    assert check_positions(range(2, 5)).tolist() == [2, 3, 4]
    assert check_positions([np.int32(1), 2**40]).tolist() == [1, 2**40]


def test_check_token_ids_single_id_is_an_int_and_a_list_is_an_array():
    assert check_token_ids(np.int64(2), vocab_size=3) == 2
    assert type(check_token_ids(2, vocab_size=3)) is int
    assert type(check_token_ids(np.array(2), vocab_size=3)) is int  # 0-d array
    assert check_token_ids([2, 0, 2], vocab_size=3).tolist() == [2, 0, 2]


def test_check_table_does_not_copy_a_numeric_array():
    table = np.ones((3, 2), dtype=np.float32)
    assert check_table(table) is table


def test_check_positive_and_check_dtype_accept_numpy_values():
    assert check_positive(np.float32(2.5), "base") == 2.5
    assert check_dtype(np.float32) == np.dtype(np.float32)


def test_check_index_accepts_both_ends_of_the_range():
    assert check_index(0, "token_id", 4, what="vocab_size") == 0
    assert check_index(3, "token_id", 4, what="vocab_size") == 3


# --- rejected, with the exact message ----------------------------------------

INTEGER_FOR_POSITIONS = "must be a non-negative integer"
TOO_FAR = f" below {2**53} (2**53): float64 angles cannot tell larger positions apart."
SEQUENCE_OF_POSITIONS = "must be a 1-D sequence of non-negative integers"
non_negative = functools.partial(check_integer, min_value=0)
token_index = functools.partial(check_index, what="vocab_size")
TOKEN_RANGE = "must be in [0, 3), i.e. 0 <= token_id < vocab_size."

REJECTED = [
    (check_integer, (1.0, "n"), TypeError, "n == 1.0 (float), must be an integer."),
    (non_negative, (-1, "n"), ValueError, "n == -1, must be an integer >= 0."),
    (check_integer, (False, "n"), TypeError, "n == False (bool), must be an integer."),
    (check_d_model, (5,), ValueError, "d_model == 5, must be an even integer >= 2."),
    (
        check_d_model,
        (np.float64(4.0),),
        TypeError,
        "d_model == 4.0 (numpy float64), must be an even integer >= 2.",
    ),
    (
        check_positive,
        (0.0, "base"),
        ValueError,
        "base == 0.0, must be a finite number > 0.",
    ),
    (
        check_positive,
        (float("inf"), "base"),
        ValueError,
        "base == inf, must be a finite number > 0.",
    ),
    (
        check_positive,
        (1j, "base"),
        TypeError,
        "base == 1j (complex), must be a finite number > 0.",
    ),
    (
        check_dtype,
        ("int32",),
        TypeError,
        "dtype == int32, must be a floating-point dtype such as numpy.float64 or "
        "numpy.float32.",
    ),
    (
        check_dtype,
        ("no such type",),
        TypeError,
        "dtype == 'no such type', must be a floating-point dtype such as "
        "numpy.float64 or numpy.float32.",
    ),
    (
        check_positions,
        ([1, True],),
        TypeError,
        f"positions[1] == True (bool), {INTEGER_FOR_POSITIONS}.",
    ),
    (
        check_positions,
        ([np.True_, 1],),
        TypeError,
        f"positions[0] == True (numpy bool), {INTEGER_FOR_POSITIONS}.",
    ),
    (
        check_positions,
        ([0, 2**70],),
        ValueError,
        f"positions[1] == {2**70}, {INTEGER_FOR_POSITIONS}{TOO_FAR}",
    ),
    (
        check_positions,
        (np.array([2**64 - 1], dtype=np.uint64),),
        ValueError,
        f"positions[0] == {2**64 - 1}, {INTEGER_FOR_POSITIONS}{TOO_FAR}",
    ),
    (
        check_positions,
        ([1, [2]],),
        ValueError,
        f"positions == [1, [2]], {SEQUENCE_OF_POSITIONS} (rows of different lengths "
        "cannot form an array).",
    ),
    (
        check_positions,
        (None,),
        TypeError,
        f"positions == None, {SEQUENCE_OF_POSITIONS}.",
    ),
    (
        check_positions,
        (b"01",),
        TypeError,
        f"positions == b'01', {SEQUENCE_OF_POSITIONS}.",
    ),
    (
        check_positions,
        (np.array(3),),
        ValueError,
        f"positions has shape (), {SEQUENCE_OF_POSITIONS}.",
    ),
    (
        check_token_ids,
        ([0, True], 3),
        TypeError,
        "token_ids[1] == True (bool), must be an integer token id.",
    ),
    (check_token_ids, ([3, 0], 3), ValueError, f"token_ids[0] == 3, {TOKEN_RANGE}"),
    (check_token_ids, (np.array(-1), 3), ValueError, f"token_ids == -1, {TOKEN_RANGE}"),
    (
        check_token_ids,
        (None, 3),
        TypeError,
        "token_ids == None, must be an integer in [0, 3).",
    ),
    (
        token_index,
        (5, "row", 5),
        ValueError,
        "row == 5, must be in [0, 5), i.e. 0 <= row < vocab_size.",
    ),
    (
        check_table,
        (np.zeros((2, 0)),),
        ValueError,
        "table has shape (2, 0), must have at least one row and column.",
    ),
    (
        check_table,
        (np.array([["a"]], dtype=object),),
        TypeError,
        "table has dtype object, must be numeric (integers or floats).",
    ),
    (
        functools.partial(check_table, finite=True),
        ([[0.0, 1.0], [np.nan, 2.0]],),
        ValueError,
        "table[1, 0] == nan, must be a finite number.",
    ),
    (
        functools.partial(check_vector, what="(d_model,)"),
        ([[1.0]], "vector"),
        ValueError,
        "vector has shape (1, 1), must be 1-D: (d_model,).",
    ),
    (
        functools.partial(check_vector, what="(d_model,)"),
        ([], "vector"),
        ValueError,
        "vector has shape (0,), must have at least one value.",
    ),
    (
        functools.partial(check_vector, what="(d_model,)"),
        ("abc", "vector"),
        TypeError,
        "vector has dtype <U3, must be numeric (integers or floats).",
    ),
    (
        functools.partial(check_vector, what="(n,)"),
        ([1.0, -np.inf], "similarities"),
        ValueError,
        "similarities[1] == -inf, must be a finite number.",
    ),
    (
        functools.partial(check_vector, what="(n,)", positive=True),
        ([6.3, -1.0], "wavelengths"),
        ValueError,
        "wavelengths[1] == -1.0, must be a finite number > 0.",
    ),
    (
        check_permutation,
        ([0, 1, 1],),
        ValueError,
        "perm == [0, 1, 1], must be a permutation of range(3).",
    ),
    (
        functools.partial(check_permutation, size=3),
        ([1, 0], "permutations['concat']"),
        ValueError,
        "permutations['concat'] == [1, 0], must be a permutation of range(3).",
    ),
    (
        check_permutation,
        ([0, -1],),
        ValueError,
        "perm[1] == -1, must be a non-negative integer.",
    ),
    (
        functools.partial(check_tables, what="(n, d)"),
        ({}, "tables"),
        TypeError,
        "tables == {}, must be a non-empty dict of name -> table.",
    ),
    (
        functools.partial(check_tables, what="(n, d)"),
        ({"a": [[np.inf]]}, "tables"),
        ValueError,
        "tables['a'][0, 0] == inf, must be a finite number.",
    ),
    (
        functools.partial(check_instance, what="a str"),
        (3, "word", str),
        TypeError,
        "word == 3 (int), must be a str.",
    ),
]

REJECTED_IDS = [
    "integer-float",
    "integer-negative",
    "integer-bool",
    "d_model-odd",
    "d_model-np-float",
    "positive-zero",
    "positive-inf",
    "positive-complex",
    "dtype-int",
    "dtype-unknown",
    "positions-bool-in-list",
    "positions-np-bool",
    "positions-too-big",
    "positions-uint64-too-big",
    "positions-ragged",
    "positions-none",
    "positions-bytes",
    "positions-0d-array",
    "token-ids-bool-in-list",
    "token-ids-past-vocab",
    "token-id-0d-negative",
    "token-id-none",
    "index-past-end",
    "table-no-columns",
    "table-object",
    "table-nan",
    "vector-2d",
    "vector-empty",
    "vector-text",
    "vector-inf",
    "vector-not-positive",
    "permutation-repeated",
    "permutation-short",
    "permutation-negative",
    "tables-empty",
    "tables-inf",
    "instance",
]


@pytest.mark.parametrize(
    ("check", "args", "error", "message"), REJECTED, ids=REJECTED_IDS
)
def test_rejected_with_exact_message(check, args, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        check(*args)


def test_long_values_are_shortened_in_messages():
    message = f"positions == '{'7' * 56}... (str), {SEQUENCE_OF_POSITIONS}."
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        check_positions("7" * 200)
