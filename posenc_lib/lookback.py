r"""A tiny attention layer that learns to look 3 tokens back, trained in plain numpy.

At each position ``p >= lag`` of a random sequence, predict the token at ``p -
lag`` from ``x_p = table[token_p] + PE[p]`` (a fixed random table; no ``PE`` if
``positions=False``): one causal head weighs ``w[p, q] = softmax over q <= p of
(x_p W_Q) . (x_q W_K) / sqrt(d_head)``, and ``logits_p = (sum_q w[p, q] x_q W_V)
W_O``. :func:`train` lowers the cross-entropy with Adam and the hand-written
gradients of :func:`loss_and_grads`, from one seed: two runs agree bit for bit.
"""

from typing import NamedTuple

import numpy as np

from .attention import softmax
from .embedding import init_embedding
from .positional import sinusoidal_positions
from .validation import (
    check_array,
    check_array_size,
    check_d_model,
    check_instance,
    check_integer,
    check_table,
    check_token_ids,
)

__all__ = ["MAX_STEPS", "MAX_WORK", "LookBack", "evaluate", "loss_and_grads", "train"]

BATCH, N_POSITIONS, LR = 64, 12, 0.02  # a training step's sequences, Adam's step
MAX_STEPS = 10_000  # the lesson trains 400
MAX_WORK = 10**11  # multiply-adds of one training run; the lesson's: 1.8e9


class LookBack(NamedTuple):
    """A model: its fixed embedding ``table`` and its ``weights``, by name."""

    table: np.ndarray  # (vocab_size, d_model)
    weights: dict  # w_q, w_k, w_v: (d_model, d_head); w_o: (d_head, vocab_size)
    lag: int  # the target at position p is the token at p - lag
    positions: bool  # is PE[p] added to the input?


def _check_model(model):
    """``model`` with its fields checked, each named: ``model.weights['w_o']``."""
    check_instance(model, "model", LookBack, what="a LookBack, e.g. from train")
    table = check_table(model.table, "model.table")  # (vocab_size, d_model)
    (vocab, d_model), weights = table.shape, model.weights
    made = "w_q, w_k, w_v (d_model, d_head), w_o (d_head, vocab_size) as train makes"
    check_instance(weights, "model.weights", dict, what=f"a dict of {made}")
    if missing := [n for n in ("w_q", "w_k", "w_v", "w_o") if n not in weights]:
        missing = ", ".join(missing)
        raise ValueError(f"model.weights has no {missing}: it must hold {made}.")
    width = f"(d_model, d_head) with d_model == {d_model}, the width of model.table"
    w_q = check_array(
        weights["w_q"], "model.weights['w_q']", shape=(d_model, None), what=width
    )
    d_head, checked = w_q.shape[1], {"w_q": w_q}
    for name in ("w_k", "w_v", "w_o"):
        out = name == "w_o"
        shape = (d_head, vocab) if out else (d_model, d_head)
        names = "(d_head, vocab_size)" if out else "(d_model, d_head)"
        what = f"{names} == {shape}, to match model.table and w_q"
        checked[name] = check_array(
            weights[name], f"model.weights[{name!r}]", shape=shape, what=what
        )
    lag = check_integer(model.lag, "model.lag", min_value=1)
    check_instance(model.positions, "model.positions", bool, what="True or False")
    if model.positions:
        check_d_model(d_model, "model.table.shape[1] (d_model, with positions)")
    return LookBack(table, checked, lag, model.positions)


def _check_sizes(name, vocab, d_model, d_head, n_sequences, n_positions):
    """Refuse, from the sizes, a layer whose arrays would pass MAX_ARRAY_BYTES."""
    arrays = {  # what -> shape, of the largest arrays a step builds
        "the embedding table": (vocab, d_model),
        "w_q, w_k and w_v": (3, d_model, d_head),
        "the layer's input": (n_sequences, n_positions, d_model),
        "the queries": (n_sequences, n_positions, d_head),
        "the attention scores": (n_sequences, n_positions, n_positions),
        "the logits": (n_sequences, n_positions, vocab),
    }
    for what, shape in arrays.items():
        check_array_size(shape, name, what=what)


def _check_tokens(tokens, model):  # (n_sequences, n_positions) ids of the table
    model = _check_model(model)
    tokens = check_table(tokens, "tokens", what="(n_sequences, n_positions)")
    check_token_ids(tokens.ravel(), len(model.table), name="tokens.flat")
    n, lag = tokens.shape[1], model.lag
    if n <= lag:
        raise ValueError(f"tokens has {n} positions, must have more than lag == {lag}.")
    d_head = model.weights["w_q"].shape[1]
    _check_sizes("tokens", *model.table.shape, d_head, *tokens.shape)
    return tokens, model


def _forward(model, tokens):  # the layer's arrays, from the input x to the logits
    x = model.table[tokens]  # (batch, n, d_model)
    if model.positions:
        x = x + sinusoidal_positions(range(tokens.shape[1]), x.shape[2])  # + PE[p]
    with np.errstate(over="ignore", invalid="ignore"):  # said below, by name
        query, key, value = (x @ model.weights[n] for n in ("w_q", "w_k", "w_v"))
        scores = query @ key.swapaxes(1, 2) / np.sqrt(key.shape[2])  # (batch, n, n)
        _check_finite(scores, "attention scores")
        causal = np.tril(np.ones(scores.shape[1:], bool))  # key q <= query p
        weight = softmax(np.where(causal, scores, -np.inf))  # (batch, n, n)
        mixed = weight @ value  # (batch, n, d_head)
        logits = _check_finite(mixed @ model.weights["w_o"], "logits")
    return x, query, key, value, weight, mixed, logits


def _check_finite(values, what):
    if not np.isfinite(values).all():
        raise ValueError(f"model.weights are too large: its {what} overflow float64.")
    return values


def loss_and_grads(model, tokens):
    """The mean cross-entropy over positions ``p >= lag``, and its gradients.

    Examples
    --------
    >>> loss_and_grads(train(steps=1)[0], np.zeros((2, 12), int))[1]["w_q"].shape
    (32, 16)
    """
    tokens, model = _check_tokens(tokens, model)
    lag, vocab = model.lag, len(model.table)
    x, query, key, value, weight, mixed, logits = _forward(model, tokens)
    target = (tokens[:, :-lag, None] == np.arange(vocab)).astype(float)  # one-hot
    log_p = logits[:, lag:] - logits[:, lag:].max(axis=-1, keepdims=True)
    log_p -= np.log(np.exp(log_p).sum(axis=-1, keepdims=True))  # log-softmax
    count = target.shape[0] * target.shape[1]  # positions with a target
    d_logits = np.zeros_like(logits)  # (batch, n, vocab), 0 for p < lag
    d_logits[:, lag:] = (np.exp(log_p) - target) / count
    d_mixed = d_logits @ model.weights["w_o"].T  # (batch, n, d_head)
    d_weight = d_mixed @ value.swapaxes(1, 2)  # (batch, n, n)
    d_scores = weight * (d_weight - (d_weight * weight).sum(-1, keepdims=True))
    d_scores /= np.sqrt(key.shape[2])  # (batch, n, n), 0 where masked
    every = ([0, 1], [0, 1])  # sum over every position of every sequence
    grads = {
        "w_q": np.tensordot(x, d_scores @ key, every),  # (d_model, d_head)
        "w_k": np.tensordot(x, d_scores.swapaxes(1, 2) @ query, every),
        "w_v": np.tensordot(x, weight.swapaxes(1, 2) @ d_mixed, every),
        "w_o": np.tensordot(mixed, d_logits, every),  # (d_head, vocab_size)
    }
    return float(-(target * log_p).sum() / count), grads


def train(vocab_size=16, d_model=32, *, lag=3, positions=True, steps=400, seed=0):
    """Train with Adam; return the model before and after, and each step's loss.

    Parameters
    ----------
    vocab_size, d_model : int
        Tokens, and the input width (even); ``d_head = d_model // 2``.
    lag : int
        The target at position ``p`` is the token at ``p - lag``.
    positions : bool
        Whether ``PE[p]`` is added to the embedding.
    steps, seed : int
        Adam steps, each on ``BATCH`` fresh sequences; the seed of every number.

    Raises
    ------
    ValueError, TypeError
        Naming the argument, before anything is built: ``steps`` past
        :data:`MAX_STEPS`, arrays past 256 MiB, work past :data:`MAX_WORK`.

    Examples
    --------
    >>> before, after, losses = train(steps=50)
    >>> losses.shape, bool(losses[-1] < losses[0])
    ((50,), True)
    """
    lag = check_integer(lag, "lag", min_value=1, max_value=N_POSITIONS - 1)
    check_instance(positions, "positions", bool, what="True or False")
    steps = check_integer(steps, "steps", min_value=1, max_value=MAX_STEPS)
    vocab_size = check_integer(vocab_size, "vocab_size", min_value=1)
    d_model = check_d_model(d_model)
    sizes = (vocab_size, d_model, d_model // 2, BATCH, N_POSITIONS)
    _check_sizes("vocab_size and d_model", *sizes)
    step = 3 * BATCH * N_POSITIONS * (d_model // 2)  # a step's products, both ways
    work = steps * step * (3 * d_model + N_POSITIONS + vocab_size)  # multiply-adds
    if work > MAX_WORK:
        raise ValueError(
            f"steps, vocab_size and d_model would take {work:.2g} multiply-adds, "
            f"more than the limit of {MAX_WORK:.0e} (posenc_lib.lookback.MAX_WORK): "
            "fewer steps or a smaller model."
        )
    table = init_embedding(vocab_size, d_model, seed=seed)  # (vocab_size, d_model)
    rng = np.random.default_rng([seed, 1])  # a stream apart from the table's
    w_q, w_k, w_v = rng.normal(0, d_model**-0.5, (3, d_model, d_model // 2))
    w_o = rng.normal(0, (d_model // 2) ** -0.5, (d_model // 2, vocab_size))
    before = LookBack(table, dict(w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o), lag, positions)
    weights = {n: w.copy() for n, w in before.weights.items()}  # to be trained
    after, losses = before._replace(weights=weights), np.empty(steps)
    mean, square = dict.fromkeys(weights, 0.0), dict.fromkeys(weights, 0.0)
    for step in range(1, steps + 1):
        tokens = rng.integers(0, vocab_size, (BATCH, N_POSITIONS))  # fresh data
        losses[step - 1], grads = loss_and_grads(after, tokens)  # before the update
        for n, grad in grads.items():  # Adam: moving averages, corrected for step
            mean[n] = 0.9 * mean[n] + 0.1 * grad
            square[n] = 0.999 * square[n] + 0.001 * grad**2
            m_hat, v_hat = mean[n] / (1 - 0.9**step), square[n] / (1 - 0.999**step)
            weights[n] -= LR * m_hat / (np.sqrt(v_hat) + 1e-8)
    return before, after, losses


def evaluate(model, tokens):
    """``(accuracy, attention, guess)`` on ``tokens``: the highest logit's token
    ``guess[s, p]`` is right at a share ``accuracy`` of the positions ``p >= lag``;
    ``attention[p, q]`` is key q's mean weight for p.

    Examples
    --------
    >>> accuracy, attention, guess = evaluate(train(steps=1)[0], np.ones((1, 4), int))
    >>> attention.sum(axis=1), guess.shape  # each row of weights sums to 1
    (array([1., 1., 1., 1.]), (1, 4))
    """
    tokens, model = _check_tokens(tokens, model)
    *_, weight, _, logits = _forward(model, tokens)
    guess = logits.argmax(axis=-1)  # (batch, n): the token each position names
    right = guess[:, model.lag :] == tokens[:, : -model.lag]
    return float(right.mean()), weight.mean(axis=0), guess  # attention: (n, n)
