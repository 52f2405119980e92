package pgstore

import (
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/flight"
)

// valueColumns maps SIS value names to the columns of a generated row type:
// <name> holds the raw text, <name>_at the parsed time, <name>_minutes a
// duration, <name>_days a day offset. Resolved once by reflection over the
// sqlc json tags (which are the column names), so the adapter has no
// hand-written list of 80 columns to drift from the schema.
type valueColumns []valueColumn

type valueColumn struct {
	name                   string
	raw, at, minutes, days int // field indexes, -1 when absent
}

func columnsOf(rowType reflect.Type, names []string) valueColumns {
	index := map[string]int{}
	for i := 0; i < rowType.NumField(); i++ {
		index[rowType.Field(i).Tag.Get("json")] = i
	}
	find := func(col string) int {
		if i, ok := index[col]; ok {
			return i
		}
		return -1
	}
	cols := make(valueColumns, len(names))
	for i, n := range names {
		col := strings.ToLower(n)
		c := valueColumn{name: n, raw: find(col), at: find(col + "_at"), minutes: find(col + "_minutes"), days: find(col + "_days")}
		if c.raw < 0 {
			panic(fmt.Sprintf("pgstore: %s has no column %q", rowType.Name(), col))
		}
		cols[i] = c
	}
	return cols
}

// present is how many values row holds, what get adds to a map: a map
// sized by it is not grown value by value.
func (cs valueColumns) present(row reflect.Value) int {
	n := 0
	for _, c := range cs {
		if !row.Field(c.raw).IsNil() {
			n++
		}
	}
	return n
}

// get reads the values present in row (a pointer to a generated struct).
func (cs valueColumns) get(row reflect.Value, into map[string]flight.Value) {
	for _, c := range cs {
		raw := row.Field(c.raw).Interface().(*string)
		if raw == nil {
			continue
		}
		v := flight.Value{Raw: *raw}
		if c.at >= 0 {
			v.Time = row.Field(c.at).Interface().(*time.Time)
		}
		if c.minutes >= 0 {
			v.Minutes = row.Field(c.minutes).Interface().(*int32)
		}
		if c.days >= 0 {
			v.Days = row.Field(c.days).Interface().(*int32)
		}
		into[c.name] = v
	}
}

// set writes values into row; names absent from values become NULL.
func (cs valueColumns) set(row reflect.Value, values map[string]flight.Value) {
	// The row's raw columns point into one block per row, not one string
	// each (a flight row has dozens); its capacity never grows, so the
	// pointers stay valid.
	raws := make([]string, 0, len(values))
	for _, c := range cs {
		v, ok := values[c.name]
		if !ok {
			continue // the zero struct already holds NULLs
		}
		raws = append(raws, v.Raw)
		row.Field(c.raw).Set(reflect.ValueOf(&raws[len(raws)-1]))
		if c.at >= 0 && v.Time != nil {
			row.Field(c.at).Set(reflect.ValueOf(v.Time))
		}
		if c.minutes >= 0 && v.Minutes != nil {
			row.Field(c.minutes).Set(reflect.ValueOf(v.Minutes))
		}
		if c.days >= 0 && v.Days != nil {
			row.Field(c.days).Set(reflect.ValueOf(v.Days))
		}
	}
}
