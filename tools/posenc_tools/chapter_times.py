"""How long each part of the course takes, by one rule, written where it is quoted.

    python -m posenc_tools.chapter_times           # print the times
    python -m posenc_tools.chapter_times --write   # write them (make notebooks does)
    python -m posenc_tools.chapter_times --check   # exit 1 if a quoted time is stale

The rule, per section (the cells from one ``## `` heading to the next), in
minutes: the prose at :data:`WORDS_PER_MINUTE`, plus :data:`MINUTES_PER_CODE_CELL`
for each code cell (run it, read its output), :data:`MINUTES_PER_PREDICTION` for
each ``Predict`` (write the answer down, then compare) and
:data:`MINUTES_PER_EXERCISE` for each task (``Your turn`` in the prose, and each
numbered item under ``## Exercises``). A section whose heading ends in
``(optional)`` is off the core path; so is every section of a chapter listed in
:data:`OPTIONAL_CHAPTERS`.

Calibration. A careful learner (issue 26) took 50-55, 55-60, 100-120, 70-80,
45-60, 45-50 and 60-75 minutes for chapters 01 to 07 with their exercises, and a
later reader (issue 34) about 6 3/4 hours to read and run the whole course and
10 hours with the exercises, where the old rule (100 words a minute, 0.5, 1.5
and 4 minutes) said 5 1/2 and 7 1/2. The constants below give that chapter 03
(2,988 words, 36 code cells, 8 predictions, 7 exercises) 80 and 115 minutes,
and the whole course 6.9 and 9.6 hours.

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
>>> minutes(words=750, code_cells=3, predictions=1, tasks=1)
19
"""

import argparse
import re
import sys

import nbformat

from posenc_tools import ROOT

__all__ = [
    "MINUTES_PER_CODE_CELL",
    "TIME_LABEL",
    "WORDS_PER_MINUTE",
    "lecture_minutes",
    "lecture_steps",
    "minutes",
    "route",
    "sections",
]

WORDS_PER_MINUTE = 75  # technical prose with formulas, read carefully
MINUTES_PER_CODE_CELL = 2 / 3  # run it, read what it shows
MINUTES_PER_PREDICTION = 2  # write the answer down, run, compare
MINUTES_PER_EXERCISE = 5  # a task: write a function, a short proof, a change
OPTIONAL_CHAPTERS = ("05", "06", "07")  # read after the core path, in any order

NOTEBOOKS = ROOT / "notebooks"
START, END = "<!-- times -->", "<!-- /times -->"
#: the line under a heading that says its time (written by ``--write``)
TIME_LABEL = re.compile(r"\n\n\*(?:Core path|Optional|Exercises) · \d+ min\*(?=\n|\Z)")
_PREDICTION = re.compile(r"\bPredict\b")
_TASK = re.compile(r"\bYour turn\b")
_ITEM = re.compile(r"^\d+\. ", re.MULTILINE)
_NOT_STEPS = ("Setup", "Summary")  # counted in the times, not named in the path


def minutes(*, words, code_cells, predictions, tasks):
    """The rule's minutes for these counts, rounded to the nearest minute."""
    return round(
        words / WORDS_PER_MINUTE
        + code_cells * MINUTES_PER_CODE_CELL
        + predictions * MINUTES_PER_PREDICTION
        + tasks * MINUTES_PER_EXERCISE
    )


def _split_exercises(text):
    """``(text, exercises)``: a markdown cell's text, and its ``## Exercises`` part."""
    found = re.search(r"^## Exercises\b", text, re.MULTILINE)
    return (
        (text, "") if found is None else (text[: found.start()], text[found.start() :])
    )


def _minutes(cells):
    """``(reading, exercises)`` minutes of ``cells``: the exercises are the
    numbered items (and the words) of a ``## Exercises`` part."""
    prose, exercises = [], []
    for cell in cells:
        if cell.cell_type == "markdown":
            text, tasks = _split_exercises(TIME_LABEL.sub("", cell.source))
            prose.append(text)
            exercises.append(tasks)
    reading = minutes(
        words=sum(len(text.split()) for text in prose),
        code_cells=sum(c.cell_type == "code" and bool(c.source.strip()) for c in cells),
        predictions=sum(len(_PREDICTION.findall(text)) for text in prose),
        tasks=sum(len(_TASK.findall(text)) for text in prose),
    )
    practice = minutes(
        words=sum(len(text.split()) for text in exercises),
        code_cells=0,
        predictions=0,
        tasks=sum(len(_ITEM.findall(text)) for text in exercises),
    )
    return reading, practice


def sections(nb, chapter):
    """``[(heading, core, minutes, exercise_minutes, first_cell)]`` of a chapter.

    A section runs from a cell starting with a ``## `` heading to the next; the
    cells before the first heading count with the first section.
    """
    starts = [i for i, c in enumerate(nb.cells) if c.source.startswith("## ")]
    found = []
    for number, start in enumerate(starts):
        end = starts[number + 1] if number + 1 < len(starts) else len(nb.cells)
        heading = nb.cells[start].source.split("\n", 1)[0][3:].strip()
        core = chapter not in OPTIONAL_CHAPTERS and not heading.endswith("(optional)")
        core = core and heading != "Exercises"  # practice: its own column
        reading, practice = _minutes(nb.cells[0 if number == 0 else start : end])
        found.append((heading, core, reading, practice, start))
    return found


def _chapters():
    return sorted(NOTEBOOKS.glob("0[1-9]_*.ipynb"))


def _label(core, total):
    return f"*{'Core path' if core else 'Optional'} · {total} min*"


def _labelled(nb, chapter):
    """``nb`` with each heading cell's time label written under its heading."""
    for heading, core, total, practice, start in sections(nb, chapter):
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
        found = sections(nb, chapter)
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
        nb = _labelled(nbformat.read(notebook, as_version=4), notebook.name[:2])
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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--write", action="store_true", help="write the times")
    parser.add_argument("--check", action="store_true", help="exit 1 if stale")
    args = parser.parse_args(argv)
    if args.write:
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
