package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/api"
)

// heldBody is a request body that signals its first read (the handler is
// past the limiter) and then waits for release before giving the XML.
type heldBody struct {
	r        io.Reader
	once     sync.Once
	reading  chan struct{}
	released chan struct{}
}

func newHeldBody() *heldBody {
	return &heldBody{r: strings.NewReader(xmlBody), reading: make(chan struct{}), released: make(chan struct{})}
}

func (b *heldBody) Read(p []byte) (int, error) {
	b.once.Do(func() { close(b.reading); <-b.released })
	return b.r.Read(p)
}

// With http.max-concurrent-sends sends in flight, one more is answered 503
// with Retry-After before its body is read, and writes nothing; the sends
// in flight succeed, and once they are done a send is taken again.
func TestSendConcurrencyLimit(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	h := newRouter(t, api.Deps{Store: e.st, Mailbox: e.mb, Clock: e.clk, Log: quiet, MaxConcurrentSends: 2})
	post := func(body io.Reader) *httptest.ResponseRecorder {
		req := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/cminmsgs/send", body)
		req.Header.Set("Content-Type", "application/xml")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	held := []*heldBody{newHeldBody(), newHeldBody()}
	answers := make([]*httptest.ResponseRecorder, len(held))
	var wg sync.WaitGroup
	for i, b := range held {
		wg.Go(func() { answers[i] = post(b) })
		<-b.reading // in the handler, holding a slot
	}

	over := newHeldBody()
	close(over.released) // not held: a send past the limit must not wait
	rec := post(over)
	require.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
	require.Equal(t, "1", rec.Header().Get("Retry-After"))
	var answer struct {
		Error  string `json:"error"`
		Status int    `json:"status"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &answer))
	require.Equal(t, "2 sends in progress: retry later", answer.Error)
	require.Equal(t, http.StatusServiceUnavailable, answer.Status)
	select {
	case <-over.reading:
		t.Fatal("the refused send's body was read")
	default:
	}
	require.Zero(t, e.rows(t), "nothing written")

	for _, b := range held {
		close(b.released)
	}
	wg.Wait()
	for _, a := range answers {
		require.Equal(t, http.StatusOK, a.Code, a.Body.String())
		_, err := strconv.ParseInt(a.Body.String(), 10, 64)
		require.NoError(t, err)
	}
	require.Equal(t, 2, e.rows(t))

	rec = post(strings.NewReader(xmlBody))
	require.Equal(t, http.StatusOK, rec.Code, "slots are given back: %s", rec.Body.String())
	require.Equal(t, 3, e.rows(t))
}
