"""posenc_lib.conventions against each library's published recipe, transcribed
here in numpy in the dtype it computes in (no peer package is imported).
"""

import math
import re
from functools import partial

import numpy as np
import pytest

from posenc_lib import (
    encoding_table,
    frequencies,
    identify_encoding,
    sinusoidal_positions,
)
from posenc_lib.conventions import CONVENTIONS, permutation, tensor2tensor_base
from posenc_lib.identify import Identification
from posenc_lib.mistakes import MISTAKES, POS_ENCODING_MISTAKES


def pytorch_tutorial(max_len, d, dtype=np.float32):
    """PyTorch's tutorial: ``div_term = exp(arange(0, d, 2) * -log(1e4) / d)``."""
    position = np.arange(max_len, dtype=dtype)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=dtype) * dtype(-(math.log(10000.0) / d)))
    pe = np.zeros((max_len, d), dtype=dtype)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def d2l(max_len, d):
    """d2l's ``PositionalEncoding`` (float32, ``max_len=1000``)."""
    x = np.arange(max_len, dtype=np.float32)[:, None] / np.power(
        np.float32(10000), np.arange(0, d, 2, dtype=np.float32) / np.float32(d)
    )
    p = np.zeros((max_len, d), dtype=np.float32)
    p[:, 0::2], p[:, 1::2] = np.sin(x), np.cos(x)
    return p


def _position_enc(n_pos, dim):
    """DistilBERT's and Marian's float64 ``pos / np.power(10000, 2 * (j // 2) /
    dim)`` for every ``pos`` and column ``j`` (their loops' operations, at once)."""
    j = np.arange(dim)
    return np.arange(n_pos)[:, None] / np.power(10000, 2 * (j // 2) / dim)[None, :]


def distilbert(n_pos, dim):
    """DistilBERT's ``create_sinusoidal_embeddings``: float64 angles, float32 out."""
    enc = _position_enc(n_pos, dim)
    out = np.empty((n_pos, dim), dtype=np.float32)
    out[:, 0::2], out[:, 1::2] = np.sin(enc[:, 0::2]), np.cos(enc[:, 1::2])
    return out


def keras_hub(seq_length, hidden, max_wavelength=10000):
    """keras_hub's ``SinePositionEncoding``: sin and cos masks over every column."""
    position = np.arange(seq_length, dtype=np.float32)
    exponent = (2 * (np.arange(hidden) // 2)).astype(np.float32) / np.float32(hidden)
    timescales = np.power(np.float32(1 / max_wavelength), exponent)
    angles = position[:, None] * timescales[None, :]
    cos_mask = (np.arange(hidden) % 2).astype(np.float32)
    return np.sin(angles) * (1 - cos_mask) + np.cos(angles) * cos_mask


def marian(n_pos, dim):
    """Marian's and RoFormer's ``_init_weight``: sines, then cosines."""
    enc = _position_enc(n_pos, dim)
    out = np.empty((n_pos, dim), dtype=np.float32)
    sentinel = dim // 2
    out[:, :sentinel], out[:, sentinel:] = np.sin(enc[:, 0::2]), np.cos(enc[:, 1::2])
    return out


def gptj(num_pos, dim):
    """GPT-J's ``create_sinusoidal_positions``: ``cat((sin, cos), dim=1)``."""
    inv_freq = 1.0 / (10000 ** (np.arange(0, dim, 2) / dim))
    angle = np.einsum("i,j->ij", np.arange(num_pos, dtype=np.float64), inv_freq)
    angle = angle.astype(np.float32)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def transformer_xl(klen, demb):
    """Transformer-XL: positions ``klen - 1`` down to 0, ``cat([sin, cos], -1)``."""
    pos_seq = np.arange(klen - 1, -1, -1.0, dtype=np.float32)
    inv_freq = 1 / (10000 ** (np.arange(0.0, demb, 2.0, dtype=np.float32) / demb))
    angle = np.outer(pos_seq, inv_freq)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=-1)


def tensor2tensor(length, channels, max_timescale=1.0e4, start_index=0):
    """tensor2tensor's ``get_timing_signal_1d`` (``min_timescale = 1``)."""
    position = np.arange(length, dtype=np.float32) + start_index
    num_timescales = channels // 2
    increment = math.log(float(max_timescale)) / max(num_timescales - 1, 1)
    inv_timescales = np.exp(np.arange(num_timescales, dtype=np.float32) * -increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)


def fsmt_weights(num_embeddings, dim, padding_idx):
    """FSMT's (fairseq's) ``get_embedding``, with the padding row zeroed."""
    half_dim = dim // 2
    scale = math.log(10000) / (half_dim - 1)  # ZeroDivisionError at dim == 2
    freq = np.exp(np.arange(half_dim, dtype=np.float32) * -scale)
    angle = np.arange(num_embeddings, dtype=np.float32)[:, None] * freq[None, :]
    weights = np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
    weights[padding_idx, :] = 0
    return weights


def fsmt(n_tokens, dim, padding_idx=1):
    """The rows FSMT adds to ``n_tokens`` tokens: positions from padding_idx + 1."""
    start = padding_idx + 1  # make_positions: cumsum of the non-pad mask + padding_idx
    return fsmt_weights(start + n_tokens, dim, padding_idx)[start:]


def guided_diffusion(n, dim, max_period=10000):
    """guided-diffusion's ``timestep_embedding``: ``cat([cos(args), sin(args)])``."""
    half = dim // 2
    freqs = np.exp(-math.log(max_period) * np.arange(half, dtype=np.float32) / half)
    args = np.arange(n, dtype=np.float32)[:, None] * freqs[None]
    return np.concatenate([np.cos(args), np.sin(args)], axis=-1)


def ddpm(n, embedding_dim):
    """DDPM's ``get_timestep_embedding`` (diffusion_tf/nn.py), in numpy."""
    half_dim = embedding_dim // 2
    emb = math.log(10000) / (half_dim - 1)
    emb = np.exp(np.arange(half_dim, dtype=np.float32) * -emb)
    emb = np.arange(n, dtype=np.float32)[:, None] * emb[None, :]
    return np.concatenate([np.sin(emb), np.cos(emb)], axis=1)


def diffusers(n, dim, flip_sin_to_cos=False, downscale_freq_shift=1):
    """diffusers' ``get_timestep_embedding`` (``max_period = 10000``)."""
    half = dim // 2
    exponent = -math.log(10000) * np.arange(half, dtype=np.float32)
    exponent = exponent / (half - downscale_freq_shift)
    emb = np.arange(n, dtype=np.float32)[:, None] * np.exp(exponent)[None]
    emb = np.concatenate([np.sin(emb), np.cos(emb)], axis=-1)
    if flip_sin_to_cos:
        emb = np.concatenate([emb[:, half:], emb[:, :half]], axis=-1)
    return emb


N = 200
STABLE_DIFFUSION = partial(diffusers, flip_sin_to_cos=True, downscale_freq_shift=0)
PEERS = {  # name -> (table builder (n, d), its convention, its rows' positions)
    "pytorch-tutorial": (pytorch_tutorial, "interleaved", range(N)),
    "d2l": (d2l, "interleaved", range(N)),
    "distilbert": (distilbert, "interleaved", range(N)),
    "keras_hub": (keras_hub, "interleaved", range(N)),
    "marian": (marian, "concat", range(N)),
    "gpt-j": (gptj, "concat", range(N)),
    "transformer-xl": (transformer_xl, "concat", range(N - 1, -1, -1)),
    "tensor2tensor": (tensor2tensor, "tensor2tensor", range(N)),
    "fsmt": (fsmt, "tensor2tensor", range(2, N + 2)),
    "ddpm": (ddpm, "tensor2tensor", range(N)),
    "guided-diffusion": (guided_diffusion, "cos-first", range(N)),
    "diffusers-default": (diffusers, "tensor2tensor", range(N)),
    "diffusers-stable-diffusion": (STABLE_DIFFUSION, "cos-first", range(N)),
}


@pytest.mark.parametrize("d", [4, 16, 512])
@pytest.mark.parametrize("name", PEERS, ids=str)
def test_encoding_table_matches_each_peer(name, d):
    """To the peer's own precision."""
    build, convention, rows = PEERS[name]
    ours = encoding_table(convention, rows, d)
    np.testing.assert_allclose(build(N, d), ours, atol=5e-4 if d > 4 else 2e-6)


@pytest.mark.parametrize("peer", [distilbert, marian], ids=["distilbert", "marian"])
def test_peers_computing_in_float64_are_as_accurate_as_posenc_lib_in_float32(peer):
    layout = "concat" if peer is marian else "interleaved"
    ours = sinusoidal_positions(range(1000), 512, dtype=np.float32, layout=layout)
    assert np.abs(peer(1000, 512) - ours).max() < 6e-8  # float32 rounding


@pytest.mark.parametrize("recipe", [pytorch_tutorial, d2l], ids=["pytorch", "d2l"])
def test_recipes_computing_in_float32_drift_within_the_first_1000_rows(recipe):
    exact = sinusoidal_positions(range(1000), 512)  # (1000, 512)
    angle = np.arange(1000)[:, None] * np.repeat(frequencies(512), 2)  # (1000, 512)
    error = np.abs(recipe(1000, 512) - exact)
    # Each float32 step of the angle (exponent, power or exp, product or quotient)
    # and the float32 sine round by at most a few float32 eps, on any SIMD path:
    # the error is within 4 eps32 of (angle + 1) entry by entry (measured: 2.9,
    # with and without AVX-512, numpy 1.24 and 2.4).
    eps32 = float(np.finfo(np.float32).eps)
    assert np.all(error <= 4 * eps32 * (angle + 1))
    # and far above float32 rounding of the result (6e-8): a float32 angle past
    # 512 is on a grid of step 6.1e-5, so among 250,000 entries some miss the
    # exact angle by nearly half of it (3.05e-5)
    assert error.max() > 3e-5


def test_tensor2tensor_is_concat_with_a_larger_base_and_no_column_order():
    """(test_encoding_table_matches_each_peer: to tensor2tensor's own table.)"""
    assert tensor2tensor_base(10000.0, 512) == pytest.approx(10000.0 ** (256 / 255))
    assert tensor2tensor_base(10000.0, 2) == 10000.0  # one pair: frequency 1 anyway
    t2t = encoding_table("tensor2tensor", range(1000), 512)
    lesson = sinusoidal_positions(range(1000), 512, layout="concat")
    differ = ~np.all(np.isclose(t2t, lesson, rtol=0, atol=1e-6), axis=0)
    assert differ.sum() == 510  # all but pair 0 (frequency 1 in both)
    assert not differ[0] and not differ[256]
    assert permutation("tensor2tensor", 512) is None
    with pytest.raises(ZeroDivisionError):  # FSMT cannot build a width-2 table
        fsmt(5, 2)
    assert encoding_table("tensor2tensor", range(5), 2).shape == (5, 2)


@pytest.mark.parametrize("convention", ["interleaved", "concat", "cos-first"])
@pytest.mark.parametrize("d", [2, 6, 64])
def test_the_permutation_turns_the_table_into_the_lessons(convention, d):
    table = encoding_table(convention, [0, 3, 17], d, base=500.0)
    np.testing.assert_array_equal(
        table[:, permutation(convention, d)],
        sinusoidal_positions([0, 3, 17], d, base=500.0),
    )


@pytest.mark.parametrize("d", [4, 16, 512])
@pytest.mark.parametrize("name", PEERS, ids=str)
def test_identify_encoding_names_each_peer(name, d):
    build, convention, rows = PEERS[name]
    given = rows if rows.step < 0 else None  # Transformer-XL's, counting down
    found = identify_encoding(build(N, d), positions=given)
    assert (found.convention, found.base, found.mistake) == (convention, 10000.0, None)
    assert found.first_position == rows[0]
    assert found.distance < 1e-3
    assert "as used by" in found.message


def test_identify_encoding_messages_name_libraries():
    assert "Marian" in identify_encoding(marian(N, 16)).message
    fsmt_found = identify_encoding(fsmt(N, 16))
    assert "Its first row encodes position 2, not 0" in fsmt_found.message
    assert "No column order turns it into the lesson's table" in fsmt_found.message
    assert fsmt_found.permutation is None
    concat_found = identify_encoding(gptj(N, 8))
    assert concat_found.permutation.tolist() == [0, 4, 1, 5, 2, 6, 3, 7]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("convention", CONVENTIONS)
def test_identify_encoding_in_every_float_dtype(convention, dtype):
    table = encoding_table(convention, range(100), 64).astype(dtype)
    found = identify_encoding(table)
    assert (found.convention, found.base) == (convention, 10000.0)


class TensorLike:
    """Neither a list nor an ndarray: only ``__array__``, as a torch tensor has."""

    def __init__(self, array):
        self._array = array

    def __array__(self, dtype=None, copy=None):
        return self._array


def test_identify_encoding_takes_lists_and_array_likes_and_estimates_bases():
    for table in (marian(30, 8).tolist(), TensorLike(marian(30, 8))):
        found = identify_encoding(table)
        assert (found.convention, found.base) == ("concat", 10000.0)
    for base in (100.0, 500000.0, 1234.5):
        found = identify_encoding(sinusoidal_positions(range(60), 32, base=base))
        assert found.convention == "interleaved", (
            f"the right table at base {base:g} is identified as {found.mistake!r}: a "
            "record of posenc_lib/mistakes.py makes the table of another base; a "
            "mistake must be no right table (CONTRIBUTING.md, Add a mistake)"
        )
        assert found.base == pytest.approx(base, rel=1e-9)


def test_identify_encoding_with_positions_far_out():
    positions = range(10**6, 10**6 + 50)
    table = sinusoidal_positions(positions, 32)
    found = identify_encoding(table, positions=positions)
    assert (found.convention, found.first_position) == ("interleaved", 10**6)
    lost = identify_encoding(table)  # rows 0..49 assumed: one cannot tell
    assert lost.convention is None
    assert "pass positions=" in lost.message


def test_identify_encoding_of_a_single_row_or_width_two_has_no_base():
    found = identify_encoding([marian(4, 4)[3]], positions=[3])
    assert (found.convention, found.base, found.first_position) == ("concat", None, 3)
    assert "I cannot tell the base" in found.message
    found = identify_encoding(sinusoidal_positions(range(10), 2))
    assert (found.convention, found.base) == ("interleaved", None)
    assert "every base gives the same table" in found.message


@pytest.mark.parametrize("d", [6, 16])
@pytest.mark.parametrize("mistake", POS_ENCODING_MISTAKES)
def test_identify_encoding_names_the_lessons_mistakes(mistake, d):
    table = [MISTAKES[mistake](p, d) for p in range(40)]
    found = identify_encoding(table)
    assert (found.convention, found.mistake) == (None, mistake)
    assert found.message.startswith(f"This is the lesson's mistake '{mistake}'")


def test_swapped_sin_cos_has_a_permutation_and_no_change_is_no_mistake():
    table = np.array([MISTAKES["swapped-sin-cos"](p, 8) for p in range(20)])
    found = identify_encoding(table)
    np.testing.assert_allclose(
        table[:, found.permutation], sinusoidal_positions(range(20), 8), atol=1e-15
    )
    # at d = 4 every divisor is a whole number: integer-power is the right table
    table = [MISTAKES["integer-power"](p, 4) for p in range(40)]
    assert identify_encoding(table).convention == "interleaved"


@pytest.mark.parametrize(
    "table",
    [
        np.random.default_rng(0).normal(size=(20, 8)),
        np.ones((10, 4)),
        sinusoidal_positions(range(50), 16) + 0.01,
        pytorch_tutorial(2, 8)[[0]].repeat(30, axis=0),  # one row over and over
    ],
    ids=["noise", "ones", "shifted", "repeated-row"],
)
def test_garbage_is_not_recognised_and_the_nearest_candidate_is_named(table):
    found = identify_encoding(table)
    nothing = (None, None, None, None, None, found.distance, found.message)
    assert found == Identification(*nothing)
    assert found.distance > 1e-3
    assert found.message.startswith(
        "Not a sinusoidal encoding I recognise. The nearest candidate is "
    )
    assert f"largest difference of {found.distance:.3g}" in found.message


ONE_ROW = "must be 2-D: (n_positions, d_model), one row per position."
CHOICES = "must be one of 'interleaved', 'concat', 'cos-first', 'tensor2tensor'."
ONES, IDENTIFY = np.ones((3, 4)), identify_encoding
REFUSED = [  # (call, error, message)
    (lambda: IDENTIFY([1.0, 2.0]), ValueError, f"table has shape (2,), {ONE_ROW}"),
    (lambda: IDENTIFY(np.ones((3, 5))), ValueError, "table.shape[1] == 5, must be an "),
    (lambda: IDENTIFY([[0.0, np.nan]]), ValueError, "table[0, 1] == nan, must be a "),
    (
        lambda: IDENTIFY([["a"]]),
        TypeError,
        "table has dtype <U1, must hold real numbers",
    ),
    (lambda: IDENTIFY(ONES, positions=[0, 1]), ValueError, "positions has length 2, "),
    (lambda: IDENTIFY(ONES, positions=[0, 1, -1]), ValueError, "positions[2] == -1"),
    (
        lambda: encoding_table("halves", [0], 4),
        ValueError,
        f"convention == 'halves', {CHOICES}",
    ),
    (
        lambda: permutation("concat", 10**9),
        ValueError,
        "d_model would give the column ",
    ),
]


@pytest.mark.parametrize(("call", "error", "message"), REFUSED)
def test_each_function_names_its_argument(call, error, message):
    with pytest.raises(error, match=f"^{re.escape(message)}"):
        call()
