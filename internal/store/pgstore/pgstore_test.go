package pgstore_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/db/postgres"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/store/pgstore"
	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
	"github.com/msgx-aodb/msgx/internal/store/storetest"
	"github.com/msgx-aodb/msgx/internal/testdb"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) store.Store {
		return pgstore.New(testdb.Postgres(t).Pool)
	})
}

// The detail tables and the snapshot memberships have no foreign key to
// flight_schd (their checks cost 40 % of a DNLD, and most of the rest):
// FlightDelete removes a flight's detail rows and memberships itself, as ON
// DELETE CASCADE did, and leaves other flights' rows alone.
func TestFlightDeleteRemovesDetails(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	s := pgstore.New(pool)
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	state := func(flid int64) *flight.State {
		st := &flight.State{FLID: flid, Lifecycle: flight.Active, StateVersion: 1, LastMessageID: 1,
			OperationDay: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
			Scalars:      map[string]flight.Value{}, Structs: map[string]flight.Struct{}, Groups: map[string][]flight.Item{},
			Payloads: map[string]flight.Payload{"SRVT": {Format: "xml", Content: "<SRVT/>"}}}
		for _, g := range flight.Groups {
			st.Groups[g] = []flight.Item{{Fields: map[string]flight.Value{flight.GroupFields[g][0]: {Raw: "X"}}}}
		}
		return st
	}
	all := flight.Replaced(1, flight.Groups, flight.PayloadKinds)
	require.NoError(t, s.WriteFlights(t.Context(), []vocab.FlightWrite{
		{State: state(1), Changes: all, New: true}, {State: state(2), Changes: all, New: true}}, now))
	day := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	require.NoError(t, s.AdvanceSnapshotGen(t.Context(), vocab.AdvanceSnapshotGenParams{FDay: day, MessageID: 1, Now: now}))
	require.NoError(t, s.ReplaceSnapshotMembers(t.Context(), day, []int64{1, 2}))
	got, err := s.Flights(t.Context(), []int64{1})
	require.NoError(t, err)
	for _, g := range flight.Groups {
		require.Len(t, got[1].Groups[g], 1, g)
	}

	n, err := postgres.New().FlightDelete(t.Context(), pool, 1)
	require.NoError(t, err)
	require.Equal(t, int64(1), n)
	for _, table := range []string{"flight_gate", "flight_checkin", "flight_belt", "flight_stand_plan", "flight_chute",
		"flight_delay", "flight_bridge_op", "flight_chock_op", "flight_route_point", "flight_payload", "schd_gen_flid"} {
		var left, other int
		require.NoError(t, pool.QueryRow(t.Context(), "SELECT count(*) FILTER (WHERE flid = 1), count(*) FILTER (WHERE flid = 2) FROM "+table).Scan(&left, &other))
		require.Zero(t, left, table)
		require.Positive(t, other, table)
	}
}

// The pool holds enough connections for the service's concurrent users
// unless the URL sizes it.
func TestParsePoolConfig(t *testing.T) {
	t.Parallel()
	pc, err := pgstore.ParsePoolConfig("postgres://msgx@db:5432/msgx?sslmode=disable")
	require.NoError(t, err)
	require.Equal(t, int32(pgstore.DefaultMaxConns), pc.MaxConns)
	pc, err = pgstore.ParsePoolConfig("postgres://msgx@db:5432/msgx?sslmode=disable&pool_max_conns=3")
	require.NoError(t, err)
	require.Equal(t, int32(3), pc.MaxConns, "the URL's size wins")
	_, err = pgstore.ParsePoolConfig("postgres://msgx@db:5432/msgx?pool_max_conns=x")
	require.Error(t, err)
}

// A connection of the pool (ScanInUTC) encodes bigint[] parameters through
// pgarg.Register's codec, a []int64 and a []*pgarg.Int8 alike, and the server
// reads them as pgx would have written them: the values, an empty array,
// NULL for nil.
func TestInt8ArrayParameters(t *testing.T) {
	t.Parallel()
	pool := testdb.Postgres(t).Pool
	ctx := t.Context()
	c, err := pool.Acquire(ctx)
	require.NoError(t, err)
	defer c.Release()
	for _, v := range []any{[]int64{}, []*pgarg.Int8{}} {
		plan := c.Conn().TypeMap().PlanEncode(pgtype.Int8ArrayOID, pgtype.BinaryFormatCode, v)
		require.Contains(t, fmt.Sprintf("%T", plan), "pgarg.", "%T", v)
	}
	for _, a := range [][]int64{nil, {}, {-1, 0, 300, 1 << 40}} {
		var back []int64
		var null bool
		var n int
		require.NoError(t, c.QueryRow(ctx, "SELECT $1::bigint[], $1::bigint[] IS NULL, COALESCE(cardinality($1::bigint[]), 0)", a).Scan(&back, &null, &n))
		require.Equal(t, a == nil, null)
		require.Equal(t, len(a), n)
		if a != nil {
			require.Equal(t, a, back)
		}
	}
	one := pgarg.Int8(-7)
	var back []*int64
	require.NoError(t, c.QueryRow(ctx, "SELECT $1::bigint[]", []*pgarg.Int8{&one, nil}).Scan(&back))
	require.Len(t, back, 2)
	require.Equal(t, int64(-7), *back[0])
	require.Nil(t, back[1])
}

// A flight update travels as JSON without its NULL columns: a value set
// before and absent now becomes NULL, and text of any kind comes back as
// written.
func TestFlightUpdateKeepsEveryValue(t *testing.T) {
	t.Parallel()
	s := pgstore.New(testdb.Postgres(t).Pool)
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	st := &flight.State{FLID: 7, Lifecycle: flight.Active, StateVersion: 1, LastMessageID: 1,
		OperationDay: time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC),
		Scalars:      map[string]flight.Value{"STND": {Raw: "101"}, "REMC": {Raw: "first"}},
		Structs:      map[string]flight.Struct{}, Groups: map[string][]flight.Item{}, Payloads: map[string]flight.Payload{}}
	require.NoError(t, s.WriteFlights(t.Context(), []vocab.FlightWrite{{State: st, New: true}}, now))

	next := *st
	next.StateVersion, next.LastMessageID = 2, 2
	odd := "a \"quoted\" \\ back\tslash\nline é 中文 \u2028 <&>"
	next.Scalars = map[string]flight.Value{"REMC": {Raw: odd}} // STND no longer set
	require.NoError(t, s.WriteFlights(t.Context(), []vocab.FlightWrite{{State: &next}}, now.Add(time.Minute)))
	got, err := s.Flights(t.Context(), []int64{7})
	require.NoError(t, err)
	require.Equal(t, odd, got[7].Scalars["REMC"].Raw)
	_, stand := got[7].Scalars["STND"]
	require.False(t, stand, "a column absent from the update is NULL")
	require.Equal(t, int64(2), got[7].StateVersion)
	require.True(t, got[7].UpdatedAt.Equal(now.Add(time.Minute)))
}

// Connect tells a database that does not exist from a server that cannot
// be reached.
func TestConnectErrors(t *testing.T) {
	pc, err := pgstore.ParsePoolConfig(testdb.DefaultPostgresURL)
	require.NoError(t, err)
	pc.ConnConfig.Database = "msgx_no_such_database"
	_, err = pgstore.Connect(t.Context(), pc)
	require.ErrorIs(t, err, store.ErrNoDatabase)

	pc.ConnConfig.Host, pc.ConnConfig.Port, pc.ConnConfig.ConnectTimeout = "127.0.0.1", 1, time.Second
	_, err = pgstore.Connect(t.Context(), pc)
	require.ErrorIs(t, err, store.ErrUnavailable)
}
