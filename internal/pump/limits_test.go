package pump

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// Rule 15: limits are checked before any write. A value longer than its
// column is DEAD(PROTOCOL) at the first attempt, naming the field and the
// flight; nothing of it is written and the queue moves on.
func TestValueLongerThanItsColumnIsProtocol(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 1001)
	cases := []struct {
		name, msg, reason string
	}{
		{"scalar", flop("REMC", 1, "<REMC>"+long+"</REMC>"),
			"FLID 1/REMC: 1001 characters, the column flight_schd.remc holds 1000"},
		{"detail item field", flop("GTDT", 1, gates("C3", long)),
			"FLID 1/GTDT[2]/GATE: 1001 characters, the column flight_gate.gate holds 1000"},
		// An enumeration keeps its raw text; padded it outgrows VARCHAR(1).
		{"narrow item field", flop("ABTM", 1, `<ABTM ASNO="1"><ABOP> A </ABOP></ABTM>`),
			"FLID 1/ABTM[1]/ABOP: 3 characters, the column flight_bridge_op.abop holds 1"},
		{"schedule record", schd("UPD", fltr(1, "<REMC>"+long+"</REMC>")),
			"FLID 1/REMC: 1001 characters, the column flight_schd.remc holds 1000"},
		{"reference key", envelope("AIRL", "UPD", "<RECS>1</RECS><AIRL><ALCD>"+long+"</ALCD></AIRL>"),
			"AIRL record 1/ALCD: 1001 characters, the column ref_master.rkey holds 1000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The refused message in the middle of a run of plain messages:
			// those before it take the batch path, it and those after it
			// the one-by-one path; and at the head of a run.
			for _, before := range []int{2, 0} {
				e := newEnv(t)
				e.Send(t, schd("DNLD", fltr(1, gates("A1"), "<REMC>old</REMC>")))
				e.StepUntilWait(t)
				var ok []int64
				for i := range before {
					ok = append(ok, e.Send(t, flop("STND", 1, fmt.Sprintf("<STND>%d</STND>", i))))
				}
				bad := e.Send(t, c.msg)
				after := e.Send(t, flop("STND", 1, "<STND>after</STND>"))
				e.StepUntilWait(t)

				m := e.msg(t, bad)
				require.Equal(t, vocab.StatusDead, m.Status, "%s: %s", m.ErrorClass, m.Reason)
				require.Equal(t, string(vocab.ClassProtocol), m.ErrorClass)
				require.Equal(t, c.reason, m.Reason)
				require.Zero(t, m.Attempts, "refused at the first attempt")
				require.Empty(t, m.IdentityKey, "a refused message binds no identity")
				require.Empty(t, e.events(t, bad))
				for _, id := range append(ok, after) {
					require.Equal(t, vocab.StatusSucceeded, e.msg(t, id).Status, "message %d", id)
				}
				f := e.flight(t, 1)
				require.Equal(t, "old", f.Scalars["REMC"].Raw, "the flight is unchanged by the refused message")
				require.Equal(t, "A1", f.Groups[flight.GroupGates][0].Fields["GATE"].Raw)
				require.Empty(t, f.Groups[flight.GroupBridgeOps])
				require.Equal(t, "after", f.Scalars["STND"].Raw, "the queue moved on")
				_, err := e.Store.Ref(t.Context(), "AIRL", long)
				require.ErrorIs(t, err, store.ErrNotFound)
			}
		})
	}
}

// A SNDR longer than its column is refused naming SNDR; the META values
// that fit are still bound for audit and backfilled, the SNDR as NULL.
func TestSenderLongerThanItsColumnIsProtocol(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.Send(t, schd("DNLD", fltr(1)))
	e.StepUntilWait(t)
	sndr := strings.Repeat("S", 40)
	bad := e.Send(t, strings.Replace(flop("STND", 1, "<STND>9</STND>"), "<SNDR>AODB</SNDR>", "<SNDR>"+sndr+"</SNDR>", 1))
	after := e.Send(t, flop("STND", 1, "<STND>10</STND>"))
	e.StepUntilWait(t)

	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status, "%s: %s", m.ErrorClass, m.Reason)
	require.Equal(t, string(vocab.ClassProtocol), m.ErrorClass)
	require.Equal(t, "MSG/META/SNDR: 40 characters, the column proc_state.meta_sndr holds 32", m.Reason)
	require.Empty(t, m.IdentityKey)
	require.Empty(t, m.Meta.Sndr, "the SNDR that does not fit is not bound")
	require.Equal(t, "FLOP", m.Meta.Type, "the META that fits is bound")
	require.Equal(t, "STND", m.Meta.Styp)
	require.Equal(t, "20261202080000", m.Meta.DttmRaw)
	require.NotNil(t, m.Meta.Seqn)
	require.NotNil(t, m.Meta.Dttm)
	require.Equal(t, vocab.StatusSucceeded, e.msg(t, after).Status)
	require.Equal(t, "10", e.flight(t, 1).Scalars["STND"].Raw)

	var todo *vocab.Backfill
	for i := range e.todos {
		if e.todos[i].MsgID == bad {
			todo = &e.todos[i]
		}
	}
	require.NotNil(t, todo, "the refused message is backfilled")
	require.Equal(t, vocab.StatusDead, todo.MailboxStatus)
	require.Empty(t, todo.Meta.Sndr)
	require.Equal(t, "FLOP", todo.Meta.Type)
}

// A snapshot naming a flight twice is refused at the first attempt naming
// the FLID (it failed schd_gen_flid_pkey as INFRA until EXHAUSTED); an
// update naming a flight twice applies its records in order.
func TestSnapshotNamingAFlightTwiceIsProtocol(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bad := e.Send(t, schd("DNLD", fltr(1), fltr(2), fltr(1, "<STND>7</STND>")))
	upd := e.Send(t, schd("UPD", fltr(3, "<STND>1</STND>"), fltr(3, "<STND>2</STND>")))
	e.StepUntilWait(t)

	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status, "%s: %s", m.ErrorClass, m.Reason)
	require.Equal(t, string(vocab.ClassProtocol), m.ErrorClass)
	require.Zero(t, m.Attempts)
	require.Contains(t, m.Reason, "FLID 1 is named twice in the DNLD snapshot")
	require.Nil(t, e.flight(t, 1), "nothing of the snapshot is written")
	require.Nil(t, e.flight(t, 2))
	require.Empty(t, e.events(t, bad))
	_, err := e.Store.SnapshotGen(t.Context(), time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	require.ErrorIs(t, err, store.ErrNotFound, "no generation advanced")

	require.Equal(t, vocab.StatusSucceeded, e.msg(t, upd).Status)
	require.Equal(t, "2", e.flight(t, 3).Scalars["STND"].Raw)
}

// A TYPE longer than its column is refused too; the message is still
// backfilled (its status), with the TYPE as NULL.
func TestTypeLongerThanItsColumnIsProtocol(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bad := e.Send(t, envelope("FLOPFLOPF", "STND", "<FLOP><FLID>1</FLID></FLOP>"))
	e.StepUntilWait(t)

	m := e.msg(t, bad)
	require.Equal(t, vocab.StatusDead, m.Status, "%s: %s", m.ErrorClass, m.Reason)
	require.Equal(t, "MSG/META/TYPE: 9 characters, the column proc_state.msg_type holds 8", m.Reason)
	require.Empty(t, m.Meta.Type)
	require.Equal(t, "AODB", m.Meta.Sndr)
	require.Len(t, e.todos, 1, "the refused message is backfilled")
	require.Equal(t, vocab.StatusDead, e.todos[0].MailboxStatus)
	require.Empty(t, e.todos[0].Meta.Type)
}
