"""repo2docker's files (a hub's or Binder's image) and ``start``, run as it runs it.

Binder itself cannot be reached from the test machine; this checks what can be
checked locally: the script runs its arguments unchanged (exit status included)
after pointing JUPYTER_PATH at share/jupyter, the first of the Jupyter data
directories in which Voila looks for the posenc template.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = ROOT / "start"
SHARE = ROOT / "share" / "jupyter"
# Voila looks for templates under every Jupyter data directory (jupyter_path()),
# as the Voila browser test does with JUPYTER_PATH set the same way.
DATA_DIRS = "from jupyter_core.paths import jupyter_path; print(jupyter_path()[0])"


def _run(*command, env=None):
    env = {**os.environ, **(env or {})}
    return subprocess.run(
        [str(START), *command], capture_output=True, text=True, env=env, timeout=60
    )


def test_start_is_executable_and_runs_its_arguments():
    assert os.access(START, os.X_OK)
    done = _run("bash", "-c", 'printf "%s|" "$@"; exit 7', "-", "a b", "c")
    assert (done.returncode, done.stdout) == (7, "a b|c|")


def test_start_puts_share_jupyter_first_and_keeps_the_rest():
    done = _run(
        sys.executable,
        "-c",
        "import os; print(os.environ['JUPYTER_PATH'])",
        env={"JUPYTER_PATH": "/elsewhere"},
    )
    assert done.stdout.strip() == f"{SHARE}{os.pathsep}/elsewhere"


def test_voila_finds_the_posenc_template_through_start():
    first = _run(sys.executable, "-c", DATA_DIRS, env={"JUPYTER_PATH": ""})
    assert first.stdout.strip() == str(SHARE)
    assert (SHARE / "voila" / "templates" / "posenc" / "index.html.j2").is_file()


def test_no_binder_folder_hides_environment_yml():
    """With a binder/ (or .binder/) folder repo2docker reads only the files in it."""
    assert not (ROOT / "binder").exists() and not (ROOT / ".binder").exists()
    assert (ROOT / "environment.yml").is_file()


def test_the_image_recipe_installs_the_box():
    """repo2docker installs apt.txt's Debian packages: bubblewrap, the grader's box."""
    assert (ROOT / "apt.txt").read_text().split() == ["bubblewrap"]


def _docs():
    paths = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *ROOT.glob("docs/**/*.md")]
    return {path: path.read_text(encoding="utf-8") for path in paths}


def test_no_binder_link_names_a_placeholder_repository():
    """No public address of the repository is known: a Binder link, once there is
    one, names a real repository and opens a notebook that exists."""
    for path, text in _docs().items():
        for link in re.findall(r"https://mybinder\.org/v2/gh/[^)\s`]+", text):
            assert "/OWNER/REPO/" not in link, path
            tree = re.search(r"urlpath=lab/tree/([^&)\s`]+)", link).group(1)
            assert (ROOT / tree).is_file(), link


def test_the_nbgitpuller_link_opens_the_index_notebook():
    text = (ROOT / "docs" / "jupyterhub.md").read_text(encoding="utf-8")
    (link,) = re.findall(r"https://HUB/hub/user-redirect/git-pull\?\S+", text)
    query = dict(part.split("=", 1) for part in link.split("?", 1)[1].split("&"))
    assert query["repo"] == "COURSE" and query["branch"]
    clone, path = query["urlpath"].removeprefix("lab/tree/").split("/", 1)
    assert clone == "posenc" and path == "notebooks/00_index.ipynb"
    assert (ROOT / path).is_file()


def test_start_points_at_the_hub_page_not_a_missing_link():
    text = START.read_text()
    assert "docs/jupyterhub.md" in text and "README" not in text
