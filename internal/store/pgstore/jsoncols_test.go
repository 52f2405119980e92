package pgstore

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/vocab"
	"github.com/stretchr/testify/require"
)

// The row structs FinishMessages and AddBackfills encoded with encoding/json
// before jsoncols.go.
type refBindRow struct {
	IdentityKey *string    `json:"identity_key,omitempty"`
	Kind        *string    `json:"kind,omitempty"`
	MsgType     *string    `json:"msg_type,omitempty"`
	MsgSubtype  *string    `json:"msg_subtype,omitempty"`
	MetaSndr    *string    `json:"meta_sndr,omitempty"`
	MetaSeqn    *int64     `json:"meta_seqn,omitempty"`
	MetaDttmRaw *string    `json:"meta_dttm_raw,omitempty"`
	MetaDttm    *time.Time `json:"meta_dttm,omitempty"`
}
type refFinishRow struct {
	MsgID       int64   `json:"msg_id"`
	Status      string  `json:"status"`
	ErrorClass  *string `json:"error_class,omitempty"`
	Reason      *string `json:"reason,omitempty"`
	DuplicateOf *int64  `json:"duplicate_of,omitempty"`
	Bind        bool    `json:"bind,omitempty"`
	refBindRow
}
type refBackfillRow struct {
	MsgID         int64      `json:"msg_id"`
	MailboxStatus string     `json:"mailbox_status"`
	ProcessedAt   time.Time  `json:"processed_at"`
	MetaSndr      *string    `json:"meta_sndr"`
	MetaSeqn      *int64     `json:"meta_seqn"`
	MetaDttm      *time.Time `json:"meta_dttm"`
	MetaType      *string    `json:"meta_type"`
	MetaStyp      *string    `json:"meta_styp"`
	Registration  int64      `json:"registration"`
}

// The JSON rows of FinishMessages and AddBackfills are byte for byte what
// encoding/json wrote for the row structs they replace (above).
func TestJSONRowsMatchEncodingJSON(t *testing.T) {
	shanghai := time.FixedZone("CST", 8*3600)
	at := time.Date(2026, 12, 2, 10, 40, 5, 123400000, shanghai)
	seqn, dup := int64(42), int64(7)
	metas := []vocab.Meta{
		{},
		{Sndr: "AODB", Seqn: &seqn, DttmRaw: "20261202104005", Dttm: &at, Type: "FLOP", Styp: "GTDT"},
		{Sndr: `a"b<c>&\` + "\u2028é\x01", Type: "SCHD"},
	}
	var finishes []vocab.Finish
	var todos []vocab.Backfill
	var wantFinish []refFinishRow
	var wantTodo []refBackfillRow
	for i, m := range metas {
		f := vocab.Finish{MsgID: int64(i + 1), Status: vocab.StatusSucceeded, Now: at}
		finishes = append(finishes, f)
		wantFinish = append(wantFinish, refFinishRow{MsgID: f.MsgID, Status: f.Status})
		b := vocab.Binding{IdentityKey: "AODB|FLOP|GTDT|" + m.Sndr, Kind: "flight-ops", Meta: m}
		f = vocab.Finish{MsgID: int64(i + 10), Status: vocab.StatusDead, ErrorClass: "PROTOCOL", Reason: "bad <x> \"y\"", DuplicateOf: &dup, Bind: &b, Now: at}
		finishes = append(finishes, f)
		wantFinish = append(wantFinish, refFinishRow{
			MsgID: f.MsgID, Status: f.Status, ErrorClass: nilIfEmpty(f.ErrorClass), Reason: nilIfEmpty(f.Reason), DuplicateOf: f.DuplicateOf, Bind: true,
			refBindRow: refBindRow{
				IdentityKey: nilIfEmpty(b.IdentityKey), Kind: nilIfEmpty(b.Kind), MsgType: nilIfEmpty(m.Type), MsgSubtype: nilIfEmpty(m.Styp),
				MetaSndr: nilIfEmpty(m.Sndr), MetaSeqn: m.Seqn, MetaDttmRaw: nilIfEmpty(m.DttmRaw), MetaDttm: m.Dttm,
			},
		})
		todo := vocab.Backfill{MsgID: int64(i + 1), MailboxStatus: vocab.StatusSucceeded, ProcessedAt: at.UTC(), Meta: m, Registration: int64(i)}
		todos = append(todos, todo)
		wantTodo = append(wantTodo, refBackfillRow{
			MsgID: todo.MsgID, MailboxStatus: todo.MailboxStatus, ProcessedAt: todo.ProcessedAt,
			MetaSndr: nilIfEmpty(m.Sndr), MetaSeqn: m.Seqn, MetaDttm: m.Dttm, MetaType: nilIfEmpty(m.Type), MetaStyp: nilIfEmpty(m.Styp),
			Registration: todo.Registration,
		})
	}
	want, err := json.Marshal(wantFinish)
	require.NoError(t, err)
	require.Equal(t, string(want), string(finishRows(finishes)))
	want, err = json.Marshal(wantTodo)
	require.NoError(t, err)
	require.Equal(t, string(want), string(backfillRows(todos)))
}

// BenchmarkFinishRows: a run's FinishMessages rows (1 000 bound messages)
// written directly and, for comparison, as encoding/json wrote them.
func BenchmarkFinishRows(b *testing.B) {
	at := time.Date(2026, 12, 2, 10, 40, 5, 0, time.UTC)
	seqn := int64(42)
	meta := vocab.Meta{Sndr: "AODB", Seqn: &seqn, DttmRaw: "20261202104005", Dttm: &at, Type: "FLOP", Styp: "GTDT"}
	finishes := make([]vocab.Finish, 1000)
	for i := range finishes {
		bind := vocab.Binding{IdentityKey: "AODB|FLOP|GTDT|42", Kind: "flight-ops", Meta: meta}
		finishes[i] = vocab.Finish{MsgID: int64(i), Status: vocab.StatusSucceeded, Bind: &bind, Now: at}
	}
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			finishRows(finishes)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			rows := make([]refFinishRow, len(finishes))
			for i, p := range finishes {
				m := p.Bind.Meta
				rows[i] = refFinishRow{MsgID: p.MsgID, Status: p.Status, Bind: true, refBindRow: refBindRow{
					IdentityKey: nilIfEmpty(p.Bind.IdentityKey), Kind: nilIfEmpty(p.Bind.Kind), MsgType: nilIfEmpty(m.Type), MsgSubtype: nilIfEmpty(m.Styp),
					MetaSndr: nilIfEmpty(m.Sndr), MetaSeqn: m.Seqn, MetaDttmRaw: nilIfEmpty(m.DttmRaw), MetaDttm: m.Dttm,
				}}
			}
			if _, err := json.Marshal(rows); err != nil {
				b.Fatal(err)
			}
		}
	})
}
