package pgstore

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// columnsState is flight flid in variant k: every kind of column set in
// some variants and NULL in others, FRET in none, text of every kind.
func columnsState(flid int64, k int) *flight.State {
	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	at := day.Add(time.Duration(k)*time.Minute + 123456789*time.Nanosecond) // sub-microsecond: rounded alike
	minutes := int32(60 + k)
	s := &flight.State{
		FLID: flid, Lifecycle: flight.Active, StateVersion: int64(1 + k), LastMessageID: int64(100 + k),
		OperationDay: day, Scalars: map[string]flight.Value{}, Structs: map[string]flight.Struct{},
		Groups: map[string][]flight.Item{}, Payloads: map[string]flight.Payload{},
	}
	for i, name := range flight.ScalarNames {
		if (i+k)%3 == 0 {
			continue
		}
		raw := fmt.Sprintf("%s %d \"q\" \\ \t\n é 中文 \u2028 <&>", name, k)
		switch name { // CHECK constraints
		case "MVIN", "FLIN":
			raw = "D"
		}
		s.Scalars[name] = flight.Value{Raw: raw, Time: &at, Minutes: &minutes}
	}
	text := fmt.Sprintf("diverted %d", k)
	if k%2 == 0 {
		s.Structs["FDIV"] = flight.Struct{Text: &text, Attrs: map[string]string{"DDES": "PEK", "DDIR": "TO"}}
		s.FDay = &day
		s.Stamps = flight.Stamps{"*": day, "STND": at.Truncate(time.Second)}
	} else {
		s.Structs["FLAB"] = flight.Struct{Attrs: map[string]string{"ARES": "O"}}
		s.Lifecycle, s.DeletedAt = flight.Deleted, &at
		s.CreatedAt = day.Add(-time.Hour)
	}
	return s
}

// A column NULL in every flight of the batch goes as a NULL array (unnest
// pads it with NULLs), the others with an element per flight.
func TestColumnsArgsSendEmptyColumnsAsNull(t *testing.T) {
	a, b := columnsState(1, 0), columnsState(2, 1)
	a.Scalars = map[string]flight.Value{"STND": {Raw: "101"}}
	b.Scalars = map[string]flight.Value{"REMC": {Raw: "late"}}
	args := columnsArgs([]vocab.FlightWrite{{State: a}, {State: b}}, time.Now())
	defer args.release()
	p := args.p
	require.Nil(t, p.Ffid, "no flight has FFID")
	require.Nil(t, p.FretText, "no flight has FRET")
	require.Len(t, p.Stnd, 2)
	require.Equal(t, "101", string(*p.Stnd[0]))
	require.Nil(t, p.Stnd[1])
	require.Nil(t, p.Remc[0])
	require.Equal(t, "late", string(*p.Remc[1]))
	require.Len(t, p.Flid, 2)
}

// The arrays of a batch cost no allocation per value its flights hold: the
// texts the elements point to share one block (heldStrings), the stamps
// texts included, and the arrays come from a pool (21 allocations here, a
// stamps text per flight; the bound allows for the pool dropping them, as
// it does at random under the race detector).
func TestColumnsArgsAllocateNotPerValue(t *testing.T) {
	writes := make([]vocab.FlightWrite, 20)
	for i := range writes {
		writes[i] = vocab.FlightWrite{State: columnsState(int64(i+1), 2*i)} // FDIV and stamps on each
	}
	now := time.Now()
	columnsArgs(writes, now).release()
	allocs := testing.AllocsPerRun(5, func() { columnsArgs(writes, now).release() })
	require.LessOrEqual(t, allocs, float64(len(writes)+10)) // 80 values × 20 flights
	args := columnsArgs(writes, now)
	defer args.release()
	require.Equal(t, *writes[3].State.Stamps.Text(), string(*args.p.Stamps[3]))
}

// Arrays taken from the pool hold nothing of the batch before: a column
// the new batch does not set is NULL (every element, so a NULL array), and
// each element of the others is the new flight's value or NULL.
func TestColumnsArgsReusedArraysStartEmpty(t *testing.T) {
	full := make([]vocab.FlightWrite, 30)
	for i := range full {
		full[i] = vocab.FlightWrite{State: columnsState(int64(i+1), i)}
	}
	now := time.Now()
	columnsArgs(full, now).release()
	a, b := columnsState(1, 0), columnsState(2, 1)
	a.Scalars = map[string]flight.Value{"STND": {Raw: "101"}}
	b.Scalars, b.Stamps = map[string]flight.Value{}, nil
	args := columnsArgs([]vocab.FlightWrite{{State: a}, {State: b}}, now)
	defer args.release()
	p := args.p
	require.Nil(t, p.Remc, "set in the batch before, in no flight of this one")
	require.Nil(t, p.SodtAt)
	require.Equal(t, []*pgarg.Text{p.Stnd[0], nil}, p.Stnd)
	require.Equal(t, "101", string(*p.Stnd[0]))
	require.Nil(t, p.Stamps[1])
	require.Len(t, p.Flid, 2)
}
