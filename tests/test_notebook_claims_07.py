"""Every claim of notebooks/07_reading_other_code.ipynb, with its sizes and seeds.

The peers' recipes are the independent transcriptions of ``test_conventions.py``.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from notebook_reading import cells, markdown
from test_conventions import (
    d2l_forward,
    fsmt,
    fsmt_weights,
    gptj,
    guided_diffusion,
    pytorch_tutorial,
    pytorch_tutorial_forward,
    pytorch_tutorial_rows,
    tensor2tensor,
)

from posenc_lib import (
    encoding_table,
    identify_encoding,
    pos_encoding,
    rotation_matrix,
    sinusoidal_positions,
)
from posenc_lib.attention import rope, rope_score
from posenc_lib.conventions import CONVENTIONS, permutation, tensor2tensor_base
from posenc_lib.exercise import check_sinusoidal_positions
from posenc_lib.mistakes import MISTAKES


def llama_rope(q, positions, base=10000.0):
    """Llama: ``q * cos + rotate_half(q) * sin`` with ``cos = [cos θ | cos θ]``."""
    d = q.shape[1]
    freqs = np.outer(positions, 1.0 / base ** (np.arange(0, d, 2) / d))
    emb = np.concatenate([freqs, freqs], axis=-1)
    rotate_half = np.concatenate([-q[:, d // 2 :], q[:, : d // 2]], axis=-1)
    return q * np.cos(emb) + rotate_half * np.sin(emb)


# --- 1-2: concat, the same numbers in another order -----------------------------------


def test_gptj_row_at_position_3_width_4_is_the_lessons_numbers_regrouped():
    gptj_row = gptj(4, 4)[3].astype(np.float64).round(4)
    np.testing.assert_array_equal(gptj_row, [0.1411, 0.03, -0.99, 0.9996])
    np.testing.assert_array_equal(
        pos_encoding(3, 4).round(4), [0.1411, -0.99, 0.03, 0.9996]
    )
    np.testing.assert_allclose(
        sinusoidal_positions(range(50), 16, layout="concat"), gptj(50, 16), atol=1e-6
    )


def test_the_three_layouts_reorder_into_the_lessons_table():
    tables = {name: encoding_table(name, range(24), 8) for name in CONVENTIONS}
    for name in CONVENTIONS[:3]:
        np.testing.assert_array_equal(
            tables[name][:, permutation(name, 8)], tables["interleaved"]
        )
        gram = tables[name] @ tables[name].T
        np.testing.assert_allclose(
            gram, tables["interleaved"] @ tables["interleaved"].T
        )
    perm = permutation("concat", 8)
    assert np.argsort(perm).tolist() == [0, 2, 4, 6, 1, 3, 5, 7]
    np.testing.assert_array_equal(
        tables["interleaved"][:, np.argsort(perm)], tables["concat"]
    )
    assert permutation("tensor2tensor", 8) is None


# --- 3: tensor2tensor -----------------------------------------------------------------


def test_tensor2tensor_row_and_its_column_count():
    # (its row at position 3, width 4, has its home in test_conventions.py)
    t2t = tensor2tensor(1000, 512)
    lesson = sinusoidal_positions(range(1000), 512, layout="concat")
    differ = ~np.all(np.isclose(t2t, lesson, rtol=0, atol=1e-6), axis=0)
    assert int(differ.sum()) == 510
    assert np.flatnonzero(~differ).tolist() == [0, 256]


def test_tensor2tensor_is_concat_with_base_10367_8():
    bigger = tensor2tensor_base(10000.0, 512)
    assert round(bigger, 1) == 10367.8
    assert bigger == pytest.approx(10000.0 ** (256 / 255))
    np.testing.assert_allclose(
        tensor2tensor(1000, 512),
        sinusoidal_positions(range(1000), 512, base=bigger, layout="concat"),
        atol=5e-4,  # the reference computes in float32, as tensor2tensor does
    )


def test_fsmt_starts_at_padding_idx_plus_one_and_fails_at_width_two():
    weights = fsmt_weights(66, 16, padding_idx=1)
    assert np.all(weights[1] == 0)  # the padding row
    np.testing.assert_allclose(
        weights[2:], encoding_table("tensor2tensor", range(2, 66), 16), atol=1e-5
    )  # FSMT computes in float32
    with pytest.raises(ZeroDivisionError):
        fsmt_weights(10, 2, padding_idx=1)


# --- 4: identify_encoding -------------------------------------------------------------


def test_identify_encoding_on_the_chapters_peers():
    peers = {
        "GPT-J": (gptj(64, 16), "concat", 0),
        "tensor2tensor": (tensor2tensor(64, 16), "tensor2tensor", 0),
        "FSMT": (fsmt(64, 16), "tensor2tensor", 2),
        "guided-diffusion": (guided_diffusion(range(64), 16), "cos-first", 0),
        "lesson, float16": (
            sinusoidal_positions(range(64), 16, dtype=np.float16),
            "interleaved",
            0,
        ),
    }
    for name, (table, convention, first) in peers.items():
        found = identify_encoding(table)
        assert (found.convention, found.base, found.first_position) == (
            convention,
            10000.0,
            first,
        ), name
    message = identify_encoding(fsmt(64, 16)).message
    assert "tensor2tensor's get_timing_signal_1d, fairseq, FSMT and M2M100" in message
    assert "Its first row encodes position 2, not 0" in message
    assert "it equals the 'concat' layout with base 37275.9." in message


def test_identify_encoding_names_mistakes_and_the_nearest_candidate():
    swapped = np.array([MISTAKES["swapped-sin-cos"](p, 16) for p in range(64)])
    found = identify_encoding(swapped)
    assert found.mistake == "swapped-sin-cos"
    assert str(found).startswith("This is the lesson's mistake 'swapped-sin-cos': ")
    np.testing.assert_allclose(
        swapped[:, found.permutation], sinusoidal_positions(range(64), 16), atol=1e-15
    )
    shifted = identify_encoding(sinusoidal_positions(range(64), 16) + 0.01)
    assert shifted.convention is None
    assert (
        "The nearest candidate is the 'interleaved' layout (sin and cos interleaved, "
        "pair by pair) with base 10000, with a largest difference of 0.01 in one "
        "entry (a match is within 0.001)." in shifted.message
    )


# --- 5: the checker -------------------------------------------------------------------


def test_the_checker_calls_gptjs_layout_a_convention():
    result = check_sinusoidal_positions(
        lambda positions, d: gptj(max(positions) + 1, d)[positions]
    )
    assert (result.passed, result.mistake, result.convention) == (False, None, "concat")


# --- 6: RoPE --------------------------------------------------------------------------


def test_rope_turns_one_zero_counter_clockwise():
    np.testing.assert_array_equal(rope([[1.0, 0.0]], [1]).round(4), [[0.5403, 0.8415]])


def test_half_layout_is_llama_and_a_regrouping():
    q = np.random.default_rng(0).normal(size=(5, 8))
    half = np.r_[0:8:2, 1:8:2]
    np.testing.assert_allclose(
        rope(q, range(5), layout="half"), llama_rope(q, range(5)), atol=1e-14
    )
    np.testing.assert_allclose(
        rope(q[:, half], range(5), layout="half"), rope(q, range(5))[:, half]
    )


def test_rope_is_the_transpose_of_chapter_03s_shift_matrix():
    x = np.random.default_rng(0).normal(size=(5, 8))[0]
    np.testing.assert_allclose(rope(x[None], [7])[0], rotation_matrix(7, 8).T @ x)
    np.testing.assert_allclose(rotation_matrix(7, 8).T, rotation_matrix(-7, 8), atol=0)
    # the encoding's pair (sin a, cos a) sits at the angle pi/2 - a: clockwise
    a = 0.3
    point = np.array([np.sin(a), np.cos(a)])
    assert np.arctan2(point[1], point[0]) == pytest.approx(np.pi / 2 - a)


def test_rope_scores_depend_only_on_the_offset_in_both_layouts():
    q = np.random.default_rng(0).normal(size=(5, 8))
    x, k = q[0], q[1]
    scores = [
        round(rope_score(x, k, m, m + 3, layout=layout), 6)
        for layout in ("interleaved", "half")
        for m in (0, 10, 500)
    ]
    assert scores == [-1.628434] * 3 + [-3.822771] * 3


# --- appendix A.1-A.3: tables, float32, published bugs --------------------------------


def test_precomputed_tables_stop_at_max_len():
    with pytest.raises(ValueError, match="could not be broadcast"):
        pytorch_tutorial_forward(np.zeros((5001, 8)))
    with pytest.raises(ValueError, match="could not be broadcast"):
        d2l_forward(np.zeros((1001, 8)))
    assert pytorch_tutorial(5000, 8)[:5001].shape == (5000, 8)
    assert sinusoidal_positions(range(5001), 8).shape == (5001, 8)


def test_float32_errors_in_rows_0_to_999():
    exact = sinusoidal_positions(range(1000), 512)
    recipe = np.abs(pytorch_tutorial(1000, 512) - exact).max()
    ours = np.abs(
        sinusoidal_positions(range(1000), 512, dtype=np.float32) - exact
    ).max()
    # the recipe's bounds are argued in test_conventions.py (float32 angles: at
    # least half a float32 step past 512, at most 4 eps32 (p + 1)); where in them
    # it lands depends on the CPU's float32 exp and sine (9.3e-5 and 5.6e-5 here)
    assert 3e-5 < recipe < 5e-4
    # float32 rounding of a value in [0.5, 1): at most 2**-25 = 2.98e-8
    assert 2.9e-8 < ours <= 2**-25 + 1e-15


def test_float32_recipe_error_grows_with_the_position():
    windows = [range(10**e, 10**e + 64) for e in range(1, 7)]  # 10 ... 1e6
    exact = [sinusoidal_positions(rows, 64) for rows in windows]
    recipe = [
        np.abs(pytorch_tutorial_rows(r, 64) - e).max()
        for r, e in zip(windows, exact, strict=True)
    ]
    ours = [
        np.abs(sinusoidal_positions(r, 64, dtype=np.float32) - e).max()
        for r, e in zip(windows, exact, strict=True)
    ]
    assert recipe == sorted(recipe)  # grows with the position
    assert recipe[-1] > 0.01
    assert max(ours) < 1e-7


def test_the_python2_bug_is_integer_division():
    table = [MISTAKES["integer-division"](p, 16) for p in range(64)]
    assert identify_encoding(table).mistake == "integer-division"


# --- the chapter's shape ------------------------------------------------------------

CHAPTER = (
    Path(__file__).resolve().parent.parent / "notebooks" / "07_reading_other_code.ipynb"
)
ANSWERS = CHAPTER.parent / "answers" / "07_answers.ipynb"


def _headings(path):
    return [
        line
        for cell in cells(path)
        if cell.cell_type == "markdown"
        for line in cell.source.splitlines()
        if line.startswith("#")
    ]


def test_the_chapter_says_first_that_it_is_optional():
    first = cells(CHAPTER)[0].source
    assert "**Optional chapter**, for when you read other people's code" in first
    assert "main line ends with\n> chapter 06" in first


def test_the_main_line_ends_before_the_appendix():
    headings = _headings(CHAPTER)
    main = headings[: headings.index("## Summary")]
    assert [h.split(".")[0] for h in main[2:]] == [f"## {n}" for n in range(1, 7)]
    assert main[-1].startswith("## 6. RoPE")
    assert headings[headings.index("## Summary") :] == [
        "## Summary",
        "## Exercises",
        "## Appendix: tables, float32 and published bugs",
        "### A.1 Precomputed tables have a length",
        "### A.2 Where float32 goes wrong",
        "### A.3 Bugs of the lesson's kind in published code",
    ]
    text = markdown(CHAPTER)
    main_line = text.split("## Setup")[1].split("## Summary")[0]
    appendix = text.split("## Appendix")[1]
    for tail in ("max_len", "float32", "Kyubyong/transformer#81"):
        assert tail in appendix and tail not in main_line, tail


def test_the_answers_are_in_their_own_notebook():
    text = markdown(CHAPTER)
    assert "<summary>Answers</summary>" not in text
    exercises = text.split("## Exercises")[1].split("## Appendix")[0]
    for number in range(1, 5):
        assert f"(answers/07_answers.ipynb#Exercise-{number})" in exercises


@pytest.mark.parametrize("path", [CHAPTER, ANSWERS], ids=["chapter", "answers"])
def test_no_word_only_the_authors_understand(path):
    prose = re.sub(r"\(https://[^)]*\)", "", markdown(path))  # links: "issues/9"
    words = set(re.findall(r"[a-z]+", prose.lower()))
    assert not words & {"issue", "issues", "ticket", "task", "tasks", "todo", "we"}
