package pgstore

import (
	"encoding/hex"
	"strconv"
	"time"

	"github.com/msgx-aodb/msgx/internal/jsonstr"
)

// The JSON rows of the set-based statements over a run (json_to_recordset:
// ProcStateFinishMany, BackfillTodoAdd) are written directly, byte for byte
// what encoding/json wrote for their former row structs: its reflection and
// a heap pointer per optional column were a few per cent of the pump's CPU.
// An optional value is either left out (omitempty) or written as null; both
// read as NULL.

// jsonArray writes the array of n objects, obj writing the columns of the
// i-th between its braces; sizeHint is the bytes of one object.
func jsonArray(n, sizeHint int, obj func(b []byte, i int) []byte) []byte {
	b := make([]byte, 0, sizeHint*n+2)
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		b = append(obj(b, i), '}')
	}
	return append(b, ']')
}

// colKey appends the key of a column, after a comma unless it is the first
// of its object.
func colKey(b []byte, key string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func colString(b []byte, key, v string) []byte { return jsonstr.Append(colKey(b, key), v) }

// colOptHex writes a non-empty v as a hex string (SQL decode(v, 'hex')); an
// empty one is left out.
func colOptHex(b []byte, key string, v []byte) []byte {
	if len(v) == 0 {
		return b
	}
	b = append(colKey(b, key), '"')
	b = hex.AppendEncode(b, v)
	return append(b, '"')
}

func colInt(b []byte, key string, v int64) []byte { return strconv.AppendInt(colKey(b, key), v, 10) }

func colTime(b []byte, key string, t time.Time) []byte {
	b = append(colKey(b, key), '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// colOptString writes a non-empty v; an empty one (NULL, as nilIfEmpty)
// is left out, or written as null when null.
func colOptString(b []byte, key, v string, null bool) []byte {
	switch {
	case v != "":
		return colString(b, key, v)
	case null:
		return append(colKey(b, key), "null"...)
	}
	return b
}

func colOptInt(b []byte, key string, v *int64, null bool) []byte {
	switch {
	case v != nil:
		return colInt(b, key, *v)
	case null:
		return append(colKey(b, key), "null"...)
	}
	return b
}

func colOptTime(b []byte, key string, t *time.Time, null bool) []byte {
	switch {
	case t != nil:
		return colTime(b, key, *t)
	case null:
		return append(colKey(b, key), "null"...)
	}
	return b
}
