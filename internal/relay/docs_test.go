package relay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/msgx-aodb/msgx/internal/contracttest"
	"github.com/msgx-aodb/msgx/internal/kafka"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// eventsDoc is docs/events.md as the test reads it: the header table, the
// value field table and the example.
type eventsDoc struct {
	headers []string
	fields  map[string]docField
	example []byte
}

type docField struct {
	typ    string // integer, string, time, object, array
	always bool
}

func readEventsDoc(t *testing.T) eventsDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "events.md"))
	require.NoError(t, err)
	doc := string(b)
	section := func(name string) string {
		i := strings.Index(doc, "<!-- "+name+" -->")
		j := strings.Index(doc, "<!-- /"+name+" -->")
		require.True(t, i >= 0 && j > i, "docs/events.md: section %s", name)
		return doc[i:j]
	}
	rows := func(name string) [][]string {
		var out [][]string
		for _, line := range strings.Split(section(name), "\n") {
			if !strings.HasPrefix(line, "| `") {
				continue // not a data row
			}
			var cells []string
			for _, c := range strings.Split(strings.Trim(line, "|"), "|") {
				cells = append(cells, strings.Trim(strings.TrimSpace(c), "`"))
			}
			out = append(out, cells)
		}
		require.NotEmpty(t, out, "docs/events.md: rows of %s", name)
		return out
	}
	var d eventsDoc
	for _, r := range rows("headers") {
		d.headers = append(d.headers, r[0])
	}
	d.fields = map[string]docField{}
	for _, r := range rows("value-fields") {
		require.Contains(t, []string{"always", "optional"}, r[2], "presence of %s", r[0])
		require.Contains(t, []string{"integer", "string", "time", "object", "array"}, r[1], "type of %s", r[0])
		d.fields[r[0]] = docField{typ: r[1], always: r[2] == "always"}
	}
	m := regexp.MustCompile("(?s)<!-- example -->\\s*```json\\n(.*?)```").FindStringSubmatch(doc)
	require.NotNil(t, m, "docs/events.md: the example")
	d.example = []byte(m[1])
	return d
}

// validate checks a value against the field table: every field documented,
// of its type, every "always" field present. seen collects the paths met.
func (d eventsDoc) validate(value []byte, seen map[string]bool) error {
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	var errs []string
	// pattern is the documented path (with * and []), at the concrete one.
	var walk func(v any, pattern, at string)
	walk = func(v any, pattern, at string) {
		if pattern != "" {
			seen[pattern] = true
			if msg := typeError(v, d.fields[pattern].typ); msg != "" {
				errs = append(errs, fmt.Sprintf("%s: %s", at, msg))
				return
			}
		}
		switch x := v.(type) {
		case map[string]any:
			for k, child := range x {
				p := join(pattern, k)
				if _, ok := d.fields[p]; !ok {
					p = join(pattern, "*")
				}
				if _, ok := d.fields[p]; !ok {
					errs = append(errs, fmt.Sprintf("%s: not documented", join(at, k)))
					continue
				}
				walk(child, p, join(at, k))
			}
			for p, f := range d.fields {
				name, ok := strings.CutPrefix(p, join(pattern, ""))
				if ok && f.always && !strings.ContainsAny(name, ".[*") && x[name] == nil {
					errs = append(errs, fmt.Sprintf("%s: missing", join(at, name)))
				}
			}
		case []any:
			for i, item := range x {
				walk(item, pattern+"[]", fmt.Sprintf("%s[%d]", at, i))
			}
		}
	}
	walk(v, "", "")
	if len(errs) > 0 {
		sort.Strings(errs)
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func typeError(v any, typ string) string {
	ok := false
	switch typ {
	case "object":
		_, ok = v.(map[string]any)
	case "array":
		_, ok = v.([]any)
	case "string":
		_, ok = v.(string)
	case "time":
		s, isStr := v.(string)
		_, err := time.Parse(time.RFC3339, s)
		ok = isStr && err == nil
	case "integer":
		n, isNum := v.(json.Number)
		_, err := strconv.ParseInt(string(n), 10, 64)
		ok = isNum && err == nil
	}
	if !ok {
		return fmt.Sprintf("%v is not a %s", v, typ)
	}
	return ""
}

// TestEventsDocMatchesRealRecords runs the sample day and a snapshot with
// every group, structure and payload kind through the pipeline and both
// relays, and checks every record on both topics against docs/events.md and
// docs/asyncapi.yaml (key, headers, value against the flight schema), and
// that the document names no field real payloads never carry.
func TestEventsDocMatchesRealRecords(t *testing.T) {
	t.Parallel()
	doc := readEventsDoc(t)
	require.NoError(t, doc.validate(doc.example, map[string]bool{}), "the example follows the field table")

	p := newPipe(t)
	p.sampleDay(t)
	p.drain(t, p.dispatcher())
	_, err := p.aggregator().Step(t.Context())
	require.NoError(t, err)
	require.Empty(t, p.pending(t, vocab.TargetMsg))
	require.Empty(t, p.marks(t))

	seen := map[string]bool{}
	types := map[string]int{}
	for topic, target := range map[string]string{topicMsg: vocab.TargetMsg, topicSchd: vocab.TargetSchd} {
		recs := p.consume(t, topic, p.count(t, topic))
		require.NotEmpty(t, recs)
		for _, r := range recs {
			checkRecord(t, doc, r, target, seen)
			types[target+" "+header(r, kafka.HeaderEventType)]++
		}
	}
	for _, want := range []string{"KAFKA:msg UPSERT", "KAFKA:msg TOMBSTONE", "KAFKA:schd UPSERT", "KAFKA:schd TOMBSTONE"} {
		require.Positive(t, types[want], "the sample has a %s", want)
	}
	var unseen []string
	for path := range doc.fields {
		if !seen[path] {
			unseen = append(unseen, path)
		}
	}
	sort.Strings(unseen)
	require.Empty(t, unseen, "documented fields no real payload carries")
}

func checkRecord(t *testing.T, doc eventsDoc, r *kgo.Record, target string, seen map[string]bool) {
	t.Helper()
	var names []string
	for _, h := range r.Headers {
		names = append(names, h.Key)
	}
	require.ElementsMatch(t, doc.headers, names, "headers are the documented ones")
	hdrs := map[string]string{}
	for _, h := range r.Headers {
		hdrs[h.Key] = string(h.Value)
	}
	require.NoError(t, contracttest.ValidateRecord(r.Key, hdrs, r.Value), "docs/asyncapi.yaml, flight %s", r.Key)
	flid := mustAtoi(t, string(r.Key))
	msg, version := headerInt(t, r, kafka.HeaderCminmsgsID), headerInt(t, r, kafka.HeaderStateVersion)
	headerInt(t, r, kafka.HeaderEventID)
	require.Equal(t, vocab.IdempotencyKey(msg, flid, version, target), header(r, kafka.HeaderIdempotencyKey))
	switch header(r, kafka.HeaderEventType) {
	case vocab.EventTombstone:
		require.Nil(t, r.Value, "a TOMBSTONE is null")
	case vocab.EventUpsert:
		require.NoError(t, doc.validate(r.Value, seen), "flight %d version %d", flid, version)
		var v struct {
			FLID         int64 `json:"flid"`
			StateVersion int64 `json:"state_version"`
		}
		require.NoError(t, json.Unmarshal(r.Value, &v))
		require.Equal(t, flid, v.FLID, "the key is the FLID")
		require.Equal(t, version, v.StateVersion, "the header is the state's version")
	default:
		t.Fatalf("event type %q", header(r, kafka.HeaderEventType))
	}
}

// TestEventsDocValidatorRefuses keeps the validator honest: it refuses an
// undocumented field, a missing required one and a wrong type.
func TestEventsDocValidatorRefuses(t *testing.T) {
	doc := readEventsDoc(t)
	var v map[string]any
	require.NoError(t, json.Unmarshal(doc.example, &v))
	mutate := func(f func(map[string]any)) []byte {
		var c map[string]any
		require.NoError(t, json.Unmarshal(doc.example, &c))
		f(c)
		b, err := json.Marshal(c)
		require.NoError(t, err)
		return b
	}
	for name, tc := range map[string]struct {
		value []byte
		want  string
	}{
		"undocumented": {mutate(func(c map[string]any) { c["extra"] = 1 }), "extra: not documented"},
		"missing":      {mutate(func(c map[string]any) { delete(c, "lifecycle") }), "lifecycle: missing"},
		"nested":       {mutate(func(c map[string]any) { c["scalars"].(map[string]any)["ALCD"] = map[string]any{"text": "CA"} }), "scalars.ALCD.text: not documented"},
		"type":         {mutate(func(c map[string]any) { c["flid"] = "30003" }), "flid: 30003 is not a integer"},
		"time":         {mutate(func(c map[string]any) { c["created_at"] = "yesterday" }), "created_at: yesterday is not a time"},
	} {
		err := doc.validate(tc.value, map[string]bool{})
		require.ErrorContains(t, err, tc.want, name)
	}
}
