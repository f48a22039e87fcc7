# The README's commands. Each one sets up .venv first, so a fresh clone needs
# nothing but Python 3 (>= 3.10) and make. scripts/setup_env.py installs uv from
# PyPI into the environment and runs `uv sync --locked --all-packages --extra dev`
# (the exact versions of uv.lock); if uv cannot be installed, or POSENC_NO_UV=1, pip installs
# requirements/lock.txt, the same versions exported from uv.lock.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SETUP  := scripts/setup_env.py
# what every environment's stamp depends on
SETUP_INPUTS := pyproject.toml tools/pyproject.toml $(SETUP) scripts/jupyterlab-overrides.json
HOST   := 127.0.0.1
PORT   ?= 8888
VOILA_PORT ?= 8866

# pytest with nbval (every notebook re-run, its outputs compared) on every core:
# pytest-xdist starts WORKERS processes (WORKERS=0: one, in-process); conftest.py
# keeps each file in one worker (a notebook's cells share one kernel) and hands
# out the longest first. A hung test fails after pyproject.toml's timeout.
WORKERS ?= auto
PYTEST := -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/sanitize.cfg \
	-p no:cacheprovider -n $(WORKERS) --dist loadfile --no-loadscope-reorder
# The whole suite: the library's and the tools' tests and doctests, every notebook.
SUITE := posenc_lib tools tests notebooks

.PHONY: lab test check notebook test-oldest test-baseline-simd test-latest lock notebooks explorer site slides bench \
	bench-grading lint format solutions browser-deps clean pdf

# Open the course in JupyterLab: loopback only, with the random token Jupyter
# generates and prints (open the printed URL if no browser window appears).
# It serves the repository, not only notebooks/, so that a chapter's link to the
# library's source (../posenc_lib/properties.py) opens it in the editor.
lab: $(STAMP)
	$(BIN)/jupyter lab --ip=$(HOST) --port=$(PORT) --ServerApp.root_dir=. \
		$(if $(filter 0,$(shell id -u)),--allow-root,) notebooks/00_index.ipynb

# Run every test: ruff, the library's tests and doctests, every notebook under
# nbval, and the browser tests.
test: $(STAMP) browser-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python $(PYTEST) $(SUITE) $(PYTEST_ARGS)

# The library's API with the lowest versions pyproject.toml declares for numpy,
# matplotlib and ipywidgets (requirements/oldest.txt), in .venv-oldest: the suite
# but the browser tests and the slow ones (the grader's boxes, the wheel, the
# environments: the course's own tools and environment, which make test runs).
# Needs Python 3.10 or 3.11 (numpy 1.24 has no wheels for later ones):
# make test-oldest OLDEST_PYTHON=python3.10
OLDEST_PYTHON ?= $(PYTHON)
test-oldest: .venv-oldest/.installed
	.venv-oldest/bin/python $(PYTEST) $(SUITE) -m "not browser and not slow" \
		$(PYTEST_ARGS)

.venv-oldest/.installed: requirements/oldest.txt $(SETUP_INPUTS)
	$(OLDEST_PYTHON) $(SETUP) .venv-oldest oldest
	touch $@

# The numbers again, with numpy's SIMD dispatch lowered to the baseline of its
# build: every feature numpy.show_runtime() finds above it is disabled, so sin,
# cos, exp, ... take the code paths of a CPU without them (their last bits
# differ). Runs what those last bits can change: the doctests, every notebook
# under nbval (text and PNGs), and the tests of numbers (the encoding, its exact
# path, the properties, attention, the conventions, the mistakes, the trainings,
# and the checkers, which judge a learner's numbers).
# Not the rest: files, messages, figures' geometry, processes, browsers.
BASELINE_TESTS := posenc_lib notebooks $(addprefix tests/test_,$(addsuffix .py, \
	positional exact properties embedding attention conventions \
	mistakes lookback word_vectors simd_features adversarial_exactness \
	adversarial_library exercise_checkers exercise_commands \
	exercise_diff))
test-baseline-simd: $(STAMP)
	@features="$$(env -u NPY_DISABLE_CPU_FEATURES $(BIN)/python scripts/simd_features.py)"; \
	echo "NPY_DISABLE_CPU_FEATURES=\"$$features\""; \
	POSENC_BASELINE_SIMD=1 NPY_DISABLE_CPU_FEATURES="$$features" \
		$(BIN)/python $(PYTEST) $(BASELINE_TESTS) -m "not browser and not slow" \
		$(PYTEST_ARGS)

# The suite (browser tests aside) with the newest release of everything, no lock,
# in .venv-latest (upgraded on every run): what `make lock UPGRADE=1` would bring.
test-latest:
	$(PYTHON) $(SETUP) .venv-latest latest
	.venv-latest/bin/python $(PYTEST) $(SUITE) -m "not browser" $(PYTEST_ARGS)

# Regenerate uv.lock (uv lock), requirements/lock.txt (uv export of it, for pip),
# environment.yml (the same for conda and a hub's image, with .python-version's
# Python), oldest.txt and minimums.txt after a change of pyproject.toml (keeps
# every locked version that still fits); UPGRADE=1 moves everything to its newest
# release (between semesters, then run make test).
lock:
	$(PYTHON) $(SETUP) --lock $(if $(filter 1,$(UPGRADE)),--upgrade,)

# Re-execute every notebook in a fresh kernel and store normalised outputs; then
# write the chapters' times where the course quotes them (posenc_tools.chapter_times).
notebooks: $(STAMP)
	$(BIN)/python -m posenc_tools.run_notebooks
	$(BIN)/python -m posenc_tools.chapter_times --write

# One notebook: re-run it, store its outputs, write the chapters' times, and check
# it: nbval, and its stored outputs and prose numbers (tests/test_notebooks_stored.py)
# (make notebook NB=notebooks/02_sinusoidal_encoding.ipynb).
notebook: $(STAMP)
	@test -n "$(NB)" || { echo "make notebook NB=notebooks/NAME.ipynb"; exit 2; }
	$(BIN)/python -m posenc_tools.run_notebooks $(NB)
	$(BIN)/python -m posenc_tools.chapter_times --write > /dev/null
	$(BIN)/python -m pytest $(NB) tests/test_notebooks_stored.py --nbval --nbval-current-env \
		--nbval-sanitize-with tests/sanitize.cfg -p no:cacheprovider -q \
		-k "$(basename $(notdir $(NB))) or not test_notebooks_stored"

# The maintainer's fast loop: lint, the library's and tools' tests and doctests,
# every notebook under nbval; no browser, nothing marked slow (the grader's boxes,
# the wheel, the environments: make test runs them).
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python $(PYTEST) $(SUITE) -m "not browser and not slow" $(PYTEST_ARGS)

# Serve the lecture explorer as a standalone app (code hidden) with Voila; the
# template in share/jupyter/voila/templates/posenc fetches nothing from the internet.
# Only with the random token Voila generates and prints in the URL (--token); each
# page load starts a kernel, so kernels idle for EXPLORER_CULL seconds are shut down
# (checked every minute), also when a forgotten tab is still connected.
EXPLORER_CULL ?= 1200
explorer: $(STAMP)
	JUPYTER_PATH=$(CURDIR)/share/jupyter $(BIN)/voila --no-browser --Voila.ip=$(HOST) \
		--port=$(VOILA_PORT) --ServerApp.port_retries=0 --template=posenc --token \
		--MappingKernelManager.cull_idle_timeout=$(EXPLORER_CULL) \
		--MappingKernelManager.cull_interval=60 \
		--MappingKernelManager.cull_connected=True \
		notebooks/explorer.ipynb

# The course as static web pages in site/, from the stored outputs (nothing is
# executed): open site/index.html, no server needed. Sliders work without a kernel;
# MathJax comes from the npm registry (fetched once into .site-cache/ with npm).
site: $(STAMP)
	$(BIN)/python -m posenc_tools.build_site

# The lecture as reveal.js slides, offline: slides/lecture.slides.html (npm fetches
# reveal.js, MathJax, require.js and jQuery once into build/slides-cache).
slides: $(STAMP)
	$(BIN)/python -m posenc_tools.build_slides

# The two handouts, offline: pdf/posenc-learner.pdf and pdf/posenc-lecturer.pdf, the
# site's pages printed by headless Chromium; needs npm once, as make site.
pdf: $(STAMP) browser-deps
	$(BIN)/python -m posenc_tools.build_pdf

# Time sinusoidal_positions against the usual recipes; writes benchmarks/results.*
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# Time `posenc grade` on 100 generated submissions; writes benchmarks/grading.md
bench-grading: $(STAMP)
	$(BIN)/python benchmarks/grading.py

# Regenerate notebooks/03_exercise.ipynb and lecture_live.ipynb from their sources
# (notebooks/solutions/03_exercise.ipynb, notebooks/lecture.ipynb).
solutions: $(STAMP)
	$(BIN)/python -m posenc_tools.make_exercise

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

browser-deps: $(STAMP)
	@bash scripts/install_browser.sh $(BIN)/python

# .venv with exactly the versions of uv.lock and this project, editable
$(STAMP): uv.lock requirements/lock.txt $(SETUP_INPUTS)
	$(PYTHON) $(SETUP) $(VENV) locked
	touch $(STAMP)

clean:
	rm -rf $(VENV) .venv-oldest .venv-latest .pytest_cache .ruff_cache site
