package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/aodbrequest"
	"github.com/msgx-aodb/msgx/internal/api"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

func (e *sendEnv) withRequests(shadow bool) func(*api.Deps) {
	return func(d *api.Deps) {
		d.AdminToken = adminToken
		d.Requests = aodbrequest.New(e.st, e.mb, e.clk, quiet,
			aodbrequest.Config{Sender: "MSGX", RoutingID: "AODB", Timeout: 10 * time.Minute, Location: airport, Shadow: shadow}, nil)
	}
}

// A flights request spanning more than request.max-days operation days
// (default 7, both ends counted) is refused with 400 before anything is
// registered; seven days are taken.
func TestAdminRequestsMaxDays(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, e.withRequests(false))
	res, body := call(t, http.MethodPost, base+"/admin/requests", bearer(adminToken),
		strings.NewReader(`{"kind":"RQFD","from":"2026-12-04T00:00","to":"2026-12-11T00:00"}`))
	requireError(t, res, body, http.StatusBadRequest)
	require.Contains(t, string(body), "the range spans 8 operation days (2026-12-04 to 2026-12-11), more than request.max-days 7")
	reqs, err := e.st.Requests(t.Context(), 1<<62, 10)
	require.NoError(t, err)
	require.Empty(t, reqs, "nothing registered")

	res, body = call(t, http.MethodPost, base+"/admin/requests", bearer(adminToken),
		strings.NewReader(`{"kind":"RQFD","from":"2026-12-04T00:00","to":"2026-12-10T23:59"}`))
	require.Equal(t, http.StatusCreated, res.StatusCode, string(body))
}

func TestAdminRequests(t *testing.T) {
	t.Parallel()
	e := newSendEnv(t)
	base := e.serve(t, e.withRequests(false))

	res, body := call(t, http.MethodPost, base+"/admin/requests", nil, strings.NewReader(`{"kind":"RQRD","list":"AIRL"}`))
	requireError(t, res, body, http.StatusUnauthorized)

	res, body = call(t, http.MethodPost, base+"/admin/requests", bearer(adminToken),
		strings.NewReader(`{"kind":"RQFD","from":"2026-12-04T00:00","to":"2026-12-04T23:59"}`))
	require.Equal(t, http.StatusCreated, res.StatusCode, string(body))
	var fl vocab.Request
	require.NoError(t, json.Unmarshal(body, &fl))
	require.Equal(t, vocab.RequestSent, fl.Status)
	require.Equal(t, "RQFD", fl.Key)
	require.NotNil(t, fl.OutboundID)
	require.Contains(t, string(body), `"from":"2026-12-03T16:00:00Z"`, "the range asked in airport time, in UTC (docs/api.md, Times)")

	res, body = call(t, http.MethodPost, base+"/admin/requests", bearer(adminToken), strings.NewReader(`{"kind":"RQRD","list":"AIRL"}`))
	require.Equal(t, http.StatusCreated, res.StatusCode, string(body))

	for _, bad := range []string{
		`{"kind":"RQFD","from":"2026-12-04","to":"2026-12-04T23:59"}`,
		`{"kind":"RQFD","from":"2026-12-05T00:00","to":"2026-12-04T23:59"}`,
		`{"kind":"RQRD","list":"NOPE"}`,
		`{"kind":"RQRD","list":"AIRL","from":"2026-12-04T00:00"}`,
		`{"kind":"XXXX"}`,
		`{"kind":"RQRD","list":"AIRL","extra":1}`,
	} {
		res, body := call(t, http.MethodPost, base+"/admin/requests", bearer(adminToken), strings.NewReader(bad))
		requireError(t, res, body, http.StatusBadRequest)
	}

	res, body = call(t, http.MethodGet, base+"/admin/requests?limit=1", bearer(adminToken), nil)
	require.Equal(t, http.StatusOK, res.StatusCode, string(body))
	var list struct {
		Requests   []vocab.Request `json:"requests"`
		NextBefore *int64          `json:"next_before"`
	}
	require.NoError(t, json.Unmarshal(body, &list))
	require.Len(t, list.Requests, 1)
	require.Equal(t, "RQRD:AIRL", list.Requests[0].Key, "newest first")
	require.NotNil(t, list.NextBefore)
	res, body = call(t, http.MethodGet, base+"/admin/requests?before="+jsonInt(*list.NextBefore), bearer(adminToken), nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.NoError(t, json.Unmarshal(body, &list))
	require.Len(t, list.Requests, 1)
	require.Equal(t, fl.ID, list.Requests[0].ID)

	shadow := e.serve(t, e.withRequests(true))
	res, body = call(t, http.MethodPost, shadow+"/admin/requests", bearer(adminToken), strings.NewReader(`{"kind":"RQRD","list":"GLST"}`))
	requireError(t, res, body, http.StatusConflict)
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
