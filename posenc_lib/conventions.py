r"""The sinusoidal layouts real code uses (:data:`CONVENTIONS`), and how they map
to the lesson's: ``interleaved`` (``[sin w_0 p, cos w_0 p, sin w_1 p, ...]``, the
paper's), ``concat`` (``[sin ... | cos ...]``) and ``cos-first`` (``[cos ... | sin
...]``) hold the same numbers, ``w_i = base ** (-2 i / d)``, in another column order
(:func:`permutation`); ``tensor2tensor``'s ``concat`` table has ``w_i = base ** (-i
/ (d/2 - 1))``, the lesson's of a larger base (:func:`tensor2tensor_base`).
:data:`USED_BY` names the code that uses each.
"""

import math

import numpy as np

from .positional import sinusoidal_positions
from .validation import (
    BASE_RANGE,
    check_array_size,
    check_base,
    check_choice,
    check_d_model,
    describe,
)

__all__ = [
    "CONVENTIONS",
    "USED_BY",
    "encoding_table",
    "permutation",
    "tensor2tensor_base",
]

CONVENTIONS = ("interleaved", "concat", "cos-first", "tensor2tensor")

USED_BY = {
    "interleaved": "the original paper, this lesson, the PyTorch tutorial, "
    "DistilBERT's create_sinusoidal_embeddings, keras_hub's SinePositionEncoding "
    "and d2l",
    "concat": "Marian and RoFormer in Hugging Face transformers, GPT-J's "
    "sinusoidal positions, Transformer-XL and many diffusion codebases",
    "cos-first": "the timestep embeddings of OpenAI's guided-diffusion and GLIDE, "
    "and diffusers' get_timestep_embedding with flip_sin_to_cos=True and "
    "downscale_freq_shift=0",
    "tensor2tensor": "tensor2tensor's get_timing_signal_1d, fairseq, FSMT and "
    "M2M100 in Hugging Face transformers, the DDPM timestep embedding, and "
    "diffusers' get_timestep_embedding by default",
}


def tensor2tensor_base(base, d_model):
    """The lesson's base that gives tensor2tensor's frequencies at width ``d_model``.

    tensor2tensor's ``w_i = base ** (-i / (m - 1))``, ``m = d_model // 2``, is
    ``B ** (-2 i / d_model)`` with ``B = base ** (m / (m - 1))``, in ``[1, 1e100]``.

    Examples
    --------
    >>> tensor2tensor_base(10000.0, 4)
    100000000.0
    """
    m = check_d_model(d_model) // 2
    number, power = check_base(base), m / max(m - 1, 1)
    if math.log10(number) * power > math.log10(BASE_RANGE[1]):
        raise ValueError(
            f"base == {describe(base, kind=False)} with d_model == {m * 2}, must be "
            f"at most {BASE_RANGE[1] ** (1 / power):.3g}: tensor2tensor's frequencies"
            f" at this width are the lesson's with base ** {power:.6g}, and the "
            "lesson's base must be at most 1e100."
        )
    return min(number**power, BASE_RANGE[1])


def encoding_table(convention, positions, d_model, *, base=10000.0):
    """The table of ``positions`` in one of :data:`CONVENTIONS`, float64.

    ``(n, d_model)``; ``base`` is the convention's own (tensor2tensor's
    ``max_timescale``), the rest as in :func:`~posenc_lib.sinusoidal_positions`.

    Examples
    --------
    >>> encoding_table("cos-first", [0], 4)
    array([[1., 1., 0., 0.]])
    """
    convention = check_choice(convention, "convention", CONVENTIONS)
    if convention == "interleaved":
        return sinusoidal_positions(positions, d_model, base=base)
    if convention == "tensor2tensor":
        base = tensor2tensor_base(base, d_model)
    table = sinusoidal_positions(positions, d_model, base=base, layout="concat")
    if convention == "cos-first":  # swap the halves: [cos | sin]
        return np.roll(table, d_model // 2, axis=1)
    return table


def permutation(convention, d_model):
    """Column order ``perm`` with ``table[:, perm]`` in the lesson's layout.

    None for ``"tensor2tensor"``: its frequencies differ, so no order works.

    Examples
    --------
    >>> permutation("concat", 6)
    array([0, 3, 1, 4, 2, 5])
    """
    convention = check_choice(convention, "convention", CONVENTIONS)
    m = check_d_model(d_model) // 2
    check_array_size((2 * m,), "d_model", what="the column order")
    pair = np.arange(m)  # (m,)
    columns = {
        "interleaved": (2 * pair, 2 * pair + 1),
        "concat": (pair, m + pair),
        "cos-first": (m + pair, pair),
    }.get(convention)  # each pair's sine and cosine column
    return None if columns is None else np.stack(columns, axis=1).ravel()  # (d_model,)
