"""The numbers behind posenc_lib.figures.conventions (chapter 07), not its pixels."""

import numpy as np

from posenc_lib import encoding_table
from posenc_lib.conventions import CONVENTIONS, permutation
from posenc_lib.figures import conventions_figure
from posenc_lib.figures.conventions import column_labels


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
