package nqueens_test

import (
	"errors"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/lab"
)

const modulePath = "github.com/nqueens/nqueens"

// goPackage is what a reference may name in one package of the module: its package-level
// identifiers (test files' included, exported or not), and per type its methods, fields
// and interface methods, with embedded tells that a type embeds another (whose promoted
// names are then not checked).
type goPackage struct {
	dir      string // relative to the module root, "." for the root
	name     string
	internal bool
	idents   map[string]bool
	types    map[string]bool
	members  map[string]map[string]bool // type -> method, field or interface method
	embedded map[string]bool
	files    []*ast.File
}

// modulePackages parses every Go file of the module (test files and files of every build
// tag included) outside testdata and hidden directories, one goPackage per directory.
func modulePackages(t *testing.T) (map[string]*goPackage, *token.FileSet) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs := map[string]*goPackage{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		p := pkgs[dir]
		if p == nil {
			p = &goPackage{dir: dir, internal: dir == "internal" || strings.HasPrefix(dir, "internal/") || strings.Contains(dir, "/internal/"),
				idents: map[string]bool{}, types: map[string]bool{}, members: map[string]map[string]bool{}, embedded: map[string]bool{}}
			pkgs[dir] = p
		}
		if name := f.Name.Name; !strings.HasSuffix(name, "_test") || p.name == "" {
			p.name = strings.TrimSuffix(name, "_test")
		}
		p.files = append(p.files, f)
		p.add(f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs, fset
}

func (p *goPackage) member(typ, name string) {
	if p.members[typ] == nil {
		p.members[typ] = map[string]bool{}
	}
	p.members[typ][name] = true
}

// add records the package-level identifiers of f, and the methods and fields of its types.
func (p *goPackage) add(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				p.idents[d.Name.Name] = true
				continue
			}
			typ := d.Recv.List[0].Type
			for {
				switch x := typ.(type) {
				case *ast.StarExpr:
					typ = x.X
					continue
				case *ast.IndexExpr:
					typ = x.X
					continue
				case *ast.IndexListExpr:
					typ = x.X
					continue
				}
				break
			}
			if id, ok := typ.(*ast.Ident); ok {
				p.member(id.Name, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						p.idents[n.Name] = true
					}
				case *ast.TypeSpec:
					p.idents[s.Name.Name] = true
					p.types[s.Name.Name] = true
					var fields *ast.FieldList
					switch x := s.Type.(type) {
					case *ast.StructType:
						fields = x.Fields
					case *ast.InterfaceType:
						fields = x.Methods
					}
					if fields == nil {
						continue
					}
					for _, fl := range fields.List {
						if len(fl.Names) == 0 {
							p.embedded[s.Name.Name] = true
						}
						for _, n := range fl.Names {
							p.member(s.Name.Name, n.Name)
						}
					}
				}
			}
		}
	}
}

// goRef is a reference pkg.Name or pkg.Name.Member, pkg a package name or a directory of
// the module (internal/qjoin.MaxN); the lookbehind is done by hand: the reference must
// not follow a letter, a digit, a dot, a slash, a hyphen or an underscore (so that
// "github.com/x", "a.b.C" and "e.g." are not read).
var goRef = regexp.MustCompile(`([A-Za-z0-9_./-]?)\b((?:[a-z][a-z0-9_-]*/)*[a-z][a-z0-9]*)\.([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?`)

// fileExtensions are what follows a package name in a file name, not an identifier.
var fileExtensions = map[string]bool{"go": true, "s": true, "md": true, "c": true, "h": true, "sh": true, "html": true,
	"js": true, "css": true, "json": true, "csv": true, "txt": true, "png": true, "svg": true, "mod": true, "sum": true}

// resolveRef tells why name (and member after it, when not "") resolves in none of the
// candidate packages cands, or "" when it resolves in one of them.
func resolveRef(cands []*goPackage, name, member string) string {
	why := ""
	for _, p := range cands {
		switch {
		case !p.idents[name]:
			why = "package " + p.name + " (" + p.dir + ") declares no " + name
		case member == "" || !p.types[name]:
			// a function, a variable or a constant: what follows is the member of its value
			return ""
		case p.members[name][member] || p.embedded[name]:
			return ""
		default:
			why = "package " + p.name + " (" + p.dir + "): " + name + " has no method or field " + member
		}
	}
	return why
}

// TestDocLinks's Go half: every Go reference pkg.Name or pkg.Type.Member written in a
// comment of the module's Go files (test files included) or in backquotes in the README
// and docs/*.md names a declaration that exists, so that a rename cannot leave the docs
// pointing at nothing (cmd/nqueens/lab.go named two estimates of package lab long after
// they had moved to internal/classic and internal/lasvegas). The rule:
//
//   - pkg is the name of a package of the module ("main" and the _test suffix aside), its
//     directory (internal/qjoin.MaxN), or in a Go comment the name or alias under which
//     the file imports a package of the module; other packages (the standard
//     library's, gonum's) are not checked. A name that several packages of the module
//     share resolves if one of them declares it.
//   - Name starting with a capital letter must be a package-level identifier of pkg. A
//     lowercase Name is checked only for internal packages (their comments name
//     unexported helpers by path: qjoin.tablesMaxN), against the package-level
//     identifiers, and never when it is a file extension (shard.go, floor.c).
//   - Member, when Name is a type, must be a method, field or interface method of it
//     (any member passes when the type embeds another); after a function, a variable
//     or a constant it is not checked.
//   - In Markdown only inline code (`...`) and fenced code blocks are read, so that
//     prose ("the lab. The") is never mistaken for a reference.
func testDocGoReferences(t *testing.T) {
	pkgs, fset := modulePackages(t)
	byName := map[string][]*goPackage{}
	byPath := map[string]*goPackage{}
	for _, p := range pkgs {
		byPath[strings.TrimSuffix(modulePath+"/"+p.dir, "/.")] = p
		if p.name != "main" {
			byName[p.name] = append(byName[p.name], p)
		}
	}
	checked := 0
	check := func(where, text string, imports map[string]*goPackage) {
		for _, m := range goRef.FindAllStringSubmatch(text, -1) {
			if m[1] != "" {
				continue
			}
			pkg, name, member := m[2], m[3], m[4]
			cands := byName[pkg]
			if p, ok := imports[pkg]; ok {
				cands = []*goPackage{p}
			}
			if strings.Contains(pkg, "/") {
				cands = nil
				if p, ok := pkgs[pkg]; ok {
					cands = []*goPackage{p}
				}
			}
			if len(cands) == 0 {
				continue
			}
			if lower := name[0] >= 'a' && name[0] <= 'z'; lower {
				if fileExtensions[name] || !slices.ContainsFunc(cands, func(p *goPackage) bool { return p.internal }) {
					continue
				}
			}
			checked++
			if why := resolveRef(cands, name, member); why != "" {
				t.Errorf("%s: %s: %s", where, strings.TrimPrefix(m[0], m[1]), why)
			}
		}
	}
	for _, p := range pkgs {
		for _, f := range p.files {
			imports := map[string]*goPackage{}
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				target, ok := byPath[path]
				if !ok {
					continue
				}
				name := target.name
				if im.Name != nil {
					name = im.Name.Name
				}
				imports[name] = target
			}
			for _, cg := range f.Comments {
				for _, c := range cg.List {
					if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line ") {
						continue
					}
					pos := fset.Position(c.Pos())
					check(pos.Filename+":"+strconv.Itoa(pos.Line), c.Text, imports)
				}
			}
		}
	}
	inline := regexp.MustCompile("(?s)```.*?```|`[^`\n]+`")
	docs, _ := filepath.Glob("docs/*.md")
	for _, doc := range append([]string{"README.md"}, docs...) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, loc := range inline.FindAllIndex(b, -1) {
			line := 1 + strings.Count(string(b[:loc[0]]), "\n")
			check(doc+":"+strconv.Itoa(line), string(b[loc[0]:loc[1]]), nil)
		}
	}
	// The module's comments and docs hold some 90 references: far fewer says the rule
	// stopped reading them, not that they all resolve.
	if checked < 50 {
		t.Errorf("only %d Go references found in the comments and docs: is the pattern broken?", checked)
	}
}

// TestReadmeLayout: the README's Layout names every package of the module (every
// directory that go list ./... lists: Go files other than tests that build here) and
// nothing else, one list item per package: the first inline code of an item is its
// package, "*.go" the root; an item whose first code ends in "/" is a folder whose
// packages have items of their own. (The Layout left out 8 of 25 packages, the public
// lab among them.)
func TestReadmeLayout(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n## Layout\n")
	if start < 0 {
		t.Fatal("README.md has no ## Layout section")
	}
	section := text[start+len("\n## Layout\n"):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\s*- `([^`]+)`").FindAllStringSubmatch(section, -1) {
		entry := m[1]
		switch {
		case entry == "*.go":
			entry = "."
		case strings.HasSuffix(entry, "/"):
			continue
		}
		if listed[entry] {
			t.Errorf("README.md: the Layout lists %s twice", entry)
		}
		listed[entry] = true
	}
	packages := map[string]bool{}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if _, err := build.ImportDir(path, 0); err == nil {
			packages[filepath.ToSlash(path)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(packages) < 10 {
		t.Fatalf("found only %d packages: %v", len(packages), packages)
	}
	for p := range packages {
		if !listed[p] {
			t.Errorf("README.md: the Layout does not list package %s", p)
		}
	}
	for e := range listed {
		if !packages[e] {
			t.Errorf("README.md: the Layout lists %s, which is no package of the module", e)
		}
	}
}

// TestDocLimits: where the README, docs/ or the Go documentation state a limit, it is the
// constant's value: the boards a count runs as a quadrant join (fastcount.MinQJoinN to
// qjoin.MaxN, the counter's nqueens.MaxCountN), the constellations below them, the
// largest exact Las Vegas table of the row variant (lab.MaxExactRowN), backtracking's
// largest board and auto's last board for it (as the library answers them). The help
// texts of the command print the constants themselves. A limit changed in the code
// fails here until the docs say the new one; a sentence reworded so that it no longer
// states the limit fails too, and its pattern is updated here.
func TestDocLimits(t *testing.T) {
	join := []int{fastcount.MinQJoinN, qjoin.MaxN}
	if qjoin.MaxN != nqueens.MaxCountN {
		t.Errorf("the join counts up to n = %d, the counter up to %d: the docs say one range for both", qjoin.MaxN, nqueens.MaxCountN)
	}
	var backtrackMax int // the largest n of backtracking and auto's last for it, from the library
	if se := (*nqueens.SizeError)(nil); errors.As(nqueens.Backtrack.CheckSize(math.MaxInt), &se) {
		backtrackMax = se.Max
	}
	autoMax := 1
	for nqueens.Auto.Pick(autoMax+1) == nqueens.Backtrack {
		autoMax++
	}
	for _, c := range []struct {
		file, pattern string
		want          []int
	}{
		{"README.md", `From n = (\d+) to (\d+) the count is a quadrant join`, join},
		{"README.md", "`internal/qjoin`: the quadrant join the fast counter uses for (\\d+) ≤ n ≤ (\\d+)", join},
		{"README.md", "lexicographic order, n ≤ (\\d+)\\) or `auto` \\(backtrack up to n = (\\d+),", []int{backtrackMax, autoMax}},
		{"README.md", `a different solution per seed, 4.5 bytes per queen including the verification, the default beyond n = (\d+)\)`, []int{autoMax}},
		{"README.md", `random choice for small n: n ≤ (\d+) for the row variant`, []int{lab.MaxExactRowN}},
		{"docs/counting.md", "\\| quadrant join \\| `internal/qjoin` \\| (\\d+) ≤ n ≤ (\\d+) \\|", join},
		{"docs/counting.md", "\\| border constellations \\| `internal/fastcount` \\| n ≤ (\\d+),", []int{fastcount.MinQJoinN - 1}},
		{"docs/counting.md", "Engine `qjoin/v3` counts every n up to (\\d+) ", []int{nqueens.MaxCountN}},
		{"api.go", `the quadrant join of internal/qjoin for (\d+) ≤ n ≤ (\d+) \(MaxCountN\)`, join},
		{"api.go", `weighted by their symmetry, for 1 ≤ n ≤ (\d+)\.`, []int{fastcount.MinQJoinN - 1}},
		{"api.go", `Count counts every solution of the n×n board, total and unique, for 1 ≤ n ≤ (\d+)`, []int{nqueens.MaxCountN}},
		{"cluster/plan.go", `the matcher kernel a count here runs \("" for n ≤ (\d+)\)`, []int{fastcount.MinQJoinN - 1}},
		{"internal/qjoin/doc.go", `From n = (\d+) on it is what internal/fastcount runs`, []int{fastcount.MinQJoinN}},
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(c.file, ".go") { // the comments read as one text
			b = regexp.MustCompile(`(?m)^\s*//`).ReplaceAll(b, nil)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		m := regexp.MustCompile(c.pattern).FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s no longer says %q", c.file, c.pattern)
			continue
		}
		for i, w := range c.want {
			if got, _ := strconv.Atoi(m[i+1]); got != w {
				t.Errorf("%s: %q says %d, the constant is %d", c.file, m[0], got, w)
			}
		}
	}
}
