# Atlas CLI project file for msgx's own PostgreSQL schema, for DBAs who use the
# atlas CLI (https://atlasgo.io). msgx itself does not need the CLI: it embeds
# the same schema and migrations and uses the atlas Go library.
#
# Production applies only the versioned migrations of sql/postgres/migrations,
# never a declarative schema apply: `msgx schema migrate --yes` (the route of
# docs/upgrade.md, recorded in msgx_schema_version) or, for atlas users,
# `atlas migrate apply --env prod` (recorded in atlas's own revision table).
# Use one of the two per database. `msgx schema plan|apply` and env "local"'s
# `atlas schema apply` are for development databases (docs/schema.md).
#
# Environment variables:
#   MSGX_PG_URL      the database to inspect or change. For env "local" scope
#                    it to msgx's schema, as msgx does:
#                      postgres://msgx@db:5432/msgx?sslmode=disable&search_path=public
#                    For env "prod" leave search_path out: atlas then keeps its
#                    revision table in its own schema (atlas_schema_revisions)
#                    instead of among msgx's tables, where `msgx schema apply`
#                    would drop it as a stray table.
#   MSGX_PG_DEV_URL  an EMPTY throw-away database where atlas may create and
#                    drop objects to normalise the desired schema, e.g.
#                      postgres://postgres@127.0.0.1:5432/msgx_dev?sslmode=disable&search_path=public
#                    or, with Docker, the common choice:
#                      docker://postgres/15/dev?search_path=public
#                    Keep search_path=public here: migrations are written
#                    without a schema prefix, as scripts/migrate-diff writes them.
#
# Commands:
#   atlas schema diff --env local --from "$MSGX_PG_URL" --to file://sql/postgres/schema
#   atlas schema apply --env local        # declarative, development: like msgx schema apply
#   atlas migrate diff <name> --env local # like go run ./scripts/migrate-diff --name <name>
#   atlas migrate validate --env local    # atlas.sum and replay check
#   atlas migrate status --env prod       # like msgx schema status
#   atlas migrate apply --env prod        # production: like msgx schema migrate --yes

locals {
  # The desired state: plain SQL, applied in file-name order.
  schema_src = "file://sql/postgres/schema"
  # Atlas-format versioned migrations generated from it, with atlas.sum.
  migration_dir = "file://sql/postgres/migrations"
}

# A developer's or DBA's own database.
env "local" {
  src = local.schema_src
  url = getenv("MSGX_PG_URL")
  dev = getenv("MSGX_PG_DEV_URL")
  migration {
    dir = local.migration_dir
  }
}

# Production: only versioned migrations are applied here, never a declarative
# `schema apply` (docs/upgrade.md). Atlas keeps its revision table in the atlas_schema_revisions
# schema, outside msgx's tables.
env "prod" {
  src = local.schema_src
  url = getenv("MSGX_PG_URL")
  dev = getenv("MSGX_PG_DEV_URL")
  migration {
    dir = local.migration_dir
  }
}
