# msgx — developer entry points. `make help` lists them.
#
#   make run    databases up, build, apply the schema, run the service
#   make test   databases up, vet, race tests on the real databases, the Oracle
#               checks (tools/oraclecheck), a fuzz run; the long tests skip
#   make test-long  the long tests alone (testdb.Long: real binaries killed
#               in a loop, database outages), race too
#
# sqlc is a Go tool pinned in tools.mod (no global install needed).

GO       ?= go
SQLC     := $(GO) tool -modfile=tools.mod sqlc
LINT     := $(GO) tool -modfile=tools.mod golangci-lint
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
COMMIT   ?= $(shell git rev-parse --short HEAD 2>/dev/null)
LDFLAGS  := -X main.version=$(VERSION) -X main.commit=$(COMMIT)
TIMEOUT  ?= 20m
# Fuzz budget as an execution count: a count has no deadline to race on a
# loaded machine (a -fuzztime duration can fail spuriously, golang/go#75804).
FUZZTIME ?= 1000000x
BIN      := bin/msgx
TESTLOG  := bin/test.log
TESTSUM  := bin/test-summary.txt
LONGLOG  := bin/test-long.log
LONGSUM  := bin/test-long-summary.txt
# sed script that hides go test -v's per-test start/pause lines on the terminal
# (=== CONT / === NAME stay: they tell which test the following log lines belong to).
QUIET    := -e '/^=== \(RUN\|PAUSE\)/d'

SHELL       := /bin/bash
.SHELLFLAGS := -o pipefail -ec

# Databases for `make run` (created by scripts/services.sh).
MSGX_PG_URL      ?= postgres://postgres@127.0.0.1:5432/msgx?sslmode=disable
MSGX_MAILBOX_DSN ?= root@tcp(127.0.0.1:3306)/msgx_mailbox?parseTime=true
MSGX_HTTP_ADDR   ?= 127.0.0.1:8080
# The mailbox database MSGX_MAILBOX_DSN names (…/NAME?…).
MAILBOX_DB        = $(lastword $(subst /, ,$(firstword $(subst ?, ,$(MSGX_MAILBOX_DSN)))))
# Servers for the tests: each test creates and drops its own databases.
MSGX_TEST_PG_URL      ?= postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable
MSGX_TEST_MAILBOX_DSN ?= root@tcp(127.0.0.1:3306)/?parseTime=true
export MSGX_PG_URL MSGX_MAILBOX_DSN MSGX_HTTP_ADDR MSGX_TEST_PG_URL MSGX_TEST_MAILBOX_DSN

# Go files for gofmt: tracked plus untracked-but-not-ignored, that still exist.
GOFILES = $(wildcard $(shell git ls-files -co --exclude-standard -- '*.go' 2>/dev/null || find . -name '*.go' -not -path './.cache/*'))

.PHONY: help generate sqlc-diff contracts-diff build package services test fuzz bench bench-scale lint run clean

help:
	@echo "targets:"
	@echo "  run        services + build + schema apply + demo: serve (embedded Kafka) + the sample day"
	@echo "  test       services + go vet + go test -race (TIMEOUT=$(TIMEOUT)) + fuzz ($(FUZZTIME)); long tests skip"
	@echo "  test-long  services + the long tests (testdb.Long) with -race"
	@echo "  fuzz       fuzz the SIS decoder for FUZZTIME=$(FUZZTIME)"
	@echo "  bench      benchmarks with allocation figures"
	@echo "  bench-scale  a year of history vs an empty database: big/empty ratios (MSGX_BENCH_SCALE=$(MSGX_BENCH_SCALE))"
	@echo "  lint       gofmt, go vet, sqlc diff, golangci-lint (.golangci.yml)"
	@echo "  generate   sqlc generate (db/) + gofmt + docs/config.md"
	@echo "  sqlc-diff  fail if db/ differs from what sqlc would generate"
	@echo "  contracts-diff  fail on a breaking change of docs/openapi.yaml, asyncapi.yaml or the flight schema since the last release (BASE=<ref>)"
	@echo "  build      $(BIN) (version $(VERSION))"
	@echo "  package    bin/msgx_<version>_amd64.deb: build + the systemd unit, /etc/msgx, docs, alerts (docs/deploy.md)"
	@echo "  services   install/start PostgreSQL and MariaDB, create the databases"
	@echo "  clean      remove bin/"

generate:
	$(SQLC) generate
	gofmt -w db
	$(GO) run ./scripts/configdoc

sqlc-diff:
	$(SQLC) diff

contracts-diff:
	$(GO) run ./scripts/contracts-diff $(if $(BASE),-base $(BASE))

build:
	@mkdir -p $(dir $(BIN))
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/msgx

# The Debian package of $(BIN) into PKGDIR (nfpm as a library, nested module
# tools/package; docs/deploy.md).
PKGDIR ?= bin
package: build
	$(GO) -C tools/package run . -root $(CURDIR) -binary $(abspath $(BIN)) -version '$(VERSION)' -out $(abspath $(PKGDIR))

services:
	@bash scripts/services.sh

# go test runs with -v into $(TESTLOG) (full) while the terminal shows it without
# the "=== RUN/PAUSE" noise; the last line is a plain summary
# "test: N passed, N failed, N skipped" (also in $(TESTSUM)).
# The fuzz run is independent of the tests before it: it always runs, and any
# step's failure fails the target. (It used to run only when every test had
# passed, so one failing test also hid whether the decoder still held up.)
test: services
	$(GO) vet ./...
	@mkdir -p bin; rm -f $(TESTLOG) $(TESTSUM); rc=0; \
	echo "$(GO) test -race -count=1 -timeout=$(TIMEOUT) -v ./..."; \
	$(GO) test -race -count=1 -timeout=$(TIMEOUT) -v ./... 2>&1 | tee $(TESTLOG) | sed -u $(QUIET) || rc=$$?; \
	echo "oraclecheck: sql/oracle11g through the PL/SQL grammar, the 11g lint and parity (nested module tools/oraclecheck)"; \
	(cd tools/oraclecheck && $(GO) test -count=1 -timeout=$(TIMEOUT) -v .) 2>&1 | tee -a $(TESTLOG) | sed -u $(QUIET) || rc=$$?; \
	echo "fuzz: FuzzDecode in internal/sis for $(FUZZTIME)"; \
	$(GO) test ./internal/sis -run='^$$' -fuzz=FuzzDecode -fuzztime=$(FUZZTIME) -v 2>&1 | tee -a $(TESTLOG) | sed -u $(QUIET) || rc=$$?; \
	passed=$$(grep -cE '^[[:space:]]*--- PASS:' $(TESTLOG) || true); \
	failed=$$(grep -cE '^[[:space:]]*--- FAIL:' $(TESTLOG) || true); \
	skipped=$$(grep -cE '^[[:space:]]*--- SKIP:' $(TESTLOG) || true); \
	if [ $$rc -ne 0 ] && [ $$failed -eq 0 ]; then \
		failed=1; echo "test: go test failed outside a test (build error, panic or timeout): see above or $(TESTLOG)"; \
	fi; \
	echo "test: $$passed passed, $$failed failed, $$skipped skipped" | tee $(TESTSUM); \
	exit $$rc

# The tests that call testdb.Long(t) (found by that call; each skips in
# `make test`), run with MSGX_TEST_LONG=1; same log and summary shape.
.PHONY: test-long
test-long: services
	@mkdir -p bin; rm -f $(LONGLOG) $(LONGSUM); rc=0; \
	files=$$(grep -rl --include='*_test.go' --exclude-dir=.cache --exclude-dir=bin 'testdb\.Long(t)' . | sort); \
	pkgs=$$(for f in $$files; do dirname $$f; done | sort -u); \
	names=$$(awk '/^func Test/ { match($$0, /Test[A-Za-z0-9_]*/); n = substr($$0, RSTART, RLENGTH) } /testdb\.Long\(t\)/ { print n }' $$files | paste -sd'|'); \
	echo "MSGX_TEST_LONG=1 $(GO) test -race -count=1 -timeout=$(TIMEOUT) -v -run '^($$names)$$' "$$pkgs; \
	MSGX_TEST_LONG=1 $(GO) test -race -count=1 -timeout=$(TIMEOUT) -v -run "^($$names)\$$" $$pkgs 2>&1 | tee $(LONGLOG) | sed -u $(QUIET) || rc=$$?; \
	passed=$$(grep -cE '^[[:space:]]*--- PASS:' $(LONGLOG) || true); \
	failed=$$(grep -cE '^[[:space:]]*--- FAIL:' $(LONGLOG) || true); \
	skipped=$$(grep -cE '^[[:space:]]*--- SKIP:' $(LONGLOG) || true); \
	if [ $$rc -ne 0 ] && [ $$failed -eq 0 ]; then \
		failed=1; echo "test-long: go test failed outside a test (build error, panic or timeout): see above or $(LONGLOG)"; \
	fi; \
	echo "test-long: $$passed passed, $$failed failed, $$skipped skipped" | tee $(LONGSUM); \
	exit $$rc

# The coverage-guided fuzz run of the codec alone (also the last step of
# `make test`); longer runs: FUZZTIME=10m, see docs/decode.md.
fuzz:
	$(GO) test ./internal/sis -run='^$$' -fuzz=FuzzDecode -fuzztime=$(FUZZTIME)

# -p 1: one package at a time, so no benchmark measures its neighbours.
bench: services
	$(GO) test -p 1 -run='^$$' -bench=. -benchmem -timeout=$(TIMEOUT) ./...

# BenchmarkYearScale (build tag scale, never in `make test` or `make bench`):
# the drain on an empty database and on a year of history generated in SQL
# (testdata/yearscale), interleaved; reports big/empty ratios
# (docs/performance.md). MSGX_BENCH_SCALE=0.1 builds a tenth of the year;
# three rounds by default: one round's ratio moves by ±10 % on this machine.
MSGX_BENCH_SCALE ?= 1
MSGX_BENCH_SCALE_ROUNDS ?= 3
export MSGX_BENCH_SCALE MSGX_BENCH_SCALE_ROUNDS
bench-scale: services
	$(GO) test -tags scale -p 1 -run='^$$' -bench='^BenchmarkYearScale$$' -benchtime=1x -timeout=2h -v ./internal/pump/

lint:
	@files="$(GOFILES)"; \
	if [ -n "$$files" ]; then \
		out=$$(gofmt -l $$files); \
		if [ -n "$$out" ]; then echo "gofmt: these files need 'gofmt -w':"; echo "$$out"; exit 1; fi; \
	fi; \
	echo "gofmt: ok"
	$(GO) vet ./...
	$(SQLC) diff
	$(LINT) run ./...

# The dev demo on local services: msgx's schema applied with msgx itself, the
# AODB's mailbox tables created (only in dev: on site they exist), then the
# service in the foreground (Ctrl-C stops it gracefully).
run: services build
	$(BIN) schema apply --yes --url '$(MSGX_PG_URL)' >/dev/null
	mariadb -h 127.0.0.1 -u root '$(MAILBOX_DB)' < sql/mysql/schema/001_mailbox.sql
	BIN=$(BIN) scripts/demo.sh

clean:
	rm -rf bin
