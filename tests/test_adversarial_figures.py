"""Every bad argument of posenc_lib.figures is refused by name, before any drawing,
and nothing is built past 256 MiB from a few numbers (docs/ranges.md)."""

import builtins
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from lecture_figures import text_sizes
from matplotlib.figure import Figure

from posenc_lib import figures as fig
from posenc_lib.figures import explorer as ex
from posenc_lib.figures.circles import unit_circle
from posenc_lib.figures.conventions import column_labels
from posenc_lib.figures.style import check_axes, heatmap, new_axes

AXES = "must be a matplotlib Axes, e.g. from plt.subplots()."
SQUARE = "(square, and the same for every panel)."
LIMIT = "more than the limit of 256 MiB (posenc_lib.validation.MAX_ARRAY_BYTES)."
TABLE, POINTS = np.zeros((5, 4)), [[0.0, 0.0], [1.0, 1.0]]
PAIR = "pair == 8, must be in [0, 8), i.e. 0 <= pair < d_model // 2."


def _axes():
    return Figure().add_subplot()


def _panels(panels, offset=1):
    return lambda: fig.look_back_heatmaps(panels, offset=offset)


# fmt: off
CASES = [
    (lambda: check_axes(3), f"TypeError: ax == 3 (int), {AXES}"),
    (lambda: new_axes(ax=plt), "TypeError: ax == <module 'matplotlib.pyplot'"),
    (lambda: new_axes(figsize=(4, 0)),
     "ValueError: figsize[1] == 0, must be a finite number > 0."),
    (lambda: new_axes(figsize=(4, 3, 2)),
     "ValueError: figsize == (4, 3, 2), must be (width, height) in inches, or None."),
    (lambda: new_axes(figsize=2), "TypeError: figsize == 2 (int), must be (width,"),
    (lambda: heatmap(None, np.zeros((2, 2))), f"TypeError: ax == None, {AXES}"),
    (lambda: heatmap(_axes(), [[0.0, np.nan]]),
     "ValueError: table[0, 1] == nan, must be a finite number."),
    (lambda: heatmap(_axes(), np.eye(2), vmax=0),
     "ValueError: vmax == 0, must be a finite number > 0."),
    (lambda: text_sizes(_axes()),
     "TypeError: figure == <Axes: >, must be a matplotlib Figure."),
    (lambda: unit_circle(None), f"TypeError: ax == None, {AXES}"),
    (lambda: fig.pair_circle(1, d_model=16, pair=8), f"ValueError: {PAIR}"),
    (lambda: fig.pair_circle(-1, d_model=4),
     "ValueError: offset == -1, must be an integer >= 0."),
    (lambda: fig.similarity_figure(np.eye(3), [0, 1, 2], [1.0, 0.5]),
     "ValueError: similarities has shape (2,), must be (3,): one per offset."),
    (lambda: fig.similarity_figure(np.eye(3), [0, -1], [1.0, 0.5]),
     "ValueError: offsets[1] == -1, must be a non-negative integer."),
    (lambda: fig.similarity_figure(np.eye(3), [0, 1], [1.0, np.nan]),
     "ValueError: similarities[1] == nan, must be a finite number."),
    (lambda: fig.similarity_figure(np.zeros((3, 3)), [0, 1], [0.0, 0.0]),
     "ValueError: matrix has largest diagonal entry 0.0, must be > 0: the colours are "
     "scaled to it (d_model / 2 for an encoding)."),
    (lambda: fig.compare_tables(np.eye(3), np.full((3, 3), np.inf), name="x"),
     "ValueError: wrong[0, 0] == inf, must be a finite number."),
    (lambda: fig.compare_tables(np.zeros((3, 6)), np.zeros((3, 4)), name="x"),
     "ValueError: wrong has shape (3, 4), must match right's (3, 6)."),
    (_panels({}, 3),
     "TypeError: panels == {}, must be a non-empty dict of title -> scores."),
    (_panels({"a": np.zeros((4, 4)), "b": np.zeros((5, 5))}),
     f"ValueError: panels['b'] has shape (5, 5), must be (4, 4) {SQUARE}"),
    (_panels({"a": np.zeros((4, 3))}),
     f"ValueError: panels['a'] has shape (4, 3), must be (4, 4) {SQUARE}"),
    (_panels({"a": np.zeros(4)}),
     "ValueError: panels['a'] has shape (4,), must be 2-D: (n_positions, n_positions):"
     " query position p by key position q."),
    (_panels({"a": np.zeros((4, 4))}, 4),
     "ValueError: offset == 4, must be an integer in [0, 3]."),
    (lambda: fig.look_back_heatmaps({"a": np.eye(4)}, offset=3, scale="each"),
     "ValueError: scale == 'each', must be"),
    (lambda: fig.score_heatmaps(np.eye(4), np.eye(4), scale="own "),
     "ValueError: scale == 'own ', must be"),
    (lambda: fig.plot_encoding_heatmap(np.zeros(4)),
     "ValueError: table has shape (4,), must be 2-D: (n_positions, d_model)"),
    (lambda: fig.plot_encoding_heatmap(TABLE, ax="left"),
     f"TypeError: ax == 'left' (str), {AXES}"),
    (lambda: fig.plot_waves(np.zeros((3, 8)), [8]),
     "ValueError: columns[0] == 8, must be in [0, 8), i.e. 0 <= columns[0] < d_model."),
    (lambda: fig.plot_waves(TABLE, 3),
     "TypeError: columns == 3 (int), must be a sequence of column indices."),
    (lambda: fig.plot_wavelengths([6.3, 0.0]),
     "ValueError: wavelengths[1] == 0.0, must be a finite number > 0."),
    (lambda: fig.plot_word_vectors([[0.0, 0.0, 1.0]], ["cat"]),
     "ValueError: points has shape (1, 3), must be (n_words, 2), one point per word."),
    (lambda: fig.plot_word_vectors(POINTS, ["cat"]),
     "ValueError: words has length 1, must be 2: one per point."),
    (lambda: fig.plot_word_vectors(POINTS, "cd"),
     "TypeError: words == 'cd' (str), must be a sequence of str, one per point."),
    (lambda: fig.plot_word_vectors(POINTS, ["cat", 7]),
     "TypeError: words[1] == 7 (int), must be a str."),
    (lambda: fig.plot_word_vectors(POINTS, ["cat", "dog"], groups=[[1], [2]]),
     "TypeError: groups[0] == [1], must be hashable, e.g. a str."),
    (lambda: fig.conventions_figure({"concat": np.zeros(4)}, {}),
     "ValueError: tables['concat'] has shape (4,), must be 2-D: (n_positions, "
     "d_model), one row per position."),
    (lambda: fig.conventions_figure("concat", {}),
     "TypeError: tables == 'concat' (str), must be a non-empty dict of name -> table."),
    (lambda: fig.conventions_figure({"concat": TABLE}, [0, 1, 2, 3]),
     "TypeError: permutations == [0, 1, 2, 3], must be a dict of table name -> column "
     "order (or None)."),
    (lambda: fig.conventions_figure({"concat": TABLE}, {"concat": [0, 2, 1]}),
     "ValueError: permutations['concat'] == [0, 2, 1], must be a permutation of "
     "range(4)."),
    (lambda: fig.conventions_figure({"concat": TABLE}, {"cos-first": None}),
     "ValueError: permutations has the key 'cos-first', which is not a key of tables "
     "('concat')."),
    (lambda: column_labels("0213"),
     "TypeError: perm == '0213' (str), must be a 1-D sequence of non-negative "
     "integers."),
    (lambda: ex.Explorer(d_model=7),
     "ValueError: d_model == 7, must be an even integer"),
    (lambda: ex.Explorer(pos=51),
     "ValueError: pos == 51, must be in [0, 51), i.e. 0 <= pos < max_pos + 1."),
    (lambda: ex.Explorer(offset=2.0),
     "TypeError: offset == 2.0 (float), must be an integer in [0, 21)."),
    (lambda: ex.Explorer(d_model=8, pair=4),
     "ValueError: pair == 4, must be in [0, 4), i.e. 0 <= pair < d_model // 2."),
    (lambda: ex.Explorer(d_model=66),
     "ValueError: d_model == 66, must be an even integer in [2, 64] (max_d_model "
     "== 64)."),
    (lambda: ex.Explorer(max_pos=0),
     "ValueError: max_pos == 0, must be an integer >= 1."),
    (lambda: ex.position_explorer(d_model=5),
     "ValueError: d_model == 5, must be an even"),
    (lambda: ex.position_explorer(pos=51), "ValueError: pos == 51, must be in [0, 51)"),
    (lambda: ex.PairCircleExplorer(16), "ValueError: offset == 16, must be in [0, 16)"),
    (lambda: ex.PairCircleExplorer(pair=8), f"ValueError: {PAIR}"),
    (lambda: ex.PairCircleExplorer(d_model=5),
     "ValueError: d_model == 5, must be an even"),
    (lambda: ex.pair_table(1, 8, pair=4),
     "ValueError: pair == 4, must be in [0, 4), i.e. 0 <= pair < d_model // 2."),
    (lambda: ex.dot_line(3, 4, -1),
     "ValueError: offset == -1, must be an integer >= 0."),
    (lambda: ex.describe_position(1, 7), "ValueError: d_model == 7, must be an even"),
    (lambda: ex.describe_position(-1, 4),
     "ValueError: pos == -1, must be an integer >="),
    (lambda: ex.static_html(3), "TypeError: widget == 3"),
    # from a few numbers, nothing past 256 MiB: refused before it is built
    (lambda: ex.colour_map(10**9),
     "ValueError: n_colours == 1000000000, must be an integer in [2, 256]."),
    (lambda: ex.Explorer(max_pos=10**9),
     "ValueError: max_pos would give a table in the page of shape (1000000021, 64), "
     f"477 GiB: {LIMIT}"),
    (lambda: ex.PairCircleExplorer(starts=[0, 2**52]),
     "ValueError: starts would give a table in the page of shape "
     f"(4503599627370512, 16), 512 PiB: {LIMIT}"),
    (lambda: fig.plot_waves(np.zeros((2**21, 2)), [0, 1]),
     "ValueError: table would give its continuous waves of shape (2, 41943040), "
     f"640 MiB: {LIMIT}"),
    (lambda: fig.plot_word_vectors(np.zeros((5000, 2)), ["w"] * 5000),
     "ValueError: points would give label distances of shape (5000, 5000, 2), 381 "
     f"MiB: {LIMIT}"),
]
# fmt: on


@pytest.mark.parametrize(("call", "expected"), CASES)
def test_bad_arguments_are_named_before_anything_is_drawn(call, expected):
    error, message = expected.split(": ", 1)
    before = plt.get_fignums()
    with pytest.raises(getattr(builtins, error), match=f"^{re.escape(message)}"):
        call()
    assert plt.get_fignums() == before, "a figure was opened before the check"
