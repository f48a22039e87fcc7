# The README's commands. Each one sets up .venv first, so a fresh clone needs
# nothing but Python 3 (>= 3.10) and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   := 127.0.0.1
PORT   ?= 8888
VOILA_PORT ?= 8866

.PHONY: lab test notebooks explorer site bench bench-grading lint format solutions browser-deps clean

# Open the course in JupyterLab: loopback only, with the random token Jupyter
# generates and prints (open the printed URL if no browser window appears).
lab: $(STAMP)
	$(BIN)/jupyter lab --ip=$(HOST) --port=$(PORT) --ServerApp.root_dir=notebooks \
		$(if $(filter 0,$(shell id -u)),--allow-root,) notebooks/00_index.ipynb

# Run every test: ruff, the library's tests and doctests, every notebook under
# nbval, and the browser tests.
test: $(STAMP) browser-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest posenc_lib tests notebooks \
		--nbval --nbval-current-env --nbval-sanitize-with tests/sanitize.cfg \
		-p no:cacheprovider $(PYTEST_ARGS)

# Re-execute every notebook in a fresh kernel and store normalised outputs.
notebooks: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py

# Serve the lecture explorer as a standalone app (code hidden) with Voila; the
# template in share/jupyter/voila/templates/posenc fetches nothing from the internet.
explorer: $(STAMP)
	JUPYTER_PATH=$(CURDIR)/share/jupyter $(BIN)/voila --no-browser --Voila.ip=$(HOST) \
		--port=$(VOILA_PORT) --ServerApp.port_retries=0 --template=posenc \
		notebooks/explorer.ipynb

# The course as static web pages in site/, from the stored outputs (nothing is
# executed): open site/index.html, no server needed. Sliders work without a kernel;
# MathJax comes from the npm registry (fetched once into .site-cache/ with npm).
site: $(STAMP)
	$(BIN)/python scripts/build_site.py

# Time sinusoidal_positions against the usual recipes; writes benchmarks/results.*
bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# Time `posenc grade` on 100 generated submissions; writes benchmarks/grading.md
bench-grading: $(STAMP)
	$(BIN)/python benchmarks/grading.py

# Regenerate notebooks/05_exercise.ipynb from its source, notebooks/solutions/.
solutions: $(STAMP)
	$(BIN)/python scripts/make_exercise.py

lint: $(STAMP)
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

browser-deps: $(STAMP)
	@bash scripts/install_browser.sh $(BIN)/python

$(STAMP): pyproject.toml scripts/jupyterlab-overrides.json
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	# JupyterLab without the news/update pop-up that would cover the notebook
	mkdir -p $(VENV)/share/jupyter/lab/settings
	cp scripts/jupyterlab-overrides.json $(VENV)/share/jupyter/lab/settings/overrides.json
	touch $(STAMP)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache site
