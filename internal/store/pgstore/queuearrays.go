package pgstore

import (
	"time"

	"github.com/msgx-aodb/msgx/db/pgarrays"
	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// The rows of ProcStateFinishMany and BackfillTodoAdd
// (sql/postgres/arrays): element i of each array is the column of row i,
// pointing into the caller's rows (nothing copied). A column NULL in every
// row goes as a NULL array (made at its first non-NULL element), which
// unnest in the select list pads with NULLs. An empty string or digest goes
// as NULL, as the JSON rows before left it out.

// setAt sets element i of an n-element array, made at its first value.
func setAt[T any](col *[]*T, n, i int, v *T) {
	if v == nil {
		return
	}
	if *col == nil {
		*col = make([]*T, n)
	}
	(*col)[i] = v
}

// optText is s as an element, nil (NULL) when empty.
func optText(s *string) *pgarg.Text {
	if *s == "" {
		return nil
	}
	return (*pgarg.Text)(s)
}

// microTime is t as pgx's binary encoding of a time.Time sends it
// (truncated to the microsecond), where pgarg.Timestamptz rounds as the
// JSON's text was read: the scalar now of a statement stays what it was.
func microTime(t time.Time) *pgarg.Timestamptz {
	t = t.Truncate(time.Microsecond)
	return (*pgarg.Timestamptz)(&t)
}

// bound is every bound finish's bind element (an unbound one's is NULL).
var bound = pgarg.Bool(true)

func finishColumns(finishes []vocab.Finish) pgarrays.ProcStateFinishManyParams {
	n := len(finishes)
	a := pgarrays.ProcStateFinishManyParams{
		Now: microTime(finishes[0].Now), MsgID: make([]*pgarg.Int8, n), Status: make([]*pgarg.Text, n),
	}
	for i := range finishes {
		p := &finishes[i]
		a.MsgID[i], a.Status[i] = (*pgarg.Int8)(&p.MsgID), (*pgarg.Text)(&p.Status)
		setAt(&a.ErrorClass, n, i, optText(&p.ErrorClass))
		setAt(&a.Reason, n, i, optText(&p.Reason))
		setAt(&a.DuplicateOf, n, i, (*pgarg.Int8)(p.DuplicateOf))
		if r := &p.Read; r.Status != "" { // what the row must still be (NULL replay count: 0)
			setAt(&a.ReadStatus, n, i, (*pgarg.Text)(&r.Status))
			if r.ReplayCount != 0 {
				setAt(&a.ReadReplayCount, n, i, (*pgarg.Int8)(&r.ReplayCount))
			}
			setAt(&a.ReadIdentity, n, i, optText(&r.IdentityKey))
		}
		b := p.Bind
		if b == nil {
			continue
		}
		setAt(&a.Bind, n, i, &bound)
		setAt(&a.IdentityKey, n, i, optText(&b.IdentityKey))
		setAt(&a.Kind, n, i, optText(&b.Kind))
		setAt(&a.MsgType, n, i, optText(&b.Meta.Type))
		setAt(&a.MsgSubtype, n, i, optText(&b.Meta.Styp))
		setAt(&a.MetaSndr, n, i, optText(&b.Meta.Sndr))
		setAt(&a.MetaSeqn, n, i, (*pgarg.Int8)(b.Meta.Seqn))
		setAt(&a.MetaDttmRaw, n, i, optText(&b.Meta.DttmRaw))
		setAt(&a.MetaDttm, n, i, (*pgarg.Timestamptz)(b.Meta.Dttm))
		if len(b.Digest) > 0 {
			setAt(&a.RawDigest, n, i, (*pgarg.Bytea)(&b.Digest))
		}
	}
	return a
}

func backfillColumns(todos []vocab.Backfill) pgarrays.BackfillTodoAddParams {
	n := len(todos)
	a := pgarrays.BackfillTodoAddParams{
		MsgID: make([]*pgarg.Int8, n), MailboxStatus: make([]*pgarg.Text, n),
		ProcessedAt: make([]*pgarg.Timestamptz, n), Registration: make([]*pgarg.Int8, n),
	}
	for i := range todos {
		t := &todos[i]
		a.MsgID[i], a.MailboxStatus[i] = (*pgarg.Int8)(&t.MsgID), (*pgarg.Text)(&t.MailboxStatus)
		a.ProcessedAt[i], a.Registration[i] = (*pgarg.Timestamptz)(&t.ProcessedAt), (*pgarg.Int8)(&t.Registration)
		setAt(&a.MetaSndr, n, i, optText(&t.Meta.Sndr))
		setAt(&a.MetaSeqn, n, i, (*pgarg.Int8)(t.Meta.Seqn))
		setAt(&a.MetaDttm, n, i, (*pgarg.Timestamptz)(t.Meta.Dttm))
		setAt(&a.MetaType, n, i, optText(&t.Meta.Type))
		setAt(&a.MetaStyp, n, i, optText(&t.Meta.Styp))
	}
	return a
}
