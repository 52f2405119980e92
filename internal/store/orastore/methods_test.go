package orastore

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// TestEveryMethodBindsExactly calls every store method over the fake driver
// with small non-empty arguments, once per delivery target: a method whose
// binds differ from its query file fails here (Query.args), before any
// server sees it. Errors of the empty fake answers (not found, conflict)
// are expected; panics and bind mismatches are not.
func TestEveryMethodBindsExactly(t *testing.T) {
	at := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	iface := reflect.TypeFor[store.Store]()
	for _, target := range []string{vocab.TargetSchd, vocab.TargetMsg} {
		_, s := newFake(t)
		v := reflect.ValueOf(s)
		for i := 0; i < iface.NumMethod(); i++ {
			m := iface.Method(i)
			if m.Name == "Begin" || m.Name == "Close" {
				continue
			}
			args := make([]reflect.Value, m.Type.NumIn())
			for j := range args {
				args[j] = argFor(m.Type.In(j), target, at)
			}
			t.Run(fmt.Sprintf("%s/%s", m.Name, target), func(t *testing.T) {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("panic: %v", r)
					}
				}()
				out := v.MethodByName(m.Name).Call(args)
				if err, _ := out[len(out)-1].Interface().(error); err != nil && strings.Contains(err.Error(), "binds do not match") {
					t.Fatal(err)
				}
			})
		}
	}
}

// argFor is a small valid argument of type t.
func argFor(t reflect.Type, target string, at time.Time) reflect.Value {
	switch t {
	case reflect.TypeFor[context.Context]():
		return reflect.ValueOf(ctx)
	case reflect.TypeFor[time.Time]():
		return reflect.ValueOf(at)
	case reflect.TypeFor[[]vocab.FlightWrite]():
		s := sampleState()
		return reflect.ValueOf([]vocab.FlightWrite{{State: s}, {State: s, New: true}})
	}
	switch t.Kind() {
	case reflect.String:
		return reflect.ValueOf(target).Convert(t)
	case reflect.Int, reflect.Int64:
		return reflect.ValueOf(1).Convert(t)
	case reflect.Slice:
		sl := reflect.MakeSlice(t, 1, 1)
		sl.Index(0).Set(argFor(t.Elem(), target, at))
		return sl
	case reflect.Struct:
		v := reflect.New(t).Elem()
		for i := 0; i < t.NumField(); i++ {
			if f := v.Field(i); f.CanSet() && f.Kind() == reflect.Struct && f.Type() == reflect.TypeFor[time.Time]() {
				f.Set(reflect.ValueOf(at))
			}
		}
		return v
	}
	return reflect.Zero(t)
}
