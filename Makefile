# Everything installs into .venv; a fresh machine needs only python3 (3.11+), pip and make.
# Dependencies come from the lock files in requirements/ (exact versions and hashes, made by
# `make lock` with pip-tools), so a new release of a dependency cannot break a fresh machine:
# requirements/all.txt is everything (the lab, RL, Ray and the test tools), play.txt a player's.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PLAY_STAMP := $(VENV)/.play-stamp
LOCK := $(PY) -m piptools compile --quiet --strip-extras --generate-hashes --allow-unsafe \
	--no-emit-index-url --no-emit-find-links

.PHONY: setup setup-play play test lint typecheck unit bench clean lock browser fast slow test-compiled

setup: $(STAMP)

$(STAMP): pyproject.toml requirements/all.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/all.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP) $(PLAY_STAMP)

# A player's install: the games and the terminal apps only (no lab, no RL).
setup-play: $(PLAY_STAMP)

$(PLAY_STAMP): pyproject.toml requirements/play.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes -r requirements/play.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(PLAY_STAMP)

# Re-pin every dependency after pyproject.toml's dependencies change (needs `make setup` first).
lock:
	$(LOCK) --output-file requirements/play.txt pyproject.toml
	$(LOCK) --extra dev --extra lab --extra rl --extra ray --output-file requirements/all.txt pyproject.toml

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

# The browser tests (tests/web/test_browser_*.py) drive Debian's chromium through Playwright, and
# tests/web/test_nginx.py puts Debian's nginx in front of the server; install them when missing
# (apt needs root, as CI runs; elsewhere those tests skip).
browser:
	@{ command -v chromium >/dev/null && [ -x /usr/sbin/nginx ]; } \
		|| { [ "$$(id -u)" = 0 ] && apt-get update && apt-get install -y chromium nginx; } \
		|| echo "chromium or nginx is missing and this is not root: the browser or nginx tests will be skipped"

test: lint typecheck browser unit

bench: setup
	$(PY) benchmarks/run_all.py

# Optional (issue 13): compile the troll engine's loops and the SplitMix shuffle with mypyc (a dev
# tool of `make setup`; needs a C compiler) into extension modules beside their sources, which
# Python then imports instead: the same games, faster (troll RULES.md, "The engine"). Nothing
# needs it; after editing those sources run it again (a test finds a stale build), or `make slow`
# to remove it.
FAST_MODULES := playtable/core/splitmix.py playtable/games/troll/kernel.py
fast: setup slow
	cd src && $(abspath $(VENV))/bin/mypyc $(FAST_MODULES) && rm -rf build

# The compiled build checked as CI does where a C compiler is: the troll and core tests (the
# differential test among them) against the mypyc modules, which are removed again afterwards.
test-compiled: fast
	$(VENV)/bin/pytest -n 2 -p no:cacheprovider -rs tests/games/troll tests/core; rc=$$?; $(MAKE) slow; exit $$rc

slow:
	rm -f src/*__mypyc.*.so $(patsubst %.py,src/%.*.so,$(FAST_MODULES))

clean: slow
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
