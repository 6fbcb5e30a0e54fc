# Sift — the two commands: `make demo` and `make test`. Both install what is missing first.
# The checks CI runs after the tests: `make lint`, `make api-check`, `make metrics`, `make docs`.
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
	python3 -m unittest discover -s scripts/tests

# Rebuilds the shipped embedding model from scratch (teacher venv, corpus, teacher vectors,
# fitting); see Models/MODEL.md.
model: deps
	@Models/pipeline/make_model.sh

bench: deps
	$(SWIFT) build -c release --product sift-bench
	.build/release/sift-bench --int8-components 128 --json Benchmarks/results.json --svg Benchmarks/results.svg

# The ranking-quality gate CI runs when ../shared/datasets is present.
quality: build
	@scripts/quality-gate.sh

clean:
	rm -rf .build

# Reliability (README, Guarantees).
.PHONY: test-crash fuzz test-sanitize test-faults

# 50 trials: sift index over 20,000 items, killed with SIGKILL at random moments (fixed seed).
test-crash: deps
	SIFT_CRASH_TRIALS=50 SIFT_CRASH_ITEMS=20000 SIFT_CRASH_BATCH_SIZE=500 $(SWIFT) test --filter CrashTests

# 100,000 generated and mutated inputs per target (over 300,000 in all), then the libFuzzer targets.
fuzz: deps
	SIFT_FUZZ_ITERATIONS=100000 $(SWIFT) test --filter FuzzTests
	Tests/Fuzz/run.sh

# The whole test suite under ThreadSanitizer, then AddressSanitizer (leaks inside the toolchain's
# own libraries suppressed, see the file), each in its own build.
test-sanitize: deps
	OPENBLAS_NUM_THREADS=1 $(SWIFT) test --sanitize=thread --scratch-path .build/sanitize-thread
	OPENBLAS_NUM_THREADS=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
		$(SWIFT) test --sanitize=address --scratch-path .build/sanitize-address

# A full and a read-only file system on tmpfs (as root), and permissions as an unprivileged user.
test-faults: deps
	SWIFT=$(SWIFT) Tests/Faults/run.sh

# Conventions (README, Development): style, public API, code size, documentation.
.PHONY: lint format api-check api-baseline metrics docs

SWIFT_FORMAT ?= $(SWIFT) format
# Every Swift source of the package; .swift-format holds the rules.
FORMAT_PATHS = Package.swift Sources Tests Benchmarks Models/sift-train Examples

# swift-format's findings are errors.
lint:
	$(SWIFT_FORMAT) lint --strict --recursive --parallel $(FORMAT_PATHS)

# Rewrites the sources in place with the same rules (then `make lint` is clean).
format:
	$(SWIFT_FORMAT) format --in-place --recursive --parallel $(FORMAT_PATHS)

# The library modules whose public API has a baseline, api/<Module>.json.
API_MODULES ?= Sift

# Each module's public API against its baseline (swift-api-digester).
api-check: deps
	SWIFT=$(SWIFT) scripts/api-check.sh $(API_MODULES)

# After an intended change of the public API: rewrites the baselines, to commit with it.
api-baseline: deps
	SWIFT=$(SWIFT) scripts/api-check.sh --update $(API_MODULES)

# Sources/Sift: no function over 80 lines, no file over 400 lines, at most 40 public types.
metrics:
	python3 scripts/code-metrics.py --self-test
	python3 scripts/code-metrics.py --check Sources/Sift

# The DocC catalog and the public doc comments → .build/docs, failing on any warning.
docs: deps
	SWIFT=$(SWIFT) scripts/docs.sh
