package main

import (
	"fmt"
	"path/filepath"
	"sort"
)

// compareQueries checks that every PostgreSQL query (but one that says
// `-- postgres only: <why>`) has its Oracle twin in the file of the same
// name, with the same `:kind`, and that every other Oracle query is a
// declared step (`-- step of: X`) of PostgreSQL queries.
func compareQueries(pg, ora map[string][]Statement) []string {
	var out []string
	for _, file := range sortedKeys(pg) {
		oraByName := map[string]Statement{}
		for _, s := range ora[file] {
			oraByName[s.Name] = s
		}
		pgByName := map[string]Statement{}
		for _, q := range pg[file] {
			pgByName[q.Name] = q
			o, ok := oraByName[q.Name]
			switch {
			case !ok && q.PostgresOnly:
			case !ok:
				out = append(out, fmt.Sprintf("%s: %s has no Oracle twin in sql/oracle11g/queries/%s", q.where(), q.Name, file))
			case o.Kind != q.Kind:
				out = append(out, fmt.Sprintf("%s: kind %s, PostgreSQL twin has %s", o.where(), o.Kind, q.Kind))
			}
		}
		for _, o := range ora[file] {
			if _, ok := pgByName[o.Name]; ok || o.OracleOnly {
				continue
			}
			if len(o.StepOf) == 0 {
				out = append(out, fmt.Sprintf("%s: no PostgreSQL query %s in %s (a helper says `-- step of: <query>` or `-- oracle only: <why>`)", o.where(), o.Name, file))
			}
			for _, p := range o.StepOf {
				if _, ok := pgByName[p]; !ok {
					out = append(out, fmt.Sprintf("%s: step of unknown PostgreSQL query %s", o.where(), p))
				}
			}
		}
	}
	for _, file := range sortedKeys(ora) {
		if _, ok := pg[file]; ok {
			continue
		}
		for _, o := range ora[file] {
			if !o.OracleOnly {
				out = append(out, fmt.Sprintf("%s: no PostgreSQL query file %s (an adapter-only statement says `-- oracle only: <why>`)", o.where(), file))
			}
		}
	}
	return out
}

func byFile(stmts []Statement) map[string][]Statement {
	m := map[string][]Statement{}
	for _, s := range stmts {
		m[filepath.Base(s.File)] = append(m[filepath.Base(s.File)], s)
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
