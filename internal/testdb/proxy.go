package testdb

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TCPProxy forwards a local port to a server, and can cut it: Cut closes
// the port (new connections are refused) and every connection through it;
// Restore listens on the same port again. It stands for a database whose
// host goes away and comes back.
type TCPProxy struct {
	target string
	// Addr is the proxy's host:port, what a DSN names instead of the server.
	Addr string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]struct{}
}

func NewTCPProxy(t testing.TB, target string) *TCPProxy {
	t.Helper()
	p := &TCPProxy{target: target, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.Cut)
	return p
}

func (p *TCPProxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

func (p *TCPProxy) forward(c net.Conn) {
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, s) {
		c.Close()
		s.Close()
		return
	}
	go func() { _, _ = io.Copy(s, c); s.Close() }()
	_, _ = io.Copy(c, s)
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, s)
	p.mu.Unlock()
}

// track registers a connection pair unless the proxy is cut.
func (p *TCPProxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	for _, c := range conns {
		p.conns[c] = struct{}{}
	}
	return true
}

// Cut refuses new connections and breaks the open ones.
func (p *TCPProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Restore accepts connections on the same port again.
func (p *TCPProxy) Restore(t testing.TB) {
	t.Helper()
	ln, err := net.Listen("tcp", p.Addr)
	require.NoError(t, err)
	p.serve(ln)
}
