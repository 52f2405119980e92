package schema

import (
	atlas "ariga.io/atlas/sql/schema"
)

// Column collations (COLLATE "C" on identifier columns, docs/dev/performance-notes.md)
// are half seen by atlas's open-source PostgreSQL driver: it inspects a
// column's collation (when it is not the type's default) and writes it in
// CREATE TABLE and in ALTER COLUMN ... TYPE, but its diff never compares it,
// so a changed COLLATE alone would plan nothing. withCollationChanges
// completes the diff: a column whose collation differs is a type change,
// which atlas plans as ALTER COLUMN ... TYPE <type> [COLLATE ...] (no
// COLLATE: back to the type's default) and which, like any type change,
// breaks the views that read the column (breaksViews). PostgreSQL rebuilds the column's indexes with it.

// withCollationChanges returns changes plus a type change for every column of
// both current and desired whose collation differs and that atlas's diff
// left alone.
func withCollationChanges(current, desired *atlas.Schema, changes []atlas.Change) []atlas.Change {
	for _, to := range desired.Tables {
		from, ok := current.Table(to.Name)
		if !ok {
			continue // a new table: created with its collations
		}
		for _, c := range to.Columns {
			was, ok := from.Column(c.Name)
			if !ok || collation(was) == collation(c) {
				continue
			}
			changes = markTypeChange(changes, to, was, c)
		}
	}
	return changes
}

// collation is a column's collation as atlas inspected it; "" is the type's
// default.
func collation(c *atlas.Column) string {
	for _, a := range c.Attrs {
		if coll, ok := a.(*atlas.Collation); ok {
			return coll.V
		}
	}
	return ""
}

// markTypeChange flags column to of table t as changed in type, in the
// table's ModifyTable of changes (added when atlas planned none).
func markTypeChange(changes []atlas.Change, t *atlas.Table, from, to *atlas.Column) []atlas.Change {
	var mt *atlas.ModifyTable
	for _, c := range changes {
		if m, ok := c.(*atlas.ModifyTable); ok && m.T.Name == t.Name {
			mt = m
			break
		}
	}
	if mt == nil {
		mt = &atlas.ModifyTable{T: t}
		changes = append(changes, mt)
	}
	for _, c := range mt.Changes {
		if m, ok := c.(*atlas.ModifyColumn); ok && m.To.Name == to.Name {
			m.Change |= atlas.ChangeType
			return changes
		}
	}
	mt.Changes = append(mt.Changes, &atlas.ModifyColumn{From: from, To: to, Change: atlas.ChangeType})
	return changes
}
