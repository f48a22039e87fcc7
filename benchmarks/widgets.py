"""Time a slider step in every host: key press to the redrawn picture.

    python benchmarks/widgets.py     # writes benchmarks/widgets.md (about 10 min)

Runs the browser tests that drive the explorers by keyboard (JupyterLab, Voila,
the static site, the slides: tests/browser/test_widget_hosts.py and
test_site.py) and collects what they report: for every slider, the time
from the key press (a capture-phase ``keydown`` listener) to the widget's
``data-shown`` attribute naming the new values, which the module writes after the
picture is drawn; median and p95 over the steps. A report, not a test: nothing
here fails on a number. The "before" table is the same measure, taken on the
previous implementation (Python sent each width's table) before it was changed.
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/browser/test_site.py", "tests/browser/test_widget_hosts.py"]
LINE = re.compile(
    r"^(.+?), (\S+) key steps: (\d+) steps, median (\d+) ms, p95 (\d+) ms$"
)

BEFORE = """\
| host and widget | slider | steps | median | p95 |
|---|---|---|---|---|
| JupyterLab chapter 02 | d_model | 20 | 55 ms | 68 ms |
| JupyterLab chapter 02 | pos | 20 | 1 ms | 11 ms |
| JupyterLab chapter 03 | Δ | 20 | 1 ms | 1 ms |
| JupyterLab explorer | d_model | 21 | 56 ms | 72 ms |
| JupyterLab explorer | offset | 20 | 1 ms | 3 ms |
| JupyterLab explorer | pair | 21 | 1 ms | 2 ms |
| JupyterLab explorer | pos | 20 | 2 ms | 17 ms |
| Voila explorer | d_model | 21 | 33 ms | 84 ms |
| Voila explorer | offset | 20 | 1 ms | 2 ms |
| Voila explorer | pair | 21 | 1 ms | 2 ms |
| Voila explorer | pos | 20 | 1 ms | 3 ms |
| site chapter 02 | d_model | 20 | 6 ms | 34 ms |
| site chapter 02 | pos | 20 | 1 ms | 1 ms |
| site chapter 03 | Δ | 20 | 0 ms | 1 ms |
| site explorer | d_model | 21 | 7 ms | 37 ms |
| site explorer | offset | 20 | 1 ms | 2 ms |
| site explorer | pair | 21 | 1 ms | 14 ms |
| site explorer | pos | 20 | 1 ms | 3 ms |
| slides explorer | d_model | 21 | 6 ms | 11 ms |
| slides explorer | offset | 20 | 1 ms | 2 ms |
| slides explorer | pair | 21 | 1 ms | 2 ms |
| slides explorer | pos | 20 | 1 ms | 2 ms |

Measured by this script on 6115aeb: Python sent the table of each d_model (a
kernel round trip in JupyterLab and Voila; a stored table per width on the
static pages)."""


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
        "measure). Goal: every step of every slider within one frame (16 ms "
        "median) in every host.\n\n"
        "## After: the browser computes every width (no kernel round trip)\n\n"
        f"{table(found)}\n\n## Before: Python sent each width's table\n\n{BEFORE}\n"
    )
    (ROOT / "benchmarks" / "widgets.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
