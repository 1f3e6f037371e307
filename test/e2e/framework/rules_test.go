package framework

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryE2ETestSaysHowItShares is the suite's isolation rule: every
// test's first statement is framework.Parallel(t) or
// framework.Serial(t, why), so that no test shares the environment by
// accident.
func TestEveryE2ETestSaysHowItShares(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "*_test.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no e2e test files found: %v", err)
	}
	fset := token.NewFileSet()
	tests := 0
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			tests++
			if got := firstCall(fn); got != "framework.Parallel" && got != "framework.Serial" {
				t.Errorf("%s: %s begins with %q; begin it with framework.Parallel(t) or framework.Serial(t, why)",
					fset.Position(fn.Pos()), fn.Name.Name, got)
			}
		}
	}
	if tests < 10 {
		t.Errorf("only %d tests found in %v", tests, files)
	}
}

// firstCall names the function the first statement of fn calls, as
// written (pkg.Func), or "" when it is not a call.
func firstCall(fn *ast.FuncDecl) string {
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return ""
	}
	expr, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return ""
	}
	call, ok := expr.X.(*ast.CallExpr)
	if !ok {
		return ""
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name + "." + sel.Sel.Name
		}
	}
	if id, ok := call.Fun.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
