#!/usr/bin/env bash
# scripts/console-png.sh — regenerates docs/console.png from the demo: runs
# `make run` (the sample day, scripts/demo.sh) in the background, waits until
# it has sent the day and the chart has a few samples, screenshots the
# console's queue page in headless Chromium (apt-get install -y chromium),
# then stops the demo (SIGTERM: its graceful stop; a background job ignores
# SIGINT). The same environment as
# `make run` (MSGX_HTTP_ADDR, MSGX_PG_URL, MSGX_MAILBOX_DSN) picks the demo.
#
#   scripts/console-png.sh [OUT]      OUT defaults to docs/console.png
#   CONSOLE_PNG_WAIT=65               seconds after the day (3 chart samples)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${1:-docs/console.png}
WAIT=${CONSOLE_PNG_WAIT:-65}
ADDR=${MSGX_HTTP_ADDR:-127.0.0.1:8080}
CONSOLE_PNG_INPUTS="internal/api/console/templates/layout.html internal/api/console/templates/page-overview.html internal/api/console/static/console.css internal/api/console_overview.go internal/api/console_chart.go"
log=$(mktemp)
browser=$(command -v chromium || command -v chromium-browser || true)
[[ -n $browser ]] || { echo "console-png: no chromium on PATH (apt-get install -y chromium)" >&2; exit 1; }

setsid make run >"$log" 2>&1 &
demo=$!
stop() { kill -TERM -- "-$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true; rm -f "$log"; }
trap stop EXIT
for _ in $(seq 1 600); do
  grep -q '^Press Ctrl-C to stop' "$log" && break
  kill -0 "$demo" 2>/dev/null || { echo "console-png: make run stopped:" >&2; tail -n 20 "$log" >&2; exit 1; }
  sleep 0.5
done
grep -q '^Press Ctrl-C to stop' "$log" || { echo "console-png: the demo did not come up; see its output:" >&2; tail -n 20 "$log" >&2; exit 1; }
echo "console-png: demo up on $ADDR; waiting ${WAIT}s for the chart's samples"
sleep "$WAIT"
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run \
  --hide-scrollbars --window-size=1366,900 --screenshot="$OUT" "http://$ADDR/console/" 2>/dev/null
# What the queue page is rendered from, so TestConsolePngIsCurrent
# (internal/doccheck) fails when it changes without a new picture.
if [[ $OUT == docs/console.png ]]; then
  sha256sum $CONSOLE_PNG_INPUTS > docs/dev/console-png.inputs
fi
echo "console-png: wrote $OUT"
