"""``scripts/setup_env.py`` (the environments, ``make lock``) imported as a module.

Imported as ``setup_env_script`` (pytest puts ``tests/`` on ``sys.path``): a
script, not part of the package, so it is loaded from its path.
"""

import importlib.util
from pathlib import Path

__all__ = ["ROOT", "SCRIPT", "setup_env"]

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "setup_env.py"
_spec = importlib.util.spec_from_file_location("setup_env", SCRIPT)
setup_env = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(setup_env)
