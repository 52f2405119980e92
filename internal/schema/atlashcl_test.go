package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/stretchr/testify/require"
)

// atlas.hcl is for DBAs with the atlas CLI, which this repository cannot run:
// check at least that it parses and that every env points at our directories.
func TestAtlasHCL(t *testing.T) {
	t.Parallel()
	const root = "../.."
	f, diags := hclparse.NewParser().ParseHCLFile(filepath.Join(root, "atlas.hcl"))
	require.False(t, diags.HasErrors(), diags.Error())

	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "locals"}, {Type: "env", LabelNames: []string{"name"}},
	}})
	require.False(t, diags.HasErrors(), diags.Error())

	locals := map[string]string{}
	envs := map[string]bool{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "locals":
			attrs, diags := b.Body.JustAttributes()
			require.False(t, diags.HasErrors(), diags.Error())
			for name, a := range attrs {
				v, diags := a.Expr.Value(nil)
				require.False(t, diags.HasErrors(), diags.Error())
				locals[name] = v.AsString()
			}
		case "env":
			envs[b.Labels[0]] = true
			env, diags := b.Body.Content(&hcl.BodySchema{
				Attributes: []hcl.AttributeSchema{{Name: "src", Required: true}, {Name: "url", Required: true}, {Name: "dev", Required: true}},
				Blocks:     []hcl.BlockHeaderSchema{{Type: "migration"}},
			})
			require.False(t, diags.HasErrors(), "env %s: %s", b.Labels[0], diags.Error())
			require.Len(t, env.Blocks, 1, "env %s: one migration block", b.Labels[0])
			_, diags = env.Blocks[0].Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "dir", Required: true}}})
			require.False(t, diags.HasErrors(), diags.Error())
		}
	}
	require.True(t, envs["local"] && envs["prod"], "envs: %v", envs)
	require.Equal(t, "file://sql/postgres/schema", locals["schema_src"])
	require.Equal(t, "file://sql/postgres/migrations", locals["migration_dir"])
	for _, u := range locals {
		_, err := os.Stat(filepath.Join(root, strings.TrimPrefix(u, "file://")))
		require.NoError(t, err)
	}
}
