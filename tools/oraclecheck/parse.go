package main

import (
	"fmt"

	"github.com/antlr4-go/antlr/v4"
	"github.com/bytebase/parser/plsql"
)

// Parsed is one statement after the real PL/SQL grammar: its tree and its
// visible tokens (no comments or whitespace).
type Parsed struct {
	Stmt   Statement
	Tree   plsql.ISql_scriptContext
	Tokens []antlr.Token
	Errors []string
}

type errorCollector struct {
	*antlr.DefaultErrorListener
	stmt Statement
	errs *[]string
}

func (e *errorCollector) SyntaxError(_ antlr.Recognizer, _ any, line, column int, msg string, _ antlr.RecognitionException) {
	*e.errs = append(*e.errs, fmt.Sprintf("%s:%d:%d: syntax error: %s", e.stmt.File, e.stmt.Line+line-1, column+1, msg))
}

// parse runs the bytebase PL/SQL grammar (Oracle's SQL and PL/SQL, 11g mode)
// over one statement.
func parse(s Statement) *Parsed {
	p := &Parsed{Stmt: s}
	lexer := plsql.NewPlSqlLexer(antlr.NewInputStream(s.Text))
	lexer.RemoveErrorListeners()
	lexer.AddErrorListener(&errorCollector{antlr.NewDefaultErrorListener(), s, &p.Errors})
	stream := antlr.NewCommonTokenStream(lexer, antlr.TokenDefaultChannel)
	parser := plsql.NewPlSqlParser(stream)
	parser.SetVersion12(false)
	parser.RemoveErrorListeners()
	parser.AddErrorListener(&errorCollector{antlr.NewDefaultErrorListener(), s, &p.Errors})
	parser.BuildParseTrees = true
	p.Tree = parser.Sql_script()
	for _, t := range stream.GetAllTokens() {
		if t.GetChannel() == antlr.TokenDefaultChannel && t.GetTokenType() != antlr.TokenEOF {
			p.Tokens = append(p.Tokens, t)
		}
	}
	return p
}
