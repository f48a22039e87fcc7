"""Time a slider step in every host: key press to the redrawn picture.

    python benchmarks/widgets.py     # writes benchmarks/widgets.md (about 10 min)

Runs the browser tests that drive the explorers by keyboard (JupyterLab, Voila,
the static site, the slides: tests/browser/test_explorer_lab.py,
test_explorer_voila.py, test_notebook_sliders.py, test_site.py,
test_widget_hosts.py) and collects what they report: for every slider, the time
from the key press (a capture-phase ``keydown`` listener) to the widget's
``data-shown`` attribute naming the new values, which the module writes after the
picture is drawn; median and p95 over the steps. A report, not a test: nothing
here fails on a number. The "before" table is the same measure, taken on the
previous implementation (ipywidgets + matplotlib PNGs) before it was deleted.
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/browser/test_explorer_lab.py",
    "tests/browser/test_explorer_voila.py",
    "tests/browser/test_notebook_sliders.py",
    "tests/browser/test_site.py",
    "tests/browser/test_widget_hosts.py",
]
LINE = re.compile(
    r"^(.+?), (\S+) key steps: (\d+) steps, median (\d+) ms, p95 (\d+) ms$"
)

BEFORE = """\
| host | widget | slider | steps | median | p95 |
|---|---|---|---|---|---|
| JupyterLab | lecture explorer | pos | 20 | 79 ms | 100 ms |
| Voila | lecture explorer | pos | 20 | 82 ms | 98 ms |
| JupyterLab | chapter 02 | pos | 20 | 71 ms | 186 ms |
| JupyterLab | chapter 03 | offset Δ | 20 | 62 ms | 87 ms |

The old browser tests timed only these steps (key press to the new PNG); the site's
sliders.js and the slides' still image had no such measure (the slides had no
sliders at all)."""


def collect(lines):
    """``{(host widget, slider): (steps, median, p95)}``, the last report of each."""
    # (each test reports every slider once, over all its steps)
    found = {}
    for line in lines:
        match = LINE.match(line.strip())
        if match:
            who, slider, steps, median, p95 = match.groups()
            found[(who, slider)] = (int(steps), int(median), int(p95))
    return found


def table(found):
    rows = [
        "| host and widget | slider | steps | median | p95 |",
        "|---|---|---|---|---|",
    ]
    for (who, slider), (steps, median, p95) in sorted(found.items()):
        rows.append(f"| {who} | {slider} | {steps} | {median} ms | {p95} ms |")
    return "\n".join(rows)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        options = ["-q", "-p", "no:cacheprovider", f"--basetemp={tmp}"]
        command = [sys.executable, "-m", "pytest", *TESTS, *options]
        subprocess.run(command, cwd=ROOT, check=False)
        report = Path(tmp) / "browser-latency.txt"
        lines = report.read_text().splitlines() if report.exists() else []
    found = collect(lines)
    text = (
        "# Slider step latency: key press to the redrawn picture\n\n"
        "Written by `python benchmarks/widgets.py` (see its docstring for the "
        "measure). Goal: a `pos`, `Δ` or `pair` step within one frame (16 ms "
        "median); a live `d_model` step (a kernel round trip) within 100 ms.\n\n"
        "## After: one ES module drawing in the browser (anywidget)\n\n"
        f"{table(found)}\n\n## Before: ipywidgets + matplotlib PNGs\n\n{BEFORE}\n"
    )
    (ROOT / "benchmarks" / "widgets.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
