"""The time rule, its fit to the readers' times, and the times written where quoted."""

import nbformat
import numpy as np
import pytest
from posenc_tools import chapter_times
from posenc_tools.chapter_times import COUNTS, RATES, fit, minutes, readings, sections

new_markdown, new_code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell


def test_the_rates_are_the_fit_of_the_readings():
    """Refitted from readings.csv, never set by hand: every rate >= 0, each
    reader's total within 6% of the rule's (``chapter_times --fit`` prints it)."""
    counts, spent, readers = readings()
    assert RATES == fit(counts, spent)
    assert all(rate >= 0 for rate in RATES.values())
    rule = counts @ [RATES[name] for name in COUNTS]  # (n_readings,)
    for reader in set(readers):
        mine = np.array([r == reader for r in readers])
        assert abs(rule[mine].sum() - spent[mine].sum()) <= 0.06 * spent[mine].sum()
        assert np.sqrt(np.mean((rule[mine] - spent[mine]) ** 2)) < 1.5, reader


def test_the_rule_prices_what_took_the_readers_longest():
    """A derivation, a new term, a line written each cost more than 15 words."""
    sentence = minutes(words=15, code_cells=0, predictions=0, tasks=0)
    for name in ("derivations", "new_terms", "lines_written"):
        assert RATES[name] > 15 * RATES["words"], name
    base = {"words": 83, "code_cells": 2, "predictions": 0, "tasks": 1}
    assert minutes(**base, lines_written=5) > minutes(**base, lines_written=1)
    assert sentence <= 1
    with pytest.raises(TypeError, match="knows no \\['pages'\\]"):
        minutes(**base, pages=2)


def test_fit_recovers_known_rates_and_keeps_them_non_negative():
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 6, size=(40, len(COUNTS))).astype(float)
    counts[:, 0] = rng.integers(20, 300, size=40)  # words
    true = np.array([0.02, 0.1, 1.0, 1.5, 2.0, 3.5, 1.0])
    found = fit(counts, counts @ true)
    np.testing.assert_allclose([found[n] for n in COUNTS], true, atol=1e-9)
    saving = true * [1, -1, 1, 1, 1, 1, 1]  # as if a code cell saved time
    negative = fit(counts, counts @ saving)
    assert negative["code_cells"] == 0 and min(negative.values()) >= 0


def test_sections_count_marks_tags_and_solutions():
    nb = nbformat.v4.new_notebook(
        cells=[
            new_markdown("# 09 · Title\n\nintro"),
            new_markdown("## Setup"),
            new_code("import numpy"),
            new_markdown("## Derived", metadata={"tags": ["derivation"]}),
            new_markdown("## Terms", metadata={"posenc": {"new_terms": ["a", "b"]}}),
            new_markdown("## Write it"),
            new_code("def f():\n    pass", metadata={"tags": ["solution"]}),
            new_markdown("## Extra (optional)\n\n**Predict.** ..."),
            new_markdown("## Summary\n\nsaid.\n\n## Exercises\n\n1. one\n2. two"),
        ]
    )
    nb.cells[6]["id"] = "write"
    solved = {"write": "def f():\n    x = 1\n    y = 2\n    return x + y"}
    found = {h: (core, m, x) for h, core, m, x, _ in sections(nb, "09", solved)}
    none = {"code_cells": 0, "predictions": 0, "tasks": 0}
    expected = {
        "Derived": minutes(words=1, **none, derivations=1),
        "Terms": minutes(words=1, **none, new_terms=2),
        "Write it": minutes(words=2, **{**none, "code_cells": 1}, lines_written=3),
        "Extra (optional)": minutes(words=4, **{**none, "predictions": 1}),
    }
    for heading, value in expected.items():
        assert found[heading][1] == value, heading
    assert not found["Extra (optional)"][0] and found["Setup"][0]
    assert found["Summary"][2] == 2 * chapter_times.MINUTES_PER_EXERCISE
    assert all(not core for _, core, *_ in sections(nb, "06"))  # an optional chapter


def test_the_times_written_in_the_course_are_the_rules():
    assert chapter_times.stale() == [], (
        "the times quoted are stale: python -m posenc_tools.chapter_times --write "
        "(make notebook and make notebooks write them too)"
    )


def test_the_core_path_takes_at_most_90_minutes():
    total = 0
    for notebook in sorted(chapter_times.NOTEBOOKS.glob("0[1-9]_*.ipynb")):
        found = chapter_times.chapter_sections(notebook)
        total += sum(m for _, core, m, _, _ in found if core)
    assert total <= 90, (
        f"the core path takes {total} minutes by the rule: cut words, or end a "
        "section's heading with (optional)"
    )
