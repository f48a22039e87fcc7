"""``make notebooks``: see :mod:`posenc_tools.run_notebooks` (kept here for habit)."""

from posenc_tools.run_notebooks import main

raise SystemExit(main())
