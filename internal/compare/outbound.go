package compare

import (
	"bytes"
	"encoding/json"

	"github.com/msgx-aodb/msgx/internal/mapkeys"
)

// GroupOutbound names the comparison of the flights' latest KAFKA:msg
// events (Options.OutboundA/B: what each side last published).
const GroupOutbound = "KAFKA:msg"

// outbound compares two flights' latest events: which one (event, kind
// null when a side has none), its type, then its JSON payload leaf by leaf
// (field "scalars.STND.raw"; an array is one leaf), the top-level fields
// ignore names (bookkeeping: state_version, created_at, ...) left out. A
// payload that is no JSON object is compared as text.
func (c *collector) outbound(a, b *Outbound, ignore map[string]bool) {
	c.group = GroupOutbound
	defer func() { c.group = GroupFlight }()
	if a == nil || b == nil {
		c.text("event", eventType(a), eventType(b))
		return
	}
	c.text("event_type", &a.EventType, &b.EventType)
	fa, oka := jsonObject(a.Payload)
	fb, okb := jsonObject(b.Payload)
	if !oka || !okb {
		c.text("payload", a.Payload, b.Payload)
		return
	}
	for k := range ignore {
		delete(fa, k)
		delete(fb, k)
	}
	c.jsonFields("", fa, fb)
}

// jsonFields compares two JSON objects key by key (sorted), descending into
// objects both sides have; any other value is compared as canonical JSON.
func (c *collector) jsonFields(prefix string, a, b map[string]json.RawMessage) {
	for _, k := range mapkeys.Union(a, b) {
		va, oka := a[k]
		vb, okb := b[k]
		oa, isA := jsonObject(rawText(va, oka))
		ob, isB := jsonObject(rawText(vb, okb))
		if isA && isB {
			c.jsonFields(prefix+k+".", oa, ob)
			continue
		}
		c.text(prefix+k, canonical(va, oka), canonical(vb, okb))
	}
}

// jsonObject decodes a JSON object; false when p is nil or no object.
func jsonObject(p *string) (map[string]json.RawMessage, bool) {
	if p == nil {
		return nil, false
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(*p), &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

func rawText(v json.RawMessage, ok bool) *string {
	if !ok {
		return nil
	}
	return str(string(v))
}

// canonical renders a JSON value with sorted keys and no spacing, numbers
// as written, so two encodings of one value are one text.
func canonical(v json.RawMessage, ok bool) *string {
	if !ok {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return str(string(v))
	}
	out, err := json.Marshal(x)
	if err != nil {
		return str(string(v))
	}
	return str(string(out))
}

func eventType(o *Outbound) *string {
	if o == nil {
		return nil
	}
	return &o.EventType
}
