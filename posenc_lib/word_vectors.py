r"""Where the geometry of word vectors comes from: a tiny training run in numpy.

Each word's row of a random table learns to predict the words around it (a
skip-gram model with a full softmax [1]_): with an output matrix ``W``,
``p(context = o | centre = c) = softmax(table[c] @ W)[o]``, and gradient descent
lowers the mean of ``-log p`` over the corpus's (centre, context) pairs.

.. [1] T. Mikolov et al., "Efficient Estimation of Word Representations in Vector
   Space", 2013.
"""

import numpy as np

from .attention import softmax
from .embedding import init_embedding
from .validation import (
    check_array_size,
    check_integer,
    check_positive,
    check_sequence,
    check_table,
    check_token_ids,
    describe,
)

__all__ = [
    "TOY_CORPUS",
    "context_pairs",
    "cosine_similarity",
    "group_similarity",
    "project_2d",
    "random_table",
    "train_word_vectors",
    "vocabulary",
]

#: A made-up corpus of 20 sentences: animals, fruit and places, each used
#: between similar words.
TOY_CORPUS = tuple(
    "the cat chased the dog. the dog chased the fox. the fox chased the cat. "
    "a hungry cat sleeps in the garden. a hungry dog sleeps in the park. "
    "a hungry fox sleeps in the kitchen. the cat runs to the dog. "
    "the fox runs to the cat. she eats a ripe apple. he eats a ripe pear. "
    "she eats a sweet plum. he slices a sweet apple. she slices the ripe pear. "
    "he slices the sweet plum. we walk to the park. we walk to the garden. "
    "we sit in the kitchen. we sit in the park. the garden is quiet. "
    "the kitchen is warm".split(". ")
)


def _check_words(words, name, what="str"):
    """``words`` as a list of str, or raise naming ``name`` (a lone str is refused)."""
    many = isinstance(words, list | tuple)
    if not many or not all(isinstance(word, str) for word in words):
        raise TypeError(f"{name} == {describe(words)}, must be a list of {what}.")
    return list(words)


def vocabulary(sentences):
    """Sorted list of the distinct words in ``sentences`` (split on spaces).

    Examples
    --------
    >>> vocabulary(["the cat", "the dog"])
    ['cat', 'dog', 'the']
    """
    sentences = _check_words(sentences, "sentences", what="sentences (str)")
    return sorted({word for sentence in sentences for word in sentence.split()})


def context_pairs(sentences, vocab, window=2):
    """Every (centre, context) pair of ids (``vocab[i]`` has id ``i``) within
    ``window`` words of each other, ``(n_pairs, 2)``.

    Examples
    --------
    >>> context_pairs(["a b c"], ["a", "b", "c"], window=1)
    array([[0, 1],
           [1, 0],
           [1, 2],
           [2, 1]])
    """
    sentences = _check_words(sentences, "sentences", what="sentences (str)")
    ids = {word: i for i, word in enumerate(_check_words(vocab, "vocab", what="words"))}
    window = check_integer(window, "window", min_value=1)
    lengths = [len(sentence.split()) for sentence in sentences]
    count = sum(
        min(n - 1, i + window) - max(0, i - window) for n in lengths for i in range(n)
    )
    check_array_size((count, 2), "sentences and window", what="the pairs")
    pairs = [np.empty((0, 2), np.int64)]
    for index, sentence in enumerate(sentences):
        if unknown := [word for word in sentence.split() if word not in ids]:
            word = unknown[0]
            raise ValueError(f"sentences[{index}] has {word!r}, a word not in vocab.")
        words = np.array([ids[word] for word in sentence.split()], dtype=np.int64)
        reach = min(window, len(words) - 1)  # (L, 2 reach) below: <= 2 pairs each
        j = np.arange(len(words))[:, None] + np.r_[-reach:0, 1 : reach + 1]
        inside = (j >= 0) & (j < len(words))  # row by row: i, then j, ascending
        centre = np.broadcast_to(words[:, None], j.shape)[inside]
        pairs.append(np.stack([centre, words[j[inside]]], axis=1))
    return np.concatenate(pairs)  # (n_pairs, 2)


def random_table(vocab_size, d_model, seed=0):
    """The start of this training: ``init_embedding`` with scale 0.5 (so that the
    toy corpus trains in 300 steps).

    Examples
    --------
    >>> random_table(5, 4).shape
    (5, 4)
    """
    return init_embedding(vocab_size, d_model, seed=seed, scale=0.5)


def train_word_vectors(table, pairs, *, steps=300, learning_rate=1.0, seed=0):
    """Train ``table``'s rows to predict context words with ``steps`` full-batch
    gradient-descent steps on ``pairs`` (from :func:`context_pairs`; ``seed``
    seeds ``W``): the trained copy, and the loss before each step, ``(steps,)``.

    Examples
    --------
    >>> pairs = context_pairs(TOY_CORPUS, vocabulary(TOY_CORPUS))
    >>> start = random_table(len(vocabulary(TOY_CORPUS)), 8)
    >>> trained, losses = train_word_vectors(start, pairs, steps=50)
    >>> bool(losses[-1] < losses[0])
    True
    """
    table = check_table(table)  # (V, d_model)
    check_array_size(table.shape, "table", what="a float64 copy")
    table = table.astype(np.float64)  # a copy, trained
    what = "(n_pairs, 2), (centre, context) ids"
    pairs = check_table(pairs, "pairs", what=what, shape=(None, 2))  # (n_pairs, 2)
    pairs = check_token_ids(pairs.ravel(), len(table), name="pairs").reshape(-1, 2)
    steps = check_integer(steps, "steps", min_value=1, max_value=10_000)
    learning_rate = check_positive(learning_rate, "learning_rate")
    vocab_size, d_model = table.shape
    for width in (vocab_size, d_model):  # the probabilities, the centre rows
        check_array_size((len(pairs), width), "pairs and table", what="a step's rows")
    if steps * len(pairs) * vocab_size * d_model > 10**11:  # multiply-adds, about
        raise ValueError(
            f"steps == {steps} on {len(pairs)} pairs of a {vocab_size}-word table: "
            "more than 1e11 multiply-adds; fewer steps, pairs or words."
        )
    rng = np.random.default_rng(check_integer(seed, "seed", min_value=0))
    weights = rng.normal(0.0, 0.5, size=(d_model, vocab_size))
    centre, context = pairs[:, 0], pairs[:, 1]
    rows = np.arange(len(pairs))
    losses = np.empty(steps)
    for step in range(steps):
        hidden = table[centre]  # (n_pairs, d_model)
        probs = softmax(hidden @ weights, axis=1)  # (n_pairs, V)
        losses[step] = -np.log(probs[rows, context]).mean()
        grad_logits = probs
        grad_logits[rows, context] -= 1.0
        grad_logits /= len(pairs)  # (n_pairs, V)
        grad_table = np.zeros_like(table)  # (V, d_model)
        np.add.at(grad_table, centre, grad_logits @ weights.T)
        weights -= learning_rate * (hidden.T @ grad_logits)  # (d_model, V)
        table -= learning_rate * grad_table
    return table, losses


def cosine_similarity(vectors):
    """Cosine of the angle between every two rows: ``(n, d_model)`` in, ``(n, n)`` out.

    Examples
    --------
    >>> cosine_similarity([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]]).round(3)
    array([[1.   , 0.707, 0.   ],
           [0.707, 1.   , 0.707],
           [0.   , 0.707, 1.   ]])
    """
    what = "(n, d_model), no row all zeros"
    vectors = check_table(vectors, "vectors", what=what, nonzero=True)  # (n, d_model)
    check_array_size((len(vectors),) * 2, "vectors")  # (n, n)
    check_array_size(vectors.shape, "vectors", what="a float64 copy")
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)  # (n, d_model)
    return unit @ unit.T  # (n, n)


def group_similarity(vectors, groups):
    """Mean cosine similarity of two distinct rows of ``vectors`` within a group,
    and across groups; ``groups`` names each row's: ``["animal", "fruit", ...]``.

    Examples
    --------
    >>> group_similarity([[1.0, 0.0], [1.0, 0.1], [0.0, 1.0]], ["a", "a", "b"])
    (0.995, 0.050)
    """
    similarity = cosine_similarity(vectors)  # (n, n)
    what, per = "a list, one per row", " (rows of vectors)"
    check_sequence(groups, "groups", what=what, length=len(similarity), per=per)
    codes = {}  # a number for each group, in order of appearance
    labels = np.array([codes.setdefault(group, len(codes)) for group in groups])
    same = labels[:, None] == labels[None, :]  # (n, n)
    distinct = ~np.eye(len(labels), dtype=bool)
    return float(similarity[same & distinct].mean()), float(similarity[~same].mean())


def project_2d(vectors):
    """The rows' coordinates along their two main directions (PCA), ``(n, 2)``,
    signs fixed (largest coordinate positive) so the picture never flips.

    Examples
    --------
    >>> project_2d([[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.5, 0.0]]).shape
    (3, 2)
    """
    vectors = check_table(vectors, "vectors", what="(n, d_model)")  # (n, d_model)
    check_array_size(vectors.shape, "vectors", what="a float64 copy")
    centred = vectors - vectors.mean(axis=0)  # (n, d_model)
    _, _, directions = np.linalg.svd(centred, full_matrices=False)  # (d_model, d_model)
    points = centred @ directions[:2].T  # (n, 2)
    largest = points[np.abs(points).argmax(axis=0), [0, 1]]  # (2,)
    return points * np.where(largest < 0, -1.0, 1.0)
