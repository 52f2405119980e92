#!/usr/bin/env bash
# bench-compare.sh: one internal/pump benchmark of an earlier commit against
# the working tree, run alternately, summarised by benchstat (docs/performance.md).
#
# A single run of the CPU benchmarks moves by ±15 % on the build machine, and
# the machine's speed drifts over minutes: a figure is only worth its ratio to
# a baseline measured beside it. So both builds run the same benchmark code
# (this tree's internal/pump/bench_*_test.go, copied over the base's, unless
# -k), one run each in turn, and benchstat gives each metric's median, its
# confidence interval and whether the difference is significant.
#
# Usage: scripts/bench-compare.sh [-n rounds] [-b bench] [-k] [-p patch] BASE
#   BASE   a commit
#   -n     rounds, one run of each build per round (default 10)
#   -b     the benchmark's -test.bench pattern (default 'BenchmarkTenantCPU$')
#   -k     keep the base's own benchmark files
#   -p     a patch applied to the base after the copy, where today's benchmark
#          files need an older API: issue #34's baseline is
#          -p scripts/bench-compare-d80edd4.patch d80edd4
# The runs are kept in $BENCH_COMPARE_DIR (default a new directory under /tmp):
# base.txt, new.txt, benchstat.txt. Needs the test databases, as make bench.
set -euo pipefail
rounds=10 bench='BenchmarkTenantCPU$' keep= patch=
while getopts n:b:kp: opt; do
	case $opt in
	n) rounds=$OPTARG ;;
	b) bench=$OPTARG ;;
	k) keep=1 ;;
	p) patch=$(realpath "$OPTARG") ;;
	*) sed -n '2,22p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
base=$1
cd "$(dirname "$0")/.."
root=$PWD
out=${BENCH_COMPARE_DIR:-$(mktemp -d /tmp/bench-compare.XXXXXX)}
mkdir -p "$out"
tree=$out/base-tree

git worktree add --force --detach "$tree" "$base" >/dev/null
trap 'git -C "$root" worktree remove --force "$tree"' EXIT
if [ -z "$keep" ]; then
	cp internal/pump/bench_*_test.go "$tree/internal/pump/"
fi
if [ -n "$patch" ]; then
	git -C "$tree" apply "$patch"
fi
(cd "$tree" && go test -c -o "$out/base.test" ./internal/pump/)
go test -c -o "$out/new.test" ./internal/pump/

export MSGX_TEST_PG_URL=${MSGX_TEST_PG_URL:-'postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable'}
export MSGX_TEST_MAILBOX_DSN=${MSGX_TEST_MAILBOX_DSN:-'root@tcp(127.0.0.1:3306)/?parseTime=true'}
: >"$out/base.txt"
: >"$out/new.txt"
run() { # run <binary> <its tree> <output>
	(cd "$2/internal/pump" && "$1" -test.run='^$' -test.bench="$bench" -test.benchtime=1x -test.timeout=30m) |
		grep -E '^(goos|goarch|pkg|cpu|Benchmark)' >>"$3"
}
for i in $(seq "$rounds"); do
	echo "round $i of $rounds" >&2
	run "$out/base.test" "$tree" "$out/base.txt"
	run "$out/new.test" "$root" "$out/new.txt"
done
go tool -modfile=tools.mod benchstat "$out/base.txt" "$out/new.txt" | tee "$out/benchstat.txt"
echo "runs and summary in $out" >&2
