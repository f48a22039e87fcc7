"""How long each part of the course takes, by one rule fitted to readers' times.

    python -m posenc_tools.chapter_times           # print the times
    python -m posenc_tools.chapter_times --write   # write them (make notebooks does)
    python -m posenc_tools.chapter_times --check   # exit 1 if a quoted time is stale
    python -m posenc_tools.chapter_times --fit     # the rule's fit to the readings

The rule, per section (the cells from one ``## `` heading to the next), in
minutes: a rate (:data:`RATES`) times each count of the section, summed.

- ``words``: of its prose;
- ``code_cells``: cells to run and read;
- ``predictions``: each ``Predict`` (write the answer down, then compare);
- ``tasks``: each ``Your turn`` (change something, predict, run);
- ``lines_written``: lines of a function the learner writes from scratch: a
  code cell tagged ``solution``, counted as the lines of the same cell (same
  id) in ``notebooks/solutions/`` that its starting version lacks;
- ``derivations``: markdown cells tagged ``derivation``, where the learner
  follows or does a derivation or a computation by hand;
- ``new_terms``: the terms a markdown cell lists in its metadata
  ``posenc.new_terms``, each met there for the first time on the core path.

A section whose heading ends in ``(optional)`` is off the core path; so is
every section of a chapter listed in :data:`OPTIONAL_CHAPTERS`. The numbered
items under ``## Exercises`` are priced apart, :data:`MINUTES_PER_EXERCISE`
each plus their words: no reader timed the exercises.

Calibration. ``readings.csv``, beside this module, holds fresh readers' times
with a stopwatch per section of the core path (three readers of the course at
commit 6115aeb, issue 39, who had not seen it; and the issue's own reader, per
chapter), with the counts of each section as they read it. :func:`fit` gives
the rates: the non-negative least-squares fit of the counts to the minutes,
one equation per reading, over chapters 01 to 04 (the index is not priced:
its times table is skimmed). ``--fit`` prints the rates and each reader's
error; the rates are refitted whenever the readings change, never set by hand.

The lecture (``notebooks/lecture.ipynb``) is timed by a delivery rule of its own,
per step (the cells from one ``## H:MM · `` heading to the next): the words said
(slide text and instructor notes) at :data:`SPOKEN_WORDS_PER_MINUTE`, the live
lines typed at :data:`TYPED_LINES_PER_MINUTE`, :data:`MINUTES_PER_PAUSE` for each
``Predict``, :data:`MINUTES_PER_RUN` for each cell run on a slide and
:data:`MINUTES_PER_DEMO` for each widget moved live; calibrated on the rehearsals
in :data:`REHEARSALS`. ``--write`` writes each step's minute mark and length into
its heading, and the route (:func:`route`) into the lecture's first cell and
``docs/teaching.md``, between ``<!-- route -->`` and ``<!-- /route -->``.

Where the times are written: each section's heading cell gets the line
``*Core path · N min*`` or ``*Optional · N min*`` under its heading; the index
notebook and the README get the core path and the chapters' table between the
markers ``<!-- times -->`` and ``<!-- /times -->``.

Examples
--------
>>> minutes(words=0, code_cells=0, predictions=0, tasks=0)
0
>>> minutes(words=0, code_cells=0, predictions=0, tasks=0, derivations=2) >= 5
True
"""

import argparse
import csv
import itertools
import re
import sys
from pathlib import Path

import nbformat
import numpy as np

from posenc_tools import ROOT

__all__ = [
    "COUNTS",
    "RATES",
    "TIME_LABEL",
    "fit",
    "lecture_minutes",
    "lecture_steps",
    "minutes",
    "readings",
    "route",
    "sections",
]

#: what the rule counts in a section, in the order of ``readings.csv``'s columns
COUNTS = (
    "words",
    "code_cells",
    "predictions",
    "tasks",
    "lines_written",
    "derivations",
    "new_terms",
)
READINGS = Path(__file__).with_name("readings.csv")
MINUTES_PER_EXERCISE = 5  # an exercise item: a function, a short proof, a change
OPTIONAL_CHAPTERS = ("05", "06", "07")  # read after the core path, in any order
FITTED_CHAPTERS = ("01", "02", "03", "04")  # the chapters the readings price


def readings(path=READINGS):
    """``(counts, minutes, reader)``: one row of counts (``COUNTS``' order) per
    reading of ``path`` in :data:`FITTED_CHAPTERS`, and its minutes (a range
    ``a-b`` read as its middle)."""
    with open(path, encoding="utf-8", newline="") as file:
        rows = [r for r in csv.DictReader(file) if r["chapter"] in FITTED_CHAPTERS]
    counts = np.array([[float(r[name]) for name in COUNTS] for r in rows])
    spent = [np.mean([float(m) for m in r["minutes"].split("-")]) for r in rows]
    return counts, np.array(spent), [r["reader"] for r in rows]


def fit(counts, spent):
    """``{count: minutes per unit}``, the non-negative least-squares fit of
    ``counts @ rates ≈ spent``: the best of the unconstrained fits on every
    subset of the counts whose rates all come out >= 0 (the others at 0).

    Examples
    --------
    >>> counts = np.array([[100, 1, 0, 0, 0, 0, 0], [50, 0, 1, 0, 0, 0, 0],
    ...                    [0, 2, 0, 0, 0, 0, 0], [10, 0, 0, 0, 0, 1, 0]])
    >>> rates = fit(counts, counts @ [0.02, 0.5, 2, 0, 0, 3, 0])
    >>> {name: round(rate, 6) for name, rate in rates.items() if rate}
    {'words': 0.02, 'code_cells': 0.5, 'predictions': 2.0, 'derivations': 3.0}
    """
    counts, spent = np.asarray(counts, float), np.asarray(spent, float)
    best, rates = np.inf, np.zeros(len(COUNTS))
    for used in itertools.product((False, True), repeat=len(COUNTS)):
        columns = np.flatnonzero(used)
        found = np.linalg.lstsq(counts[:, columns], spent, rcond=None)[0]
        error = np.sum((counts[:, columns] @ found - spent) ** 2)
        if (found >= 0).all() and error < best - 1e-9:
            best, rates = error, np.zeros(len(COUNTS))
            rates[columns] = found
    return dict(zip(COUNTS, rates.tolist(), strict=True))


RATES = fit(*readings()[:2])  # minutes per word, per code cell, per prediction ...


def minutes(**counts):
    """The rule's minutes for these counts (the ``COUNTS``; words, code cells,
    predictions and tasks must be given, the others default to 0), rounded."""
    missing = {"words", "code_cells", "predictions", "tasks"} - counts.keys()
    unknown = counts.keys() - set(COUNTS)
    if missing or unknown:
        raise TypeError(
            f"minutes() needs {sorted(missing)}, knows no {sorted(unknown)}"
        )
    return round(sum(RATES[name] * value for name, value in counts.items()))


NOTEBOOKS = ROOT / "notebooks"
START, END = "<!-- times -->", "<!-- /times -->"
#: the line under a heading that says its time (written by ``--write``)
TIME_LABEL = re.compile(r"\n\n\*(?:Core path|Optional|Exercises) · \d+ min\*(?=\n|\Z)")
_PREDICTION = re.compile(r"\bPredict\b")
_TASK = re.compile(r"\bYour turn\b")
_ITEM = re.compile(r"^\d+\. ", re.MULTILINE)
_NOT_STEPS = ("Setup", "Summary")  # counted in the times, not named in the path


def _split_exercises(text):
    """``(text, exercises)``: a markdown cell's text, and its ``## Exercises`` part."""
    found = re.search(r"^## Exercises\b", text, re.MULTILINE)
    return (
        (text, "") if found is None else (text[: found.start()], text[found.start() :])
    )


def _counts(cells, solutions):
    """``{count: value}`` of ``cells`` (:data:`COUNTS`), and the exercises' text."""
    prose, exercises = [], []
    for cell in cells:
        if cell.cell_type == "markdown":
            text, tasks = _split_exercises(TIME_LABEL.sub("", cell.source))
            prose.append(text)
            exercises.append(tasks)
    tagged = [c for c in cells if c.cell_type == "markdown"]
    counts = {
        "words": sum(len(text.split()) for text in prose),
        "code_cells": sum(
            c.cell_type == "code" and bool(c.source.strip()) for c in cells
        ),
        "predictions": sum(len(_PREDICTION.findall(text)) for text in prose),
        "tasks": sum(len(_TASK.findall(text)) for text in prose),
        "lines_written": sum(_lines_written(c, solutions) for c in cells),
        "derivations": sum("derivation" in c.metadata.get("tags", []) for c in tagged),
        "new_terms": sum(
            len(c.metadata.get("posenc", {}).get("new_terms", [])) for c in tagged
        ),
    }
    return counts, "\n".join(exercises)


def _lines_written(cell, solutions):
    """Lines a learner writes in ``cell``, tagged ``solution``: those of its
    solved version (``solutions[cell.id]``) that its starting version lacks."""
    if cell.cell_type != "code" or "solution" not in cell.metadata.get("tags", []):
        return 0
    given = set(cell.source.splitlines())
    solved = solutions.get(cell.get("id"), cell.source).splitlines()
    return sum(bool(line.strip()) and line not in given for line in solved)


def _minutes(cells, solutions):
    """``(reading, exercises)`` minutes of ``cells``: the exercises are the
    numbered items (and the words) of a ``## Exercises`` part."""
    counts, exercises = _counts(cells, solutions)
    items = len(_ITEM.findall(exercises))
    practice = len(exercises.split()) * RATES["words"] + items * MINUTES_PER_EXERCISE
    return minutes(**counts), round(practice)


def sections(nb, chapter, solutions=None):
    """``[(heading, core, minutes, exercise_minutes, first_cell)]`` of a chapter.

    A section runs from a cell starting with a ``## `` heading to the next; the
    cells before the first heading count with the first section. ``solutions``
    maps a cell id to its solved source (:func:`solved_cells`).
    """
    starts = [i for i, c in enumerate(nb.cells) if c.source.startswith("## ")]
    found = []
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(nb.cells)
        heading = nb.cells[start].source.split("\n", 1)[0][3:].strip()
        core = chapter not in OPTIONAL_CHAPTERS and not heading.endswith("(optional)")
        core = core and heading != "Exercises"  # practice: its own column
        cells = nb.cells[0 if number == 0 else start : end]
        reading, practice = _minutes(cells, solutions or {})
        found.append((heading, core, reading, practice, start))
    return found


def solved_cells(notebook):
    """``{cell id: source}`` of ``notebook``'s solved version in
    ``notebooks/solutions/``, or ``{}`` if it has none."""
    solved = notebook.parent / "solutions" / notebook.name
    if not solved.is_file():
        return {}
    return {c.get("id"): c.source for c in nbformat.read(solved, as_version=4).cells}


def chapter_sections(notebook):
    """:func:`sections` of the chapter notebook at ``notebook``, its solutions read."""
    nb = nbformat.read(notebook, as_version=4)
    return sections(nb, notebook.name[:2], solved_cells(notebook))


def _chapters():
    return sorted(NOTEBOOKS.glob("0[1-9]_*.ipynb"))


def _label(core, total):
    return f"*{'Core path' if core else 'Optional'} · {total} min*"


def _labelled(nb, chapter, solutions=None):
    """``nb`` with each heading cell's time label written under its heading."""
    for heading, core, total, practice, start in sections(nb, chapter, solutions):
        cell = nb.cells[start]
        label = _label(core, total)
        if heading == "Exercises":  # practice, apart from the path
            label = f"*Exercises · {practice} min*"
        head, _, rest = TIME_LABEL.sub("", cell.source).partition("\n")
        cell.source = f"{head}\n\n{label}\n\n{rest.lstrip()}".rstrip("\n")
    return nb


def _table(prefix):
    """The markdown between the markers: the core path, then every chapter;
    links to the notebooks start with ``prefix``."""
    path, rows, total = [], [], [0, 0, 0]
    for notebook in _chapters():
        chapter = notebook.name[:2]
        nb = nbformat.read(notebook, as_version=4)
        found = sections(nb, chapter, solved_cells(notebook))
        times = [
            sum(m for _, c, m, _, _ in found if c),
            sum(m for _, c, m, _, _ in found if not c),
            sum(x for _, _, _, x, _ in found),
        ]
        total = [a + b for a, b in zip(total, times, strict=True)]
        title = nb.cells[0].source.split("\n", 1)[0].lstrip("# ")
        link = f"[{title}]({prefix}{notebook.name})"
        steps = [
            f"{h}, {m} min" for h, c, m, _, _ in found if c and h not in _NOT_STEPS
        ]
        if steps:
            path.append(f"{len(path) + 1}. {link}: " + "; ".join(steps) + ".")
        rows.append(f"| {link} | " + " | ".join(f"{t} min" for t in times) + " |")
    return "\n".join(
        [
            f"**The core path: {total[0]} minutes.**",
            "",
            *path,
            "",
            "| Chapter | Core path | Optional | Exercises |",
            "|---|---|---|---|",
            *rows,
            "| All | " + " | ".join(f"{t} min" for t in total) + " |",
        ]
    )


def _with_table(text, table, where):
    if START not in text:
        raise SystemExit(f"chapter_times: no {START} ... {END} in {where}")
    before, rest = text.split(START, 1)
    return f"{before}{START}\n{table}\n{END}{rest.split(END, 1)[1]}"


def _targets():
    """``{path: text as it should be}`` for every file that quotes a time."""
    wanted = {}
    for notebook in _chapters():
        nb = nbformat.read(notebook, as_version=4)
        nb = _labelled(nb, notebook.name[:2], solved_cells(notebook))
        wanted[notebook] = nbformat.writes(nb).rstrip("\n") + "\n"
    index = NOTEBOOKS / "00_index.ipynb"
    nb = nbformat.read(index, as_version=4)
    for cell in nb.cells:
        if START in cell.source:
            cell.source = _with_table(cell.source, _table(""), "the index")
    wanted[index] = nbformat.writes(nb).rstrip("\n") + "\n"
    readme = ROOT / "README.md"
    table = _table("notebooks/")
    wanted[readme] = _with_table(readme.read_text("utf-8"), table, "README.md")
    return {**wanted, **_lecture_targets()}


# ---------------------------------------------------------------- the lecture

SPOKEN_WORDS_PER_MINUTE = 65  # slide text and notes, said to a room
TYPED_LINES_PER_MINUTE = 2  # a live line, typed while saying what it does
MINUTES_PER_PAUSE = 1 / 2  # a Predict: ask, wait, hear an answer or two
MINUTES_PER_RUN = 2 / 3  # run a cell, say what its output shows
MINUTES_PER_DEMO = 3  # a widget moved live (the explorer)
LECTURE_MINUTES, SLACK_MINUTES = 50, 5  # the slot, and the slack it keeps at least
LECTURE = NOTEBOOKS / "lecture.ipynb"
LECTURE_LIVE = NOTEBOOKS / "lecture_live.ipynb"
TEACHING = ROOT / "docs" / "teaching.md"
ROUTE_START, ROUTE_END = "<!-- route -->", "<!-- /route -->"
IF_TIME = "If time: "  # a step's title starting so is dropped when late
#: The rehearsals the rates are calibrated on, read aloud and typed, of the
#: lecture at commit 6115aeb: per step, its counts by :func:`lecture_counts`
#: ``(words, typed lines, pauses, runs, demos)``, then the minutes it took in
#: each rehearsal of :data:`REHEARSALS`, ``(fastest, slowest)`` (``None``: not
#: timed). The rates put both totals 0.6 and 1.1 minutes high, each step within
#: 1.5 minutes.
REHEARSALS = ("issue 40", "lecturer 1 (readers/lecturer1.md)")
REHEARSED = {
    "lookup": ((256, 3, 2, 3, 0), (7, 7), (8.5, 8.5)),
    "attention": ((188, 0, 1, 3, 0), (6, 6), (6.5, 6.5)),
    "formula": ((161, 6, 0, 3, 0), (8, 9), (7, 7)),
    "explorer": ((131, 0, 0, 0, 1), (5, 5), (4.5, 4.5)),
    "rotation": ((252, 8, 1, 3, 0), (9, 10), (10.5, 10.5)),
    "payoff": ((267, 5, 1, 4, 0), (9, 10), (9.5, 9.5)),
    "mistake": ((114, 0, 1, 2, 0), (3, 3), (3, 3)),
    "RoPE": ((153, 0, 1, 1, 0), (4, 4), (4, 4)),
    "summary": ((98, 0, 0, 0, 0), None, (1, 1)),
}
_STEP = re.compile(r"## (?:\d+:\d\d · )?(.+?)(?: \(\d+ min\))?$")
_WIDGET = "application/vnd.jupyter.widget-view+json"
_STORY = re.compile(r"\[[^]]*\]\(([\w.-]+)\.ipynb[^)]*\)((?: §[\d–-]+)?)")


def lecture_minutes(words, typed, pauses, runs, demos):
    """The delivery rule's minutes (not rounded) for one step's counts.

    >>> round(lecture_minutes(130, 4, 1, 3, 0), 2)
    6.5
    """
    return (
        words / SPOKEN_WORDS_PER_MINUTE
        + typed / TYPED_LINES_PER_MINUTE
        + pauses * MINUTES_PER_PAUSE
        + runs * MINUTES_PER_RUN
        + demos * MINUTES_PER_DEMO
    )


def _kind(cell):
    return cell.metadata.get("slideshow", {}).get("slide_type")


def _spoken(cell):
    """A markdown cell's words as said: no HTML tags, tables or minute marks."""
    lines = cell.source.split("\n")
    found = _STEP.match(lines[0])
    if found:
        lines[0] = found[1]
    text = re.sub(r"<[^>]+>", " ", "\n".join(lines))
    return [w for line in text.splitlines() if not line.startswith("|")
            for w in line.split()]  # fmt: skip


def lecture_counts(cells):
    """``(words, typed lines, pauses, runs, demos)`` of one step's cells.

    Words of the markdown shown or in the notes; the live cells' lines but their
    prompt; each ``Predict`` shown; each code cell shown; a widget is a demo.
    """
    words = typed = pauses = runs = demos = 0
    for cell in cells:
        if _kind(cell) == "skip" or not cell.source.strip():
            continue
        if cell.cell_type == "markdown":
            words += len(_spoken(cell))
            if _kind(cell) != "notes":
                pauses += len(_PREDICTION.findall(cell.source))
            continue
        if "live" in cell.metadata.get("tags", []):
            typed += sum(bool(line.strip()) for line in cell.source.splitlines()[1:])
        widget = any(_WIDGET in o.get("data", {}) for o in cell.get("outputs", []))
        demos, runs = demos + widget, runs + (not widget)
    return words, typed, pauses, runs, demos


def lecture_steps(nb):
    """``[(title, minutes, counts, first_cell)]`` of the lecture's steps, in order
    (the ``## `` headings but the last, the slack)."""
    starts = [i for i, c in enumerate(nb.cells) if c.source.startswith("## ")]
    steps = []
    for number, start in enumerate(starts[:-1]):
        title = _STEP.match(nb.cells[start].source.split("\n", 1)[0])[1]
        counts = lecture_counts(nb.cells[start : starts[number + 1]])
        steps.append((title, lecture_minutes(*counts), counts, start))
    return steps


def _mark(minute):
    return f"{minute // 60}:{minute % 60:02d}"


def _marks(steps):
    """The minute each step starts at, and where the route ends (rounded)."""
    ends, total = [], 0.0
    for step in steps:
        ends.append(round(total))
        total += step[1]
    return ends, round(total)


def _stories(source, prefix):
    """The chapters a step's ``*Full story: ...*`` links to, as short links."""
    story = source.split("Full story:", 1)[-1]
    found = dict.fromkeys(_STORY.findall(story))
    return ", ".join(
        f"[{name.split('_')[0]}]({prefix}{name}.ipynb){section}"
        for name, section in found
    )


def route(nb, prefix="", steps=None):
    """The route's markdown: its minutes, the drop order and the table (of the
    lecture's ``steps``; by default ``nb``'s own)."""
    steps = lecture_steps(nb) if steps is None else steps
    starts, end = _marks(steps)
    dropped = [
        f"{title.removeprefix(IF_TIME)} ({_mark(start)})"
        for (title, *_), start in zip(steps, starts, strict=True)
        if title.startswith(IF_TIME)
    ][::-1]
    rows = [
        f"| {_mark(start)} | {title}"
        + (f" (typed, {counts[1]} lines)" if counts[1] else "")
        + f" | {_stories(nb.cells[first].source, prefix)} |"
        for (title, _, counts, first), start in zip(steps, starts, strict=True)
    ]
    slack = LECTURE_MINUTES - end
    drop = " first, then ".join(dropped[:2]) + "".join(
        f", then {d}" for d in dropped[2:]
    )
    return "\n".join([
        f"**{end} minutes by the delivery rule, and {slack} of slack.** Late? "
        f"Drop {drop}.",
        "",
        "| minute | step | full story |",
        "|---|---|---|",
        *rows,
        f"| {_mark(end)} | **slack, {slack} min**: questions | |",
    ])  # fmt: skip


def _route_block(text, block, where):
    if ROUTE_START not in text:
        raise SystemExit(f"chapter_times: no {ROUTE_START} ... {ROUTE_END} in {where}")
    before, rest = text.split(ROUTE_START, 1)
    return f"{before}{ROUTE_START}\n{block}\n{ROUTE_END}{rest.split(ROUTE_END, 1)[1]}"


def _lecture_labelled(nb, steps):
    """``nb`` (the lecture or its live copy) with the rule's marks and route."""
    starts, end = _marks(steps)
    ends = [*starts[1:], end]
    headings = [c for c in nb.cells if c.source.startswith("## ")]
    for cell, (title, *_), start, stop in zip(
        headings, steps, starts, ends, strict=False
    ):  # the slack: below
        rest = cell.source.split("\n", 1)[1:]
        head = f"## {_mark(start)} · {title} ({stop - start} min)"
        cell.source = "\n".join([head, *rest])
    slack = headings[-1]
    rest = slack.source.split("\n", 1)[1:]
    head = f"## {_mark(end)} · Slack ({LECTURE_MINUTES - end} min)"
    slack.source = "\n".join([head, *rest])
    for cell in nb.cells:
        if ROUTE_START in cell.source:
            block = route(nb, steps=steps)
            cell.source = _route_block(cell.source, block, "the lecture")
    return nb


def _lecture_targets():
    """``{path: text}``: the lecture, its live copy and docs/teaching.md."""
    lecture = nbformat.read(LECTURE, as_version=4)
    steps = lecture_steps(lecture)
    wanted = {}
    for path in (LECTURE, LECTURE_LIVE):
        nb = _lecture_labelled(nbformat.read(path, as_version=4), steps)
        wanted[path] = nbformat.writes(nb).rstrip("\n") + "\n"
    block = route(_lecture_labelled(lecture, steps), "../notebooks/")
    text = TEACHING.read_text("utf-8")
    wanted[TEACHING] = _route_block(text, block, "docs/teaching.md")
    return wanted


def stale():
    """The files whose quoted times are not what the rule gives now."""
    return [p for p, text in _targets().items() if p.read_text("utf-8") != text]


def fit_report():
    """The rates, and how far the rule is from each reader: the root mean square
    of its error per reading (a section, or a chapter), and their totals."""
    counts, spent, readers = readings()
    rule = counts @ [RATES[name] for name in COUNTS]  # (n_readings,), unrounded
    lines = [f"{name}: {RATES[name]:.4g} min" for name in COUNTS]
    lines[0] += f" ({1 / RATES['words']:.0f} words a minute)"
    for reader in dict.fromkeys(readers):
        mine = np.array([r == reader for r in readers])
        error = np.sqrt(np.mean((rule[mine] - spent[mine]) ** 2))
        lines.append(
            f"{reader}: {mine.sum()} readings, error {error:.1f} min each (root"
            f" mean square); {spent[mine].sum():.0f} min in all, the rule"
            f" {rule[mine].sum():.0f}"
        )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", action="store_true", help="write the times")
    parser.add_argument("--check", action="store_true", help="exit 1 if stale")
    parser.add_argument("--fit", action="store_true", help="the rates and their fit")
    args = parser.parse_args(argv)
    if args.fit:
        print(fit_report())
    elif args.write:
        for path, text in _targets().items():
            path.write_text(text, encoding="utf-8")
    elif args.check:
        old = stale()
        for path in old:
            print(f"{path.relative_to(ROOT)}: times are stale: run make notebooks")
        return 1 if old else 0
    print(_table("notebooks/"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
