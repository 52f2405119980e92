package pgarg

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// pgx then copies the statement's parameters into the protocol message, in
// the frontend's write buffer, which it replaces by a fresh 1 KB one after
// every flush of more (Frontend.Flush, so that a large statement does not
// stay allocated): every large statement grew it again by doubling,
// copying what it held at every step — 1.6 of the 15.2 KB msgx allocated
// per FLOP message (issue #34, docs/dev/performance-notes.md).
//
// A message's Encode appends to the buffer it is given, and the frontend
// keeps what it returns, which may be another array. So before each
// statement or batch (Tracer), the connection's frontend is sent an empty
// message (primer) whose Encode hands it a write buffer the connection
// keeps, as large as its parameter buffer and some: the statement's
// messages are encoded into it. It is the connection's alone and free again
// at the next statement: Flush writes it whole before the frontend takes
// anything else, and the caller's goroutine is the only one that sends.

// wireSlack is what a write buffer holds beyond the parameters: the
// messages around them (Bind's header and formats, Describe, Execute, Sync).
const wireSlack = 8 << 10

// Tracer is the pgx.QueryTracer and pgx.BatchTracer of a connection whose
// type map Register set up: it primes the connection's write buffer at the
// start of every Exec, Query and SendBatch, and traces nothing.
type Tracer struct{}

func (Tracer) TraceQueryStart(ctx context.Context, c *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	prime(c)
	return ctx
}

func (Tracer) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (Tracer) TraceBatchStart(ctx context.Context, c *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	prime(c)
	return ctx
}

func (Tracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (Tracer) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// prime hands c's frontend its kept write buffer, once its parameters have
// needed more than pgx keeps. A closed connection is left alone: pgx may
// still be sending its Terminate from a goroutine of its own (asyncClose),
// and the statement fails anyway.
func prime(c *pgx.Conn) {
	if pc := c.PgConn(); pc.IsClosed() || pc.IsBusy() {
		return
	}
	s := scratchOf(c.TypeMap())
	if s == nil || cap(s.buf) == 0 {
		return
	}
	if need := cap(s.buf) + wireSlack; cap(s.wire) < need {
		s.wire = make([]byte, 0, need)
	}
	c.PgConn().Frontend().Send((*primer)(s))
}

// scratchOf returns the buffers Register keeps for m's connection, or nil.
func scratchOf(m *pgtype.Map) *scratch {
	if t, ok := m.TypeForOID(pgtype.Int8ArrayOID); ok {
		if c, ok := t.Codec.(arrayCodec[Int8]); ok {
			return c.scratch
		}
	}
	return nil
}

// primer is the empty message that hands the frontend its write buffer.
type primer scratch

// Encode returns the kept write buffer in place of an empty, smaller dst.
// A dst holding messages not yet flushed (a pipeline's) stays as it is.
func (p *primer) Encode(dst []byte) ([]byte, error) {
	if len(dst) > 0 || cap(dst) >= cap(p.wire) {
		return dst, nil
	}
	return p.wire[:0], nil
}

func (*primer) Frontend()           {}
func (*primer) Decode([]byte) error { return nil }
