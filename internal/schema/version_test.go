package schema

import (
	"testing"
	"time"

	"ariga.io/atlas/sql/migrate"
	"github.com/stretchr/testify/require"
)

// A migration generated in the same second as the last one still gets a
// later version (versions have second precision; equal versions would sort
// by name and could put the new file first).
func TestNextVersionIsAfterTheLast(t *testing.T) {
	const layout = "20060102150405"
	now := time.Now().UTC().Format(layout)
	got := nextVersion([]migrate.File{migrate.NewLocalFile(now+"_init.sql", nil)})
	require.Greater(t, got, now)

	future := "20991231235959"
	require.Equal(t, "21000101000000", nextVersion([]migrate.File{migrate.NewLocalFile(future+"_x.sql", nil)}))
	require.Len(t, nextVersion(nil), len(layout))
}
