package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/antlr4-go/antlr/v4"
	"github.com/bytebase/parser/plsql"
	"github.com/jackc/pgx/v5"
)

// Column is one column of a catalog, in table order.
type Column struct {
	Name     string // upper case
	Type     string // Oracle spelling, spaces removed, upper case
	Nullable bool
}

// Catalog maps an upper-case table name to its columns in order.
type Catalog map[string][]Column

// oracleCatalog reads tables and columns from the parse trees of the Oracle
// schema: CREATE TABLE column definitions, ALTER TABLE ... ADD columns and
// ALTER TABLE ... MODIFY (column [NOT] NULL).
func oracleCatalog(parsed []*Parsed) Catalog {
	cat := Catalog{}
	for _, p := range parsed {
		antlr.ParseTreeWalkerDefault.Walk(&catalogWalker{cat: cat}, p.Tree)
	}
	return cat
}

type catalogWalker struct {
	*plsql.BasePlSqlParserListener
	cat Catalog
}

func (w *catalogWalker) VisitTerminal(antlr.TerminalNode)      {}
func (w *catalogWalker) VisitErrorNode(antlr.ErrorNode)        {}
func (w *catalogWalker) ExitEveryRule(antlr.ParserRuleContext) {}
func (w *catalogWalker) EnterEveryRule(ctx antlr.ParserRuleContext) {
	var table string
	switch c := ctx.(type) {
	case *plsql.Create_tableContext:
		table = c.Table_name().GetText()
	case *plsql.Alter_tableContext:
		table = c.Tableview_name().GetText()
	default:
		return
	}
	table = strings.ToUpper(table)
	var visit func(t antlr.Tree)
	visit = func(t antlr.Tree) {
		if cd, ok := t.(*plsql.Column_definitionContext); ok {
			if isOutOfLineConstraint(cd) {
				return
			}
			w.cat[table] = append(w.cat[table], oracleColumn(cd))
			return
		}
		if mc, ok := t.(*plsql.Modify_col_propertiesContext); ok {
			w.modify(table, mc)
			return
		}
		for i := 0; i < t.GetChildCount(); i++ {
			visit(t.GetChild(i))
		}
	}
	visit(ctx)
}

// modify applies a MODIFY of a column's nullability to the column added before.
func (w *catalogWalker) modify(table string, mc *plsql.Modify_col_propertiesContext) {
	name := strings.ToUpper(mc.Column_name().GetText())
	for i, col := range w.cat[table] {
		if col.Name != name {
			continue
		}
		for _, ic := range mc.AllInline_constraint() {
			if c := ic.(*plsql.Inline_constraintContext); c.NULL_() != nil {
				w.cat[table][i].Nullable = c.NOT() == nil
			}
		}
	}
}

func oracleColumn(cd *plsql.Column_definitionContext) Column {
	col := Column{Name: strings.ToUpper(cd.Column_name().GetText()), Nullable: true}
	if cd.Datatype() != nil {
		col.Type = strings.ToUpper(cd.Datatype().GetText())
	} else if cd.Regular_id() != nil {
		col.Type = strings.ToUpper(cd.Regular_id().GetText())
	}
	for _, ic := range cd.AllInline_constraint() {
		c := ic.(*plsql.Inline_constraintContext)
		if c.NULL_() != nil && c.NOT() != nil || c.PRIMARY() != nil {
			col.Nullable = false
		}
	}
	return col
}

// oracleType is the 11g type each PostgreSQL column type maps to
// (sql/oracle11g/README.md, "Type mapping"); "" when it has none.
func oracleType(dataType string, charLen *int32) string {
	switch dataType {
	case "bigint":
		return "NUMBER(19)"
	case "integer":
		return "NUMBER(10)"
	case "smallint":
		return "NUMBER(5)"
	case "character varying":
		if charLen == nil {
			return "CLOB"
		}
		if *charLen > 1000 {
			// Wider than 1000 characters only for ASCII text (FLIGHT_SCHD.STAMPS):
			// byte semantics keep it within 11g's 4000 bytes.
			return fmt.Sprintf("VARCHAR2(%dBYTE)", *charLen)
		}
		return fmt.Sprintf("VARCHAR2(%dCHAR)", *charLen)
	case "text", "json", "jsonb":
		return "CLOB"
	case "timestamp with time zone":
		return "TIMESTAMP(6)WITHTIMEZONE"
	case "date":
		return "DATE"
	case "bytea":
		// msgx's only binary columns are the 16-byte message digests
		// (PROC_STATE(_HST).RAW_DIGEST, rule 2).
		return "RAW(16)"
	}
	return ""
}

// postgresCatalog applies sql/postgres/schema to a scratch database on the
// server at pgURL and reads the real catalog back.
func postgresCatalog(ctx context.Context, pgURL string, schemaFiles []string) (Catalog, error) {
	admin, err := pgx.Connect(ctx, pgURL)
	if err != nil {
		return nil, err
	}
	defer admin.Close(ctx)
	name := fmt.Sprintf("msgx_oraclecheck_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return nil, err
	}
	defer admin.Exec(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")

	cfg, err := pgx.ParseConfig(pgURL)
	if err != nil {
		return nil, err
	}
	cfg.Database = name
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	for _, f := range schemaFiles {
		ddl, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		if _, err := conn.Exec(ctx, string(ddl), pgx.QueryExecModeSimpleProtocol); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
	}
	rows, err := conn.Query(ctx, `SELECT c.table_name, c.column_name, c.data_type, c.character_maximum_length, c.is_nullable = 'YES'
		FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
		ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cat := Catalog{}
	for rows.Next() {
		var table, col, typ string
		var n *int32
		var nullable bool
		if err := rows.Scan(&table, &col, &typ, &n, &nullable); err != nil {
			return nil, err
		}
		t := oracleType(typ, n)
		if t == "" {
			t = "(no 11g type for " + typ + ")"
		}
		cat[strings.ToUpper(table)] = append(cat[strings.ToUpper(table)], Column{Name: strings.ToUpper(col), Type: t, Nullable: nullable})
	}
	return cat, rows.Err()
}

// compareCatalogs lists every difference: tables, columns, order, types, nullability.
func compareCatalogs(pg, ora Catalog) []string {
	var out []string
	for _, table := range sortedKeys(pg) {
		oc, ok := ora[table]
		if !ok {
			out = append(out, fmt.Sprintf("schema: table %s is in sql/postgres/schema but not in sql/oracle11g/schema", table))
			continue
		}
		byName := map[string]Column{}
		for _, c := range oc {
			byName[c.Name] = c
		}
		for i, pc := range pg[table] {
			c, ok := byName[pc.Name]
			switch {
			case !ok:
				out = append(out, fmt.Sprintf("schema: column %s.%s (%s) is missing in Oracle", table, pc.Name, pc.Type))
				continue
			case c.Type != pc.Type:
				out = append(out, fmt.Sprintf("schema: column %s.%s is %s in Oracle, PostgreSQL's type maps to %s", table, pc.Name, c.Type, pc.Type))
			case c.Nullable != pc.Nullable:
				out = append(out, fmt.Sprintf("schema: column %s.%s nullable %v in Oracle, %v in PostgreSQL", table, pc.Name, c.Nullable, pc.Nullable))
			}
			if i < len(oc) && oc[i].Name != pc.Name {
				out = append(out, fmt.Sprintf("schema: column %d of %s is %s in Oracle, %s in PostgreSQL (SELECT * order)", i+1, table, oc[i].Name, pc.Name))
			}
		}
		pgNames := map[string]bool{}
		for _, c := range pg[table] {
			pgNames[c.Name] = true
		}
		for _, c := range oc {
			if !pgNames[c.Name] {
				out = append(out, fmt.Sprintf("schema: column %s.%s is only in Oracle", table, c.Name))
			}
		}
	}
	for _, table := range sortedKeys(ora) {
		if _, ok := pg[table]; !ok {
			out = append(out, fmt.Sprintf("schema: table %s is only in Oracle", table))
		}
	}
	return out
}
