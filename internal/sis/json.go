package sis

import (
	"bytes"
	"encoding/json"
	"io"
)

// The JSON shape of a decoded message (printed by msgx decode, documented
// in docs/decode.md). Built from explicit structs so it stays stable:
// Unchanged fields are omitted, maps are keyed by element name (sorted by
// encoding/json), lists keep input order.

// WriteJSON writes v (a *Message or an *Error) as indented JSON without
// HTML escaping, followed by a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonTime is how a decoded time is printed: RFC 3339 in UTC with Z, as in
// every JSON document msgx writes (docs/api.md, "Times"); raw keeps the
// AODB's airport-time text.
const jsonTime = "2006-01-02T15:04:05Z"

// MarshalJSON gives {"op":"set","raw":"15DEC031805","time":"2003-12-15T10:05:00Z"},
// {"op":"clear"}; "date" for date-only times, "minutes" for durations,
// "days" for day offsets, "value" for integers.
func (f Field) MarshalJSON() ([]byte, error) {
	j := struct {
		Op      string `json:"op"`
		Raw     string `json:"raw,omitempty"`
		Time    string `json:"time,omitempty"`
		Date    string `json:"date,omitempty"`
		Minutes *int64 `json:"minutes,omitempty"`
		Days    *int64 `json:"days,omitempty"`
		Value   *int64 `json:"value,omitempty"`
	}{Op: f.Op.String(), Raw: f.Raw}
	if f.Op == Set {
		switch f.Type {
		case TypeTime:
			if f.DateOnly {
				j.Date = f.Time.Format("2006-01-02")
			} else {
				j.Time = f.Time.UTC().Format(jsonTime)
			}
		case TypeDuration:
			j.Minutes = &f.Num
		case TypeDayOffset:
			j.Days = &f.Num
		case TypeInt:
			j.Value = &f.Num
		}
	}
	return marshal(j)
}

type jsonInt struct {
	Raw   string `json:"raw"`
	Value int64  `json:"value"`
}

type jsonTimeVal struct {
	Raw  string `json:"raw"`
	Time string `json:"time,omitempty"`
}

type jsonMeta struct {
	Sndr    string      `json:"sndr"`
	SndrRaw string      `json:"sndr_raw,omitempty"`
	Rcvr    *string     `json:"rcvr,omitempty"`
	RcvrRaw string      `json:"rcvr_raw,omitempty"`
	Seqn    jsonInt     `json:"seqn"`
	Dttm    jsonTimeVal `json:"dttm"`
	Type    string      `json:"type"`
	TypeRaw string      `json:"type_raw,omitempty"`
	Styp    string      `json:"styp"`
	StypRaw string      `json:"styp_raw,omitempty"`
}

type jsonItem struct {
	Ordinal int              `json:"ordinal"`
	Seq     *jsonInt         `json:"seq,omitempty"`
	Fields  map[string]Field `json:"fields,omitempty"`
	Attrs   map[string]Field `json:"attrs,omitempty"`
	Text    *Field           `json:"text,omitempty"`
}

type jsonGroup struct {
	Op          string     `json:"op"`
	Items       []jsonItem `json:"items"`
	ClearMarker *jsonItem  `json:"clear_marker,omitempty"`
}

type jsonStruct struct {
	Op    string           `json:"op"`
	Text  string           `json:"text,omitempty"`
	Attrs map[string]Field `json:"attrs,omitempty"`
}

type jsonPayload struct {
	Op          string `json:"op"`
	Count       int    `json:"count"`
	XML         string `json:"xml"`
	ClearMarker string `json:"clear_marker,omitempty"`
}

type jsonRecord struct {
	Ordinal  int                    `json:"ordinal"`
	FLID     jsonInt                `json:"flid"`
	FFID     *Field                 `json:"ffid,omitempty"`
	Scalars  map[string]Field       `json:"scalars,omitempty"`
	Groups   map[string]jsonGroup   `json:"groups,omitempty"`
	Structs  map[string]jsonStruct  `json:"structs,omitempty"`
	Payloads map[string]jsonPayload `json:"payloads,omitempty"`
}

type jsonSchedule struct {
	Styp    string       `json:"styp"`
	Recs    *jsonInt     `json:"recs,omitempty"`
	Flights []jsonRecord `json:"flights"`
}

type jsonFlightOps struct {
	Group   string       `json:"group"`
	Records []jsonRecord `json:"records"`
}

type jsonDeleteRecord struct {
	Ordinal int     `json:"ordinal"`
	FLID    jsonInt `json:"flid"`
	FFID    *Field  `json:"ffid,omitempty"`
}

type jsonDelete struct {
	Form    string             `json:"form"`
	Records []jsonDeleteRecord `json:"records"`
}

type jsonRefField struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Attrs []Attr `json:"attrs,omitempty"`
	XML   string `json:"xml,omitempty"`
}

type jsonRefRecord struct {
	Ordinal int            `json:"ordinal"`
	KeyName string         `json:"key_name"`
	Key     string         `json:"key"`
	Attrs   []Attr         `json:"attrs,omitempty"`
	Fields  []jsonRefField `json:"fields"`
	XML     string         `json:"xml"`
}

type jsonRef struct {
	Type    string          `json:"type"`
	Styp    string          `json:"styp"`
	Recs    *jsonInt        `json:"recs,omitempty"`
	Records []jsonRefRecord `json:"records"`
}

type jsonRequest struct {
	Type     string `json:"type"`
	Begin    *Field `json:"stdb,omitempty"`
	End      *Field `json:"stde,omitempty"`
	ListCode *Field `json:"rtyp,omitempty"`
}

type jsonMessage struct {
	Meta      jsonMeta       `json:"meta"`
	RootAttrs []Attr         `json:"root_attrs,omitempty"`
	Identity  string         `json:"identity"`
	Kind      Kind           `json:"kind"`
	Note      string         `json:"note,omitempty"`
	Schedule  *jsonSchedule  `json:"schedule,omitempty"`
	FlightOps *jsonFlightOps `json:"flight_ops,omitempty"`
	Delete    *jsonDelete    `json:"flight_delete,omitempty"`
	Reference *jsonRef       `json:"reference,omitempty"`
	Request   *jsonRequest   `json:"request,omitempty"`
}

// MarshalJSON gives the documented shape of docs/decode.md.
func (m *Message) MarshalJSON() ([]byte, error) {
	mt := &m.Meta
	j := jsonMessage{
		Meta: jsonMeta{
			Sndr: mt.Sender, SndrRaw: rawIfDiff(mt.SenderRaw, mt.Sender),
			Seqn: jsonInt{mt.SeqRaw, mt.Seq},
			Dttm: jsonTimeVal{Raw: mt.SentRaw},
			Type: mt.Type, TypeRaw: rawIfDiff(mt.TypeRaw, mt.Type),
			Styp: mt.Subtype, StypRaw: rawIfDiff(mt.SubtypeRaw, mt.Subtype),
		},
		RootAttrs: m.RootAttrs, Identity: m.Identity, Kind: m.Kind, Note: m.Note,
	}
	if mt.HasReceiver {
		j.Meta.Rcvr = &mt.Receiver
		j.Meta.RcvrRaw = rawIfDiff(mt.ReceiverRaw, mt.Receiver)
	}
	if !mt.Sent.IsZero() {
		j.Meta.Dttm.Time = mt.Sent.UTC().Format(jsonTime)
	}
	if s := m.Schedule; s != nil {
		js := &jsonSchedule{Styp: s.Subtype, Flights: make([]jsonRecord, 0, len(s.Flights))}
		if s.HasRecs {
			js.Recs = &jsonInt{s.RecsRaw, int64(s.Recs)}
		}
		for _, r := range s.Flights {
			js.Flights = append(js.Flights, recordJSON(r))
		}
		j.Schedule = js
	}
	if f := m.FlightOps; f != nil {
		jf := &jsonFlightOps{Group: f.Group, Records: make([]jsonRecord, 0, len(f.Records))}
		for _, r := range f.Records {
			jf.Records = append(jf.Records, recordJSON(r))
		}
		j.FlightOps = jf
	}
	if d := m.Delete; d != nil {
		jd := &jsonDelete{Form: d.Form, Records: make([]jsonDeleteRecord, 0, len(d.Records))}
		for _, r := range d.Records {
			jd.Records = append(jd.Records, jsonDeleteRecord{r.Ordinal, jsonInt{r.FLIDRaw, r.FLID}, fieldPtr(r.FFID)})
		}
		j.Delete = jd
	}
	if r := m.Ref; r != nil {
		jr := &jsonRef{Type: r.Type, Styp: r.Subtype, Records: make([]jsonRefRecord, 0, len(r.Records))}
		if r.HasRecs {
			jr.Recs = &jsonInt{r.RecsRaw, int64(r.Recs)}
		}
		for _, rec := range r.Records {
			jrr := jsonRefRecord{Ordinal: rec.Ordinal, KeyName: rec.KeyName, Key: rec.Key, Attrs: rec.Attrs, XML: rec.XML,
				Fields: make([]jsonRefField, 0, len(rec.Fields))}
			for _, f := range rec.Fields {
				jrr.Fields = append(jrr.Fields, jsonRefField(f))
			}
			jr.Records = append(jr.Records, jrr)
		}
		j.Reference = jr
	}
	if q := m.Request; q != nil {
		j.Request = &jsonRequest{Type: q.Type, Begin: fieldPtr(q.Begin), End: fieldPtr(q.End), ListCode: fieldPtr(q.ListCode)}
	}
	return marshal(j)
}

// marshal is json.Marshal without HTML escaping: payload XML stays readable.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func rawIfDiff(raw, norm string) string {
	if raw == norm {
		return ""
	}
	return raw
}

func fieldPtr(f Field) *Field {
	if f.Op == Unchanged {
		return nil
	}
	return &f
}

func namedMap(list []NamedField) map[string]Field {
	if len(list) == 0 {
		return nil
	}
	m := make(map[string]Field, len(list))
	for _, f := range list {
		m[f.Name] = f.Field
	}
	return m
}

func itemJSON(it *Item) jsonItem {
	j := jsonItem{Ordinal: it.Ordinal, Fields: namedMap(it.Fields), Attrs: namedMap(it.Attrs), Text: fieldPtr(it.Text)}
	if it.HasSeq {
		j.Seq = &jsonInt{it.SeqRaw, it.Seq}
	}
	return j
}

func recordJSON(r *FlightRecord) jsonRecord {
	j := jsonRecord{Ordinal: r.Ordinal, FLID: jsonInt{r.FLIDRaw, r.FLID}, FFID: fieldPtr(r.FFID)}
	for i, f := range r.Scalars.All() {
		if f.Op == Unchanged {
			continue
		}
		if j.Scalars == nil {
			j.Scalars = map[string]Field{}
		}
		j.Scalars[i.String()] = f
	}
	for i, op := range r.Groups.All() {
		g := &op
		if g.Op == Unchanged {
			continue
		}
		if j.Groups == nil {
			j.Groups = map[string]jsonGroup{}
		}
		jg := jsonGroup{Op: g.Op.String(), Items: make([]jsonItem, 0, len(g.Items))}
		for k := range g.Items {
			jg.Items = append(jg.Items, itemJSON(&g.Items[k]))
		}
		if g.ClearMarker != nil {
			cm := itemJSON(g.ClearMarker)
			jg.ClearMarker = &cm
		}
		j.Groups[i.String()] = jg
	}
	for i, s := range r.Structs.All() {
		if s.Op == Unchanged {
			continue
		}
		if j.Structs == nil {
			j.Structs = map[string]jsonStruct{}
		}
		j.Structs[i.String()] = jsonStruct{Op: s.Op.String(), Text: s.Text, Attrs: namedMap(s.Attrs)}
	}
	for i, p := range r.Payloads.All() {
		if p.Op == Unchanged {
			continue
		}
		if j.Payloads == nil {
			j.Payloads = map[string]jsonPayload{}
		}
		j.Payloads[i.String()] = jsonPayload{Op: p.Op.String(), Count: p.Count, XML: p.XML, ClearMarker: p.ClearMarker}
	}
	return j
}
