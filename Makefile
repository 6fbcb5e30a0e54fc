# Sift — the two commands: `make demo` and `make test`. Both install what is missing first.
SWIFT ?= swift
.PHONY: deps build demo test model bench quality clean

deps:
	@scripts/ensure-deps.sh

build: deps
	$(SWIFT) build -c release

demo: build
	@scripts/demo.sh

test: deps
	$(SWIFT) test

# Rebuilds the shipped embedding model from scratch (teacher venv, corpus, teacher vectors,
# fitting); see Models/MODEL.md.
model: deps
	@Models/pipeline/make_model.sh

bench: deps
	$(SWIFT) build -c release --product sift-bench
	.build/release/sift-bench --json Benchmarks/results.json --svg Benchmarks/results.svg

# The ranking-quality gate CI runs when ../shared/datasets is present.
quality: build
	@scripts/quality-gate.sh

clean:
	rm -rf .build
