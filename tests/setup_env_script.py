"""``scripts/setup_env.py``, a script outside the packages, imported by its path."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "setup_env.py"
_spec = importlib.util.spec_from_file_location("setup_env", SCRIPT)
setup_env = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(setup_env)
