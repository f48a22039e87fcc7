"""Every number of notebooks/answers/04_answers.ipynb, recomputed with the library."""

import math
from pathlib import Path

import nbformat
import numpy as np

from posenc_lib import sinusoidal_positions
from posenc_lib.exercise import check_pos_encoding
from posenc_lib.mistakes import MISTAKES
from posenc_lib.properties import min_row_distance, property_report

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
ANSWERS = NOTEBOOKS / "answers" / "04_answers.ipynb"
CHAPTER = NOTEBOOKS / "04_common_mistakes.ipynb"


def two_mistakes(pos, d):
    pair = np.arange(d) // 2
    return np.sin(pos / 10000 ** ((2 * pair) // d))


def test_each_exercise_has_an_answer_section_and_a_link():
    chapter = nbformat.read(CHAPTER, as_version=4)
    exercises = chapter.cells[-1].source.split("## Exercises")[1]
    answers = "\n".join(c.source for c in nbformat.read(ANSWERS, as_version=4).cells)
    for n in range(1, 5):
        assert f"([answer](answers/04_answers.ipynb#Exercise-{n}))" in exercises
        assert f"\n## Exercise {n}\n" in f"\n{answers}\n"
    assert "[← 04 · Common mistakes](../04_common_mistakes.ipynb)" in answers


def test_exercise_1_two_mistakes_break_every_property():
    np.testing.assert_allclose(two_mistakes(3, 8), [math.sin(3)] * 8)
    table = np.array([two_mistakes(p, 16) for p in range(800)])
    report = {k: round(v, 3) for k, v in property_report(table).items()}
    assert report == {
        "differs from PE": 2.0,
        "rotation error": 2.39,
        "shift map error": 0.141,
        "squared-length error": 8.0,
        "diagonal spread": 16.0,
        "min distance": 0.0,
    }
    assert np.linalg.matrix_rank(table) == 1
    result = check_pos_encoding(two_mistakes)
    assert (result.passed, result.mistake) == (False, None)
    assert "matches none of the common mistakes" in result.message
    assert "sin^2 + cos^2 = 0.0000, not 1." in result.message


def test_exercise_2_smallest_width_is_28():
    def divisors(d):
        return [int(10000 ** (2 * pair / d)) for pair in range(d // 2)]

    smallest = next(d for d in range(4, 200, 2) if divisors(d)[1] == 1)
    assert smallest == 28
    assert divisors(28)[:3] == [1, 1, 3] and divisors(26)[:3] == [1, 2, 4]
    bound = 2 * math.log(10000) / math.log(2)
    assert round(bound, 4) == 26.5754 and 26 < bound < 28
    assert (round(10000 ** (2 / 28), 4), round(10000 ** (2 / 26), 4)) == (
        1.9307,
        2.0309,
    )


def test_exercise_3_the_matrix_swaps_each_pair():
    swapped = np.array([MISTAKES["swapped-sin-cos"](p, 8) for p in range(50)])
    right = sinusoidal_positions(range(50), 8)
    M, *_ = np.linalg.lstsq(swapped, right, rcond=None)
    P = np.kron(np.eye(4), [[0, 1], [1, 0]])
    np.testing.assert_allclose(M, P, atol=1e-9)
    np.testing.assert_allclose(swapped @ P, right, atol=1e-12)
    assert round(np.linalg.det([[0, 1], [1, 0]])) == -1


def test_exercise_4_the_collision_needs_offset_710():
    offsets = np.arange(1, 800)
    distance = 2 * np.sqrt(8) * np.abs(np.sin(offsets / 2))
    assert round(710 / (2 * np.pi), 6) == 113.00001
    assert round(float(distance[709]), 5) == 0.00017
    best = int(offsets[np.argmin(distance[:709])])
    assert (best, round(float(distance[best - 1]), 4)) == (333, 0.025)
    assert round(best / (2 * np.pi), 4) == 52.9986
    table = np.array([MISTAKES["integer-division"](p, 16) for p in range(711)])
    d710, p710, q710 = min_row_distance(table[:710])
    d711, p711, q711 = min_row_distance(table)
    assert (round(d710, 4), q710 - p710) == (0.025, 333)
    assert (round(d711, 5), q711 - p711) == (0.00017, 710)
    # the distance formula is the measured one
    assert math.isclose(
        np.linalg.norm(table[0] - table[333]), distance[332], rel_tol=1e-9
    )
