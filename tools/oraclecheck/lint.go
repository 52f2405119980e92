package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/antlr4-go/antlr/v4"
	"github.com/bytebase/parser/plsql"
)

// reserved is Oracle 11g's list of reserved words (SQL Language Reference,
// appendix D; V$RESERVED_WORDS with RESERVED = 'Y'): none may name a table,
// column, constraint, index, alias or bind variable (ORA-00904 / ORA-01745).
var reserved = setOf(`ACCESS ADD ALL ALTER AND ANY AS ASC AUDIT BETWEEN BY CHAR CHECK CLUSTER
	COLUMN COMMENT COMPRESS CONNECT CREATE CURRENT DATE DECIMAL DEFAULT DELETE DESC DISTINCT DROP
	ELSE EXCLUSIVE EXISTS FILE FLOAT FOR FROM GRANT GROUP HAVING IDENTIFIED IMMEDIATE IN INCREMENT
	INDEX INITIAL INSERT INTEGER INTERSECT INTO IS LEVEL LIKE LOCK LONG MAXEXTENTS MINUS MLSLABEL
	MODE MODIFY NOAUDIT NOCOMPRESS NOT NOWAIT NULL NUMBER OF OFFLINE ON ONLINE OPTION OR ORDER
	PCTFREE PRIOR PRIVILEGES PUBLIC RAW RENAME RESOURCE REVOKE ROW ROWID ROWNUM ROWS SELECT SESSION
	SET SHARE SIZE SMALLINT START SUCCESSFUL SYNONYM SYSDATE TABLE THEN TO TRIGGER UID UNION UNIQUE
	UPDATE USER VALIDATE VALUES VARCHAR VARCHAR2 VIEW WHENEVER WHERE WITH`)

// pgFunctions are PostgreSQL functions and operators' spellings that 11g lacks.
var pgFunctions = setOf(`NOW GEN_RANDOM_UUID UUID_GENERATE_V4 STRING_AGG ARRAY_AGG UNNEST
	JSON_TO_RECORDSET JSON_BUILD_OBJECT JSONB_BUILD_OBJECT JSON_AGG JSONB_AGG TO_JSON DATE_TRUNC
	GENERATE_SERIES PG_TRY_ADVISORY_LOCK PG_ADVISORY_LOCK PG_ADVISORY_UNLOCK PG_TERMINATE_BACKEND
	SET_CONFIG CURRENT_DATABASE ARRAY_LENGTH CARDINALITY ILIKE LEFT RIGHT BTRIM ISFINITE AGE
	CLOCK_TIMESTAMP STATEMENT_TIMESTAMP TRANSACTION_TIMESTAMP`)

// types11g are the column types an 11g table may use.
var types11g = setOf(`NUMBER VARCHAR2 NVARCHAR2 CHAR NCHAR CLOB NCLOB BLOB DATE TIMESTAMP RAW
	BINARY_FLOAT BINARY_DOUBLE FLOAT INTERVAL`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// lint applies the 11g rules to a parsed statement; query is true for the
// statements of queries/*.sql (sent by the driver: one statement, no `;`).
func lint(p *Parsed, query bool) []string {
	var out []string
	add := func(tok antlr.Token, format string, args ...any) {
		line := p.Stmt.Line
		if tok != nil {
			line += tok.GetLine() - 1
		}
		where := fmt.Sprintf("%s:%d", p.Stmt.File, line)
		if p.Stmt.Name != "" {
			where += " (" + p.Stmt.Name + ")"
		}
		out = append(out, where+": "+fmt.Sprintf(format, args...))
	}

	// Token rules.
	toks := p.Tokens
	up := func(i int) string {
		if i < 0 || i >= len(toks) {
			return ""
		}
		return strings.ToUpper(toks[i].GetText())
	}
	for i, t := range toks {
		switch {
		case up(i) == "IF" && up(i+1) == "NOT" && up(i+2) == "EXISTS":
			add(t, "IF NOT EXISTS is not 11g syntax")
		case up(i) == "DEFAULT" && up(i+1) == "ON" && up(i+2) == "NULL":
			add(t, "DEFAULT ON NULL is 12c")
		case up(i) == "LIMIT" || up(i) == "ILIKE" || up(i) == "RETURNING" && !hasInto(toks[i:]):
			add(t, "%s is PostgreSQL, not Oracle 11g", up(i))
		case strings.HasPrefix(t.GetText(), ":") && len(t.GetText()) > 1:
			name := strings.ToUpper(t.GetText()[1:])
			if len(name) > 30 {
				add(t, "bind name :%s is %d bytes (at most 30)", t.GetText()[1:], len(name))
			}
			if reserved[name] {
				add(t, "bind name :%s is a reserved word (ORA-01745)", t.GetText()[1:])
			}
		case up(i+1) == "(" && pgFunctions[up(i)] && up(i-1) != ".":
			add(t, "%s() is a PostgreSQL function", up(i))
		}
	}

	// One statement, and no `;` outside PL/SQL, for a query sent by the driver.
	if query {
		units := p.Tree.AllUnit_statement()
		if len(units) != 1 {
			add(nil, "a query must be exactly one statement, found %d", len(units))
		}
		isBlock := len(units) == 1 && units[0].Anonymous_block() != nil
		if !isBlock {
			for _, t := range toks {
				if t.GetText() == ";" {
					add(t, "`;` outside PL/SQL: OCI rejects it (ORA-00911)")
					break
				}
			}
		}
	}

	antlr.ParseTreeWalkerDefault.Walk(&linter{add: add}, p.Tree)
	return out
}

func hasInto(toks []antlr.Token) bool {
	for _, t := range toks {
		if strings.EqualFold(t.GetText(), "INTO") {
			return true
		}
	}
	return false
}

type linter struct {
	*plsql.BasePlSqlParserListener
	add func(antlr.Token, string, ...any)
}

func (l *linter) VisitTerminal(antlr.TerminalNode)      {}
func (l *linter) VisitErrorNode(antlr.ErrorNode)        {}
func (l *linter) ExitEveryRule(antlr.ParserRuleContext) {}

func (l *linter) EnterEveryRule(ctx antlr.ParserRuleContext) {
	start := ctx.GetStart()
	switch c := ctx.(type) {
	case *plsql.Fetch_clauseContext:
		l.add(start, "FETCH FIRST/NEXT is 12c: use ROWNUM over an ordered inline view")
	case *plsql.Offset_clauseContext:
		l.add(start, "OFFSET ... ROWS is 12c")
	case *plsql.Identity_clauseContext:
		l.add(start, "identity columns are 12c: use a sequence")
	case *plsql.Id_expressionContext:
		name := strings.Trim(c.GetText(), `"`)
		if len(name) > 30 {
			l.add(start, "identifier %s is %d bytes (at most 30 in 11g)", name, len(name))
		}
	case *plsql.Column_definitionContext:
		if isOutOfLineConstraint(c) {
			return
		}
		l.name(c.Column_name())
		if c.Datatype() == nil {
			typ := ""
			if c.Regular_id() != nil {
				typ = c.Regular_id().GetText()
			}
			l.add(start, "column %s: type %q is not an 11g type", c.Column_name().GetText(), typ)
			return
		}
		l.datatype(c.Column_name().GetText(), c.Datatype())
	case *plsql.Create_tableContext:
		l.name(c.Table_name())
	case *plsql.Column_aliasContext:
		if c.Identifier() != nil {
			l.name(c.Identifier())
		}
	case *plsql.Constraint_nameContext, *plsql.Index_nameContext, *plsql.Table_aliasContext:
		l.name(c)
	case *plsql.Query_blockContext:
		if c.Order_by_clause() != nil && c.Where_clause() != nil && mentionsRownum(c.Where_clause()) {
			l.add(start, "ROWNUM and ORDER BY in one query block: ROWNUM is assigned before the sort; order in an inline view")
		}
	}
}

func (l *linter) name(n antlr.ParseTree) {
	if n == nil {
		return
	}
	text := strings.Trim(strings.ToUpper(n.GetText()), `"`)
	if i := strings.LastIndex(text, "."); i >= 0 {
		text = text[i+1:]
	}
	if reserved[text] {
		tok := n.(antlr.ParserRuleContext).GetStart()
		l.add(tok, "%s is an Oracle reserved word and cannot be a name", text)
	}
}

func (l *linter) datatype(col string, d plsql.IDatatypeContext) {
	start := d.GetStart()
	base := strings.ToUpper(start.GetText())
	if !types11g[base] {
		l.add(start, "column %s: type %s is not an 11g column type", col, base)
		return
	}
	if base != "VARCHAR2" && base != "NVARCHAR2" {
		return
	}
	pp := d.Precision_part()
	if pp == nil {
		l.add(start, "column %s: %s needs a length", col, base)
		return
	}
	n, _ := strconv.Atoi(pp.Numeric(0).GetText())
	bytes := n
	if pp.CHAR() != nil || base == "NVARCHAR2" {
		bytes = 4 * n // AL32UTF8: up to 4 bytes a character
	}
	if bytes > 4000 {
		l.add(start, "column %s: %s(%s) may exceed 4000 bytes, the 11g limit", col, base, pp.GetText())
	}
}

// mentionsRownum reports ROWNUM in a clause of this query block, not in a
// nested subquery (which has its own block).
func mentionsRownum(t antlr.Tree) bool {
	for i := 0; i < t.GetChildCount(); i++ {
		ch := t.GetChild(i)
		switch c := ch.(type) {
		case *plsql.Query_blockContext, *plsql.SubqueryContext:
			continue
		case antlr.TerminalNode:
			if strings.EqualFold(c.GetText(), "ROWNUM") {
				return true
			}
		default:
			if mentionsRownum(ch) {
				return true
			}
		}
	}
	return false
}

// isOutOfLineConstraint reports the grammar's reading of an out-of-line
// `CONSTRAINT name CHECK (...)` as a column named CONSTRAINT of type name
// with an inline check; Oracle itself reads it as the table constraint.
func isOutOfLineConstraint(c *plsql.Column_definitionContext) bool {
	return strings.EqualFold(c.Column_name().GetText(), "CONSTRAINT")
}
