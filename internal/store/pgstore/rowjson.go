package pgstore

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/msgx-aodb/msgx/internal/jsonstr"
)

// rowEncoder encodes generated row structs as the JSON array of objects
// that json_to_recordset reads, leaving out NULL columns (nil pointers): a
// missing key reads as NULL. A flight row has ~90 columns, most of them NULL,
// and parsing the JSON was most of the cost of the flight upsert; leaving
// the NULLs out made that parse about three times faster.
type rowEncoder[T any] struct{ fields []rowField }

type rowField struct {
	key   string // `"name":`
	index int
}

// newRowEncoder reads T's json tags once (a package-level variable per type).
func newRowEncoder[T any]() *rowEncoder[T] {
	t := reflect.TypeFor[T]()
	e := &rowEncoder[T]{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		e.fields = append(e.fields, rowField{key: strconv.Quote(name) + ":", index: i})
	}
	return e
}

func (e *rowEncoder[T]) encode(rows []T) []byte {
	buf := make([]byte, 0, 512*len(rows)+2)
	buf = append(buf, '[')
	for i := range rows {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = e.appendRow(buf, reflect.ValueOf(&rows[i]).Elem())
	}
	return append(buf, ']')
}

var timeType = reflect.TypeFor[time.Time]()

func (e *rowEncoder[T]) appendRow(buf []byte, row reflect.Value) []byte {
	buf = append(buf, '{')
	first := true
	for _, f := range e.fields {
		v := row.Field(f.index)
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				continue
			}
			v = v.Elem()
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, f.key...)
		switch {
		case v.Kind() == reflect.String:
			buf = jsonstr.Append(buf, v.String())
		case v.CanInt():
			buf = strconv.AppendInt(buf, v.Int(), 10)
		case v.Type() == timeType:
			buf = append(buf, '"')
			// By address: a time.Time in an interface would be a copy on the heap.
			buf = v.Addr().Interface().(*time.Time).AppendFormat(buf, time.RFC3339Nano)
			buf = append(buf, '"')
		default: // not in today's rows; correct, if slower
			js, err := json.Marshal(v.Interface())
			if err != nil {
				panic(err) // every generated column type marshals
			}
			buf = append(buf, js...)
		}
	}
	return append(buf, '}')
}
