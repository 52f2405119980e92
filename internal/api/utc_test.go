package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The machine's zone is not UTC in these tests (nor the airport's): a JSON
// time that took it would show +08:00 or -05:00 and fail requireUTCTimes.
func TestMain(m *testing.M) {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		panic(err)
	}
	time.Local = loc
	os.Exit(m.Run())
}

// timeShaped is an RFC 3339 date-time at the start of a JSON string.
var timeShaped = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$`)

// requireUTCTimes checks the time convention (docs/api.md, "Times") on a
// JSON answer: every time-shaped string ends in Z. Every answer of the
// test helpers call and do passes through it.
func requireUTCTimes(t *testing.T, res *http.Response, body []byte) {
	t.Helper()
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || len(body) == 0 {
		return
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return // not a JSON document (the test says what it expects)
	}
	walkStrings(v, "", func(path, s string) {
		if m := timeShaped.FindStringSubmatch(s); m != nil {
			require.Equal(t, "Z", m[1], "%s: %s = %q is not UTC with Z (docs/api.md, Times)", res.Request.URL.Path, path, s)
		}
	})
}

// walkStrings calls fn with every string in a decoded JSON value but raw
// fields (the AODB's own text, kept as it came).
func walkStrings(v any, path string, fn func(path, s string)) {
	switch x := v.(type) {
	case string:
		fn(path, x)
	case []any:
		for _, e := range x {
			walkStrings(e, path+"[]", fn)
		}
	case map[string]any:
		for k, e := range x {
			if k == "raw" {
				continue
			}
			walkStrings(e, path+"."+k, fn)
		}
	}
}
