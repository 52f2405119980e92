package relay

import (
	"database/sql"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/mailbox"
	"github.com/msgx-aodb/msgx/internal/pipeline"
	"github.com/msgx-aodb/msgx/internal/testdb"
)

// pipe is a relay env with the real pipeline in front of it: the MariaDB
// mailbox and the pump writing the outbox, so events carry real payloads.
type pipe struct {
	*env
	mbdb *sql.DB
	mb   *mailbox.Mailbox
	pump *pipeline.Pump
}

func newPipe(t testing.TB, mutate ...func(*Config)) *pipe {
	t.Helper()
	e := newEnv(t, mutate...)
	mbdb, _ := testdb.Mailbox(t)
	mb := mailbox.New(mbdb)
	return &pipe{env: e, mbdb: mbdb, mb: mb,
		pump: pipeline.NewPump(e.st, mb, nil, e.clk, e.log, pipeline.DefaultPumpConfig())}
}

// send writes a message into the mailbox and enqueues it, as the poller would.
func (p *pipe) send(t testing.TB, xml []byte) int64 {
	t.Helper()
	id, err := p.mb.Insert(t.Context(), xml, p.clk.Now())
	require.NoError(t, err)
	_, err = p.st.Enqueue(t.Context(), []int64{id}, p.clk.Now())
	require.NoError(t, err)
	return id
}

// process steps the pump until the queue is empty or its head waits.
func (p *pipe) process(t testing.TB) {
	t.Helper()
	for range 1000 {
		wait, err := p.pump.Step(t.Context())
		require.NoError(t, err)
		if wait > 0 {
			return
		}
	}
	t.Fatal("pump did not settle")
}

// sampleDay sends testdata/sample-day (the `make run` day: snapshot, FLOPs,
// a cancel and a delete, an ADFT) and the rich snapshot of this package's
// testdata (every group, structure and payload kind), and processes them.
func (p *pipe) sampleDay(t testing.TB) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sample-day", "*.xml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	files = append(files, filepath.Join("testdata", "rich_dnld.xml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		p.send(t, b)
	}
	p.process(t)
}
