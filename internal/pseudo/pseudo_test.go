package pseudo

import (
	"strings"
	"testing"
)

// countdown is a recursive program: f(k) reports "down" on line 3 and calls itself until
// k = 0, where line 2 reports "zero"; back from each call line 4 reports "up".
var countdown = Code{Name: "countdown", Lines: []Line{
	{Code: "f(k):", Next: []int{2}},
	{Code: "  if k = 0: return", Event: "zero", Next: []int{0}, Else: []int{3}},
	{Code: "  f(k − 1)", Event: "down", Call: 1, Next: []int{4}},
	{Code: "  k = k", Event: "up", Next: []int{0}},
}}

func steps(s string) []Step {
	var out []Step
	for _, f := range strings.Fields(s) {
		kind := map[byte]string{'2': "zero", '3': "down", '4': "up"}[f[0]]
		out = append(out, Step{Kind: kind, Line: int(f[0] - '0')})
	}
	return out
}

// TestWalk: the legal paths of countdown pass, every other is refused, with the step
// that leaves the program named.
func TestWalk(t *testing.T) {
	for _, c := range []struct {
		path     string
		complete bool
		bad      string // "" for a legal path
	}{
		{"2", true, ""},
		{"3 2 4", true, ""},
		{"3 3 3 2 4 4 4", true, ""},
		{"3 3", false, ""},          // a prefix
		{"3 3", true, "cannot end"}, // two calls open
		{"3 2 4 4", true, "step 4"}, // returns more often than it called
		{"2 4", true, "step 2"},     // back from a call never made
		{"3 3 2 4", true, "cannot end"},
		{"4", true, "step 1"},
		{"", true, "cannot end"}, // f reports a step on every path
	} {
		err := countdown.Walk(steps(c.path), c.complete)
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("%q: %v", c.path, err)
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%q: got %v, want an error with %q", c.path, err, c.bad)
		}
	}
	// A step of the wrong kind, or on no line.
	if err := countdown.Walk([]Step{{"up", 3}}, false); err == nil || !strings.Contains(err.Error(), "reports \"down\"") {
		t.Errorf("a step of the wrong kind: %v", err)
	}
	if err := countdown.Walk([]Step{{"up", 9}}, false); err == nil || !strings.Contains(err.Error(), "not a line") {
		t.Errorf("a step on no line: %v", err)
	}
}

// TestCheck: a program with a successor that is not a line, or a comment in one
// language, is refused.
func TestCheck(t *testing.T) {
	if err := countdown.Check(); err != nil {
		t.Fatal(err)
	}
	bad := Code{Name: "bad", Lines: []Line{{Code: "x", Next: []int{2}}}}
	if err := bad.Check(); err == nil {
		t.Error("a successor past the last line passed")
	}
	bad = Code{Name: "bad", Lines: []Line{{Code: "x", Next: []int{0}, Comment: Text{En: "only English"}}}}
	if err := bad.Check(); err == nil {
		t.Error("a comment in English only passed")
	}
	bad.Lines[0].Comment.Zh = "only English"
	if err := bad.Check(); err == nil {
		t.Error("a comment whose Chinese is English passed")
	}
}
