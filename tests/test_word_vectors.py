"""The tiny word-vector training run of chapter 01."""

import re

import numpy as np
import pytest

from posenc_lib.word_vectors import (
    TOY_CORPUS,
    context_pairs,
    cosine_similarity,
    group_similarity,
    project_2d,
    random_table,
    train_word_vectors,
    vocabulary,
)

GROUPS = {
    "animal": ["cat", "dog", "fox"],
    "fruit": ["apple", "pear", "plum"],
    "place": ["park", "garden", "kitchen"],
}
WORDS = [word for group in GROUPS.values() for word in group]


def _within_and_across(table, vocab):
    """Mean cosine between words of one group, and of different groups."""
    labels = [name for name, words in GROUPS.items() for _ in words]
    return group_similarity(table[[vocab.index(w) for w in WORDS]], labels)


def test_group_similarity_against_a_plain_loop():
    vectors = np.random.default_rng(2).normal(size=(5, 3))
    groups = ["a", "b", "a", "b", "b"]
    cos = cosine_similarity(vectors)
    pairs = [(i, j) for i in range(5) for j in range(5) if i != j]
    within = [cos[i, j] for i, j in pairs if groups[i] == groups[j]]
    across = [cos[i, j] for i in range(5) for j in range(5) if groups[i] != groups[j]]
    assert group_similarity(vectors, groups) == pytest.approx(
        (np.mean(within), np.mean(across))
    )


@pytest.mark.parametrize("window", [1, 2, 9])  # 9: past every sentence's length
def test_context_pairs_against_a_plain_loop(window):
    vocab = vocabulary(TOY_CORPUS)
    expected = []
    for sentence in TOY_CORPUS:
        words = sentence.split()
        for i in range(len(words)):
            for j in range(len(words)):
                if i != j and abs(i - j) <= window:
                    expected.append((vocab.index(words[i]), vocab.index(words[j])))
    np.testing.assert_array_equal(context_pairs(TOY_CORPUS, vocab, window), expected)


def test_training_brings_words_with_shared_contexts_together():
    vocab = vocabulary(TOY_CORPUS)
    start = random_table(len(vocab), 8, seed=0)
    trained, losses = train_word_vectors(start, context_pairs(TOY_CORPUS, vocab))
    within_before, across_before = _within_and_across(start, vocab)
    within, across = _within_and_across(trained, vocab)
    assert abs(within_before) < 0.2 and abs(across_before) < 0.2
    assert within > 0.7 and across < 0.2
    assert losses[-1] < 0.6 * losses[0]
    assert np.all(np.diff(losses) < 1e-12)  # gradient descent never went uphill


def test_training_is_seeded_and_leaves_the_start_table_alone():
    vocab = vocabulary(TOY_CORPUS)
    pairs = context_pairs(TOY_CORPUS, vocab)
    start = random_table(len(vocab), 8, seed=0)
    kept = start.copy()
    first, _ = train_word_vectors(start, pairs, steps=20)
    second, _ = train_word_vectors(start, pairs, steps=20)
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(start, kept)


def test_project_2d_keeps_distances_of_planar_points_and_fixes_signs():
    rng = np.random.default_rng(1)
    planar = np.c_[rng.normal(size=(6, 2)), np.zeros(6)]  # (6, 3), all in a plane
    points = project_2d(planar)
    distances = np.linalg.norm(planar[:, None] - planar[None], axis=-1)
    projected = np.linalg.norm(points[:, None] - points[None], axis=-1)
    np.testing.assert_allclose(projected, distances, atol=1e-12)
    # the mirrored points get the same picture: LAPACK's SVD of -A need not be
    # the bitwise negation of A's, but is backward stable (coordinates of size 1
    # to within 1e-15), so the signs are fixed and the rest is within 1e-12
    np.testing.assert_allclose(project_2d(-planar), points, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: train_word_vectors(np.ones((2, 2)), [[0, 1]], learning_rate=0.0),
            "learning_rate == 0.0, must be a finite number > 0.",
        ),
        (
            lambda: cosine_similarity(np.ones((30_000, 2))),
            "vectors would give the result of shape (30000, 30000), 6.71 GiB",
        ),
        (
            lambda: context_pairs(["a " * 10**5], ["a"], window=10**4),
            "sentences and window would give the pairs of shape (1899990000, 2)",
        ),
        (
            lambda: train_word_vectors(random_table(2, 2), [(0, 1)], steps=10**9),
            "steps == 1000000000, must be an integer in [1, 10000].",
        ),
    ],
    ids=["learning_rate", "similarities", "pairs", "steps"],
)
def test_sizes_and_counts_are_checked_before_anything_is_built(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()
