"""The worked answers of notebooks/answers/01_answers.ipynb, recomputed."""

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
WORDS = ["cat", "dog", "fox", "apple", "pear", "plum", "park", "garden", "kitchen"]
GROUPS = ["animal"] * 3 + ["fruit"] * 3 + ["place"] * 3


def test_exercise_1_eight_rows_and_the_product_still_equals_the_lookup():
    table = np.arange(20.0).reshape(len(VOCAB), 4)
    ids = [VOCAB.index(word) for word in "the cat sat on the mat sat sat".split()]
    assert ids == [0, 1, 2, 3, 0, 4, 2, 2]
    X = one_hot(ids, len(VOCAB))
    assert X.shape == (8, 5) and X[:, 2].sum() == 3
    np.testing.assert_array_equal(X @ table, lookup(table, ids))


def test_exercise_2_cost_of_a_multilingual_one_hot_product():
    vocab_size, d_model, n_tokens, bytes_per_number = 250_000, 4096, 8_192, 2
    assert n_tokens * vocab_size == 2_048_000_000
    assert n_tokens * vocab_size * bytes_per_number / 1e9 == pytest.approx(4.096)
    multiply_adds = n_tokens * vocab_size * d_model
    assert multiply_adds == 8_388_608_000_000
    assert round(multiply_adds / 1e12, 1) == 8.4
    assert n_tokens * d_model == 33_554_432
    assert round(n_tokens * d_model * bytes_per_number / 1e6, 1) == 67.1
    assert multiply_adds // (n_tokens * d_model) == vocab_size


def _clusters(window, steps, corpus=TOY_CORPUS):
    vocab = vocabulary(TOY_CORPUS)
    rows = [vocab.index(word) for word in WORDS]
    start = random_table(len(vocab), 8, seed=0)
    pairs = context_pairs(corpus, vocab, window=window)
    trained, _ = train_word_vectors(start, pairs, steps=steps)
    return trained[rows], pairs


@pytest.mark.parametrize(
    ("window", "steps", "within", "across", "gap"),
    [(2, 300, 0.78, 0.09, 0.69), (1, 300, 0.75, 0.09, 0.67), (2, 50, 0.32, 0.24, 0.08)],
    ids=["chapter", "window-1", "steps-50"],
)
def test_exercise_3_fewer_steps_weaken_the_clusters_more(
    window, steps, within, across, gap
):
    vectors, _ = _clusters(window, steps)
    got_within, got_across = group_similarity(vectors, GROUPS)
    assert (round(got_within, 2), round(got_across, 2)) == (within, across)
    assert round(got_within - got_across, 2) == gap


def test_exercise_3_pair_counts():
    vocab = vocabulary(TOY_CORPUS)
    assert len(context_pairs(TOY_CORPUS, vocab, window=1)) == 172
    assert len(context_pairs(TOY_CORPUS, vocab, window=2)) == 304


def test_exercise_4_fox_lands_near_cat_and_dog_but_less_tightly():
    corpus = [
        s for s in TOY_CORPUS if "fox" not in s.split() or s == "the fox chased the cat"
    ]
    assert len(corpus) == 17 and vocabulary(corpus) == vocabulary(TOY_CORPUS)
    vectors, pairs = _clusters(2, 300, corpus)
    fox_row = cosine_similarity(vectors)[2]
    got = dict(zip(WORDS, fox_row.round(2).tolist(), strict=True))
    assert (got["cat"], got["dog"], got["park"]) == (0.71, 0.71, 0.55)
    assert sorted(WORDS, key=got.get)[-3:-1] in (["dog", "cat"], ["cat", "dog"])
    full, _ = _clusters(2, 300)
    before = cosine_similarity(full)[2]
    assert (round(before[0], 2), round(before[1], 2)) == (0.99, 0.93)
    fox = vocabulary(TOY_CORPUS).index("fox")
    full_pairs = context_pairs(TOY_CORPUS, vocabulary(TOY_CORPUS))
    assert ((full_pairs[:, 0] == fox).sum(), (pairs[:, 0] == fox).sum()) == (12, 3)


def test_exercise_5_fancy_indexing_copies_and_a_slice_does_not():
    table = np.arange(20.0).reshape(5, 4)
    row = table[[2]][0]
    assert not np.shares_memory(row, table)
    row += pos_encoding(0, 4)
    np.testing.assert_array_equal(table[2], [8, 9, 10, 11])
    assert table[[2]].shape == (1, 4) and not np.shares_memory(table[[2]], table)
    assert np.shares_memory(table[2:3], table)
    assert not np.shares_memory(table.take(2, axis=0), table)
