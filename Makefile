# The README's commands. `make test` is what CI runs (see .ci/run).
GO ?= go

.PHONY: test test-long test-cluster race lint build

build:
	$(GO) build -o bin/nqueens ./cmd/nqueens

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Concurrent code under the race detector (short sizes).
race:
	$(GO) test -race -short -count=1 ./internal/refcount/... ./internal/fastcount/... ./internal/qjoin/... ./internal/enumerate/... ./cmd/nqueens/...

test: lint race
	$(GO) test -short -count=1 ./...

# The longer runs: n = 15..18 counts and the big sweeps.
test-long:
	$(GO) test -count=1 -timeout 60m ./...

# The cluster tests: shards as a Slurm job array on the loopback cluster that
# .ci/slurm.sh starts (it prints the SLURM_CONF to export), and with GNU parallel.
test-cluster:
	NQUEENS_SLURM=1 NQUEENS_PARALLEL=1 $(GO) test -count=1 -v -run 'TestSlurmJobArray|TestGNUParallel' ./cmd/nqueens/
