package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/lab"
	"github.com/nqueens/nqueens/web"
)

// webRequests are the requests TestVocabularyWeb sends: every endpoint of the web API,
// every search of /api/trace, sampled and exact tables, and the POST of /api/transform
// with its body.
var webRequests = []struct{ method, target, body string }{
	{"GET", "/api/limits", ""},
	{"GET", "/api/solve?n=8&algorithm=backtrack&seed=1", ""},
	{"GET", "/api/solve?n=100&algorithm=localsearch&seed=1", ""},
	{"GET", "/api/solve?n=100&algorithm=construct", ""},
	{"GET", "/api/placement.txt?n=8&seed=1", ""},
	{"GET", "/api/solutions?n=8&index=1", ""},
	{"GET", "/api/solutions?n=8&index=1&unique=true", ""},
	{"GET", "/api/count?n=8", ""},
	{"POST", "/api/transform", `{"columns":[2,4,1,3],"symmetry":"rotate90"}`},
	{"GET", "/api/trace?search=row&n=6&until=all", ""},
	{"GET", "/api/trace?search=cellprune&n=6", ""},
	{"GET", "/api/trace?search=lasvegas&variant=row&n=8&m=3&seed=1", ""},
	{"GET", "/api/trace?search=lasvegas&variant=cell&n=8&m=3&seed=1", ""},
	{"GET", "/api/trace?search=localsearch&n=50&check=scan&seed=1", ""},
	{"GET", "/api/trace?search=construct&n=8", ""},
	{"GET", "/api/lab/backtrack?n=6", ""},
	{"GET", "/api/lab/lasvegas?n=6&variant=row&exact=true", ""},
	{"GET", "/api/lab/lasvegas?n=6&variant=cell&exact=true&objective=checks", ""},
	{"GET", "/api/lab/lasvegas?n=8&trials=3&seed=1", ""},
	{"GET", "/api/solve?n=3", ""},                                  // an error: {"error"}
	{"GET", "/api/lab/lasvegas?n=41&variant=cell", ""},             // an error past a limit: {"error", "limit"}
	{"GET", "/api/trace?search=lasvegas&n=8&m=3&max_events=5", ""}, // stopped at the event limit
}

// takes reads the parameters an endpoint takes from its answer to an unknown one.
var takes = regexp.MustCompile(`unknown parameter \S+ for \S+ \(it takes (.*)\)$`)

// TestVocabularyWeb runs the web API (nqueens serve) through httptest as TestVocabulary
// runs the commands: every JSON key it answers (or a POST takes) is in docs/vocabulary.md,
// and every query parameter it takes is in the table's Web column, in the row of its
// concept, spelled as the command spells that concept (the flag without --, or a key of
// the row), and no parameter is a key of another row (one name, one meaning); an endpoint
// where a name was retired neither answers nor takes it.
func TestVocabularyWeb(t *testing.T) {
	rows := readVocabulary(t)
	byJSON, byParam := map[string][]vocabRow{}, map[string][]vocabRow{}
	for _, r := range rows {
		for _, k := range r.json {
			byJSON[k] = append(byJSON[k], r)
		}
		for _, p := range r.web {
			byParam[p] = append(byParam[p], r)
		}
		// The convention: a parameter is spelled as the command spells its concept.
		var spelled []string
		for _, f := range r.flag {
			spelled = append(spelled, strings.TrimPrefix(f, "--"))
		}
		spelled = append(append(spelled, r.json...), r.text...)
		for _, p := range r.web {
			if len(spelled) > 0 && !slices.Contains(spelled, p) {
				t.Errorf("%s: parameter %s is spelled otherwise than the row's names %q", r.concept, p, spelled)
			}
		}
	}
	for p, rs := range byParam {
		if len(rs) > 1 {
			t.Errorf("parameter %s is in %d rows", p, len(rs))
		}
		for _, r := range byJSON[p] {
			if r.concept != rs[0].concept {
				t.Errorf("parameter %s (%s) is the JSON key of another concept: %s", p, rs[0].concept, r.concept)
			}
		}
	}

	h := web.New(web.Options{Public: true})
	retired := readRetired(t)
	checked := map[string]bool{}
	var retiredChecks []func()
	keys := map[string]string{}
	params := map[string]string{}
	for _, rq := range webRequests {
		what := rq.method + " " + rq.target
		req := httptest.NewRequest(rq.method, rq.target, strings.NewReader(rq.body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		ok := w.Code == http.StatusOK
		if !ok && !strings.Contains(what, "n=3") && !strings.Contains(what, "n=41") {
			t.Errorf("%s: %d %s", what, w.Code, w.Body)
		}
		ownKeys, ownParams := map[string]string{}, map[string]string{} // this request's
		if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			jsonKeys(t, what, w.Body.String(), ownKeys)
		}
		if rq.body != "" {
			jsonKeys(t, what+" (its body)", rq.body, ownKeys)
		}
		addKeys(keys, ownKeys)
		target := rq.target // checked once the parameters it takes are read, below
		retiredChecks = append(retiredChecks, func() { checkRetired(t, retired, target, ownKeys, ownParams, checked) })
		// The parameters it takes: its answer to one it does not.
		sep := "?"
		if strings.Contains(rq.target, "?") {
			sep = "&"
		}
		w = httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(rq.method, rq.target+sep+"zzz=1", strings.NewReader(rq.body)))
		var e struct{ Error string }
		json.Unmarshal(w.Body.Bytes(), &e)
		m := takes.FindStringSubmatch(e.Error)
		if m == nil {
			if ok {
				t.Errorf("%s with zzz=1: %d %s, not an unknown parameter", what, w.Code, w.Body)
			}
			continue
		}
		if m[1] == "no parameters" {
			continue
		}
		for _, p := range strings.Split(m[1], ", ") {
			ownParams[p] = what
		}
		addKeys(params, ownParams)
	}
	for _, check := range retiredChecks {
		check()
	}
	checkedAll(t, retired, true, checked)
	if len(keys) < 40 || len(params) < 10 {
		t.Fatalf("only %d keys and %d parameters seen", len(keys), len(params))
	}
	for k, what := range keys {
		if len(byJSON[k]) == 0 {
			t.Errorf("%s answers the JSON key %q, which docs/vocabulary.md does not list", what, k)
		}
	}
	for p, what := range params {
		if len(byParam[p]) == 0 {
			t.Errorf("%s takes the parameter %s, which docs/vocabulary.md does not list in its Web column", what, p)
		}
	}
}

// TestDefaults: the command and the web board default each concept they share alike,
// from the library: lab lasvegas's --variant, --objective and --trials and
// /api/lab/lasvegas's (and the Las Vegas replay's variant), solve's --algorithm and
// /api/solve's.
func TestDefaults(t *testing.T) {
	h := web.New(web.Options{Public: true})
	getWeb := func(target string) map[string]any {
		t.Helper()
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		var v map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil || w.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", target, w.Code, w.Body)
		}
		return v
	}
	runCmd := func(args ...string) map[string]any {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(context.Background(), strings.NewReader(""), &out, &errb, append(args, "--json")); code != 0 {
			t.Fatalf("%s: exit %d: %s", args, code, errb.String())
		}
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return v
	}
	same := func(what string, cmd, webV map[string]any, want map[string]any, keys ...string) {
		t.Helper()
		for _, k := range keys {
			if fmt.Sprint(cmd[k]) != fmt.Sprint(webV[k]) || (want[k] != nil && fmt.Sprint(cmd[k]) != fmt.Sprint(want[k])) {
				t.Errorf("%s: the command's %s is %v, the web's %v, the library's %v", what, k, cmd[k], webV[k], want[k])
			}
		}
	}
	lib := map[string]any{"variant": lab.DefaultVariant, "objective": lab.DefaultObjective, "trials": lab.DefaultTrials}
	same("lab lasvegas --exact", runCmd("lab", "lasvegas", "6", "--exact"), getWeb("/api/lab/lasvegas?n=6&exact=true"), lib,
		"variant", "objective", "n", "rows")
	same("lab lasvegas, sampled", runCmd("lab", "lasvegas", "5", "--seed", "1"), getWeb("/api/lab/lasvegas?n=5&seed=1"), lib,
		"variant", "objective", "trials", "n")
	if v := getWeb("/api/trace?search=lasvegas&n=8&m=2"); v["variant"] != lab.DefaultVariant.String() {
		t.Errorf("the Las Vegas replay's variant is %v, the library's default %v", v["variant"], lab.DefaultVariant)
	}
	for _, n := range []string{"8", "100"} {
		same("solve "+n, runCmd("solve", n, "--seed", "1"), getWeb("/api/solve?n="+n+"&seed=1"), nil, "algorithm", "columns")
	}
	// The flags' defaults are the library's.
	root := newRoot(&env{ctx: context.Background()})
	for _, c := range []struct {
		path []string
		flag string
		want any
	}{
		{[]string{"lab", "lasvegas"}, "variant", lab.DefaultVariant},
		{[]string{"lab", "lasvegas"}, "objective", lab.DefaultObjective},
		{[]string{"lab", "lasvegas"}, "trials", lab.DefaultTrials},
		{[]string{"solve"}, "algorithm", nqueens.Auto},
	} {
		cmd, _, err := root.Find(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if f := cmd.Flags().Lookup(c.flag); f == nil || f.DefValue != fmt.Sprint(c.want) {
			t.Errorf("%s --%s: default %v, the library's %v", c.path, c.flag, f, c.want)
		}
	}
}

// TestWebParsers: a bad value gets the same error from the command and from the web, both
// the library's parser's.
func TestWebParsers(t *testing.T) {
	h := web.New(web.Options{Public: true})
	for _, c := range []struct {
		args   []string
		target string
	}{
		{[]string{"solve", "8", "--algorithm", "magic"}, "/api/solve?n=8&algorithm=magic"},
		{[]string{"lab", "lasvegas", "6", "--variant", "both"}, "/api/lab/lasvegas?n=6&variant=both"},
		{[]string{"lab", "lasvegas", "6", "--objective", "speed"}, "/api/lab/lasvegas?n=6&objective=speed"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), strings.NewReader(""), &out, &errb, c.args); code != exitUsage {
			t.Errorf("%s: exit %d", c.args, code)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", c.target, nil))
		var e struct{ Error string }
		json.Unmarshal(w.Body.Bytes(), &e)
		if w.Code != http.StatusBadRequest || e.Error == "" || !strings.Contains(errb.String(), e.Error) {
			t.Errorf("%s says %q, %s %d %q", c.args, errb.String(), c.target, w.Code, e.Error)
		}
	}
}
