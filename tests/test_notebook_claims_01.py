"""Every claim of notebooks/01_embeddings.ipynb, asserted with the library."""

import numpy as np
import pytest

from posenc_lib import lookup, one_hot, pos_encoding
from posenc_lib.word_vectors import (
    TOY_CORPUS,
    context_pairs,
    cosine_similarity,
    group_similarity,
    random_table,
    train_word_vectors,
    vocabulary,
)

VOCAB = ["the", "cat", "sat", "on", "mat"]
TOKEN_IDS = [0, 1, 2, 3, 0, 4]  # "the cat sat on the mat"
WORDS = ["cat", "dog", "fox", "apple", "pear", "plum", "park", "garden", "kitchen"]
GROUPS = ["animal"] * 3 + ["fruit"] * 3 + ["place"] * 3


def _table():
    return np.arange(20.0).reshape(len(VOCAB), 4)  # (vocab_size, d_model)


def test_sentence_to_token_ids():
    assert [VOCAB.index(w) for w in "the cat sat on the mat".split()] == TOKEN_IDS


def test_lookup_returns_row_t_for_every_token():
    rows = lookup(_table(), TOKEN_IDS)
    assert rows.shape == (6, 4)
    for r, t in enumerate(TOKEN_IDS):
        np.testing.assert_array_equal(rows[r], [4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3])
    np.testing.assert_array_equal(rows[0], rows[4])  # "the" twice
    np.testing.assert_array_equal(rows[0], [0, 1, 2, 3])


def test_one_hot_shape_and_ones():
    X = one_hot(TOKEN_IDS, len(VOCAB))
    assert X.shape == (6, 5) and X.sum() == 6
    assert (X.sum(axis=1) == 1).all() and X[:, 0].sum() == 2  # two "the"s


def test_one_hot_product_equals_lookup_exactly_for_the_sequence():
    product = one_hot(TOKEN_IDS, len(VOCAB)) @ _table()
    np.testing.assert_array_equal(product, lookup(_table(), TOKEN_IDS))
    assert np.abs(product - lookup(_table(), TOKEN_IDS)).max() == 0.0


def test_one_hot_product_equals_lookup_for_random_tables():
    rng = np.random.default_rng(3)
    table = rng.normal(size=(50, 16))
    ids = rng.integers(0, 50, size=40)
    np.testing.assert_array_equal(one_hot(ids, 50) @ table, lookup(table, ids))


def test_cost_of_the_one_hot_product_from_shapes():
    vocab_size, d_model, n_tokens, bytes_per_number = 50_000, 512, 1_024, 4
    assert n_tokens * vocab_size * bytes_per_number / 1e6 == pytest.approx(204.8)
    assert n_tokens * vocab_size * d_model / 1e9 == pytest.approx(26.2, abs=0.05)
    assert n_tokens * d_model == 524_288
    assert n_tokens * d_model * bytes_per_number / 1e6 == pytest.approx(2.1, abs=0.05)
    ratio = n_tokens * vocab_size * d_model / (n_tokens * d_model)
    assert ratio == vocab_size == 50_000  # the predicted ratio, not 512 or 1,024


def test_the_timed_one_hot_matrix_has_the_shape_the_cell_says():
    ids = np.arange(32) * 1_000
    assert one_hot(ids, 50_000).shape == (32, 50_000)


def test_corpus_sizes_and_first_pairs():
    vocab = vocabulary(TOY_CORPUS)
    pairs = context_pairs(TOY_CORPUS, vocab, window=2)
    assert (len(vocab), pairs.shape) == (29, (304, 2))
    first = [(vocab[c], vocab[o]) for c, o in pairs[:6]]
    assert first[:2] == [("the", "cat"), ("the", "chased")]


def test_training_run_numbers():
    vocab = vocabulary(TOY_CORPUS)
    rows = [vocab.index(word) for word in WORDS]
    start = random_table(len(vocab), 8, seed=0)
    trained, losses = train_word_vectors(start, context_pairs(TOY_CORPUS, vocab))
    assert (round(losses[0], 3), round(losses[-1], 3)) == (3.537, 2.008)
    within, across = group_similarity(start[rows], GROUPS)
    assert (round(within, 2), round(across, 2)) == (-0.09, -0.02)  # "about 0"
    within, across = group_similarity(trained[rows], GROUPS)
    assert (round(within, 2), round(across, 2)) == (0.78, 0.09)  # "about 0.8"
    cat_row = cosine_similarity(trained[rows])[0]
    assert WORDS[np.argsort(cat_row)[-2]] == "fox"  # closest to cat
    assert WORDS[np.argsort(cat_row)[-3]] == "dog"
    assert (round(cat_row[2], 2), round(cat_row[1], 2)) == (0.99, 0.95)
    assert round(cat_row[WORDS.index("apple")], 2) == -0.03  # unrelated


def test_a_view_writes_into_the_table():
    table = _table()
    row = table[2]
    row += pos_encoding(0, 4)
    np.testing.assert_array_equal(table[2], [8.0, 10.0, 10.0, 12.0])
    assert np.shares_memory(table[2], table)


def test_lookup_returns_a_copy_and_the_table_is_unchanged():
    table = _table()
    row = lookup(table, 2)
    row += pos_encoding(0, 4)
    np.testing.assert_array_equal(table, _table())
    assert not np.shares_memory(lookup(table, 2), table)
