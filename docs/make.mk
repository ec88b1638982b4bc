# docs/: the topic pages, the wire contract, and their checks (plus the CI
# convention: .ci/run and .github/workflows/ci.yml run one command). Included
# by the top-level Makefile, which defines ROOT and STAMPS; .venv-bench (pytest)
# comes from bench/make.mk.

TEST_TARGETS += test-docs
HELP_LINES   += "make test-docs        README.md within 12,000 bytes; every relative link in the Markdown resolves to a file and heading; no file.py:NNN line reference into our Python code; every source file is named in its component README; CI runs .ci/run"

.PHONY: test-docs
test-docs: $(STAMPS)/venv-bench
	cd $(ROOT) && $(ROOT)/.venv-bench/bin/python -m pytest -q docs/linkcheck docs/moduleindex .ci
