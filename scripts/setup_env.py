"""Create a course environment, or regenerate the locks; the Makefile calls this.

    python3 scripts/setup_env.py .venv locked          # make lab, make test
    python3 scripts/setup_env.py .venv-oldest oldest   # make test-oldest
    python3 scripts/setup_env.py .venv-latest latest   # make test-latest
    python3 scripts/setup_env.py --lock                # make lock
    python3 scripts/setup_env.py --lock --upgrade      # make lock UPGRADE=1

(On Windows: ``py scripts\\setup_env.py .venv locked``.) Each environment is a
``python -m venv`` folder of the Python running this script, which must be 3.10
or newer: an older one is refused before anything is created, and a folder that
another Python made is made again. uv (a pinned release from PyPI, installed
into the environment by its own pip) does the installing; if uv cannot be
installed, or ``POSENC_NO_UV=1``, pip does it instead, after a one-line notice.

- ``locked``: ``uv sync --locked --all-packages --extra dev``: exactly the versions of
  ``uv.lock`` (one universal lock for every Python and OS the project supports),
  and the project itself, editable. pip installs ``requirements/lock.txt``
  instead, the same versions exported from ``uv.lock``, then ``--no-deps -e .``.
- ``oldest``: exactly ``requirements/oldest.txt``: the lowest versions
  ``pyproject.toml`` declares for the runtime dependencies
  (``requirements/minimums.txt``), everything else at the newest release
  compatible with them. For Python 3.10 and 3.11: numpy 1.24 has no wheels for
  later Pythons.
- ``latest``: the newest releases of everything, no lock (what an update would
  bring).

The mode is written to ``VENV/.posenc-env`` so the tests know which versions to
expect. Standard library only, and no syntax newer than Python 3.7 (tested), so
that an old Python gets the sentence, not a SyntaxError.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UV_LOCK = "uv.lock"
LOCK = "requirements/lock.txt"
OLDEST = "requirements/oldest.txt"
UV = "uv==0.13.9"  # the installer's own version: raise it when regenerating the locks
OLDEST_PYTHON = "3.10"  # the lowest Python in requires-python
OS_NAME = os.name  # "nt" on Windows, where a venv keeps its programs in Scripts
MINIMUMS = "requirements/minimums.txt"
MINIMUMS_HEADER = """\
# The lowest versions pyproject.toml declares for the runtime dependencies:
# constraints of requirements/oldest.txt. Written by `make lock`; do not edit.
"""
LOCK_HEADER = """\
# uv.lock's versions for pip and conda users (uv export --extra dev), one
# universal lock for every Python and OS. Written by `make lock`; do not edit.
"""
# uv.lock as requirements/lock.txt; tests/test_environment.py runs the same
EXPORT = ["export", "--frozen", "--format", "requirements-txt", "--extra", "dev"]
EXPORT += ["--all-packages", "--no-hashes", "--no-emit-workspace", "--no-header"]
# environment.yml (conda, Binder, a hub's image): the same, plus the hub extra
ENVIRONMENT = "environment.yml"
ENVIRONMENT_EXPORT = EXPORT + ["--extra", "hub"]
PYTHON_VERSION = ".python-version"  # the one Python of CI, uv and the hub image
ENVIRONMENT_HEADER = """\
# conda, Binder and a JupyterHub image (repo2docker, docs/jupyterhub.md): Python
# {python} (.python-version, the Python CI runs) from conda-forge, then pip installs
# exactly the versions of uv.lock (requirements/lock.txt, plus nbgitpuller, the
# hub extra) and the course's two packages, editable:
#
#   conda env create -f environment.yml && conda activate posenc
#
# Written by `make lock`; do not edit (tests/test_environment.py checks it).
name: posenc
channels:
  - conda-forge
dependencies:
  - python={python}
  - pip
  - pip:
"""


def check_python(version_info=sys.version_info, executable=sys.executable):
    """Refuse a Python older than ``OLDEST_PYTHON``: one sentence says what to do."""
    oldest = tuple(int(part) for part in OLDEST_PYTHON.split("."))
    if tuple(version_info[:2]) >= oldest:
        return
    found = ".".join(str(part) for part in version_info[:3])
    raise SystemExit(
        f"This course needs Python {OLDEST_PYTHON} or newer, but {executable} is "
        f"Python {found}: install Python {OLDEST_PYTHON} or newer (python.org, "
        "Homebrew, your package manager, or `uv python install 3.12`) and point "
        "make at it, for example `make lab PYTHON=python3.12`."
    )


def program(venv, name, os_name=None):
    """Path of program ``name`` in ``venv``: ``Scripts\\name.exe`` on Windows."""
    if (os_name or OS_NAME) == "nt":
        return venv / "Scripts" / (name + ".exe")
    return venv / "bin" / name


def venv_python_version(venv):
    """``"3.11"``: the Python that made ``venv`` (its ``pyvenv.cfg``), or ``None``."""
    try:
        config = (venv / "pyvenv.cfg").read_text()
    except OSError:
        return None
    found = re.search(r"^version(?:_info)?\s*=\s*(\d+\.\d+)", config, re.M)
    return found and found.group(1)


def runtime_minimums(pyproject_text):
    """``["numpy==1.24", ...]``: each runtime dependency pinned to its declared minimum.

    Reads ``[project] dependencies`` with a regex (no tomllib on Python 3.10).
    """
    block = re.search(r"^dependencies = \[(.*?)^\]", pyproject_text, re.M | re.S)
    requirements = re.findall(r'^\s*"([^"]+)"', block.group(1), re.M)
    pins = []
    for requirement in requirements:
        match = re.fullmatch(r"([A-Za-z0-9._-]+)\s*>=\s*([0-9][0-9.]*)", requirement)
        if match is None:
            raise SystemExit(
                f"{requirement!r}: write runtime dependencies as NAME>=X.Y"
            )
        pins.append(f"{match[1]}=={match[2]}")
    return pins


def environment_yml(exported, python):
    """environment.yml's text: ``python`` and pip, then the pins of ``exported``
    (uv export's requirements) and the two packages, for pip."""
    pins = [line for line in exported.splitlines() if line and line[0] not in " #"]
    pins += ["-e .", "-e ./tools"]
    items = "".join(f"      - {pin}\n" for pin in pins)
    return ENVIRONMENT_HEADER.format(python=python) + items


def run(*command, env=None):
    sys.stdout.flush()  # our notices before the command's own output
    subprocess.run(command, cwd=ROOT, check=True, env=env)


def ensure_venv(venv):
    """Create ``venv`` with the Python running this script, unless it has one.

    A folder that another Python made (another version, or an old Python before
    the check) is removed and made again: reusing it would install for, or
    fail on, the wrong interpreter.
    """
    python = program(venv, "python")
    wanted = "{}.{}".format(*sys.version_info[:2])
    found = venv_python_version(venv)
    if python.exists() and found == wanted:
        return python
    if (venv / "pyvenv.cfg").exists():
        print(f"{venv} was made by Python {found}, not {wanted}: making it again.")
        shutil.rmtree(venv)
    elif venv.exists():
        raise SystemExit(f"{venv} exists and is not a virtual environment: remove it.")
    run(sys.executable, "-m", "venv", str(venv))
    return python


def find_uv(venv, python):
    """Path of uv inside ``venv`` (installing it with pip first), or ``None``."""
    if os.environ.get("POSENC_NO_UV") == "1":
        print("POSENC_NO_UV=1: installing with pip (slower than uv).")
        return None
    uv = program(venv, "uv")
    install = [python, "-m", "pip", "install", "--quiet", UV]
    if uv.exists() or subprocess.run(install, capture_output=True).returncode == 0:
        return uv
    print(f"Could not install {UV} from PyPI: installing with pip (slower).")
    return None


def install_commands(venv, python, mode):
    """The commands that install ``mode`` into ``venv``, with uv or with its pip."""
    uv = find_uv(venv, python)
    if uv is None:
        install = [str(python), "-m", "pip", "install", "--quiet"]
    else:
        # --compile-bytecode: write .pyc files now, as pip does; otherwise, with
        # PYTHONDONTWRITEBYTECODE set, every start of Jupyter compiles it all again
        install = [str(uv), "pip", "install", "--quiet", "--compile-bytecode"]
        install += ["--python", str(python)]
    projects = ["-e", ".", "-e", "tools"]  # posenc-lib and the course's tools
    if mode == "latest":
        return [install + ["--upgrade", "-e", ".[dev]", "-e", "tools"]]
    if mode == "locked" and uv is not None:
        sync = [str(uv), "sync", "--locked", "--all-packages", "--extra", "dev"]
        # this venv's Python, not .python-version's (CI's): a learner's 3.12 stays
        sync += ["--quiet", "--python", str(python)]
        return [sync + ["--compile-bytecode", "--no-python-downloads"]]
    requirements = {"locked": LOCK, "oldest": OLDEST}[mode]
    return [install + ["-r", requirements], install + ["--no-deps", *projects]]


def setup(venv, mode):
    python = ensure_venv(venv)
    # uv sync installs into the project's environment: this one
    env = dict(os.environ, UV_PROJECT_ENVIRONMENT=str(venv.resolve()))
    for command in install_commands(venv, python, mode):
        run(*command, env=env)
    # JupyterLab without the news/update pop-up that would cover the notebook
    settings = venv / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    shutil.copy(
        ROOT / "scripts" / "jupyterlab-overrides.json", settings / "overrides.json"
    )
    (venv / ".posenc-env").write_text(mode + "\n")


def lock(upgrade=False):
    """Regenerate the locks with the uv of ``.venv`` (installed if need be).

    ``uv lock`` writes ``uv.lock``, exported as ``requirements/lock.txt`` and
    ``environment.yml``;
    ``uv pip compile`` writes ``requirements/oldest.txt``. Without ``upgrade``,
    uv keeps each locked version that still fits ``pyproject.toml`` (add or drop
    a package mid-semester); with it, every package moves to its newest release.
    """
    venv = ROOT / ".venv"
    uv = find_uv(venv, ensure_venv(venv))
    if uv is None:
        raise SystemExit("make lock needs uv: unset POSENC_NO_UV, check PyPI access.")
    upgrade_ = ["--upgrade"] if upgrade else []
    run(str(uv), "lock", "--quiet", *upgrade_)
    exported = subprocess.run(
        [str(uv), *EXPORT, "--quiet"], cwd=ROOT, check=True, capture_output=True
    )
    (ROOT / LOCK).write_text(LOCK_HEADER + exported.stdout.decode())
    for_environment = subprocess.run(
        [str(uv), *ENVIRONMENT_EXPORT, "--quiet"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    python = (ROOT / PYTHON_VERSION).read_text().strip()
    environment = environment_yml(for_environment.stdout.decode(), python)
    (ROOT / ENVIRONMENT).write_text(environment)
    minimums = runtime_minimums((ROOT / "pyproject.toml").read_text())
    (ROOT / MINIMUMS).write_text(MINIMUMS_HEADER + "\n".join(minimums) + "\n")
    compile_ = [str(uv), "pip", "compile", "--quiet", "--universal"]
    compile_ += ["--python-version", OLDEST_PYTHON, "--custom-compile-command"]
    compile_ += ["make lock", "pyproject.toml", "tools/pyproject.toml"]
    compile_ += ["--extra", "dev", *upgrade_]
    run(*compile_, "--constraint", MINIMUMS, "-o", OLDEST)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("venv", nargs="?", type=Path, help="environment folder")
    parser.add_argument("mode", nargs="?", choices=["locked", "oldest", "latest"])
    parser.add_argument("--lock", action="store_true", help="regenerate the locks")
    parser.add_argument(
        "--upgrade", action="store_true", help="with --lock: newest releases of all"
    )
    args = parser.parse_args(argv)
    check_python()
    if args.lock:
        lock(upgrade=args.upgrade)
    elif args.venv and args.mode:
        setup(args.venv, args.mode)
    else:
        parser.error("give VENV and MODE, or --lock")


if __name__ == "__main__":
    main()
