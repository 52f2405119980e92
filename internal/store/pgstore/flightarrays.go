package pgstore

import (
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/msgx-aodb/msgx/db/pgarrays"
	"github.com/msgx-aodb/msgx/internal/flight"
	"github.com/msgx-aodb/msgx/internal/store/pgstore/pgarg"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// FlightUpsertColumns takes flight i's row as element i of one array per
// column (sql/postgres/arrays/flight.sql). The elements point into the
// states written: filling the arrays copies nothing but the values' texts,
// which are map values. A column NULL in every row goes as a NULL array,
// which unnest in the select list pads with NULLs: a batch of FLOPs sets a
// score of the 92 columns, and each array sent costs pgx and PostgreSQL
// (binding it) per element and per array.

var columnsParamsType = reflect.TypeFor[pgarrays.FlightUpsertColumnsParams]()

// columnsValues: the columns of each SIS value; columnsValueIndex: its
// index there by name, for the values a state holds (a dozen or two of the
// 80).
var (
	columnsValues     = columnsOf(columnsParamsType, flight.ScalarNames)
	columnsValueIndex = func() map[string]int {
		m := make(map[string]int, len(columnsValues))
		for i, c := range columnsValues {
			m[c.name] = i
		}
		return m
	}()
)

// columnKinds counts the parameter arrays by type; columnOrdinals is each
// field's place among those of its type: field i's array is
// [ordinal*n, ordinal*n+n) of its type's backing slice (newColumns).
var columnKinds, columnOrdinals = func() (map[reflect.Type]int, []int) {
	kinds := map[reflect.Type]int{}
	ords := make([]int, columnsParamsType.NumField())
	for i := range ords {
		t := columnsParamsType.Field(i).Type
		ords[i] = kinds[t]
		kinds[t]++
	}
	return kinds, ords
}()

// flightColumnsArgs holds one statement's arguments and the backing
// slices of the value columns' arrays, so that filling them is plain
// indexing, and the texts they point to that live in maps (held).
type flightColumnsArgs struct {
	p     pgarrays.FlightUpsertColumnsParams
	n     int
	texts []*pgarg.Text
	times []*pgarg.Timestamptz
	int4s []*pgarg.Int4
	int8s []*pgarg.Int8
	dates []*pgarg.Date
	held  heldStrings
}

// columnsPool keeps a statement's arrays for the next: a batch's are tens
// of KB of pointers, garbage once the statement is sent, and were a tenth
// of what a FLOP allocated (collected and zeroed anew per batch).
var columnsPool = sync.Pool{New: func() any { return new(flightColumnsArgs) }}

// newColumns takes the arrays for n rows from the pool, every element
// NULL: one backing slice per element type, cut into the columns in field
// order; held has room for held strings. release returns them.
func newColumns(n, held int) *flightColumnsArgs {
	a := columnsPool.Get().(*flightColumnsArgs)
	a.n = n
	a.texts = nulls(a.texts, columnKinds[reflect.TypeFor[[]*pgarg.Text]()]*n)
	a.times = nulls(a.times, columnKinds[reflect.TypeFor[[]*pgarg.Timestamptz]()]*n)
	a.int4s = nulls(a.int4s, columnKinds[reflect.TypeFor[[]*pgarg.Int4]()]*n)
	a.int8s = nulls(a.int8s, columnKinds[reflect.TypeFor[[]*pgarg.Int8]()]*n)
	a.dates = nulls(a.dates, columnKinds[reflect.TypeFor[[]*pgarg.Date]()]*n)
	if cap(a.held) < held {
		a.held = make(heldStrings, 0, held)
	}
	v := reflect.ValueOf(&a.p).Elem()
	for i := range v.NumField() {
		at := columnOrdinals[i] * n
		// The field's address: an interface holding a pointer costs no
		// allocation, where one holding the slice would.
		switch f := v.Field(i).Addr().Interface().(type) {
		case *[]*pgarg.Text:
			*f = a.texts[at : at+n : at+n]
		case *[]*pgarg.Timestamptz:
			*f = a.times[at : at+n : at+n]
		case *[]*pgarg.Int4:
			*f = a.int4s[at : at+n : at+n]
		case *[]*pgarg.Int8:
			*f = a.int8s[at : at+n : at+n]
		case *[]*pgarg.Date:
			*f = a.dates[at : at+n : at+n]
		default:
			panic(fmt.Sprintf("pgstore: FlightUpsertColumnsParams.%s is a %s", columnsParamsType.Field(i).Name, v.Field(i).Type()))
		}
	}
	return a
}

// nulls is s as n NULL elements (a pooled slice is all NULL: release
// clears it), reallocated when too short.
func nulls[T any](s []*T, n int) []*T {
	if cap(s) < n {
		return make([]*T, n)
	}
	return s[:n]
}

// release clears the arrays, so that the pool keeps no state alive, and
// returns them to the pool. The statement has been sent: pgx has encoded
// the arguments.
func (a *flightColumnsArgs) release() {
	clear(a.texts)
	clear(a.times)
	clear(a.int4s)
	clear(a.int8s)
	clear(a.dates)
	clear(a.held)
	a.held = a.held[:0]
	a.p = pgarrays.FlightUpsertColumnsParams{}
	columnsPool.Put(a)
}

// nullEmpty sends the columns NULL in every row as NULL arrays.
func (a *flightColumnsArgs) nullEmpty() {
	v := reflect.ValueOf(&a.p).Elem()
	for i := range v.NumField() {
		empty := true
		switch f := v.Field(i).Addr().Interface().(type) {
		case *[]*pgarg.Text:
			empty = allNil(*f)
		case *[]*pgarg.Timestamptz:
			empty = allNil(*f)
		case *[]*pgarg.Int4:
			empty = allNil(*f)
		case *[]*pgarg.Int8:
			empty = allNil(*f)
		case *[]*pgarg.Date:
			empty = allNil(*f)
		}
		if empty {
			v.Field(i).SetZero()
		}
	}
}

func allNil[T any](s []*T) bool {
	for _, p := range s {
		if p != nil {
			return false
		}
	}
	return true
}

// columnsArgs is FlightUpsertColumns's arguments for the states of writes:
// each flight's row as setRow fills a FlightSchd. Its caller releases them
// once the statement is sent.
func columnsArgs(writes []vocab.FlightWrite, now time.Time) *flightColumnsArgs {
	// The values' raw texts and the structure attributes are map values,
	// not addressable, and the stamps text is built: copied into one block,
	// sized so that it never grows (growing would move what the arrays
	// point to).
	size := 0
	for _, w := range writes {
		size += len(w.State.Scalars) + rowHeld
	}
	a := newColumns(len(writes), size)
	held := &a.held
	str := func(s string) *pgarg.Text { return (*pgarg.Text)(held.add(s)) }
	attr := func(s flight.Struct, name string) *pgarg.Text { return (*pgarg.Text)(held.attr(s, name)) }
	at := (*pgarg.Timestamptz)(&now)
	p := &a.p
	for i, w := range writes {
		s := w.State
		for name, v := range s.Scalars {
			ci, ok := columnsValueIndex[name]
			if !ok {
				continue // not a column: setRow writes none either
			}
			c := columnsValues[ci]
			a.texts[columnOrdinals[c.raw]*a.n+i] = str(v.Raw)
			if c.at >= 0 && v.Time != nil {
				a.times[columnOrdinals[c.at]*a.n+i] = (*pgarg.Timestamptz)(v.Time)
			}
			if c.minutes >= 0 && v.Minutes != nil {
				a.int4s[columnOrdinals[c.minutes]*a.n+i] = (*pgarg.Int4)(v.Minutes)
			}
		}
		fdiv, fret, flab := s.Structs["FDIV"], s.Structs["FRET"], s.Structs["FLAB"]
		p.FdivText[i], p.FdivDdes[i], p.FdivDdir[i] = (*pgarg.Text)(fdiv.Text), attr(fdiv, "DDES"), attr(fdiv, "DDIR")
		p.FretText[i], p.FretReid[i] = (*pgarg.Text)(fret.Text), attr(fret, "REID")
		p.FlabText[i], p.FlabAres[i] = (*pgarg.Text)(flab.Text), attr(flab, "ARES")
		p.Flid[i] = (*pgarg.Int8)(&s.FLID)
		p.OperationDay[i] = (*pgarg.Date)(&s.OperationDay)
		p.Fday[i] = (*pgarg.Date)(s.FDay)
		p.Lifecycle[i] = (*pgarg.Text)(&s.Lifecycle)
		p.DeletedAt[i] = (*pgarg.Timestamptz)(s.DeletedAt)
		p.StateVersion[i] = (*pgarg.Int8)(&s.StateVersion)
		p.LastMessageID[i] = (*pgarg.Int8)(&s.LastMessageID)
		p.CreatedAt[i] = (*pgarg.Timestamptz)(&s.CreatedAt)
		if s.CreatedAt.IsZero() {
			p.CreatedAt[i] = at
		}
		p.UpdatedAt[i] = at
		p.Stamps[i] = (*pgarg.Text)(held.stamps(s.Stamps))
	}
	a.nullEmpty()
	return a
}
