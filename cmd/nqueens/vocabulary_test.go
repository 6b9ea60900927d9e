package main

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// vocabRow is a row of docs/vocabulary.md: the names of one concept.
type vocabRow struct {
	section, concept          string
	goNames, json, text, flag []string
	web                       []string // the web API's query parameters
	note                      string   // the lab's table: the commands' name it deviates from
}

var backticked = regexp.MustCompile("`([^`]+)`")

// readVocabulary parses the tables of docs/vocabulary.md: its sections "The commands"
// and "The lab", their columns found by their headers.
func readVocabulary(t *testing.T) []vocabRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "vocabulary.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []vocabRow
	section := ""
	var cols []string
	for _, line := range strings.Split(string(b), "\n") {
		if s, ok := strings.CutPrefix(line, "## "); ok {
			section, cols = s, nil
			continue
		}
		if !strings.HasPrefix(line, "|") || section == retiredSection {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if cols == nil {
			cols = cells
			continue
		}
		if strings.HasPrefix(cells[0], "---") {
			continue
		}
		if len(cells) != len(cols) {
			t.Fatalf("vocabulary.md: %d cells under %d headers: %s", len(cells), len(cols), line)
		}
		r := vocabRow{section: section, concept: cells[0]}
		for i, h := range cols {
			var names []string
			for _, m := range backticked.FindAllStringSubmatch(cells[i], -1) {
				names = append(names, m[1])
			}
			switch h {
			case "Go":
				r.goNames = names
			case "JSON":
				r.json = names
			case "Text":
				r.text = names
			case "Flag":
				r.flag = names
			case "Web":
				r.web = names
			case "Commands' name":
				r.note = cells[i]
			}
		}
		rows = append(rows, r)
	}
	if len(rows) < 20 {
		t.Fatalf("vocabulary.md: only %d rows read", len(rows))
	}
	return rows
}

// retiredSection is the section of docs/vocabulary.md that lists the retired names.
const retiredSection = "Retired names"

// retiredName is a row of docs/vocabulary.md's "Retired names": a name that gave up one
// of its meanings (a key, or a flag with its --), the name that took that meaning over,
// and the commands (`lab backtrack`) and endpoints (`/api/lab/backtrack`) where the old
// name must not come back.
type retiredName struct {
	old   string
	now   []string
	where []string
}

// readRetired parses the table of docs/vocabulary.md's "Retired names".
func readRetired(t *testing.T) []retiredName {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "vocabulary.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, tail, ok := strings.Cut(string(b), "\n## "+retiredSection+"\n")
	if !ok {
		t.Fatalf("vocabulary.md: no section %q", retiredSection)
	}
	var out []retiredName
	for _, line := range strings.Split(tail, "\n") {
		if strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if !strings.HasPrefix(line, "|") || len(cells) != 4 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") {
			continue
		}
		names := func(cell string) []string {
			var ns []string
			for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
				ns = append(ns, m[1])
			}
			return ns
		}
		old := names(cells[0])
		if len(old) != 1 {
			continue // the header
		}
		r := retiredName{old: old[0], now: names(cells[2]), where: names(cells[3])}
		if len(r.now) == 0 || len(r.where) == 0 {
			t.Errorf("vocabulary.md: the retired %s names no new name or no place: %s", r.old, line)
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		t.Fatal("vocabulary.md: no retired names read")
	}
	return out
}

// isFlag says whether a retired name is a flag's.
func (r retiredName) isFlag() bool { return strings.HasPrefix(r.old, "--") }

// place returns the place of r that the command line or request target what is at ("":
// none): a command's path followed by its arguments (`lab backtrack` for "lab backtrack
// 5 --json"), an endpoint's path, or its path and first parameters, followed by more.
func (r retiredName) place(what string) string {
	for _, w := range r.where {
		if what == w || strings.HasPrefix(what, w+" ") || (strings.HasPrefix(w, "/") &&
			(strings.HasPrefix(what, w+"?") || strings.HasPrefix(what, w+"&"))) {
			return w
		}
	}
	return ""
}

// snake spells a Go name as a key: SubsDone is subs_done, JSON json, Row1 row1.
func snake(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// libraryNames returns the exported names of package nqueens and, prefixed with
// "cluster." and "lab.", of packages cluster and lab (non-test files): their
// package-level identifiers, and Type.Field and Type.Method.
func libraryNames(t *testing.T) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	packageNames(t, filepath.Join("..", ".."), "nqueens", "", names)
	packageNames(t, filepath.Join("..", "..", "cluster"), "cluster", "cluster.", names)
	packageNames(t, filepath.Join("..", "..", "lab"), "lab", "lab.", names)
	return names
}

// labKeys fails for a JSON key of package lab's types (a field's tag) that is not a JSON
// key of docs/vocabulary.md's tables (keys), and for a field that does not spell its key,
// the key in CamelCase, a part of it an initialism maybe (PSE is p_se). The counters of
// lab.RunResult, which has no JSON, spell keys of the tables too: a run's counters are
// named as the tables' rows.
func labKeys(t *testing.T, keys map[string][]vocabRow) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join("..", "..", "lab"), func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil || pkgs["lab"] == nil {
		t.Fatalf("package lab: %v", err)
	}
	seen := 0
	for _, f := range pkgs["lab"].Files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Name.IsExported() {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				key := ""
				if fl.Tag != nil {
					tag, _ := strconv.Unquote(fl.Tag.Value)
					key, _, _ = strings.Cut(reflect.StructTag(tag).Get("json"), ",")
				}
				for _, name := range fl.Names {
					k := key
					if k == "" && ts.Name.Name == "RunResult" && name.Name != "Placement" {
						k = snake(name.Name)
					}
					if k == "" || k == "-" || !name.IsExported() {
						continue
					}
					seen++
					what := "lab." + ts.Name.Name + "." + name.Name
					if len(keys[k]) == 0 {
						t.Errorf("%s: its key %q is not in docs/vocabulary.md", what, k)
					}
					if !spells(name.Name, k) {
						t.Errorf("%s does not spell its key %q", what, k)
					}
				}
			}
			return false
		})
	}
	if seen < 50 {
		t.Errorf("package lab: only %d keys found", seen)
	}
}

// spells says whether the Go name is the key in CamelCase, each part of the key (between
// its underscores) capitalised or, an initialism, in capitals: NsPerQueen is ns_per_queen,
// PSE p_se.
func spells(name, key string) bool {
	part, rest, more := strings.Cut(key, "_")
	if part == "" {
		return false
	}
	for _, p := range []string{strings.ToUpper(part[:1]) + part[1:], strings.ToUpper(part)} {
		if tail, ok := strings.CutPrefix(name, p); ok && ((!more && tail == "") || (more && spells(tail, rest))) {
			return true
		}
	}
	return false
}

// packageNames adds the exported names of package pkg in dir to names, each after prefix.
func packageNames(t *testing.T, dir, pkg, prefix string, names map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pkgs[pkg] == nil {
		t.Fatalf("no package %s in %s", pkg, dir)
	}
	for _, f := range pkgs[pkg].Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					names[prefix+d.Name.Name] = true
					continue
				}
				rt := d.Recv.List[0].Type
				if s, ok := rt.(*ast.StarExpr); ok {
					rt = s.X
				}
				names[prefix+rt.(*ast.Ident).Name+"."+d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						names[prefix+s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									names[prefix+s.Name.Name+"."+n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							names[prefix+n.Name] = true
						}
					}
				}
			}
		}
	}
}

// jsonKeys adds the keys of every object in the JSON values of out (one per line) to keys.
func jsonKeys(t *testing.T, what, out string, keys map[string]string) {
	t.Helper()
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if _, ok := keys[k]; !ok {
					keys[k] = what
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("%s: not JSON: %.200s", what, line)
			continue
		}
		walk(v)
	}
}

var textKey = regexp.MustCompile(`(?:^|[\s(])([a-z][a-z0-9_]*)=`)

// textKeys adds the keys of the key=value pairs of out to keys.
func textKeys(what, out string, keys map[string]string) {
	for _, m := range textKey.FindAllStringSubmatch(out, -1) {
		if _, ok := keys[m[1]]; !ok {
			keys[m[1]] = what
		}
	}
}

// TestVocabulary: every JSON key, text key, lab CSV header key and flag that the commands
// print or take is in docs/vocabulary.md, each name in one row (one meaning), the Go
// names of the table exist in package nqueens (or cluster, or lab) and spell the row's
// name, and every JSON key of package lab's types is in the table, spelled by its field. A retired name
// (docs/vocabulary.md's "Retired names") is not printed where it was retired, and a
// retired flag is there only as a hidden, deprecated alias of its new name.
func TestVocabulary(t *testing.T) {
	rows := readVocabulary(t)
	retired := readRetired(t)
	checked := map[string]bool{} // "old at place": a run or a command of the place was seen
	lab := func(what string) bool { return strings.HasPrefix(what, "lab ") }
	// The rows of each name, by kind.
	index := map[string]map[string][]vocabRow{"json": {}, "text": {}, "flag": {}}
	for _, r := range rows {
		for kind, names := range map[string][]string{"json": r.json, "text": r.text, "flag": r.flag} {
			for _, n := range names {
				index[kind][n] = append(index[kind][n], r)
			}
		}
	}
	// One meaning per name: a name in two rows is a clash, whatever it is in each (a JSON
	// key, a text key, a web parameter, a flag spelled as a key: --fix-file is fix_file),
	// unless the lab's row says which name the commands use instead (a deviation waiting
	// for the lab to follow).
	byName := map[string][]vocabRow{}
	for _, r := range rows {
		names := slices.Concat(r.json, r.text, r.web)
		for _, f := range r.flag {
			names = append(names, strings.ReplaceAll(strings.TrimPrefix(f, "--"), "-", "_"))
		}
		slices.Sort(names)
		for _, n := range slices.Compact(names) {
			byName[n] = append(byName[n], r)
		}
	}
	for n, rs := range byName {
		var plain []string
		for _, r := range rs {
			if r.note == "" {
				plain = append(plain, r.section+": "+r.concept)
			}
		}
		if len(plain) > 1 || (len(rs) > 1 && len(plain) == len(rs)) {
			t.Errorf("%q has %d meanings: %q", n, len(rs), plain)
		}
	}
	for _, r := range rows {
		if r.note != "" {
			t.Logf("the lab still says %q (%s): %s", append(r.json, r.flag...), r.concept, r.note)
		}
	}

	// The Go names: in the package, and spelling the row's name.
	names := libraryNames(t)
	for _, r := range rows {
		spelled := slices.Concat(r.json, r.text)
		for _, f := range r.flag {
			spelled = append(spelled, strings.ReplaceAll(strings.TrimPrefix(f, "--"), "-", "_"))
		}
		for _, g := range r.goNames {
			id := strings.TrimSuffix(g, "()")
			if !names[id] {
				t.Errorf("%s: Go name %s is not in package nqueens (nor cluster)", r.concept, g)
			}
			last := id[strings.LastIndexByte(id, '.')+1:]
			// A field holding the identity of a value of a type (PlanHash, the hash of a
			// Plan) spells the row's name as the type: the field cannot take the type's name.
			pkg := ""
			if strings.HasPrefix(id, "cluster.") {
				pkg = "cluster."
			}
			if typ, ok := strings.CutSuffix(last, "Hash"); ok && names[pkg+typ] {
				last = typ
			}
			if len(spelled) > 0 && !slices.Contains(spelled, snake(last)) {
				t.Errorf("%s: Go name %s spells %s, not one of the row's names %q", r.concept, g, snake(last), spelled)
			}
		}
	}

	// Package lab's JSON: every key of its types is in the table and spelled by its field.
	labKeys(t, index["json"])

	// What the commands print, in text and in JSON, each in its own directory.
	shards, ckpt, placement, started := "DIR/shards", "DIR/ckpt", "DIR/q.txt", "DIR/started"
	host, _ := os.Hostname() // audit --host: the shards counted here
	dirs := map[bool]string{false: t.TempDir(), true: t.TempDir()}
	for _, dir := range dirs { // a shard started, for status
		startShard(t, filepath.Join(dir, "started"), 10, 1, 3, 0)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	type runSpec struct {
		args  []string
		stdin string
		ctx   context.Context // nil: not cancelled
	}
	var specs []runSpec
	for _, args := range [][]string{
		{"count", "8"},
		{"count", "10", "--shard", "0/2", "--out-dir", shards},
		{"count", "10", "--shard", "1/2", "--out-dir", shards},
		{"count", "10", "--shard", "1/2", "--out-dir", shards}, // skipped
		{"count", "9", "--checkpoint", ckpt},
		{"count", "9", "--checkpoint", ckpt, "--resume"},
		{"plan", "10", "--shards", "2"},
		{"plan", "10", "--shards", "2", "--cores", "4", "--price", "0.1", "--calibrate", "10ms"},
		{"merge", shards},
		{"status", shards},
		{"count", "10", "--shard", "0/3", "--out-dir", started},
		{"status", started}, // shard 1 started (a checkpoint), 2 missing
		{"audit", shards, "--fraction", "1"},
		{"audit", shards, "--only", "1", "--host", "HOST"},
		{"merge", shards, "--require-audit"},
		{"solve", "8", "--seed", "1"},
		{"solve", "100", "--seed", "1", "--algorithm", "localsearch"},
		{"solve", "100", "--seed", "1", "--out", placement},
		{"list", "6", "--unique", "--limit", "1"},
		{"list", "5"},
		{"complete", "8", "--fix", "1:1", "--seed", "1"},
		{"complete", "8", "--fix", "1:1", "--count"},
		{"complete", "--generate", "8", "--fixed", "2", "--seed", "1"},
		{"verify"},
		{"version"},
		{"lab", "backtrack", "5"},
		{"lab", "lasvegas", "6", "--trials", "3", "--seed", "1", "--ms", "0..1"},
		{"lab", "lasvegas", "6", "--exact", "--ms", "0..1"},
		{"lab", "localsearch", "--from", "1e3", "--to", "1e3", "--seed", "1"},
	} {
		stdin := ""
		if args[0] == "verify" {
			stdin = "2 4 1 3\n1 2\n"
		}
		for _, asJSON := range []bool{false, true} {
			var a []string
			for _, arg := range args {
				a = append(a, strings.Replace(strings.Replace(arg, "DIR", dirs[asJSON], 1), "HOST", host, 1))
			}
			if asJSON {
				a = append(a, "--json")
			}
			specs = append(specs, runSpec{args: a, stdin: stdin})
		}
		if args[0] == "lab" { // the CSV's header: the JSON's keys
			specs = append(specs, runSpec{args: append(slices.Clone(args), "--csv")})
		}
	}
	// Interrupted from the start: the keys of a partial count.
	for _, args := range [][]string{{"count", "12"}, {"complete", "12", "--fix", "1:1", "--count"}} {
		specs = append(specs, runSpec{args: args, ctx: cancelled}, runSpec{args: append(slices.Clone(args), "--json"), ctx: cancelled})
	}
	specs = append(specs, runSpec{args: []string{"list", "12"}, ctx: cancelled}) // its summary is text
	jsonSeen, textSeen := map[string]string{}, map[string]string{}
	for _, s := range specs {
		ctx := s.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		var out, errb bytes.Buffer
		code := run(ctx, strings.NewReader(s.stdin), &out, &errb, s.args)
		what := strings.Join(s.args, " ")
		if (code != 0 && s.ctx == nil && s.args[0] != "verify") || (s.ctx != nil && code != exitInterrupted) {
			t.Errorf("%s: exit %d: %s", what, code, errb.String())
			continue
		}
		own := map[string]string{} // the keys of this run, JSON's or text's
		switch {
		case slices.Contains(s.args, "--json"):
			jsonKeys(t, what, out.String(), own)
			addKeys(jsonSeen, own)
			// The summary of list and complete goes to stderr in text, --json or not.
			if s.args[0] == "list" {
				textKeys(what, errb.String(), textSeen)
			}
		case slices.Contains(s.args, "--csv"):
			header, _, _ := strings.Cut(out.String(), "\n")
			for _, k := range strings.Split(header, ",") {
				own[k] = what
			}
			addKeys(jsonSeen, own)
		default:
			textKeys(what, out.String()+errb.String(), own)
			addKeys(textSeen, own)
		}
		checkRetired(t, retired, what, own, nil, checked)
	}
	for kind, seen := range map[string]map[string]string{"json": jsonSeen, "text": textSeen} {
		for key, what := range seen {
			if !known(index[kind][key], lab(what)) {
				t.Errorf("%s prints the %s key %q, which docs/vocabulary.md does not list", what, kind, key)
			}
		}
	}

	// The flags of every command.
	// A deprecated flag is an old name that the table retired there, a hidden alias of the
	// new one; a retired flag is nowhere else.
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := strings.TrimPrefix(c.CommandPath(), "nqueens ")
		for _, r := range retired {
			if w := r.place(path); w != "" && r.isFlag() {
				checked[r.old+" at "+w] = true
			}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			var gone []retiredName // the retired names this flag has here
			for _, r := range retired {
				if r.old == "--"+f.Name && r.place(path) != "" {
					gone = append(gone, r)
				}
			}
			if f.Deprecated == "" {
				for _, r := range gone {
					t.Errorf("%s takes --%s, a retired name there (now %s), and not as a deprecated alias", c.CommandPath(), f.Name, r.now)
				}
				if !known(index["flag"]["--"+f.Name], lab(path+" ")) {
					t.Errorf("%s takes --%s, which docs/vocabulary.md does not list", c.CommandPath(), f.Name)
				}
				return
			}
			if len(gone) == 0 {
				t.Errorf("%s takes the deprecated --%s, which docs/vocabulary.md does not list as retired there", c.CommandPath(), f.Name)
			}
			for _, r := range gone {
				for _, now := range r.now {
					if nf := c.Flags().Lookup(strings.TrimPrefix(now, "--")); nf == nil || nf.Deprecated != "" || nf.Value.Type() != f.Value.Type() {
						t.Errorf("%s --%s: its new name %s is not a flag of the command like it", c.CommandPath(), f.Name, now)
					}
					if !f.Hidden || !strings.Contains(f.Deprecated, now) {
						t.Errorf("%s --%s: deprecated as %q, hidden %v; want hidden, naming %s", c.CommandPath(), f.Name, f.Deprecated, f.Hidden, now)
					}
				}
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRoot(&env{ctx: context.Background()})
	root.InitDefaultHelpFlag()
	walk(root)
	checkedAll(t, retired, false, checked)
}

// addKeys adds the keys of own that seen lacks to seen.
func addKeys(seen, own map[string]string) {
	for k, what := range own {
		if _, ok := seen[k]; !ok {
			seen[k] = what
		}
	}
}

// checkRetired fails when the command line or request what, at a place of a retired
// name, prints or answers a key (keys) or takes a parameter (params) of the old name:
// one of the retired meaning. It records the places seen in checked.
func checkRetired(t *testing.T, retired []retiredName, what string, keys, params map[string]string, checked map[string]bool) {
	t.Helper()
	for _, r := range retired {
		w := r.place(what)
		if w == "" {
			continue
		}
		checked[r.old+" at "+w] = true
		if _, ok := keys[r.old]; ok && !r.isFlag() {
			t.Errorf("%s prints or answers the key %q, retired there (now %q: docs/vocabulary.md)", what, r.old, r.now)
		}
		if _, ok := params[strings.TrimPrefix(r.old, "--")]; ok {
			t.Errorf("%s takes the parameter %s, retired there (now %q: docs/vocabulary.md)", what, strings.TrimPrefix(r.old, "--"), r.now)
		}
	}
}

// checkedAll fails for a place of a retired name that no run checked: the commands'
// (web false) or the endpoints' (web true), so that the rule of a retired name cannot
// miss its place.
func checkedAll(t *testing.T, retired []retiredName, web bool, checked map[string]bool) {
	t.Helper()
	for _, r := range retired {
		for _, w := range r.where {
			if strings.HasPrefix(w, "/") == web && !checked[r.old+" at "+w] {
				t.Errorf("the retired %s: nothing the test runs is at %s", r.old, w)
			}
		}
	}
}

// known says whether a name is in the table: in the commands' rows, or, for the lab,
// in the lab's rows too.
func known(rs []vocabRow, lab bool) bool {
	for _, r := range rs {
		if r.section == "The commands" || lab {
			return true
		}
	}
	return false
}
