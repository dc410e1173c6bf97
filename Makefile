# Everything installs into .venv; a fresh machine needs only python3 (3.11+), pip and make.
# Dependencies come from the lock files in requirements/ (exact versions and hashes, made by
# `make lock` with pip-tools), so a new release of a dependency cannot break a fresh machine:
# requirements/all.txt is everything but the training test's torch (the lab, RL, Ray, the
# PostgreSQL store and the test tools), play.txt a player's, train.txt the training test's
# (`make setup-train`).
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PLAY_STAMP := $(VENV)/.play-stamp
TRAIN_STAMP := $(VENV)/.train-stamp
BUILT := $(VENV)/.built-stamp
# Every install and lock comes from PyPI alone: pip's configuration files and PIP_* variables
# (a machine's own folder of wheels or index, find-links, constraints) are set aside, so that
# what installs here is what installs on a fresh machine and in CI (as `pip --isolated` does;
# `make PYPI_ONLY= ...` keeps your own pip configuration, a proxy's certificate, say).
PYPI_ONLY ?= env $(addprefix -u ,$(filter PIP_%,$(.VARIABLES))) PIP_CONFIG_FILE=/dev/null
PIP := $(PYPI_ONLY) $(PY) -m pip
LOCK := $(PYPI_ONLY) $(PY) -m piptools compile --quiet --strip-extras --generate-hashes --allow-unsafe \
	--no-emit-index-url --no-emit-find-links

.PHONY: setup setup-play setup-train play test lint typecheck unit bench clean lock browser fast slow test-python \
	check-compiled

setup: $(STAMP) $(BUILT)

# The editable install compiles the troll engine's kernel, the SplitMix shuffle and the troll bots'
# static scores (evaluation.py, learned.py, and cards.py, which they ask each card's colour) with
# mypyc where a C compiler and Python's headers are (setup.py), and installs them as Python
# source where not; it prints which. It is redone when these sources change, so that the compiled
# modules never run older code than their sources (a test checks that too).
ENGINE := src/playtable/core/splitmix.py src/playtable/games/troll/kernel.py \
	src/playtable/games/troll/evaluation.py src/playtable/games/troll/learned.py \
	src/playtable/games/troll/cards.py
INSTALL := $(PIP) install --quiet --no-build-isolation --no-deps -e .
ENGINE_SAYS := $(PY) -c 'from playtable.games.troll import kernel; print("troll engine:", \
	"compiled by mypyc" if kernel.compiled() else "Python source (no C compiler, Python headers or mypyc)")'

$(STAMP): pyproject.toml requirements/all.txt
	python3 -m venv $(VENV)
	$(PIP) install --quiet --require-hashes -r requirements/all.txt
	touch $(STAMP) $(PLAY_STAMP)

# A player's install: the games and the terminal apps only (no lab, no RL), and the build tools
# (requirements/build.txt: setuptools, and mypy for mypyc) that compile the engine.
setup-play: $(PLAY_STAMP) $(BUILT)

$(PLAY_STAMP): pyproject.toml requirements/play.txt requirements/build.txt
	python3 -m venv $(VENV)
	$(PIP) install --quiet --require-hashes -r requirements/play.txt -r requirements/build.txt
	touch $(PLAY_STAMP)

# The MaskablePPO training test's torch and sb3-contrib, on top of `make setup` (the test skips,
# saying so, without them). PyPI's torch for Linux x86_64 is the CUDA build: 4.6 GB more.
setup-train: $(TRAIN_STAMP)

$(TRAIN_STAMP): $(STAMP) $(BUILT) requirements/train.txt
	$(PIP) install --quiet --require-hashes -r requirements/train.txt
	touch $(TRAIN_STAMP)

# playtable itself, after its dependencies (setup and setup-play list it second).
$(BUILT): pyproject.toml setup.py $(ENGINE)
	$(INSTALL)
	@$(ENGINE_SAYS)
	touch $(BUILT)

# Re-pin every dependency after pyproject.toml's dependencies change (needs `make setup` first).
# pip-tools reads no dependency groups (PEP 735): each group's list is written out for it first.
GROUPS := build/locks
lock:
	mkdir -p $(GROUPS)
	for group in test train; do $(PY) -c 'import sys, tomllib; \
		print(*tomllib.load(open("pyproject.toml", "rb"))["dependency-groups"][sys.argv[1]], sep="\n")' \
		$$group > $(GROUPS)/$$group.in || exit 1; done
	$(LOCK) --output-file requirements/play.txt pyproject.toml
	$(LOCK) --extra lab --extra rl --extra ray --extra server --output-file requirements/all.txt pyproject.toml \
		$(GROUPS)/test.in
	$(LOCK) -c requirements/all.txt --output-file requirements/train.txt $(GROUPS)/train.in
	$(LOCK) --only-build-deps --all-build-deps -c requirements/all.txt -c requirements/play.txt \
		--output-file requirements/build.txt pyproject.toml

# The web app: prints the address to open; tables live in the per-user data directory.
play: setup-play
	$(VENV)/bin/playtable serve

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: setup
	$(VENV)/bin/mypy

# pytest exits 5 when it collects no test: that is not a failure of the suite.
unit: setup
	$(VENV)/bin/pytest -n 2 -p no:cacheprovider; rc=$$?; if [ $$rc -eq 5 ]; then rc=0; fi; exit $$rc

# The browser tests (tests/web/test_browser_*.py) drive Debian's chromium through Playwright,
# tests/web/test_nginx.py puts Debian's nginx in front of the server, and the store's tests run
# on Debian's PostgreSQL as well as SQLite (tests/pg_server.py); install them when missing (apt
# needs root, as CI runs; elsewhere those tests skip).
browser:
	@{ command -v chromium >/dev/null && [ -x /usr/sbin/nginx ] && ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; } \
		|| { [ "$$(id -u)" = 0 ] && apt-get update && apt-get install -y chromium nginx postgresql; } \
		|| echo "chromium, nginx or postgresql is missing and this is not root: the browser, nginx or PostgreSQL tests will be skipped"

test: lint typecheck browser unit

bench: setup
	$(PY) benchmarks/run_all.py

# The compiled engine is built by `make setup` (above). `make fast` builds it again now (after
# `make slow`, say); `make slow` removes it, so that this tree runs the engine as Python source
# until the next `make fast` or change of its sources (the compiled modules lie beside their
# sources, where Python prefers them, and the shared library of the two in src/).
fast: setup
	$(INSTALL)
	@$(ENGINE_SAYS)

slow:
	rm -f src/*__mypyc.*.so $(ENGINE:.py=.*.so)
	@echo "troll engine: Python source in this tree until make fast or a change of its sources"

# The Python-source fallback, tested as CI does where the suite ran the compiled engine: the troll
# and core tests (the differential test among them) against a copy of the package without the
# compiled modules, put first on the import path; the tree itself is left as it is.
PURE := build/python-source
test-python: setup
	rm -rf $(PURE) && mkdir -p $(PURE) && cp -r src/playtable $(PURE)/ && find $(PURE) -name '*.so' -delete
	PYTHONPATH=$(abspath $(PURE)) $(PY) -c 'from playtable.games.troll import kernel, learned, evaluation, cards; \
		from playtable.core import splitmix; assert not kernel.compiled() and not splitmix.compiled(); \
		assert all(m.__file__.endswith(".py") for m in (learned, evaluation, cards))'
	PYTHONPATH=$(abspath $(PURE)) $(VENV)/bin/pytest -n 2 -p no:cacheprovider -rs tests/games/troll tests/core

# The suite ran the compiled engine: a check that it did, for CI where a C compiler is.
check-compiled: setup
	$(PY) -c 'from playtable.games.troll import kernel, learned, evaluation, cards; from playtable.core import splitmix; \
		assert kernel.compiled() and splitmix.compiled(), "the engine was not compiled"; \
		assert not any(m.__file__.endswith(".py") for m in (learned, evaluation, cards)), \
		"the leaf scores were not compiled"'

clean: slow
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
