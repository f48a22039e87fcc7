"""Tests of posenc_lib.lookback: the attention layer that learns to look 3 back.

The claims chapter 04 makes of it: training is deterministic; with positions the
trained layer gets the held-out sequences right and every row p >= 3 of its
attention peaks at p - 3; without positions it stays below 0.35 (the best a
position-blind guess can do here is about 0.285); the hand-written gradients
match finite differences; the layer matches a plain loop; bad arguments are
refused with exact messages. Two full trainings (about a second each) are shared.
"""

import math
import re
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

from posenc_lib import sinusoidal_positions
from posenc_lib.figures import attention_maps, loss_curves
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


def test_two_runs_give_the_same_numbers_bit_for_bit():
    before, after, losses = train(steps=20, seed=4)
    again = train(steps=20, seed=4)
    assert np.array_equal(losses, again[2])
    for name, weight in after.weights.items():
        assert np.array_equal(weight, again[1].weights[name]), name
    assert not np.array_equal(losses, train(steps=20, seed=5)[2])


def test_training_leaves_the_model_before_unchanged():
    before, after, _ = train(steps=5, seed=1)
    start = train(steps=1, seed=1)[0]
    for name, weight in before.weights.items():
        assert np.array_equal(weight, start.weights[name]), name
        assert not np.array_equal(weight, after.weights[name]), name


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
    rows = np.arange(LAG, held_out.shape[1])
    assert accuracy < 0.1  # chance is 1 / 16
    assert attention[rows, rows - LAG].max() < 0.3


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


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"lag": 0}, ValueError, "lag == 0, must be an integer in [1, 11]."),
        ({"lag": 12}, ValueError, "lag == 12, must be an integer in [1, 11]."),
        ({"lag": 2.0}, TypeError, "lag == 2.0 (float), must be an integer in [1, 11]."),
        ({"positions": 1}, TypeError, "positions == 1 (int), must be True or False."),
        ({"steps": 0}, ValueError, "steps == 0, must be an integer in [1, 10000]."),
        (
            {"steps": 10**12},  # 7.28 TiB of losses, or hours of steps
            ValueError,
            "steps == 1000000000000, must be an integer in [1, 10000].",
        ),
        (
            {"vocab_size": 50_000, "d_model": 2, "steps": 1},  # np.eye: 18.6 GiB
            ValueError,
            "vocab_size and d_model would give the logits of shape (64, 12, 50000), "
            "293 MiB: more than the limit of 256 MiB "
            "(posenc_lib.validation.MAX_ARRAY_BYTES).",
        ),
        (
            {"d_model": 8000, "steps": 1},
            ValueError,
            "vocab_size and d_model would give w_q, w_k and w_v of shape (3, 8000, "
            "4000), 732 MiB: more than the limit of 256 MiB",
        ),
        (
            {"d_model": 1024, "steps": 5000},
            ValueError,
            "steps, vocab_size and d_model would take 1.8e+13 multiply-adds, more "
            "than the limit of 1e+11 (posenc_lib.lookback.MAX_WORK): fewer steps or "
            "a smaller model.",
        ),
        (
            {"vocab_size": 0},
            ValueError,
            "vocab_size == 0, must be an integer >= 1.",
        ),
        ({"d_model": 7}, ValueError, "d_model == 7, must be an even integer >= 2."),
        ({"seed": -1}, ValueError, "seed == -1, must be an integer >= 0."),
    ],
    ids=[
        "lag 0",
        "lag past the sequence",
        "lag float",
        "positions int",
        "steps 0",
        "steps past the limit",
        "a vocabulary past the array limit",
        "a width past the array limit",
        "more work than the limit",
        "no vocabulary",
        "odd d_model",
        "negative seed",
    ],
)
def test_train_refuses_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=re.escape(message)):
        train(**kwargs)


@pytest.mark.parametrize(
    "tokens, error, message",
    [
        (
            np.full((2, 5), 16),
            ValueError,
            "tokens.flat[0] == 16, must be in [0, 16), "
            "i.e. 0 <= token_id < vocab_size.",
        ),
        (
            np.full((2, 5), 1.5),
            TypeError,
            "tokens.flat[0] == 1.5 (float), must be an integer token id.",
        ),
        (
            np.zeros(5, int),
            ValueError,
            "tokens has shape (5,), must be 2-D: (n_sequences, n_positions).",
        ),
        (
            np.zeros((2, 3), int),
            ValueError,
            "tokens has 3 positions, must have more than lag == 3.",
        ),
    ],
    ids=["id past the vocabulary", "float ids", "1-D", "too short for the lag"],
)
def test_evaluate_and_loss_refuse_bad_tokens(tokens, error, message):
    model = train(steps=1)[0]
    for function in (evaluate, loss_and_grads):
        with pytest.raises(error, match=re.escape(message)):
            function(model, tokens)


def test_tokens_whose_scores_would_pass_the_array_limit_are_refused_at_once():
    message = (
        "tokens would give the attention scores of shape (1, 30000, 30000), 6.71 "
        "GiB: more than the limit of 256 MiB"
    )
    for function in (evaluate, loss_and_grads):
        with pytest.raises(ValueError, match=re.escape(message)):
            function(train(steps=1)[0], np.zeros((1, 30_000), int))


def _hand_built(model):
    """Ways to build a LookBack by hand wrongly: field -> (value, error, message)."""
    weights = model.weights
    return {
        "no weights": (
            {"weights": {}},
            ValueError,
            "model.weights has no w_q, w_k, w_v, w_o: it must hold w_q, w_k, w_v "
            "(d_model, d_head), w_o (d_head, vocab_size) as train makes.",
        ),
        "weights a list": (
            {"weights": [1]},
            TypeError,
            "model.weights == [1], must be a dict of w_q, w_k, w_v",
        ),
        "w_o of another vocabulary": (
            {"weights": {**weights, "w_o": np.zeros((16, 3))}},
            ValueError,
            "model.weights['w_o'] has shape (16, 3), must be (d_head, vocab_size) == "
            "(16, 16), to match model.table and w_q.",
        ),
        "w_q of another width": (
            {"weights": {**weights, "w_q": np.zeros((8, 16))}},
            ValueError,
            "model.weights['w_q'] has shape (8, 16), must be (d_model, d_head) with "
            "d_model == 32, the width of model.table.",
        ),
        "a table of nan": (
            {"table": np.full((16, 32), np.nan)},
            ValueError,
            "model.table[0, 0] == nan, must be a finite number.",
        ),
        "weights that overflow": (
            {"weights": {name: w * 1e200 for name, w in weights.items()}},
            ValueError,
            "model.weights are too large: its attention scores overflow float64.",
        ),
        "lag a string": (
            {"lag": "3"},
            TypeError,
            "model.lag == '3' (str), must be an integer >= 1.",
        ),
        "positions 1": (
            {"positions": 1},
            TypeError,
            "model.positions == 1 (int), must be True or False.",
        ),
    }


@pytest.mark.parametrize("case", list(_hand_built(train(steps=1)[0])))
def test_a_hand_built_model_is_refused_naming_the_field(case):
    model = train(steps=1)[0]
    fields, error, message = _hand_built(model)[case]
    for function in (evaluate, loss_and_grads):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and no numpy warning on the way
            with pytest.raises(error, match=re.escape(message)):
                function(model._replace(**fields), np.zeros((2, 5), int))


def test_a_model_must_be_a_lookback():
    message = "model == 'model' (str), must be a LookBack, e.g. from train."
    with pytest.raises(TypeError, match=re.escape(message)):
        evaluate("model", np.zeros((1, 5), int))
    assert LookBack._fields == ("table", "weights", "lag", "positions")


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
    fig = loss_curves({"with PE": losses}, references={"ln 16": math.log(16)})
    assert np.array_equal(fig.axes[0].lines[0].get_ydata(), losses)
    plt.close("all")


def test_the_figures_refuse_bad_input():
    message = "panels == [], must be a non-empty dict of title -> attention weights."
    with pytest.raises(TypeError, match=re.escape(message)):
        attention_maps([], lag=3)
    message = "lag == 6, must be an integer in [0, 5]."
    with pytest.raises(ValueError, match=re.escape(message)):
        attention_maps({"a": np.eye(6)}, lag=6)
    message = "curves['a'][1] == 0.0, must be a finite number > 0."
    with pytest.raises(ValueError, match=re.escape(message)):
        loss_curves({"a": [1.0, 0.0]})
    plt.close("all")
