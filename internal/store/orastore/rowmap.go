package orastore

import (
	"context"
	"database/sql"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// rowMap is one row of a SELECT * by lower-case column name, as the driver
// returned it (godror: NUMBER as godror.Number, a decimal string type).
type rowMap map[string]any

func (e executor) rowMaps(ctx context.Context, name string, binds map[string]any) ([]rowMap, error) {
	var out []rowMap
	err := e.query(ctx, name, binds, func(r *sql.Rows) error {
		cols, err := r.Columns()
		if err != nil {
			return err
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := r.Scan(ptrs...); err != nil {
			return err
		}
		m := make(rowMap, len(cols))
		for i, c := range cols {
			m[strings.ToLower(c)] = vals[i]
		}
		out = append(out, m)
		return nil
	})
	return out, err
}

func (m rowMap) str(col string) (string, bool) {
	switch v := m[col].(type) {
	case nil:
		return "", false
	case string:
		return v, true
	case []byte:
		return string(v), true
	default:
		return fmt.Sprint(v), true
	}
}

func (m rowMap) int64(col string) (int64, bool) {
	v := m[col]
	if v == nil {
		return 0, false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return rv.Int(), true
	case reflect.Float32, reflect.Float64:
		return int64(rv.Float()), true
	}
	n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("orastore: column %s: %v is not an integer", col, v))
	}
	return n, true
}

func (m rowMap) time(col string) (time.Time, bool) {
	t, ok := m[col].(time.Time)
	return t, ok
}

func (m rowMap) timePtr(col string) *time.Time {
	if t, ok := m.time(col); ok {
		return &t
	}
	return nil
}

// pick keeps the values a query binds: the maps are built with every column
// a state has, and Query.args still refuses one the query lacks.
func pick(name string, values map[string]any) map[string]any {
	q := mustQuery(name)
	out := make(map[string]any, len(q.Binds))
	for _, b := range q.Binds {
		if v, ok := values[b]; ok {
			out[b] = v
		}
	}
	return out
}
