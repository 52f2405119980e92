package sis

import "unsafe"

// Sizes of what a decoded body holds, for footprint.
const (
	recordBytes     = int(unsafe.Sizeof(FlightRecord{})) + int(unsafe.Sizeof(&FlightRecord{}))
	scalarBytes     = int(unsafe.Sizeof(Entry[ScalarID, Field]{}))
	groupBytes      = int(unsafe.Sizeof(Entry[GroupID, GroupOp]{}))
	structBytes     = int(unsafe.Sizeof(Entry[StructID, StructOp]{}))
	payloadBytes    = int(unsafe.Sizeof(Entry[PayloadID, PayloadOp]{}))
	itemBytes       = int(unsafe.Sizeof(Item{}))
	namedBytes      = int(unsafe.Sizeof(NamedField{}))
	deleteBytes     = int(unsafe.Sizeof(DeleteRecord{}))
	refRecordBytes  = int(unsafe.Sizeof(RefRecord{}))
	refFieldBytes   = int(unsafe.Sizeof(RefField{}))
	attrBytes       = int(unsafe.Sizeof(Attr{}))
	messageOverhead = int(unsafe.Sizeof(Message{}))
)

// footprint estimates the bytes a decoded message holds besides its raw
// XML (whose text its values share): the records, their operations and
// items, and the canonical XML built for payloads and reference records.
// The pipeline budgets a run by it as well as by raw bytes: a message of
// many tiny records holds several times its raw size decoded.
func footprint(m *Message) int {
	n := messageOverhead
	switch {
	case m.Schedule != nil:
		n += recordsFootprint(m.Schedule.Flights)
	case m.FlightOps != nil:
		n += recordsFootprint(m.FlightOps.Records)
	case m.Delete != nil:
		n += len(m.Delete.Records) * deleteBytes
	case m.Ref != nil:
		for i := range m.Ref.Records {
			r := &m.Ref.Records[i]
			n += refRecordBytes + len(r.XML) + len(r.Attrs)*attrBytes + len(r.Fields)*refFieldBytes
			for j := range r.Fields {
				n += len(r.Fields[j].XML) + len(r.Fields[j].Attrs)*attrBytes
			}
		}
	}
	return n
}

func recordsFootprint(recs []*FlightRecord) int {
	n := 0
	for _, r := range recs {
		n += recordBytes + r.Scalars.Len()*scalarBytes + r.Groups.Len()*groupBytes +
			r.Structs.Len()*structBytes + r.Payloads.Len()*payloadBytes
		for _, op := range r.Groups.All() {
			for i := range op.Items {
				n += itemBytes + (len(op.Items[i].Fields)+len(op.Items[i].Attrs))*namedBytes
			}
		}
		for _, op := range r.Structs.All() {
			n += len(op.Attrs) * namedBytes
		}
		for _, op := range r.Payloads.All() {
			n += len(op.XML) + len(op.ClearMarker)
		}
	}
	return n
}
