package relay

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/pump"
	"github.com/msgx-aodb/msgx/internal/testenv"
)

// pipe is a relay env with the real pipeline in front of it (the shared
// test environment on the relay's store and clock): the MariaDB mailbox and
// the pump writing the outbox, so events carry real payloads.
type pipe struct {
	*env
	*testenv.Env
}

func newPipe(t testing.TB, mutate ...func(*Config)) *pipe {
	t.Helper()
	e := newEnv(t, mutate...)
	te := testenv.NewOn(t, e.st)
	te.Clock = e.clk
	te.Pump = pump.New(e.st, te.Mailbox, nil, e.clk, e.log, pump.DefaultConfig())
	return &pipe{env: e, Env: te}
}

// sampleDay sends testdata/sample-day (the `make run` day: snapshot, FLOPs,
// a cancel and a delete, an ADFT; not its dead letter) and the rich snapshot of this package's
// testdata (every group, structure and payload kind), and processes them.
func (p *pipe) sampleDay(t testing.TB) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "sample-day", "*.xml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	sort.Strings(files)
	files = append(files, filepath.Join("testdata", "rich_dnld.xml"))
	for _, f := range files {
		if strings.HasSuffix(f, "-unsupported.xml") {
			continue // the day's dead letter: it would hold the queue behind it (retries)
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		p.Send(t, string(b))
	}
	p.StepUntilWait(t)
}
