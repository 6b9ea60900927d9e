package nqueens_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// maxRootNames is the budget of the root package's exported identifiers, methods of
// exported types included (issue 29: 145 when it was filed, 164 at its widest). The root
// keeps the board, the entry points, verification and I/O; counts that outgrow one run
// are package cluster's, the teaching side package lab's. A new name that a Go user
// wants may take a free place; one past the budget means moving a concern out.
const maxRootNames = 115

// exportedNames returns the exported identifiers of the package in dir (its files other
// than tests): constants, variables, functions, types, and Type.Method for the exported
// methods of exported types.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						names = append(names, d.Name.Name)
						continue
					}
					recv := d.Recv.List[0].Type
					if s, ok := recv.(*ast.StarExpr); ok {
						recv = s.X
					}
					if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
						names = append(names, id.Name+"."+d.Name.Name)
					}
				case *ast.GenDecl:
					for _, spec := range d.Specs {
						switch s := spec.(type) {
						case *ast.TypeSpec:
							if s.Name.IsExported() {
								names = append(names, s.Name.Name)
							}
						case *ast.ValueSpec:
							for _, id := range s.Names {
								if id.IsExported() {
									names = append(names, id.Name)
								}
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(names)
	return names
}

// TestRootSurface: the root package stays within its budget of exported identifiers.
func TestRootSurface(t *testing.T) {
	names := exportedNames(t, ".")
	t.Logf("the root exports %d identifiers (budget %d)", len(names), maxRootNames)
	if len(names) > maxRootNames {
		t.Errorf("the root exports %d identifiers, more than its budget of %d:\n%s", len(names), maxRootNames, strings.Join(names, " "))
	}
	if len(names) < 50 {
		t.Errorf("only %d exported identifiers found: the count is broken", len(names))
	}
}

// isTest tells whether f, parsed into fset, is a test file.
func isTest(fset *token.FileSet, f *ast.File) bool {
	return strings.HasSuffix(fset.Position(f.Pos()).Filename, "_test.go")
}

// TestNoSwitches: no test changes a package-level variable of the code it tests. Tuning
// constants are consts and test settings are options passed in (issue 29: thirteen
// variables were switches that tests flipped, so that the code under test was not the
// code that ships). A test that assigns one fails here, naming the variable.
func TestNoSwitches(t *testing.T) {
	pkgs, fset := modulePackages(t)
	for _, p := range pkgs {
		vars := map[string]bool{} // the package-level variables of the code
		for _, f := range p.files {
			if isTest(fset, f) {
				continue
			}
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
					for _, spec := range g.Specs {
						for _, id := range spec.(*ast.ValueSpec).Names {
							vars[id.Name] = true
						}
					}
				}
			}
		}
		if len(vars) == 0 {
			continue
		}
		for _, f := range p.files {
			if !isTest(fset, f) || strings.HasSuffix(f.Name.Name, "_test") {
				continue // code, or an external test, which sees only the exported names: errors, tables
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				local := localNames(fn)
				check := func(e ast.Expr) {
					if id := rootIdent(e); id != nil && vars[id.Name] && !local[id.Name] {
						t.Errorf("%s sets the package-level variable %s: make it a const, or a setting passed in", fset.Position(e.Pos()), id.Name)
					}
				}
				ast.Inspect(fn.Body, func(n ast.Node) bool {
					switch s := n.(type) {
					case *ast.AssignStmt:
						if s.Tok != token.DEFINE {
							for _, e := range s.Lhs {
								check(e)
							}
						}
					case *ast.IncDecStmt:
						check(s.X)
					}
					return true
				})
			}
		}
	}
}

// rootIdent is the variable an assignment to e changes: x of x, x.f, x[i], (*x).
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// localNames are the names fn declares itself (parameters, :=, var), which shadow the
// package's.
func localNames(fn *ast.FuncDecl) map[string]bool {
	local := map[string]bool{}
	add := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				local[id.Name] = true
			}
		}
	}
	add(fn.Recv)
	add(fn.Type.Params)
	add(fn.Type.Results)
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, e := range s.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						local[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range s.Names {
				local[id.Name] = true
			}
		case *ast.FuncLit:
			add(s.Type.Params)
			add(s.Type.Results)
		case *ast.RangeStmt:
			if s.Tok == token.DEFINE {
				for _, e := range []ast.Expr{s.Key, s.Value} {
					if id, ok := e.(*ast.Ident); ok {
						local[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return local
}

// TestLibraryReadsNoEnvironment: only commands (package main) read environment
// variables; the library takes settings as options (the kernel is CountOptions.Kernel,
// which the command fills from NQUEENS_KERNEL; ParseShard takes a getenv function).
func TestLibraryReadsNoEnvironment(t *testing.T) {
	readers := map[string]bool{"Getenv": true, "LookupEnv": true, "Environ": true}
	pkgs, fset := modulePackages(t)
	if pkgs["."] == nil {
		t.Fatal("not run from the module root")
	}
	for _, p := range pkgs {
		for _, f := range p.files {
			if isTest(fset, f) || f.Name.Name == "main" {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if pkg, ok := sel.X.(*ast.Ident); ok && (pkg.Name == "os" || pkg.Name == "syscall") && readers[sel.Sel.Name] {
					t.Errorf("%s reads the environment (%s.%s): take it as an option, and let the command read it", fset.Position(sel.Pos()), pkg.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}
