"""lookup, one_hot and encode: the row fetch, its one-hot product, the model input."""

import math
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from reference import plain_loop

from posenc_lib import encode, lookup, one_hot
from posenc_lib.embedding import init_embedding, row_cosines

TABLE = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0], [-1.0, 0.0, 0.25, 8.0]])


@st.composite
def tables_and_ids(draw):
    """A finite float table (vocab_size, d) and 1..20 valid token ids."""
    vocab_size, half_d = draw(st.integers(1, 12)), draw(st.integers(1, 6))
    elements = st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)
    table = draw(hnp.arrays(np.float64, (vocab_size, 2 * half_d), elements=elements))
    ids = draw(st.lists(st.integers(0, vocab_size - 1), min_size=1, max_size=20))
    return table, ids


def test_lookup_gives_rows_in_order_with_repeats_in_the_tables_dtype():
    np.testing.assert_array_equal(lookup(TABLE, [2, 0, 2]), TABLE[[2, 0, 2]])
    rows = lookup([[1, 2], [3, 4]], np.array([1, 1]))  # nested lists, integers
    assert rows.dtype.kind == "i" and rows.tolist() == [[3, 4], [3, 4]]
    assert lookup(TABLE.astype(np.float32), [0, 1]).dtype == np.float32


@pytest.mark.parametrize("token_ids", [1, [1], [0, 1]], ids=["int", "list-1", "list-2"])
def test_lookup_returns_a_new_array(token_ids):
    table = TABLE.copy()
    rows = lookup(table, token_ids)
    assert not np.shares_memory(rows, table)
    rows += 100.0  # the lesson's mistake, "added the encoding to the table"
    np.testing.assert_array_equal(table, TABLE)


@given(tables_and_ids())
def test_one_hot_times_table_equals_lookup(table_and_ids):
    table, ids = table_and_ids
    product = one_hot(ids, len(table)) @ table  # (n, d)
    np.testing.assert_array_equal(product, lookup(table, ids))


def test_one_hot_rows_have_a_single_one_in_the_id_column():
    np.testing.assert_array_equal(one_hot([3, 0, 3], 5), np.eye(5)[[3, 0, 3]])
    np.testing.assert_array_equal(one_hot(2, 4), [[0, 0, 1, 0]])  # one id: one row


@given(tables_and_ids())
def test_encode_is_lookup_plus_positions_and_leaves_the_table(table_and_ids):
    table, ids = table_and_ids
    before = table.copy()
    result = encode(table, ids)  # (len(ids), d)
    expected = table[ids] + plain_loop(range(len(ids)), table.shape[1])  # (n, d)
    # the sine is within a few ulps of 1, and the sum rounds once
    eps = np.finfo(float).eps
    assert np.all(np.abs(result - expected) <= 4 * eps * (np.abs(expected) + 1))
    np.testing.assert_array_equal(table, before)


def test_encode_leaves_an_integer_table_untouched_and_returns_floats():
    table = np.arange(8).reshape(2, 4)
    result = encode(table, [1, 1])
    assert result.dtype == np.float64
    np.testing.assert_array_equal(table, np.arange(8).reshape(2, 4))
    np.testing.assert_allclose(result[0], [4, 6, 6, 8])
    np.testing.assert_array_equal(encode(TABLE, 1), [[1.0, 3.0, 3.0, 5.0]])  # PE[0]


# --- bad input: each function names its argument (test_validation.py: the rest) --

IN_VOCAB = "must be in [0, 3), i.e. 0 <= token_id < vocab_size."
ID = "must be an integer token id."
ONE_D_IDS = "must be a 1-D sequence of integer token ids"
NOT_2D = "must be 2-D: (vocab_size, d), one row per token."
NUMERIC = "must hold real numbers (integers or floats)."


REFUSED = [  # (call, error, message)
    (lambda: lookup(TABLE, -1), ValueError, f"token_ids == -1, {IN_VOCAB}"),
    (lambda: lookup(TABLE, [2, 3]), ValueError, f"token_ids[1] == 3, {IN_VOCAB}"),
    (lambda: lookup(TABLE, 1.0), TypeError, "token_ids == 1.0 (float), must be an "),
    (lambda: one_hot([0, 1.0], 3), TypeError, f"token_ids[1] == 1.0 (float), {ID}"),
    (lambda: one_hot([2, False], 3), TypeError, f"token_ids[1] == False (bool), {ID}"),
    (lambda: one_hot("1", 3), TypeError, f"token_ids == '1' (str), {ONE_D_IDS}."),
    (lambda: one_hot([0], 0), ValueError, "vocab_size == 0, must be an integer >= 1."),
    (lambda: one_hot([0], 3.0), TypeError, "vocab_size == 3.0 (float), must be an "),
    (lambda: encode(TABLE, []), ValueError, f"token_ids is empty, {ONE_D_IDS} of "),
    (lambda: encode(TABLE, [[0, 1]]), ValueError, "token_ids has shape (1, 2), must "),
    (lambda: encode(TABLE, ["1"]), TypeError, f"token_ids[0] == '1' (str), {ID}"),
    (lambda: lookup(np.zeros(4), 0), ValueError, f"table has shape (4,), {NOT_2D}"),
    (lambda: lookup([["a"]], 0), TypeError, f"table has dtype <U1, {NUMERIC}"),
    (lambda: lookup([[1.0, 2.0], [3.0]], 0), ValueError, "table == [[1.0, 2.0], [3"),
    (lambda: encode(np.zeros((0, 4)), 0), ValueError, "table has shape (0, 4), must "),
    (lambda: encode([[True, False]], 0), TypeError, f"table has dtype bool, {NUMERIC}"),
    (lambda: encode([[0.0, np.nan]], 0), ValueError, "table[0, 1] == nan, must be a "),
    (lambda: encode(np.zeros((2, 3)), 0), ValueError, "table.shape[1] (the embedding "),
    (lambda: init_embedding(0, 4), ValueError, "vocab_size == 0, must be an integer "),
    (lambda: init_embedding(2, 3), ValueError, "d_model == 3, must be an even integer"),
    (lambda: init_embedding(2, 4, scale=0.0), ValueError, "scale == 0.0, must be a "),
    (lambda: init_embedding(2, 4, scale="1"), TypeError, "scale == '1' (str), must "),
    (lambda: row_cosines([1.0, 0.0], [[1.0, 0.0]]), ValueError, "a has shape (2,), "),
    (
        lambda: row_cosines([[1.0, 0.0]], [[1.0]]),
        ValueError,
        "b has shape (1, 1), must",
    ),
    (lambda: row_cosines([[0.0, 0.0]], [[1.0, 0.0]]), ValueError, "a[0] == array([0"),
    (
        lambda: row_cosines([[1.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [0.0, 0.0]]),
        ValueError,
        "b[1] == ",
    ),
    (lambda: row_cosines([[np.inf, 0.0]], [[1.0, 0.0]]), ValueError, "a[0, 0] == inf"),
    (lambda: row_cosines([[1.0, 0.0]], [[np.nan, 0.0]]), ValueError, "b[0, 0] == nan"),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_each_function_names_its_argument(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()


# --- init_embedding and row_cosines (chapter 06 section 5) -------------------


def test_init_embedding_has_variance_one_over_d_model_and_rows_of_length_one():
    table = init_embedding(1000, 512, seed=0)
    assert table.shape == (1000, 512) and table.dtype == np.float64
    # 512,000 draws: the sample variance is within 1% of 1/512 (about 7 sigma)
    assert table.var() * 512 == pytest.approx(1.0, rel=0.01)
    squared = (table**2).sum(axis=1)  # (1000,): each ~ chi2(512) / 512
    assert squared.mean() == pytest.approx(1.0, rel=0.01)
    assert 0.7 < squared.min() and squared.max() < 1.3  # sd 0.0625: 4.8 sigma


def test_init_embedding_is_seeded_and_scale_multiplies_the_same_draws():
    np.testing.assert_array_equal(init_embedding(3, 4), init_embedding(3, 4, seed=0))
    assert not np.array_equal(init_embedding(3, 4), init_embedding(3, 4, seed=1))
    # numpy draws normal(0, scale) as 0.0 + scale * standard normal: exactly
    standard = np.random.default_rng(3).standard_normal((50, 8))  # (50, 8)
    scaled = init_embedding(50, 8, seed=3, scale=0.5)
    np.testing.assert_array_equal(scaled, 0.5 * standard)
    default = init_embedding(50, 8, seed=3)  # scale 1 / sqrt(8), times each draw
    np.testing.assert_array_equal(default, (1 / np.sqrt(8)) * standard)


def test_row_cosines_against_math_on_each_row():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=(6, 5)), rng.normal(size=(6, 5))
    expected = [
        sum(x * y for x, y in zip(u, v, strict=True))
        / math.sqrt(sum(x * x for x in u) * sum(y * y for y in v))
        for u, v in zip(a.tolist(), b.tolist(), strict=True)
    ]
    np.testing.assert_allclose(row_cosines(a, b), expected, rtol=1e-13, atol=1e-15)


def test_row_cosines_ignore_scale_and_stay_in_minus_one_one():
    a = np.array([[1.0, 2.0, 3.0], [1e300, -1e300, 0.0], [1e-310, 0.0, 0.0]])
    b = np.array([[2.0, 4.0, 6.0], [-1e300, 1e300, 0.0], [0.0, 5.0, 0.0]])
    np.testing.assert_allclose(row_cosines(a, b), [1.0, -1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(row_cosines(3.0 * a[:2], b[:2]), [1.0, -1.0])
