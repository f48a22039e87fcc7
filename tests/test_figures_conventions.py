"""The numbers behind posenc_lib.figures.conventions (chapter 07), not its pixels."""

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from posenc_lib import encoding_table  # noqa: E402
from posenc_lib.conventions import CONVENTIONS, permutation  # noqa: E402
from posenc_lib.figures import conventions_figure  # noqa: E402
from posenc_lib.figures.conventions import column_labels  # noqa: E402


def test_each_panel_holds_its_table_and_labels_say_what_each_column_is():
    tables = {name: encoding_table(name, range(24), 8) for name in CONVENTIONS}
    orders = {name: permutation(name, 8) for name in CONVENTIONS}
    fig = conventions_figure(tables, {**orders, "tensor2tensor": orders["concat"]})
    panels = fig.axes[: len(CONVENTIONS)]
    for ax, name in zip(panels, CONVENTIONS, strict=True):
        np.testing.assert_array_equal(ax.images[0].get_array(), tables[name])
        assert ax.get_title() == name
    labels = [t.get_text() for t in panels[2].get_xticklabels()]
    assert labels == ["c0", "c1", "c2", "c3", "s0", "s1", "s2", "s3"]  # cos-first
    # each label is right: the labelled column holds that pair's sin or cos
    lesson = tables["interleaved"]
    for name in CONVENTIONS[:3]:
        for column, label in enumerate(column_labels(orders[name])):
            k = 2 * int(label[1:]) + (label[0] == "c")
            np.testing.assert_array_equal(tables[name][:, column], lesson[:, k])


def test_conventions_figure_rejects_a_table_that_is_not_2d():
    msg = (
        "tables['concat'] has shape (4,), must be 2-D: (n_positions, d_model), "
        "one row per position."
    )
    with pytest.raises(ValueError, match=f"^{re.escape(msg)}$"):
        conventions_figure({"concat": np.zeros(4)}, {})


TABLE = np.zeros((3, 4))  # (n_positions, d_model)


BAD_ARGUMENTS = {
    "tables-a-string": (
        lambda: conventions_figure("concat", {}),
        TypeError,
        "tables == 'concat' (str), must be a non-empty dict of name -> table.",
    ),
    "permutations-a-list": (
        lambda: conventions_figure({"concat": TABLE}, [0, 1, 2, 3]),
        TypeError,
        "permutations == [0, 1, 2, 3], must be a dict of table name -> column "
        "order (or None).",
    ),
    "permutation-short": (
        lambda: conventions_figure({"concat": TABLE}, {"concat": [0, 2, 1]}),
        ValueError,
        "permutations['concat'] == [0, 2, 1], must be a permutation of range(4).",
    ),
    "permutation-of-no-table": (
        lambda: conventions_figure({"concat": TABLE}, {"cos-first": None}),
        ValueError,
        "permutations has the key 'cos-first', which is not a key of tables "
        "('concat').",
    ),
    "perm-a-string": (
        lambda: column_labels("0213"),
        TypeError,
        "perm == '0213' (str), must be a 1-D sequence of non-negative integers.",
    ),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS)
def test_bad_arguments_are_named_as_the_signature_does(case):
    call, error, message = BAD_ARGUMENTS[case]
    with pytest.raises(error, match=f"^{re.escape(message)}$"):
        call()
