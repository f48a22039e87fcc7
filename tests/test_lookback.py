"""posenc_lib.lookback, and chapter 04's claims of it: deterministic training;
with positions, held-out sequences right and every row p >= 3 of the attention
peaking at p - 3; without, below 0.35 (a position-blind guess: about 0.285);
gradients as finite differences; a plain loop; exact refusals. Two full trainings
(about a second each) are shared.
"""

import math
import re
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

from posenc_lib import sinusoidal_positions
from posenc_lib.figures import attention_maps
from posenc_lib.lookback import LookBack, evaluate, loss_and_grads, train

LAG = 3


@pytest.fixture(scope="module")
def held_out():
    return np.random.default_rng(12345).integers(0, 16, (500, 12))  # (500, 12)


@pytest.fixture(scope="module")
def with_positions():
    return train(seed=0)


@pytest.fixture(scope="module")
def without_positions():
    return train(positions=False, seed=0)


def test_two_runs_give_the_same_numbers_bit_for_bit_and_keep_the_start():
    before, after, losses = train(steps=20, seed=4)
    again = train(steps=20, seed=4)
    assert np.array_equal(losses, again[2])
    assert not np.array_equal(losses, train(steps=20, seed=5)[2])
    start = train(steps=1, seed=4)[0]
    assert LookBack._fields == ("table", "weights", "lag", "positions")
    for name, weight in after.weights.items():
        assert np.array_equal(weight, again[1].weights[name]), name
        assert np.array_equal(before.weights[name], start.weights[name]), name
        assert not np.array_equal(before.weights[name], weight), name


def test_with_positions_it_learns_to_look_3_back(with_positions, held_out):
    before, after, losses = with_positions
    accuracy, attention, _ = evaluate(after, held_out)
    rows = np.arange(LAG, held_out.shape[1])  # query positions with a target
    assert accuracy > 0.95
    assert np.array_equal(attention[rows].argmax(axis=1), rows - LAG)
    assert attention[rows, rows - LAG].min() > 0.9  # not just the largest: most
    assert losses[-1] < 0.01 < 2 < losses[0]


def test_before_training_it_guesses(with_positions, held_out):
    accuracy, attention, _ = evaluate(with_positions[0], held_out)
    assert accuracy < 0.1  # chance is 1 / 16
    assert attention[np.arange(LAG, 12), np.arange(12 - LAG)].max() < 0.3


def test_without_positions_it_can_only_guess_an_earlier_token(
    without_positions, held_out
):
    accuracy, _, guess = evaluate(without_positions[1], held_out)
    assert 0.2 < accuracy < 0.35
    # every guess names one of the tokens before p: where else could it look?
    for row, named in zip(held_out, guess, strict=True):
        for p in range(LAG, len(row)):
            assert named[p] in row[:p]
    # the best position-blind guess: the most frequent of the tokens before p
    best = np.mean(
        [np.bincount(row[:p]).max() / p for row in held_out for p in range(LAG, 12)]
    )
    assert abs(accuracy - best) < 0.03


def _loop_attention(model, tokens):
    """Attention weights of one sequence with Python loops and math.exp."""
    x = model.table[tokens] + sinusoidal_positions(range(len(tokens)), 8)
    query, key = x @ model.weights["w_q"], x @ model.weights["w_k"]
    weights = np.zeros((len(tokens), len(tokens)))
    for p in range(len(tokens)):
        scores = [float(query[p] @ key[q]) / math.sqrt(4) for q in range(p + 1)]
        exps = [math.exp(s - max(scores)) for s in scores]
        weights[p, : p + 1] = [e / sum(exps) for e in exps]
    return weights


def test_the_layer_matches_a_plain_loop():
    model = train(vocab_size=5, d_model=8, steps=3, seed=2)[1]
    tokens = np.array([[4, 0, 3, 3, 1, 2, 0]])
    _, attention, _ = evaluate(model, tokens)
    np.testing.assert_allclose(attention, _loop_attention(model, tokens[0]), atol=1e-14)


@pytest.mark.parametrize("positions", [True, False], ids=["with PE", "without"])
def test_gradients_match_finite_differences(positions):
    model = train(vocab_size=5, d_model=8, positions=positions, steps=1, seed=0)[0]
    weights = {name: 3 * w for name, w in model.weights.items()}  # sharper softmax
    model = model._replace(weights=weights)
    tokens = np.random.default_rng(0).integers(0, 5, (3, 6))
    _, grads = loss_and_grads(model, tokens)
    h = 1e-6
    for name, weight in weights.items():
        for index in np.ndindex(weight.shape):
            start = weight[index]
            weight[index] = start + h
            up = loss_and_grads(model, tokens)[0]
            weight[index] = start - h
            down = loss_and_grads(model, tokens)[0]
            weight[index] = start
            numeric = (up - down) / (2 * h)
            assert abs(numeric - grads[name][index]) <= 1e-6 * max(1.0, abs(numeric))


SIZES = "vocab_size and d_model would give "  # 18.6 GiB for 50,000 words, once
STEPS = "must be an integer in [1, 10000]."
TRAIN_REFUSED = [  # (arguments, error, message)
    ({"lag": 0}, ValueError, "lag == 0, must be an integer in [1, 11]."),
    ({"lag": 12}, ValueError, "lag == 12, must be an integer in [1, 11]."),
    ({"lag": 2.0}, TypeError, "lag == 2.0 (float), must be an integer in [1, 11]."),
    ({"positions": 1}, TypeError, "positions == 1 (int), must be True or False."),
    ({"steps": 0}, ValueError, f"steps == 0, {STEPS}"),
    ({"steps": 10**12}, ValueError, f"steps == 1000000000000, {STEPS}"),  # 7.28 TiB
    ({"vocab_size": 50_000, "d_model": 2}, ValueError, f"{SIZES}the logits"),
    ({"d_model": 8000, "steps": 1}, ValueError, f"{SIZES}w_q, w_k and w_v of shape (3"),
    (
        {"d_model": 1024, "steps": 5000},
        ValueError,
        "steps, vocab_size and d_model would take 1.8e+13 multiply-adds, more "
        "than the limit of 1e+11 (posenc_lib.lookback.MAX_WORK): fewer steps or "
        "a smaller model.",
    ),
    ({"vocab_size": 0}, ValueError, "vocab_size == 0, must be an integer >= 1."),
    ({"d_model": 7}, ValueError, "d_model == 7, must be an even integer >= 2."),
    ({"seed": -1}, ValueError, "seed == -1, must be an integer >= 0."),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), TRAIN_REFUSED)
def test_train_refuses_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        train(**kwargs)


TOKENS_REFUSED = [  # (tokens, error, message)
    (np.full((2, 5), 16), ValueError, "tokens.flat[0] == 16, must be in [0, 16), "),
    (np.full((2, 5), 1.5), TypeError, "tokens.flat[0] == 1.5 (float), must be an "),
    (np.zeros(5, int), ValueError, "tokens has shape (5,), must be 2-D: (n_sequen"),
    (np.zeros((2, 3), int), ValueError, "tokens has 3 positions, must have more than"),
    (np.zeros((1, 30_000), int), ValueError, "tokens would give the attention score"),
]


@pytest.mark.parametrize(("tokens", "error", "message"), TOKENS_REFUSED)
def test_evaluate_and_loss_refuse_bad_tokens(tokens, error, message):
    for function in (evaluate, loss_and_grads):
        with pytest.raises(error, match=f"^{re.escape(message)}"):
            function(MODEL, tokens)


MODEL = train(steps=1)[0]
W = MODEL.weights
HAND_BUILT = [  # (fields replaced, error, message): every field named
    ({"weights": {}}, ValueError, "model.weights has no w_q, w_k, w_v, w_o: it must "),
    ({"weights": [1]}, TypeError, "model.weights == [1], must be a dict of w_q, w_k"),
    (
        {"weights": {**W, "w_o": np.zeros((16, 3))}},
        ValueError,
        "model.weights['w_o'] has shape (16, 3), must be (d_head, vocab_size) == "
        "(16, 16), to match model.table and w_q.",
    ),
    (
        {"weights": {**W, "w_q": np.zeros((8, 16))}},
        ValueError,
        "model.weights['w_q'] has shape (8, 16), must be (d_model, d_head) with "
        "d_model == 32, the width of model.table.",
    ),
    ({"table": np.full((16, 32), np.nan)}, ValueError, "model.table[0, 0] == nan, "),
    (
        {"weights": {name: w * 1e200 for name, w in W.items()}},
        ValueError,
        "model.weights are too large: its attention scores overflow float64.",
    ),
    ({"lag": "3"}, TypeError, "model.lag == '3' (str), must be an integer >= 1."),
    ({"positions": 1}, TypeError, "model.positions == 1 (int), must be True or False"),
    (None, TypeError, "model == 'model' (str), must be a LookBack, e.g. from train."),
]


@pytest.mark.parametrize(("fields", "error", "message"), HAND_BUILT)
def test_a_hand_built_model_is_refused_naming_the_field(fields, error, message):
    model = "model" if fields is None else MODEL._replace(**fields)
    for function in (evaluate, loss_and_grads):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and no numpy warning on the way
            with pytest.raises(error, match=f"^{re.escape(message)}"):
                function(model, np.zeros((2, 5), int))


def test_the_figures_draw_the_numbers_passed(with_positions, held_out):
    before, after, losses = with_positions
    maps = {
        "before": evaluate(before, held_out)[1],
        "after": evaluate(after, held_out)[1],
    }
    fig = attention_maps(maps, lag=LAG)
    drawn = fig.axes[1].images[0].get_array()  # masked above the diagonal
    assert np.array_equal(
        drawn[np.tril_indices(12)], maps["after"][np.tril_indices(12)]
    )
    circles = fig.axes[1].lines[1].get_xydata()  # (q, p) of each row's peak
    assert np.array_equal(circles[:, 0], circles[:, 1] - LAG)
    assert fig.axes[0].images[0].get_array().mask[0, 1]  # a key after the query
    plt.close("all")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: attention_maps([], lag=3), TypeError, "panels == [], must be a non"),
        (lambda: attention_maps({"a": np.eye(6)}, lag=6), ValueError, "lag == 6, "),
    ],
)
def test_the_figures_refuse_bad_input(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()
    plt.close("all")
