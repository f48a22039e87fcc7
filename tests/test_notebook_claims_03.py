"""Every claim of notebooks/03_why_sines.ipynb, recomputed with the library.

The reference encoding here is a plain double loop with ``math.sin``/``math.cos``.
The last tests read the stored notebook: the numbers its sentences state are the
numbers printed under them, and its notation follows the course glossary.
"""

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from posenc_lib import (
    frequencies,
    offset_similarity,
    rotation_matrix,
    similarity_matrix,
    sinusoidal_positions,
    wavelengths,
)
from posenc_lib.properties import (
    diagonal_spread,
    min_distance,
    min_row_distance,
    pair_angle_gaps,
)

D_MODEL = 16
NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "03_why_sines.ipynb"


def reference(pos, d):
    """PE[pos] by the lesson's formula, one column at a time."""
    angles = [pos / 10000 ** (2 * (k // 2) / d) for k in range(d)]
    return np.array(
        [math.sin(a) if k % 2 == 0 else math.cos(a) for k, a in enumerate(angles)]
    )


@pytest.fixture(scope="module")
def table():
    return sinusoidal_positions(range(200), D_MODEL)


def test_rotation_block_is_the_angle_addition_matrix():
    t = 3.0
    expected = [[math.cos(t), math.sin(t)], [-math.sin(t), math.cos(t)]]
    np.testing.assert_allclose(rotation_matrix(3, 4)[:2, :2], expected)


def test_shift_by_five_is_r5_for_every_position(table):
    rotated = table[:-5] @ rotation_matrix(5, D_MODEL).T
    np.testing.assert_allclose(rotated, table[5:], atol=1e-12)
    np.testing.assert_allclose(
        rotation_matrix(5, D_MODEL) @ reference(40, D_MODEL),
        reference(45, D_MODEL),
        atol=1e-12,
    )


def test_pair_one_turns_by_three_omega_from_position_five(table):
    block = rotation_matrix(3, D_MODEL)[2:4, 2:4]
    np.testing.assert_allclose(block @ table[5, 2:4], table[8, 2:4], atol=1e-12)
    assert frequencies(D_MODEL)[1] == pytest.approx(0.316, abs=1e-3)


def test_pairs_equally_far_apart_are_equally_similar():
    S = similarity_matrix(range(40), D_MODEL)
    values = [reference(i, D_MODEL) @ reference(i + 5, D_MODEL) for i in (0, 10, 30)]
    np.testing.assert_allclose(S[[0, 10, 30], [5, 15, 35]], values)
    assert values[0] == pytest.approx(6.13704, abs=5e-6)
    assert diagonal_spread(S) < 1e-12


def test_similarity_falls_with_distance_but_not_monotonically():
    sims = offset_similarity(range(101), D_MODEL)
    np.testing.assert_allclose(sims, similarity_matrix(range(101), D_MODEL)[0])
    assert sims[0] == D_MODEL / 2
    assert sims[0] > sims[1:].max()
    assert not np.all(np.diff(sims) < 0)
    assert sims[1:11].mean() > sims[91:].mean()


@pytest.mark.parametrize("d", [2, 4, 6, 16, 64, 512])
def test_every_encoding_has_squared_length_half_d(d):
    squared_lengths = (sinusoidal_positions(range(500), d) ** 2).sum(axis=1)
    np.testing.assert_allclose(squared_lengths, d / 2)
    assert np.unique(squared_lengths.round(12)).tolist() == [d / 2]


def test_every_encoding_has_length_sqrt_half_d(table):
    lengths = np.linalg.norm(table, axis=1)
    np.testing.assert_allclose(lengths, math.sqrt(D_MODEL / 2))
    assert np.unique(lengths.round(4)).tolist() == [2.8284]
    assert np.linalg.norm(reference(123, D_MODEL)) == pytest.approx(2.8284, abs=5e-5)


def test_far_positions_are_encoded_by_the_same_formula():
    far = sinusoidal_positions([512, 10_000, 1_000_000], D_MODEL)
    expected = [reference(pos, D_MODEL) for pos in (512, 10_000, 1_000_000)]
    np.testing.assert_allclose(far, expected, atol=1e-9)


def test_closest_two_of_a_million_rows_are_088_apart():
    distance, offset = min_distance(1_000_000, D_MODEL)
    assert (round(distance, 4), offset) == (0.8812, 615746)
    direct = np.linalg.norm(reference(0, D_MODEL) - reference(offset, D_MODEL))
    assert direct == pytest.approx(distance, rel=1e-6)
    assert math.sqrt(D_MODEL / 2) == pytest.approx(2.83, abs=0.01)


def test_shortcut_agrees_with_every_pair_of_2000_rows():
    brute, i, j = min_row_distance(sinusoidal_positions(range(2000), D_MODEL))
    distance, offset = min_distance(2000, D_MODEL)
    assert brute == pytest.approx(distance, rel=1e-9)
    assert (j - i, offset) == (1, 1)
    assert (round(brute, 4), round(distance, 4)) == (1.0147, 1.0147)
    # the brute force by hand: every pair of rows, from the similarity matrix
    first = sinusoidal_positions(range(2000), D_MODEL)
    squared = D_MODEL - 2 * (first @ first.T)  # |PE[p] - PE[q]|^2
    np.fill_diagonal(squared, np.inf)
    assert math.sqrt(squared.min()) == pytest.approx(distance, rel=1e-6)


def test_a_single_pair_collides_710_positions_apart():
    distance, offset = min_distance(1000, 2)
    assert distance < 1e-4 and offset == 710
    assert np.linalg.norm(reference(0, 2) - reference(710, 2)) < 1e-4
    assert 710 / (2 * math.pi) == pytest.approx(113, abs=1e-4)


def test_wavelengths_grow_geometrically_from_2pi():
    lam = wavelengths(D_MODEL)
    assert lam[0] == pytest.approx(2 * math.pi)
    longest = 2 * math.pi * 10000 ** ((D_MODEL - 2) / D_MODEL)
    assert lam[-1] == pytest.approx(longest, rel=1e-12)
    assert (round(longest, 1), round(10000 * 2 * math.pi, 1)) == (19869.2, 62831.9)
    # "only for a wide model does the longest wavelength come close to 10000 * 2 pi"
    ratios = [wavelengths(d)[-1] / (10000 * 2 * math.pi) for d in (16, 512)]
    assert ratios[0] < 1 / 3 and ratios[1] > 0.96  # "less than a third" at 16
    np.testing.assert_allclose(lam[1:] / lam[:-1], 10000 ** (2 / D_MODEL))
    assert np.unique((lam[1:] / lam[:-1]).round(4)).tolist() == [3.1623]
    assert lam.round(1).tolist()[:3] == [6.3, 19.9, 62.8]


def test_neighbours_differ_by_each_pairs_frequency():
    gaps = pair_angle_gaps(100, 101, D_MODEL)
    np.testing.assert_allclose(gaps, frequencies(D_MODEL))
    assert gaps[0] == pytest.approx(1.0) and gaps[-1] < 1e-3


def test_between_0_and_44_only_the_middle_pairs_differ():
    gaps = pair_angle_gaps(0, 44, D_MODEL)
    assert (round(gaps[0], 3), round(gaps[7], 3)) == (0.018, 0.014)
    assert np.all(gaps[1:4] > 1) and round(gaps[4], 2) == 0.44
    assert max(gaps[0], gaps[7]) < 0.02


def test_clock_hands_for_0_44_and_710():
    gaps_44 = pair_angle_gaps(0, 44, D_MODEL)
    gaps_710 = pair_angle_gaps(0, 710, D_MODEL)
    assert 44 / (2 * math.pi) == pytest.approx(7, abs=0.01)
    assert round(gaps_44[0], 3) == 0.018 and round(gaps_710[0], 3) == 0.0  # overlap
    assert gaps_44[1] > 1 and gaps_710[1] > 1  # pair 1 separates all three
    assert abs(gaps_44[1] - gaps_710[1]) > 0.3
    assert gaps_44[7] < 0.02 < 0.2 < gaps_710[7]  # pair 7: 710 apart, 44 not


# ---------------------------------------------------------------- section 3: payoff


def look_back(table, matrix):
    """``score[p, q] = PE[p] · matrix PE[q]`` for every row pair of ``table``."""
    return table @ matrix @ table.T


def fitted_w():
    """The chapter's least-squares W: PE[p] -> PE[p - 3] + noise, p = 3 .. 19999."""
    big = sinusoidal_positions(range(20_000), D_MODEL)
    rng = np.random.default_rng(0)
    targets = big[:-3] + rng.normal(scale=0.5, size=big[:-3].shape)
    return np.linalg.lstsq(big[3:], targets, rcond=None)[0].T


ROWS = np.arange(3, 200)  # query positions with a key 3 back


def test_scores_with_r3_are_a_shifted_similarity(table):
    scores = look_back(table, rotation_matrix(3, D_MODEL))
    p, q = np.meshgrid(range(200), range(200), indexing="ij")
    closed = np.cos((p - q - 3)[..., None] * frequencies(D_MODEL)).sum(axis=-1)
    np.testing.assert_allclose(scores, closed, atol=1e-9)
    direct = reference(10, D_MODEL) @ reference(10, D_MODEL)  # PE[10] . R(3) PE[7]
    assert scores[10, 7] == pytest.approx(direct) == pytest.approx(8.0)


def test_scores_with_r3_peak_three_back_in_every_row(table):
    scores = look_back(table, rotation_matrix(3, D_MODEL))
    assert (int(scores[10].argmax()), float(scores[10].max().round(4))) == (7, 8.0)
    np.testing.assert_array_equal(scores[ROWS].argmax(axis=1), ROWS - 3)
    assert scores[10, 5:10].round(2).tolist() == [6.37, 7.49, 8.0, 7.49, 6.37]


def test_twenty_thousand_positions_cover_a_turn_of_the_slowest_pair():
    assert 19_000 < wavelengths(D_MODEL)[-1] < 20_000


def test_least_squares_finds_a_matrix_close_to_r3_transpose(table):
    W = fitted_w()
    R3 = rotation_matrix(3, D_MODEL)
    learned = (table @ W.T) @ table.T
    np.testing.assert_array_equal(learned[ROWS].argmax(axis=1), ROWS - 3)
    to_r3 = float(np.abs(W - R3.T).max())
    to_rotation = float(np.abs(W.T @ W - np.eye(D_MODEL)).max())
    assert (round(to_r3, 3), round(to_rotation, 3)) == (0.014, 0.025)
    # and it is R(3)^T that least squares approaches, not some other rotation
    assert to_r3 < 0.1 * np.abs(rotation_matrix(4, D_MODEL).T - R3.T).max()


def test_least_squares_without_noise_gives_r3_transpose_exactly():
    big = sinusoidal_positions(range(20_000), D_MODEL)
    W = np.linalg.lstsq(big[3:], big[:-3], rcond=None)[0].T
    np.testing.assert_allclose(W, rotation_matrix(-3, D_MODEL), atol=1e-8)
    np.testing.assert_allclose(rotation_matrix(-3, D_MODEL), rotation_matrix(3, 16).T)


def test_rolling_the_columns_loses_the_peak(table):
    roll3 = np.roll(np.eye(D_MODEL), 3, axis=0)
    vector = reference(10, D_MODEL)
    np.testing.assert_array_equal(roll3 @ vector, np.roll(vector, 3))
    np.testing.assert_allclose(np.linalg.norm(roll3 @ vector), np.linalg.norm(vector))
    rolled = look_back(table, roll3)
    hits = rolled[ROWS].argmax(axis=1) == ROWS - 3
    assert (int(hits.sum()), len(ROWS)) == (2, 197)


def test_a_rolled_encoding_is_not_an_encoding(table):
    pairs = (np.roll(table[10], 3)).reshape(8, 2)
    squared = (pairs**2).sum(axis=1)
    assert squared.round(3).tolist() == [
        1.0,
        1.296,
        0.704,
        1.708,
        0.389,
        0.913,
        0.991,
        0.999,
    ]
    assert np.abs(squared - 1).max() > 0.5  # an encoding's pairs all give 1


# ------------------------------------------------------- the stored notebook's text


def cells():
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]


def source(cell):
    return "".join(cell["source"])


def printed(cell):
    """All text a code cell printed."""
    texts = []
    for output in cell.get("outputs", []):
        texts.append("".join(output.get("text", "")))
        texts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


def by_id(cell_id):
    found = [cell for cell in cells() if cell.get("id") == cell_id]
    assert len(found) == 1, f"no single cell {cell_id!r} in {NOTEBOOK.name}"
    return found[0]


def stated_numbers(text):
    """Numbers written with a thousands separator (19,869.2 or 62{,}831.9)."""
    found = re.findall(r"\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?", text)
    return [float(re.sub(r"\{,\}|,", "", number)) for number in found]


def test_the_longest_wavelength_stated_is_the_one_printed():
    stated = stated_numbers(source(by_id("03-why-7")))
    shown = [float(x) for x in re.findall(r"\d+\.\d+", printed(by_id("03-wave-2")))]
    longest = round(float(wavelengths(D_MODEL)[-1]), 1)
    assert stated == [longest, round(2 * math.pi * 10000, 1)] == [19869.2, 62831.9]
    # formula, library, 10000 * 2 pi, and the one ratio of neighbouring wavelengths
    assert shown == [longest, longest, 62831.9, round(10000 ** (2 / D_MODEL), 4)]
    assert printed(by_id("why-sines-38")).strip().endswith(f"{longest}]")


def test_every_wavelength_bound_in_the_text_matches_the_numbers():
    """Each number in a sentence about wavelengths is the longest one, 10000 * 2 pi,
    or a bound ("below N") that the longest wavelength meets."""
    longest = float(wavelengths(D_MODEL)[-1])
    exact = (round(longest, 1), round(2 * math.pi * 10000, 1), 62832.0)
    checked = 0
    for cell in cells():
        if cell["cell_type"] != "markdown":
            continue
        for sentence in re.split(r"(?<=[.;!?])\s", source(cell)):
            if "wavelength" not in sentence.lower():
                continue
            for match in re.finditer(
                r"(below )?(\d{1,3}(?:(?:,|\{,\})\d{3})+(?:\.\d+)?)", sentence
            ):
                number = stated_numbers(match.group(2))[0]
                checked += 1
                if match.group(1):
                    assert longest < number, f"{cell['id']}: {sentence}"
                else:
                    assert number in exact, f"{cell['id']} states {number}: {sentence}"
    assert checked >= 5  # 20,000; 62,832; 19,869.2 and 62,831.9 (Why?); the Summary
    summary = source(by_id("why-sines-51"))
    assert "19,869.2" in summary
    assert r"2\pi \cdot 10000^{(d_{model} - 2)/d_{model}}" in summary


def test_summary_sums_over_pairs_not_positions():
    summary = source(by_id("why-sines-51"))
    formula = (
        r"PE[p] \cdot PE[q] = \sum_{i=0}^{d_{model}/2 - 1} \cos((p - q)\,\omega_i)"
    )
    assert formula in summary
    assert "PE[i]" not in summary


def test_notation_follows_the_glossary():
    markdown = "\n".join(source(c) for c in cells() if c["cell_type"] == "markdown")
    for drift in ["R(k)", "offset k", "PE[p + k]", "PE[i] \\cdot PE[i]", "S[i, j]"]:
        assert drift not in markdown, f"{drift!r}: k is a column, i a pair"
    # PE[i] . PE[j] appears once, quoting the lesson
    assert markdown.count(r"PE[i] \cdot PE[j]") == 1
    assert 'The lesson says "$PE[i] \\cdot PE[j]$' in markdown
    code = "\n".join(source(c) for c in cells() if c["cell_type"] == "code")
    assert not re.search(r"^k = ", code, re.MULTILINE), "k is a column, not an offset"


def test_squared_length_is_never_called_length():
    section = source(by_id("why-sines-25"))
    assert "**squared** length" in section
    assert r"|PE[p]| = \sqrt{d_{model}/2}" in section


def test_defined_is_kept_apart_from_generalises():
    section = source(by_id("why-sines-29"))
    assert "**defined**" in section and "**generalises**" in section
    assert "nothing stops" not in section


def test_prediction_prompts_each_have_an_answer_and_an_explanation():
    all_cells = cells()
    prompts = [
        n for n, c in enumerate(all_cells)
        if c["cell_type"] == "markdown" and "**Predict.**" in source(c)
    ]  # fmt: skip
    assert len(prompts) >= 8
    for n in prompts:
        # the prompt may follow a section's prose, but it ends its cell
        last = source(all_cells[n]).split("\n\n")[-1]
        assert last.startswith("**Predict.**"), all_cells[n]["id"]
        answer, explanation = all_cells[n + 1], all_cells[n + 2]
        assert answer["cell_type"] == "code" and answer["outputs"], all_cells[n]["id"]
        assert source(explanation).startswith("<details><summary>Why?</summary>")
        assert "Write your answer down, then run the next cell." in source(all_cells[n])


def test_every_exercise_links_to_its_answer():
    exercises = source(by_id("03-exercises"))
    items = re.findall(r"^\d+\. .*?(?=^\d+\. |\Z)", exercises, re.MULTILINE | re.DOTALL)
    assert len(items) == 7
    for number, item in enumerate(items, 1):
        link = f"([answer](answers/03_answers.ipynb#Exercise-{number}))"
        assert item.rstrip().endswith(link), item


# ------------------------------------------------------- the optional block


def further_start():
    """Index of the ``## Going further (optional)`` heading: the rest is optional."""
    heads = [
        n for n, c in enumerate(cells())
        if c["cell_type"] == "markdown"
        and source(c).startswith("## Going further (optional)")
    ]  # fmt: skip
    assert len(heads) == 1
    return heads[0]


def test_going_further_is_optional_and_last():
    start = further_start()
    headings = [
        source(c).splitlines()[0]
        for c in cells()[start:]
        if c["cell_type"] == "markdown"
    ]
    assert not any(h.startswith("## ") for h in headings[1:]), headings  # to the end
    assert "### A matrix a model could learn" in headings
    assert "### A shift the encoding cannot express" in headings
    assert "*Going further*, the optional last section" in source(by_id("03-payoff-22"))


def test_the_main_line_runs_without_going_further():
    """No cell before the optional block uses a name only the block defines."""
    start = further_start()
    defined = set()
    for cell in cells()[start:]:
        if cell["cell_type"] == "code":
            defined |= set(re.findall(r"^(\w+) =", source(cell), re.MULTILINE))
    assert {"W", "learned", "roll3", "rolled"} <= defined
    main = "\n".join(source(c) for c in cells()[:start] if c["cell_type"] == "code")
    main = re.sub(r"#.*", "", main)  # comments name no variables
    used = set(re.findall(r"\b(\w+)\b(?!\s*=[^=])", main))  # not a keyword=
    assert not (defined & used), defined & used


def test_library_source_is_linked_not_printed():
    code = "\n".join(source(c) for c in cells() if c["cell_type"] == "code")
    assert "getsource" not in code and "import inspect" not in code
    section = source(by_id("why-sines-31"))
    assert "[`posenc_lib/properties.py`](../posenc_lib/properties.py)" in section
    for cell in cells():
        for target in re.findall(r"\]\((\.\./[^)#\s]+)\)", source(cell)):
            assert (NOTEBOOK.parent / target).is_file(), target


def test_the_2000_row_check_prints_the_shortcut_and_the_brute_force():
    shown = "{'every pair': 1.0147, 'q - p': 1, 'shortcut': 1.0147}"
    assert printed(by_id("why-sines-34")).strip() == shown
    assert "min_row_distance(sinusoidal_positions(range(2000)" in source(
        by_id("why-sines-34")
    )
