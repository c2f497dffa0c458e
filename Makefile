# Set-up and entry points. `make demo` and `make test` work on a fresh machine:
# they create .venv if missing and install what they need.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# The CPU build of PyTorch; override for another platform, e.g. TORCH_SPEC="torch".
TORCH_SPEC ?= torch==2.13.0
# Fuzzing size: random games per game with every invariant checked at every step.
# The test run (and CI) plays FUZZ_GAMES; `make fuzz` plays the full size, FULL_FUZZ_GAMES.
FUZZ_GAMES ?= 3000
FULL_FUZZ_GAMES ?= 20000
export CARDGYM_FUZZ_GAMES ?= $(FUZZ_GAMES)

.PHONY: help venv install install-train browser serve demo test fuzz lint typecheck bench tables images baselines clean

help:
	@echo "make demo    - set up .venv, train a small MaskablePPO model and evaluate it"
	@echo "make test    - set up .venv and Chromium, run lint, type checks and the test suite"
	@echo "make fuzz    - the conformance fuzz at full size ($(FULL_FUZZ_GAMES) random games per game)"
	@echo "make serve   - the browser table on http://127.0.0.1:8000/ (cardgym serve)"
	@echo "make bench   - throughput benchmark beside PettingZoo's leduc_holdem_v4"
	@echo "make tables  - throughput and arena tables, model cards and README tables, then images"
	@echo "make images  - pictures of a table of each game, the charts and the browser pages, into docs/images"
	@echo "make baselines - train the shipped baseline models (models/), then make tables"

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# PyTorch goes in first from TORCH_SPEC, so that the train extra finds it satisfied
# and does not pull another build.
# Games in examples/ (each its own distribution, registered through the
# cardgym.games entry point) go in beside it, so that the tests cover them too.
EXAMPLES := $(dir $(wildcard examples/*/pyproject.toml))

$(VENV)/.installed: $(VENV)/bin/python pyproject.toml $(addsuffix pyproject.toml,$(EXAMPLES))
	$(PIP) install --quiet "$(TORCH_SPEC)"
	$(PIP) install --quiet -e ".[dev,bench,train,notebooks,rllib,vector,web]"
	$(if $(EXAMPLES),$(PIP) install --quiet --no-deps $(addprefix -e ,$(EXAMPLES)))
	touch $@

venv install install-train: $(VENV)/.installed

# Debian's Chromium, which the browser tests drive with Playwright (no browser is
# downloaded at run time). Elsewhere, point CHROMIUM at a Chromium or Chrome binary.
CHROMIUM ?= /usr/bin/chromium
export CARDGYM_CHROMIUM := $(CHROMIUM)

$(CHROMIUM):
	$(if $(shell command -v apt-get),,$(error $(CHROMIUM) is missing: install Chromium, or set CHROMIUM to its path))
	$(SUDO) apt-get install -y --no-install-recommends chromium \
		|| ($(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends chromium)

browser: $(CHROMIUM)

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

demo: $(VENV)/.installed
	$(PY) -m cardgym_cli demo --overwrite

# The browser table on http://127.0.0.1:8000/ (cardgym serve --help for more).
serve: $(VENV)/.installed
	$(PY) -m cardgym_cli serve

lint: $(VENV)/.installed
	$(PY) -m ruff check .

typecheck: $(VENV)/.installed
	$(PY) -m mypy

test: $(VENV)/.installed $(CHROMIUM) lint typecheck
	$(PY) -m pytest -n 2 --dist worksteal -q --durations=25

# The random-play fuzz of every game at full size (the test run plays FUZZ_GAMES).
fuzz: $(VENV)/.installed
	CARDGYM_FUZZ_GAMES=$(FULL_FUZZ_GAMES) $(PY) -m pytest -n 2 --dist worksteal -q \
		tests/cardgym/test_conformance.py -k "fuzz" --durations=10

bench: $(VENV)/.installed
	$(PY) -m cardgym_cli bench

# The tables under benchmarks/results/, the arena results in the model cards, and
# the README's tables between their markers: the library's own games (games of other
# distributions, such as the example, are measured on request: --env NAME).
tables: $(VENV)/.installed
	$(PY) -m cardgym_cli bench --env power_hungry_pets exploding_kittens karel_kakelaar \
		--seconds 1 --rounds 3 --split --output benchmarks/results
	$(PY) -m cardgym_cli bench --vector --env power_hungry_pets karel_kakelaar --seconds 1 \
		--rounds 3 --memory 10000000 --train 40000 --output benchmarks/results
	$(PY) -m cardgym_cli arena --games 400 --output benchmarks/results --update-cards --write-readme
	$(PY) -m benchmarks.mixed_tables --games 1000 --output benchmarks/results
	$(PY) -m benchmarks.ladder --games 200 --output benchmarks/results --write-readme
	$(MAKE) images

# A picture of a table of each game, the arena and the throughput charts (from the
# tables above), into docs/images/; the README shows them.
images: $(VENV)/.installed $(CHROMIUM)
	$(PY) -m benchmarks.images --output docs/images
	$(PY) -m benchmarks.serve_pictures --output docs/images

baselines: $(VENV)/.installed
	$(PY) benchmarks/train_baselines.py
	$(MAKE) tables

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
