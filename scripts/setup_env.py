"""Create a course environment, or regenerate the locks; the Makefile calls this.

    python3 scripts/setup_env.py .venv locked          # make lab, make test
    python3 scripts/setup_env.py .venv-oldest oldest   # make test-oldest
    python3 scripts/setup_env.py .venv-latest latest   # make test-latest
    python3 scripts/setup_env.py --lock                # make lock
    python3 scripts/setup_env.py --lock --upgrade      # make lock UPGRADE=1

Each environment is a ``python -m venv`` folder. uv (a pinned release from PyPI,
installed into the environment by its own pip) does the installing; if uv cannot
be installed, or ``POSENC_NO_UV=1``, pip does it instead, after a one-line notice.

- ``locked``: exactly the versions in ``requirements/lock.txt`` (runtime and dev,
  one universal lock for every Python the project supports), then the project
  itself with ``--no-deps -e .``.
- ``oldest``: exactly ``requirements/oldest.txt``: the lowest versions
  ``pyproject.toml`` declares for the runtime dependencies
  (``requirements/minimums.txt``), everything else at the newest release
  compatible with them. For Python 3.10 and 3.11: numpy 1.24 has no wheels for
  later Pythons.
- ``latest``: the newest releases of everything, no lock (what an update would
  bring).

The mode is written to ``VENV/.posenc-env`` so the tests know which versions to
expect. Runs on the Python that creates the environments (>= 3.10), standard
library only.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = "requirements/lock.txt"
OLDEST = "requirements/oldest.txt"
UV = "uv==0.13.9"  # the installer's own version: raise it when regenerating the locks
OLDEST_PYTHON = "3.10"  # the lowest Python in requires-python
MINIMUMS = "requirements/minimums.txt"
MINIMUMS_HEADER = """\
# The lowest versions pyproject.toml declares for the runtime dependencies:
# constraints of requirements/oldest.txt. Written by `make lock`; do not edit.
"""
MODES = {"locked": ["-r", LOCK], "oldest": ["-r", OLDEST]}


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


def run(*command):
    sys.stdout.flush()  # our notices before the command's own output
    subprocess.run(command, cwd=ROOT, check=True)


def ensure_venv(venv):
    """Create ``venv`` with the Python running this script, unless it exists."""
    if not (venv / "bin" / "python").exists():
        run(sys.executable, "-m", "venv", str(venv))
    return venv / "bin" / "python"


def find_uv(venv, python):
    """Path of uv inside ``venv`` (installing it with pip first), or ``None``."""
    if os.environ.get("POSENC_NO_UV") == "1":
        print("POSENC_NO_UV=1: installing with pip (slower than uv).")
        return None
    uv = venv / "bin" / "uv"
    install = [python, "-m", "pip", "install", "--quiet", UV]
    if uv.exists() or subprocess.run(install, capture_output=True).returncode == 0:
        return uv
    print(f"Could not install {UV} from PyPI: installing with pip (slower).")
    return None


def installer(venv, python):
    """The install command: ``uv pip install`` into ``venv``, or its pip."""
    uv = find_uv(venv, python)
    if uv is None:
        return [str(python), "-m", "pip", "install", "--quiet"]
    # --compile-bytecode: write .pyc files now, as pip does; otherwise, with
    # PYTHONDONTWRITEBYTECODE set, every start of Jupyter compiles it all again
    install = [str(uv), "pip", "install", "--quiet", "--compile-bytecode"]
    return install + ["--python", str(python)]


def setup(venv, mode):
    python = ensure_venv(venv)
    install = installer(venv, python)
    if mode == "latest":
        run(*install, "--upgrade", "-e", ".[dev]")
    else:
        run(*install, *MODES[mode])
        run(*install, "--no-deps", "-e", ".")
    # JupyterLab without the news/update pop-up that would cover the notebook
    settings = venv / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    shutil.copy(
        ROOT / "scripts" / "jupyterlab-overrides.json", settings / "overrides.json"
    )
    (venv / ".posenc-env").write_text(mode + "\n")


def lock(upgrade=False):
    """Regenerate both locks with the uv of ``.venv`` (installed if need be).

    Without ``upgrade``, uv keeps each locked version that still fits
    ``pyproject.toml`` (add or drop a package mid-semester); with it, every
    package moves to its newest release.
    """
    venv = ROOT / ".venv"
    uv = find_uv(venv, ensure_venv(venv))
    if uv is None:
        raise SystemExit("make lock needs uv: unset POSENC_NO_UV, check PyPI access.")
    minimums = runtime_minimums((ROOT / "pyproject.toml").read_text())
    (ROOT / MINIMUMS).write_text(MINIMUMS_HEADER + "\n".join(minimums) + "\n")
    compile_ = [str(uv), "pip", "compile", "--quiet", "--universal"]
    compile_ += ["--python-version", OLDEST_PYTHON, "--custom-compile-command"]
    compile_ += ["make lock", "pyproject.toml", "--extra", "dev"]
    compile_ += ["--upgrade"] if upgrade else []
    run(*compile_, "-o", LOCK)
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
    if args.lock:
        lock(upgrade=args.upgrade)
    elif args.venv and args.mode:
        setup(args.venv, args.mode)
    else:
        parser.error("give VENV and MODE, or --lock")


if __name__ == "__main__":
    main()
