package apperr_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
)

func TestOfLooksThroughWrapping(t *testing.T) {
	t.Parallel()
	cause := errors.New("pq: relation \"secret\" does not exist")
	coded := &apperr.Error{Code: apperr.CodeDB, Message: "the database could not run the query", Err: cause}
	tests := []struct {
		name     string
		err      error
		wantCode apperr.Code
		wantMsg  string
	}{
		{"nil", nil, "", ""},
		{"plain error", cause, "", ""},
		{"coded", coded, apperr.CodeDB, "the database could not run the query"},
		{"wrapped once", fmt.Errorf("turn: %w", coded), apperr.CodeDB, "the database could not run the query"},
		{"wrapped twice", fmt.Errorf("ask: %w", fmt.Errorf("turn: %w", coded)), apperr.CodeDB, "the database could not run the query"},
		{"joined", errors.Join(cause, coded), apperr.CodeDB, "the database could not run the query"},
		{"outer code wins", &apperr.Error{Code: apperr.CodeBadRequest, Message: "outer", Err: coded}, apperr.CodeBadRequest, "outer"},
		{"errorf", apperr.Errorf(apperr.CodeNotFound, "no conversation %q", "c_1"), apperr.CodeNotFound, `no conversation "c_1"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := apperr.CodeOf(tc.err); got != tc.wantCode {
				t.Errorf("CodeOf = %q, want %q", got, tc.wantCode)
			}
			if got := apperr.MessageOf(tc.err); got != tc.wantMsg {
				t.Errorf("MessageOf = %q, want %q", got, tc.wantMsg)
			}
		})
	}
}

func TestErrorKeepsCause(t *testing.T) {
	t.Parallel()
	cause := errors.New("dial tcp 10.0.0.1:5432: connection refused")
	err := fmt.Errorf("turn: %w", &apperr.Error{Code: apperr.CodeDB, Message: "the database could not run the query", Err: cause})
	if !errors.Is(err, cause) {
		t.Error("errors.Is does not find the cause")
	}
	want := "turn: DB_ERROR: the database could not run the query: dial tcp 10.0.0.1:5432: connection refused"
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got := apperr.MessageOf(err); got != "the database could not run the query" {
		t.Errorf("MessageOf = %q carries more than the safe message", got)
	}
}

// TestCodesListsEveryConstant reads this package's source: a Code constant
// missing from Codes() would escape the tests that check each code is
// documented and mapped.
func TestCodesListsEveryConstant(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "apperr.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []apperr.Code
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, v := range vs.Values {
				lit := v.(*ast.BasicLit)
				declared = append(declared, apperr.Code(lit.Value[1:len(lit.Value)-1]))
			}
		}
	}
	codes := apperr.Codes()
	if !slices.Equal(declared, codes) {
		t.Errorf("Codes() = %v\nconstants = %v", codes, declared)
	}
	shape := regexp.MustCompile(`^[A-Z]+(_[A-Z]+)*$`)
	seen := map[apperr.Code]bool{}
	for _, c := range codes {
		if !shape.MatchString(string(c)) {
			t.Errorf("code %q is not UPPER_SNAKE_CASE", c)
		}
		if seen[c] {
			t.Errorf("code %q is listed twice", c)
		}
		seen[c] = true
	}
}
