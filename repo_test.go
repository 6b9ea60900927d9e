package nqueens_test

import (
	"context"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/qjoin"
)

// TestMakeLintOutsideGit runs the Makefile's lint target in a copy of the project
// that is not a git checkout (a release tarball, say), with a misformatted file and a
// standard input that never ends, as a terminal's: it must name the file and fail,
// not wait for input.
func TestMakeLintOutsideGit(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"Makefile":     string(mk),
		"go.mod":       "module lintcheck\n\ngo 1.22\n",
		"ok.go":        "package lintcheck\n\nfunc OK() {}\n",
		"sub/messy.go": "package sub\nfunc  Messy( ) {}\n",
	}
	for name, body := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "make", "-s", "lint")
	cmd.Dir = dir
	// On the timeout, kill make and the gofmt it started, which holds the output.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = append(os.Environ(), "GIT_DIR="+filepath.Join(dir, "no-git"), "GOFLAGS=-mod=mod")
	stdin, _ := cmd.StdinPipe() // kept open until the end
	defer stdin.Close()
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("make lint still running after 30 s (reading standard input?): %s", out)
	}
	if err == nil || !strings.Contains(string(out), filepath.Join("sub", "messy.go")) {
		t.Fatalf("make lint: %v, want a failure naming sub/messy.go: %s", err, out)
	}
}

// TestDocLinks: every relative link of the README and of docs/ names a file of the
// repository, and nothing points outside it (a clone has no sibling folders); and every
// Go reference pkg.Name in a Go comment or in the code of the README and docs/ names a
// declaration of the module (subtest go; the rule is testDocGoReferences').
func TestDocLinks(t *testing.T) {
	t.Run("go", testDocGoReferences)
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	docs, _ := filepath.Glob("docs/*.md")
	for _, doc := range append([]string{"README.md"}, docs...) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path := filepath.Join(filepath.Dir(doc), target)
			if rel, err := filepath.Rel(".", path); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s: link %s leaves the repository", doc, target)
				continue
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s: link %s: %v", doc, target, err)
			}
		}
		if strings.Contains(string(b), "../shared") {
			t.Errorf("%s mentions ../shared, which a clone does not have", doc)
		}
	}
}

// TestCommandFrontDoor: the command and the web board reach the engines only through the
// public packages, so everything they do is there for a Go user too, and they can only
// parse and print what those compute (the web board imports nqueens and lab, the command
// those, cluster and web). Their tests may look inside (known counts, file formats); their
// own files may not, but for the one piece of plumbing that a command needs and no engine
// is: files written whole (internal/atomicfile), which the root package no longer exports
// for the command's sake. (What 0 workers means, the results report; writers take a
// context; byte counts for people are the command's own.)
func TestCommandFrontDoor(t *testing.T) {
	for dir, public := range map[string][]string{
		"cmd/nqueens": {"github.com/nqueens/nqueens", "github.com/nqueens/nqueens/cluster", "github.com/nqueens/nqueens/lab",
			"github.com/nqueens/nqueens/web",
			"github.com/nqueens/nqueens/internal/atomicfile"}, // plumbing, no engine
		"web": {"github.com/nqueens/nqueens", "github.com/nqueens/nqueens/lab"},
	} {
		pkg, err := build.ImportDir(dir, 0)
		if err != nil || len(pkg.GoFiles) == 0 {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, path := range pkg.Imports { // the non-test files' imports
			if strings.HasPrefix(path, "github.com/nqueens/nqueens") && !slices.Contains(public, path) {
				t.Errorf("%s imports %s, not one of %v", dir, path, public)
			}
		}
	}
}

// TestLabOwnTypes: package lab exports no alias of an internal type, so that go doc shows
// the fields of every type it returns (go doc ./lab SweepResult showed none).
func TestLabOwnTypes(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "lab", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, spec := range g.Specs {
					if ts := spec.(*ast.TypeSpec); ts.Assign.IsValid() && ts.Name.IsExported() {
						t.Errorf("%s: type %s is an alias", name, ts.Name.Name)
					}
				}
			}
		}
	}
}

// TestNoEmbeddedPointers: no exported struct type of the library or of package lab embeds
// a pointer: the fields it promotes would panic when read through a nil one
// (lab.LasVegasRow embedded *Sampled, so t.Rows[0].PSE of an exact table panicked).
func TestNoEmbeddedPointers(t *testing.T) {
	for _, dir := range []string{".", "lab"} {
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			for name, f := range pkg.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					ts, ok := n.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() {
						return true
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						return true
					}
					for _, fl := range st.Fields.List {
						if _, ptr := fl.Type.(*ast.StarExpr); ptr && len(fl.Names) == 0 {
							t.Errorf("%s: %s embeds %s: its promoted fields panic when it is nil", name, ts.Name.Name, fset.Position(fl.Pos()))
						}
					}
					return true
				})
			}
		}
	}
}

// TestDocFacts: the Go documentation says what the code does, where a user needs it:
// Count's range of n and the kernels CountOptions.Kernel takes (FastCounter's said
// 10 ≤ n ≤ 21 and "go or avx2"); what cancellation returns; that SolveOptions' zero
// seed is a fixed seed, and that FindResult carries none.
func TestDocFacts(t *testing.T) {
	docs := typeAndFuncDocs(t, ".")
	max := strconv.Itoa(nqueens.MaxCountN)
	for name, wants := range map[string][]string{
		"CountOptions": {"NQUEENS_KERNEL", `"` + qjoin.KernelGo.String() + `"`, qjoin.KernelAVX2.String(), qjoin.KernelAVX512.String(), "ErrKernel", "*MemoryError"},
		"Count":        {"≤ n ≤ " + max, "Interrupted", "ctx.Err()", "SubsDone", "ErrKernel", "MaxMemory"},
		"SolveOptions": {"seed 0", "fixed seed", "random"},
		"FindResult":   {"no seed"},
	} {
		doc, ok := docs[name]
		if !ok {
			t.Errorf("no documentation of %s", name)
		}
		for _, w := range wants {
			if !strings.Contains(doc, w) {
				t.Errorf("the documentation of %s does not say %q:\n%s", name, w, doc)
			}
		}
	}
}

// typeAndFuncDocs returns the documentation of each exported type (with its fields') and
// function of the package in dir.
func typeAndFuncDocs(t *testing.T, dir string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil && d.Doc != nil {
						out[d.Name.Name] += d.Doc.Text()
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						ts, ok := s.(*ast.TypeSpec)
						if !ok {
							continue
						}
						text := d.Doc.Text() + ts.Doc.Text()
						if st, ok := ts.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								text += fl.Doc.Text() + fl.Comment.Text()
							}
						}
						out[ts.Name.Name] += text
					}
				}
			}
		}
	}
	return out
}

// TestLongTestsRange: the README and the Makefile say the same boards for make
// test-long (the README said 15..17, the Makefile 15..18).
func TestLongTestsRange(t *testing.T) {
	rangeRE := regexp.MustCompile(`n = (\d+)\.\.(\d+)`)
	find := func(file, near string) string {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		i := strings.Index(text, near)
		if i < 0 {
			t.Fatalf("%s does not mention %q", file, near)
		}
		m := rangeRE.FindString(text[i:min(len(text), i+200)])
		if m == "" {
			t.Fatalf("%s: no range of n after %q", file, near)
		}
		return m
	}
	readme, makefile := find("README.md", "make test-long"), find("Makefile", "The longer runs")
	if readme != makefile {
		t.Errorf("make test-long: the README says %s, the Makefile %s", readme, makefile)
	}
}

// TestClusterDocPlanning: docs/cluster.md gives the memory a shard process takes to plan
// n = 27 at least as the peaks measured, so that a cluster sized by it does not run out
// (issue 30: 654 MB, and 854 MB with --shards 1000000, where the page said 0.5 GB; since
// the plans of engine qjoin/v3 keep 4 bytes a row set and stream the split, 356 MB and
// 390 MB; since the plan counts its sampled slices without storing them, 55 MB and 148 MB:
// plan 27 -w 2, and with --shards 1000000 --only 12345, on a 2-core Intel Xeon,
// 2026-12-03).
func TestClusterDocPlanning(t *testing.T) {
	const measured, measuredSplit = 0.055, 0.148 // GB, peak RSS of planning n = 27 (qjoin/v3)
	b, err := os.ReadFile("docs/cluster.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	m := regexp.MustCompile(`plans the whole board first:.{0,80}?([0-9.]+) GB at n = 27 \(.{0,80}?([0-9.]+) GB with ` + "`--shards 1000000`").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("docs/cluster.md does not give the memory of planning n = 27, and with --shards 1000000")
	}
	plain, _ := strconv.ParseFloat(m[1], 64)
	split, _ := strconv.ParseFloat(m[2], 64)
	if plain < measured-0.01 || split < measuredSplit-0.01 {
		t.Errorf("docs/cluster.md: planning n = 27 takes %.2f GB (%.2f GB with --shards 1000000); measured %.3f (%.3f)", plain, split, measured, measuredSplit)
	}
}

// TestReadingApartFromVerifying: the text readers (read*.go) hand their rows to a sink and
// know nothing of verifying: no name declared in the root's verify*.go appears in them
// (issue 40). VerifyPlacements plugs its check in as a sink; the dependency runs one way.
func TestReadingApartFromVerifying(t *testing.T) {
	fset := token.NewFileSet()
	declared := map[string]string{} // name → the verify file declaring it
	readers := map[string]*ast.File{}
	files, _ := filepath.Glob("*.go")
	for _, name := range files {
		isVerify, isRead := strings.HasPrefix(name, "verify"), strings.HasPrefix(name, "read")
		if strings.HasSuffix(name, "_test.go") || !isVerify && !isRead {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if isRead {
			readers[name] = f
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = name
					case *ast.ValueSpec:
						for _, id := range s.Names {
							declared[id.Name] = name
						}
					}
				}
			}
		}
	}
	if len(readers) < 3 || len(declared) < 10 {
		t.Fatalf("found %d readers and %d verify names: the scan is broken", len(readers), len(declared))
	}
	for name, f := range readers {
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && declared[id.Name] != "" {
				t.Errorf("%s: %s uses %s, declared in %s", fset.Position(id.Pos()), name, id.Name, declared[id.Name])
			}
			return true
		})
	}
}
