package app

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/msgx-aodb/msgx/internal/dbopen"
	"github.com/msgx-aodb/msgx/internal/store"
	"github.com/msgx-aodb/msgx/internal/vocab"
)

// noSchema is a store whose tables are missing: every read is ErrSchema, as
// orastore maps ORA-00942 and pgstore 42P01.
type noSchema struct{ store.Store }

func (noSchema) QueueHead(context.Context, int) ([]vocab.QueueEntry, error) {
	return nil, fmt.Errorf("%w: ORA-00942: table or view does not exist", store.ErrSchema)
}

// TestCheckSchemaOracle: on Oracle too a missing schema stops the start
// with the command that brings it (msgx schema reads the dialect from the
// same configuration), named for the database it is.
func TestCheckSchemaOracle(t *testing.T) {
	t.Parallel()
	err := checkSchema(t.Context(), &dbopen.DB{Name: vocab.DependencyOracle, Product: "Oracle", Store: noSchema{}})
	require.ErrorContains(t, err, "Oracle: msgx's schema is missing or outdated (store: schema missing or outdated: ORA-00942: table or view does not exist); run: msgx schema migrate --yes")
}
