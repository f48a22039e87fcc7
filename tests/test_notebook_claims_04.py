"""Every claim of notebooks/04_common_mistakes.ipynb, recomputed with the library."""

import math
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from notebook_reading import cells, markdown

from posenc_lib import (
    frequencies,
    lookup,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
)
from posenc_lib.exercise import check_lookup, check_pos_encoding
from posenc_lib.mistakes import (
    MISTAKES,
    POS_ENCODING_MISTAKES,
    RIGHT_LINE,
    WRONG_LINE,
)
from posenc_lib.properties import (
    diagonal_spread,
    min_distance,
    min_row_distance,
    property_report,
    rotation_error,
    shift_map_error,
    table_of,
)

NOTEBOOK = (
    Path(__file__).resolve().parent.parent / "notebooks" / "04_common_mistakes.ipynb"
)
D_MODEL, N_ROWS = 16, 800


@pytest.fixture(scope="module")
def right():
    return sinusoidal_positions(range(N_ROWS), D_MODEL)


@pytest.fixture(scope="module")
def tables():
    return {
        name: table_of(MISTAKES[name], N_ROWS, D_MODEL)
        for name in POS_ENCODING_MISTAKES
    }


@pytest.mark.parametrize("name", list(MISTAKES))
def test_notebook_shows_each_wrong_and_right_line(name):
    text = "\n".join(
        cell.source for cell in nbformat.read(NOTEBOOK, as_version=4).cells
    )
    assert f"## {list(MISTAKES).index(name) + 1}. `{name}`" in text
    assert WRONG_LINE[name] in text and RIGHT_LINE[name] in text


def test_every_property_holds_for_the_right_table(right):
    report = property_report(right)
    assert max(v for k, v in report.items() if k != "min distance") < 1e-9
    assert round(report["min distance"], 3) == 1.015


def test_k_instead_of_pair_breaks_every_shift_map(right, tables):
    wrong = MISTAKES["k-instead-of-pair"]
    assert wrong(3, 8)[0] == pytest.approx(pos_encoding(3, 8)[0])
    assert not np.isclose(wrong(3, 8)[1], pos_encoding(3, 8)[1])
    table = tables["k-instead-of-pair"]
    assert rotation_error(right, 3) < 1e-9
    assert round(rotation_error(table, 3), 4) == 1.9101
    assert shift_map_error(right, 3) < 1e-9 and shift_map_error(table, 3) > 0.1
    assert round(shift_map_error(table, 3), 4) == 0.9132  # "about 0.9"


def test_swapped_sin_cos_turns_the_other_way(tables):
    np.testing.assert_array_equal(MISTAKES["swapped-sin-cos"](0, 8), [1, 0] * 4)
    table, R = tables["swapped-sin-cos"], rotation_matrix(3, D_MODEL)
    assert not np.allclose(table[:-3] @ R.T, table[3:])
    assert np.allclose(table[3:] @ R.T, table[:-3])
    report = property_report(table)
    assert report["squared-length error"] < 1e-9 and report["diagonal spread"] < 1e-9


def test_sine_only_loses_the_constant_length(tables):
    table = tables["sine-only"]
    norms = (table**2).sum(axis=1)
    assert norms[:5].round(3).tolist() == [0.0, 1.632, 2.44, 1.555, 3.303]
    np.testing.assert_array_equal(table[0], np.zeros(D_MODEL))
    assert not np.allclose(norms, D_MODEL / 2)
    assert diagonal_spread(table @ table.T) > 1


def test_integer_division_makes_positions_710_apart_collide(tables):
    wrong = MISTAKES["integer-division"]
    np.testing.assert_allclose(wrong(3, 8), np.tile([np.sin(3), np.cos(3)], 4))
    distance, i, j = min_row_distance(tables["integer-division"])
    # every two rows 710 apart are equally close (up to the last bits, which pick
    # the pair the search reports): the claim is the offset, not the pair
    assert (round(distance, 5), j - i) == (0.00017, 710)
    assert round(min_distance(N_ROWS, D_MODEL)[0], 3) == 1.015


def test_integer_power_truncates_and_the_error_grows():
    wrong = MISTAKES["integer-power"]
    # d = 6: pair 1 divides by int(21.5443...) == 21 instead of 21.5443...
    assert wrong(1, 6)[2] == pytest.approx(math.sin(1 / 21), abs=1e-15)
    assert pos_encoding(1, 6)[2] == pytest.approx(math.sin(1 / 21.544347), abs=1e-9)
    errors = [
        np.abs(wrong(p, 6) - pos_encoding(p, 6)).max() for p in (1, 10, 100, 1000)
    ]
    assert np.round(errors, 4).tolist() == [0.0012, 0.0107, 0.1202, 1.1255]
    assert np.all(np.diff(errors) > 0)
    for d in (4, 8):
        np.testing.assert_allclose(wrong(37, d), pos_encoding(37, d))


def test_integer_power_collapses_20_pairs_at_width_512(tables):
    pe1 = MISTAKES["integer-power"](1, 512)
    measured = np.arctan2(pe1[0::2], pe1[1::2])
    # a truncated divisor n gives the angle 1/n to a few ulps, and two divisors
    # 1/n - 1/(n+1) > 1e-8 apart (n < 10000): 12 decimals merge the equal ones only
    distinct = len(np.unique(measured.round(12)))
    assert (distinct, len(np.unique(frequencies(512).round(12)))) == (190, 256)
    assert np.allclose(measured[:20], 1.0) and not np.isclose(measured[20], 1.0)
    assert shift_map_error(tables["integer-power"], 3) < 1e-9


def test_added_to_table_writes_into_the_table():
    emb = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    row = MISTAKES["added-to-table"](emb, 0)
    row += pos_encoding(3, 4)
    np.testing.assert_allclose(emb[0], [0.5, -0.5, 1.0, 0.0] + pos_encoding(3, 4))
    # the prediction's answer, as the "Why?" writes it
    assert emb[0].round(4).tolist() == [0.6411, -1.49, 1.03, 0.9996]
    assert np.shares_memory(MISTAKES["added-to-table"](emb, 0), emb)
    fresh = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    row = lookup(fresh, 0)
    row += pos_encoding(3, 4)
    np.testing.assert_array_equal(fresh[0], [0.5, -0.5, 1.0, 0.0])
    assert not np.shares_memory(lookup(fresh, 0), fresh)


BROKEN = {  # which measures of property_report are far from 0 (min distance: near 0)
    "k-instead-of-pair": [True, True, True, True, True, False],
    "swapped-sin-cos": [True, True, False, False, False, False],
    "sine-only": [True, True, True, True, True, False],
    "integer-division": [True, True, False, False, False, True],
    "integer-power": [True, True, False, False, False, False],
}


@pytest.mark.parametrize("name", POS_ENCODING_MISTAKES)
def test_summary_table_pattern(name, tables):
    values = list(property_report(tables[name]).values())
    pattern = [v > 1e-3 for v in values[:5]] + [values[5] < 1e-3]
    assert pattern == BROKEN[name]


@pytest.mark.parametrize("name", list(MISTAKES))
def test_checker_names_each_mistake(name):
    check = check_lookup if name == "added-to-table" else check_pos_encoding
    result = check(MISTAKES[name])
    assert (result.passed, result.mistake) == (False, name)


# -- the lesson's bullets, predictions, both readings, the integer power -----------

LESSON_BULLETS = [
    "Using k instead of k // 2 in the exponent, so neighbouring dimensions get "
    "different frequencies.",
    "Swapping sine and cosine, or using sine for every dimension.",
    "Writing 2*pair/d with integer division in a language that truncates.",
    "Computing 10000 ^ x with an integer power function.",
    "Adding the encoding to the table itself instead of to each looked-up vector.",
]


def _cells():
    return cells(NOTEBOOK)


def _markdown():
    return markdown(NOTEBOOK)


def test_the_five_bullets_are_quoted_exactly_and_hold_six_mistakes():
    text = _markdown()
    for bullet in LESSON_BULLETS:
        assert f"> • {bullet}" in text
    assert "five bullets name **six** mistakes" in text
    assert len(MISTAKES) == 6 and len(LESSON_BULLETS) == 5
    for name in MISTAKES:  # each id in the mapping table
        assert f"| `{name}`" in text


def test_at_least_four_predictions_each_followed_by_code_and_an_explanation():
    cells = _cells()
    prompts = [i for i, c in enumerate(cells) if c.source.startswith("**Predict.**")]
    assert len(prompts) >= 4
    for i in prompts:
        assert "then run the next cell" in " ".join(cells[i].source.split())
        assert cells[i + 1].cell_type == "code"
        explanation = next(
            c for c in cells[i + 1 :] if c.cell_type == "markdown"
        ).source
        assert explanation.startswith("<details><summary>Why?</summary>")
        assert explanation.endswith("</details>")


def test_no_check_yourself_and_no_norm_label():
    text = "\n".join(c.source for c in _cells())
    assert "Check yourself" not in text
    assert "norm error" not in text and '"norm"' not in text
    assert "an integer power function does the same" not in text.lower()


def test_every_heatmap_is_described_with_its_difference_panel():
    cells = _cells()
    for i, cell in enumerate(cells):
        if "compare_tables(" not in cell.source or cell.cell_type != "code":
            continue
        around = cells[i - 1].source + cells[i + 1].source
        assert "wrong − right" in around, cell.id


def test_an_integer_power_of_the_exponent_is_integer_division():
    def ipow_encoding(pos, d):
        pair = np.arange(d) // 2
        angle = pos / 10000 ** (2 * pair / d).astype(int)
        return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))

    assert check_pos_encoding(ipow_encoding).mistake == "integer-division"
    for pos in (0, 3, 50):
        np.testing.assert_allclose(
            ipow_encoding(pos, 16), MISTAKES["integer-division"](pos, 16)
        )


def test_integer_power_difference_is_in_pair_1_at_width_16(tables, right):
    per_column = np.abs(tables["integer-power"][:40] - right[:40]).max(axis=0)
    assert (
        per_column.round(2).tolist() == [0, 0, 0.65, 0.57, 0, 0, 0.01, 0.02] + [0] * 8
    )
    # section 5: "pair 1, whose divisor 10000^{2/16} = 3.1623 became 3"
    assert (round(10000 ** (2 / 16), 4), int(10000 ** (2 / 16))) == (3.1623, 3)
    assert "$10000^{2/16} = 3.1623$ became 3" in _markdown()


def test_swapped_difference_is_up_to_root_two(tables, right):
    largest = np.abs(tables["swapped-sin-cos"][:40] - right[:40]).max()
    assert largest <= math.sqrt(2) and round(largest, 1) == 1.4


def test_reading_two_adds_the_encoding_by_token_id():
    emb = np.array([[0.5, -0.5, 1.0, 0.0], [1.0, 2.0, 3.0, 4.0]])
    tokens = [1, 1, 1, 0]
    pe = sinusoidal_positions(range(4), 4)
    wrong = (emb + pe[: len(emb)])[tokens]
    right = emb[tokens] + pe
    np.testing.assert_allclose(
        wrong.round(4),
        [[1.8415, 2.5403, 3.01, 5.0]] * 3 + [[0.5, 0.5, 1.0, 1.0]],
    )
    assert (len(np.unique(wrong, axis=0)), len(np.unique(right, axis=0))) == (2, 4)
    np.testing.assert_allclose(wrong[3], emb[0] + pe[0])  # PE[token_id] ...
    assert not np.allclose(wrong[3], emb[0] + pe[3])  # ... not PE[pos]
    assert sinusoidal_positions(range(512), 16)[:50_000].shape == (512, 16)
    assert check_lookup(lookup).passed  # lookup is right: the checker cannot see it


def test_the_unknown_mistake_prediction():
    def base_1000(pos, d):
        pair = np.arange(d) // 2
        angle = pos / 1000 ** (2 * pair / d)
        return np.where(np.arange(d) % 2 == 0, np.sin(angle), np.cos(angle))

    message = check_pos_encoding(base_1000).message
    assert "  Expected angle: 3 / 10000 ** (2 * 1 / 4) = 0.0300 rad" in message
    assert "  Your angle:     0.0949 rad" in message


def test_k_instead_of_pair_prediction():
    wrong, right = MISTAKES["k-instead-of-pair"](3, 8), pos_encoding(3, 8)
    assert np.flatnonzero(wrong == right).tolist() == [0]  # exactly: column 0 only
    agree = np.flatnonzero(wrong.round(4) == right.round(4))
    assert agree.tolist() == [0, 7]  # column 7: cos 0.003 and cos 3e-7, 4 decimals
    assert (
        round(3 / 10000 ** (6 / 8), 4) == 0.003 and 3 / 10000 ** (14 / 8) < 3e-7 + 1e-9
    )
    assert round(math.cos(0.3), 4) == 0.9553 and round(wrong[1], 4) == 0.9553


# -- the map, one triptych per mistake, the shared prediction of sections 4 and 5 ---

MAP = {  # mistake -> what the map says it breaks
    "k-instead-of-pair": "the rotation: no fixed matrix shifts a row",
    "swapped-sin-cos": r"the convention: $R(\Delta)$ turns backwards",
    "sine-only": "the constant length $d_{model}/2$",
    "integer-division": "distinct positions: one frequency for every pair",
    "integer-power": "the geometric wavelengths, slightly",
    "added-to-table": "the embedding table itself (two readings)",
}


def _map_rows():
    """``{mistake id: (section, what it breaks)}`` from the map's table."""
    cell = next(c for c in _cells() if c.source.startswith("## The map"))
    rows = {}
    for line in cell.source.splitlines():
        parts = [part.strip() for part in line.strip("|").split("|")]
        if len(parts) == 4 and parts[2].strip("`") in MISTAKES:
            rows[parts[2].strip("`")] = (parts[0], parts[3])
    return rows


def test_the_map_opens_the_chapter_and_names_each_mistake_s_property():
    cells = _cells()
    first_mistake = next(i for i, c in enumerate(cells) if c.source.startswith("## 1."))
    the_map = next(i for i, c in enumerate(cells) if c.source.startswith("## The map"))
    assert the_map < first_mistake
    rows = _map_rows()
    assert list(rows) == list(MISTAKES)
    for number, name in enumerate(MISTAKES, start=1):
        assert rows[name] == (str(number), MAP[name]), name


def test_what_the_map_says_each_mistake_breaks(tables, right):
    def report(name):
        return property_report(tables[name])

    # no fixed matrix shifts a row: not R(3), not the best least-squares map
    assert report("k-instead-of-pair")["shift map error"] > 0.1
    # R(3) turns backwards: it maps row p + 3 to row p
    table, R = tables["swapped-sin-cos"], rotation_matrix(3, D_MODEL)
    assert np.allclose(table[3:] @ R.T, table[:-3])
    assert report("sine-only")["squared-length error"] > 1
    # one frequency for every pair, and two positions (710 apart) nearly collide
    pe1 = MISTAKES["integer-division"](1, D_MODEL)
    assert np.allclose(np.arctan2(pe1[0::2], pe1[1::2]), 1.0)
    assert report("integer-division")["min distance"] < 1e-3
    # slightly: the pairs still rotate, at frequencies a little off
    power = report("integer-power")
    assert power["shift map error"] < 1e-9 and 0.01 < power["rotation error"] < 0.1
    assert round(power["rotation error"], 3) == 0.051
    emb = np.zeros((2, 4))
    row = MISTAKES["added-to-table"](emb, 1)
    row += 1.0
    assert emb[1].tolist() == [1.0] * 4  # the table itself has changed


def test_one_triptych_per_mistake():
    code = [c.source for c in _cells() if c.cell_type == "code"]
    drawn = [name for source in code for name in re.findall(r'name="([^"]+)"', source)]
    assert sorted(drawn) == sorted(POS_ENCODING_MISTAKES)


def test_the_source_is_linked_not_printed():
    text = "\n".join(c.source for c in _cells())
    assert "inspect" not in text and "getsource" not in text
    assert "[`posenc_lib/properties.py`](../posenc_lib/properties.py)" in text
    assert (NOTEBOOK.parent / "../posenc_lib/properties.py").resolve().is_file()


def test_the_divisor_four_ways():
    # section 4's prediction: d = 6, pairs 0, 1, 2
    x = 2 * np.arange(3) / 6
    assert (10000**x).round(4).tolist() == [1.0, 21.5443, 464.1589]
    assert (10000 ** ((2 * np.arange(3)) // 6)).tolist() == [1, 1, 1]
    assert (10000 ** x.astype(int)).tolist() == [1, 1, 1]  # an integer exponent
    assert [int(10000**e) for e in x] == [1, 21, 464]  # integer-power's divisors
    for pos in (1, 10, 100):  # divisor 1: every pair repeats (sin pos, cos pos)
        np.testing.assert_allclose(
            MISTAKES["integer-division"](pos, 6), np.tile(pos_encoding(pos, 2), 3)
        )


def test_integer_power_drifts_two_turns_by_row_799(tables, right):
    """Section 7: frequencies slightly off, yet 1.998 from PE: the error adds up."""
    cell = next(c for c in _cells() if c.get("id") == "04-power-drift")
    shown = float(cell.outputs[0]["data"]["text/plain"])
    # pair 1's angle per position: 1/3 (divisor truncated) against 1/10000**(2/16)
    wrong = np.arctan2(*tables["integer-power"][799, 2:4])
    right_angle = np.arctan2(*right[799, 2:4])
    drift = 799 * (1 / 3 - 1 / 10000 ** (2 / 16))
    assert shown == 13.67 and abs(shown - drift) < 0.005  # shown to 2 decimals
    assert 2 * (2 * math.pi) < drift < 3 * (2 * math.pi)  # more than two whole turns
    # the tables' own angles differ by the drift, up to whole turns
    assert math.isclose(
        math.remainder(wrong - right_angle - drift, 2 * math.pi), 0, abs_tol=1e-9
    )
    assert round(np.abs(tables["integer-power"] - right).max(), 3) == 1.998
