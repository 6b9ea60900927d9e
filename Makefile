# The README's commands. `make test` is what CI runs (see .ci/run).
GO ?= go

.PHONY: test test-long test-cluster test-browser race lint purego build lighthouse

build:
	$(GO) build -o bin/nqueens ./cmd/nqueens

# gofmt, go vet, and the generated kernels of internal/qjoin as gen_kernels.go writes
# them (run `go generate ./internal/qjoin` after changing it).
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@tmp=$$(mktemp -d) && $(GO) run ./internal/qjoin/gen_kernels.go -o $$tmp && \
	for f in kernel_go_gen.go count_amd64.s count_amd64.go; do \
		cmp -s $$tmp/$$f internal/qjoin/$$f || { echo "internal/qjoin/$$f is not what gen_kernels.go writes: run go generate ./internal/qjoin"; rm -rf $$tmp; exit 1; }; \
	done; rm -rf $$tmp

# The library without assembly (the purego tag): it must build and vet everywhere.
purego:
	$(GO) build -tags purego ./...
	$(GO) vet -tags purego ./...

# Concurrent code under the race detector (short sizes): the counters, the listing
# writer, checkpoints and shards, the command and the web server.
race:
	$(GO) test -race -short -count=1 ./internal/refcount/... ./internal/fastcount/... ./internal/qjoin/... ./internal/enumerate/... ./cluster/... ./cmd/nqueens/... ./web/...
	$(GO) test -race -short -count=1 -run 'TestListFastEqualsGeneral|TestCountCheckpointed|TestShardsAndMerge|TestCounterConformance|TestProgress' .

test: lint purego race
	$(GO) test -short -count=1 ./...

# The longer runs: n = 15..18 counts and the big sweeps.
test-long:
	$(GO) test -count=1 -timeout 60m ./...

# The cluster tests: shards as a Slurm job array on the loopback cluster that
# .ci/slurm.sh starts (it prints the SLURM_CONF to export), and with GNU parallel.
test-cluster:
	NQUEENS_SLURM=1 NQUEENS_PARALLEL=1 $(GO) test -count=1 -v -run 'TestSlurm|TestGNUParallel' ./cmd/nqueens/

# The browser tests of web/ alone, in headless Chromium (Debian's chromium): a screenshot
# test of the board and click-throughs of the replays (teaching searches, Las Vegas, local
# search, construction). `make test` runs them too, and skips
# them without /usr/bin/chromium unless NQUEENS_BROWSER=1, as .ci/run sets.
test-browser:
	NQUEENS_BROWSER=1 $(GO) test -count=1 -v -run 'TestBrowser' ./web/

# The accessibility of serve's page: Lighthouse (the version pinned in
# tools/lighthouse/package-lock.json, installed there by npm ci) on Debian's Chromium,
# the board and the replay in English and Chinese, as a phone and as a desktop; it fails
# below 95. CI runs it after the tests (.ci/run).
lighthouse: build
	tools/lighthouse/run.sh bin/nqueens
