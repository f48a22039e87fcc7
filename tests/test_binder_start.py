"""repo2docker's files (a hub's or Binder's image) and ``start``, run as it runs it:
its arguments unchanged, with ``share/jupyter`` (the Voila template) first on
JUPYTER_PATH."""

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = ROOT / "start"
SHARE = ROOT / "share" / "jupyter"


def _run(*command, jupyter_path):
    env = {**os.environ, "JUPYTER_PATH": jupyter_path}
    return subprocess.run(
        [str(START), *command], capture_output=True, text=True, env=env, timeout=60
    )


def test_start_runs_its_arguments_with_share_jupyter_first_on_the_path():
    assert os.access(START, os.X_OK)
    script = 'printf "%s|" "$@"; exit 7'
    done = _run("bash", "-c", script, "-", "a b", "c", jupyter_path="")
    assert (done.returncode, done.stdout) == (7, "a b|c|")
    code = "import os; print(os.environ['JUPYTER_PATH'])"
    done = _run(sys.executable, "-c", code, jupyter_path="/elsewhere")
    assert done.stdout.strip() == f"{SHARE}{os.pathsep}/elsewhere"
    # Voila looks for templates under every Jupyter data directory (jupyter_path())
    code = "from jupyter_core.paths import jupyter_path; print(jupyter_path()[0])"
    first = _run(sys.executable, "-c", code, jupyter_path="").stdout.strip()
    assert first == str(SHARE)
    assert (SHARE / "voila" / "templates" / "posenc" / "index.html.j2").is_file()
    text = START.read_text()  # it points at the hub's page, not a missing link
    assert "docs/jupyterhub.md" in text and "README" not in text


def test_repo2docker_reads_environment_yml_and_installs_the_box():
    """No binder/ folder (repo2docker would read only it); apt.txt: bubblewrap."""
    assert not (ROOT / "binder").exists() and not (ROOT / ".binder").exists()
    assert (ROOT / "apt.txt").read_text().split() == ["bubblewrap"]


def test_no_binder_link_names_a_placeholder_repository():
    """A Binder link, once there is one, opens a notebook that exists."""
    docs = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *ROOT.glob("docs/**/*.md")]
    for path in docs:
        text = path.read_text(encoding="utf-8")
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
