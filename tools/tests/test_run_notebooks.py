"""posenc_tools.run_notebooks: normalisation, and two runs giving the same bytes."""

import os
import shutil
import subprocess
import sys

import nbformat
import pytest

# importable by name, as the processes of --jobs import it again
from posenc_tools import run_notebooks

WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<object object at 0x7f3a2c1d5e70>", "<object object at 0x...>"),
        ("one-hot product: 12.53 ms", "one-hot product: [time]"),
        ("took 3 µs and 1.5 s", "took [time] and [time]"),
        ("1.2 ms ± 3.4 µs per loop (mean ± std. dev. of 7 runs, 1,000 loops each)",
         "[time] ± [time] per loop (mean ± std. dev. of 7 runs, N loops each)"),
        ("pair 0 (frequency 1): sin 1 = 0.8415", None),
        ("shape (3, 4), 204.8 MB, d2s", None),
        (f"File {run_notebooks.ROOT}/posenc_lib/attention.py:409, in f()",
         "File [repo]/posenc_lib/attention.py:409, in f()"),
    ],
    ids=["address", "ms", "units", "timeit", "untouched", "no-false-hits", "checkout"],
)  # fmt: skip
def test_scrub(text, expected):
    assert run_notebooks._scrub(text) == (expected or text)


def _executed_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"state": "blob"}
    code = nbformat.v4.new_code_cell
    nb.cells = [code("a", id="x"), code("", id="x"), code("b")]
    nb.cells[0].metadata["execution"] = {"iopub.status.busy": "2026-01-01"}
    nb.cells[0].execution_count = 7
    nb.cells[0].outputs = [
        nbformat.v4.new_output(
            "execute_result", {WIDGET: {"model_id": "random"}}, execution_count=7
        )
    ]
    nb.cells[2].execution_count = 9
    return nb


def test_normalise():
    nb = run_notebooks.normalise(_executed_notebook())
    assert "widgets" not in nb.metadata
    assert nb.metadata.kernelspec.name == "python3"
    assert [cell.id for cell in nb.cells] == ["x", "cell-1", nb.cells[2].id]
    assert "execution" not in nb.cells[0].metadata
    assert [cell.execution_count for cell in nb.cells] == [1, None, 2]
    output = nb.cells[0].outputs[0]
    assert output.execution_count == 1
    again = run_notebooks.normalise(_executed_notebook()).cells[0].outputs[0]
    assert output.data[WIDGET]["model_id"] == again.data[WIDGET]["model_id"]
    assert len(output.data[WIDGET]["model_id"]) == 32


@pytest.mark.slow
def test_two_runs_write_the_same_bytes(tmp_path):
    cells = [
        "from posenc_lib.figures import plot_encoding_heatmap, setup_notebook\n"
        "import matplotlib.pyplot as plt\nimport numpy as np\n"
        "setup_notebook()",
        "plot_encoding_heatmap(np.zeros((8, 4)))\nplt.show()",
        "import ipywidgets\nipywidgets.IntSlider(description='pos')",
        "print(object())",
        "1 / 0",
    ]
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in cells]
    )
    nb.cells[-1].metadata["tags"] = ["raises-exception"]
    path = tmp_path / "t.ipynb"
    nbformat.write(nb, path)

    assert run_notebooks.run(path)
    first = path.read_bytes()
    assert run_notebooks.run(path, check=True)  # a second run, compared byte by byte
    assert path.read_bytes() == first
    stored = nbformat.read(path, as_version=4)
    assert b"Software" not in first
    assert stored.cells[3].outputs[0]["text"] == "<object object at 0x...>\n"
    assert stored.cells[4].outputs[0]["ename"] == "ZeroDivisionError"


@pytest.mark.slow
def test_a_failing_notebook_is_reported_left_untouched_and_in_order(tmp_path, capsys):
    """Alone, and among others run in parallel (reports in the order given)."""
    good, bad = tmp_path / "a_good.ipynb", tmp_path / "b_bad.ipynb"
    for path, source in ((good, "print(6 * 7)"), (bad, "1 / 0")):
        cell = nbformat.v4.new_code_cell(source)
        nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    before = bad.read_bytes()
    assert run_notebooks.main([str(bad)]) == 1
    assert bad.read_bytes() == before and "FAILED" in capsys.readouterr().err
    assert run_notebooks.main([str(good), str(bad), "--jobs", "2"]) == 1
    assert nbformat.read(good, as_version=4).cells[0].outputs[0]["text"] == "42\n"
    assert bad.read_bytes() == before  # a failing notebook is left untouched
    out, err = capsys.readouterr()
    assert "a_good.ipynb" in out and "FAILED" in err and "b_bad.ipynb" in err
    assert out.strip().splitlines()[-1].endswith("total, 1/2 ok")


def test_a_bad_jobs_value_is_a_clear_error(capsys):
    with pytest.raises(SystemExit):
        run_notebooks.main(["--jobs", "0"])
    assert "--jobs == 0, must be an integer >= 1" in capsys.readouterr().err


def _run_script(clone, *args):
    """run_notebooks of ``clone``, importing (also in its kernel) its own packages."""
    env = {**os.environ, "PYTHONPATH": f"{clone}{os.pathsep}{clone / 'tools'}"}
    command = [sys.executable, "-m", "posenc_tools.run_notebooks", "--jobs", "1", *args]
    return subprocess.run(
        command, cwd=clone, env=env, capture_output=True, text=True, timeout=600
    )


@pytest.mark.slow
def test_a_clone_at_another_path_is_up_to_date(tmp_path):
    """A traceback through the library names no folder of the machine it ran on."""
    first = tmp_path / "first"
    for part in ("tools", "posenc_lib"):  # what run_notebooks.py needs
        ignore = shutil.ignore_patterns("__pycache__")
        shutil.copytree(run_notebooks.ROOT / part, first / part, ignore=ignore)
    (first / "notebooks").mkdir()
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("from posenc_lib import pos_encoding")]
    )
    nb.cells.append(nbformat.v4.new_code_cell("pos_encoding(0, 3)"))
    nb.cells[-1].metadata["tags"] = ["raises-exception"]
    nbformat.write(nb, first / "notebooks" / "t.ipynb")
    assert _run_script(first, "notebooks/t.ipynb").returncode == 0
    stored = (first / "notebooks" / "t.ipynb").read_text(encoding="utf-8")
    assert "[repo]/posenc_lib/" in stored and str(tmp_path) not in stored

    second = tmp_path / "elsewhere" / "second"
    shutil.copytree(first, second)
    result = _run_script(second, "--check", "notebooks/t.ipynb")
    assert result.returncode == 0, result.stderr
    assert "notebooks/t.ipynb  up to date" in result.stdout
