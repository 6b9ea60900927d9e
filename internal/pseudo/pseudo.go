// Package pseudo holds the short programs that the web board shows beside a replay, one
// per search, and checks that a replay's lines are a path through its program.
//
// Each engine that replays (internal/classic, internal/lasvegas, internal/localsearch,
// internal/construct) writes its program here as a [Code] next to its Go code, with a
// constant for each line that reports a step, and passes that line with every step it
// reports to its tracer. The lines are 1-based. The program is pseudo-code close to the
// classic write-ups, in one language (keywords and identifiers), and its comments are in
// English and Simplified Chinese.
//
// A Code also holds its control flow: for each line where control may go next, which
// function it calls, and whether it reports a step. [Code.Walk] follows the lines a trace
// reports through that flow, calls and returns matched on a stack, and says where they
// leave it.
package pseudo

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Text is a piece of prose in the page's two languages.
type Text struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// Line is one line of a program.
type Line struct {
	// Code is the line as the page shows it, indented with two spaces a level.
	Code string `json:"code"`
	// Comment explains it; empty for a line that needs none.
	Comment Text `json:"comment"`
	// Event is the kind of step the line reports ("place", "conflict"…), "" for a line
	// that reports none.
	Event string `json:"event,omitempty"`

	// Next lists the lines control may go to after this one (after its step, when it
	// reports one); 0 is a return from the function the line is in. A line that calls
	// (Call) comes to Next when the call has returned.
	Next []int `json:"-"`
	// Else lists the lines control may go to when a line whose step is conditional
	// ("if attacked(r, c): continue") is passed without it. A line with Event and no Else
	// reports its step whenever it runs.
	Else []int `json:"-"`
	// Call is the first line of the function the line calls, 0 for none. A line with both
	// Event and Call reports its step, then calls.
	Call int `json:"-"`
}

// Code is the program of one search.
type Code struct {
	// Name names it: "classic", "lasvegas-row", "localsearch-scan"…
	Name string `json:"name"`
	// Lines are its lines; Lines[0] is line 1. Control starts at line 1, the first line of
	// the main function, with an empty stack, and the program ends when that function
	// returns.
	Lines []Line `json:"lines"`
}

// Check reports the first inconsistency of the program: a successor or a call that is
// not a line, a line that reports a step with nowhere to go, a missing comment
// translation.
func (c Code) Check() error {
	if len(c.Lines) == 0 {
		return fmt.Errorf("%s: no lines", c.Name)
	}
	ok := func(x int, ret bool) bool { return (ret && x == 0) || (x >= 1 && x <= len(c.Lines)) }
	for i, l := range c.Lines {
		at := fmt.Sprintf("%s line %d", c.Name, i+1)
		if strings.TrimSpace(l.Code) == "" {
			return fmt.Errorf("%s: no code", at)
		}
		if (l.Comment.En == "") != (l.Comment.Zh == "") || l.Comment.En != "" && !strings.ContainsFunc(l.Comment.Zh, isHan) {
			return fmt.Errorf("%s: the comment is in one language only: %q / %q", at, l.Comment.En, l.Comment.Zh)
		}
		if len(l.Next) == 0 {
			return fmt.Errorf("%s: control goes nowhere after it", at)
		}
		for _, x := range append(append([]int{}, l.Next...), l.Else...) {
			if !ok(x, true) {
				return fmt.Errorf("%s: successor %d is not a line", at, x)
			}
		}
		if l.Call != 0 && !ok(l.Call, false) {
			return fmt.Errorf("%s: calls line %d, not a line", at, l.Call)
		}
		if len(l.Else) > 0 && l.Event == "" {
			return fmt.Errorf("%s: an Else without a step", at)
		}
	}
	return nil
}

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

// Events returns the lines that report a step of the given kind.
func (c Code) Events(kind string) []int {
	var out []int
	for i, l := range c.Lines {
		if l.Event == kind {
			out = append(out, i+1)
		}
	}
	return out
}

// A Step is one step of a trace: its kind and the line that reported it.
type Step struct {
	Kind string
	Line int
}

// state is a point of the program: about to run line, with the calls to return to.
type state struct {
	line  int
	stack string // the calling lines, as "a,b,c"
}

func (s state) push(l int) string {
	if s.stack == "" {
		return strconv.Itoa(l)
	}
	return s.stack + "," + strconv.Itoa(l)
}

// pop returns the innermost calling line and the stack without it; ok is false at the top.
func (s state) pop() (line int, rest string, ok bool) {
	if s.stack == "" {
		return 0, "", false
	}
	i := strings.LastIndexByte(s.stack, ',')
	l, _ := strconv.Atoi(s.stack[i+1:])
	if i < 0 {
		return l, "", true
	}
	return l, s.stack[:i], true
}

// maxStates bounds the points visited between two steps; a program whose quiet lines
// loop without end would pass it.
const maxStates = 1 << 16

// Walk follows the steps through the program: from line 1, each step's line must be
// reachable from the previous step's through lines that report nothing (a line whose
// step is conditional may be passed), calls and returns matched, and must report a step
// of the step's kind. When complete, the program must then be able to end without
// another step. Walk returns nil, or an error naming the first step that leaves the
// program.
func (c Code) Walk(steps []Step, complete bool) error {
	if err := c.Check(); err != nil {
		return err
	}
	cur := []state{{line: 1}}
	ended := false // whether the current points can reach the end quietly
	for i, st := range steps {
		if st.Line < 1 || st.Line > len(c.Lines) {
			return fmt.Errorf("%s: step %d (%s) names line %d, not a line of the program", c.Name, i+1, st.Kind, st.Line)
		}
		if k := c.Lines[st.Line-1].Event; k != st.Kind {
			return fmt.Errorf("%s: step %d is a %s step on line %d, which reports %q", c.Name, i+1, st.Kind, st.Line, k)
		}
		next, _, err := c.reach(cur, i == 0, st.Line)
		if err != nil {
			return fmt.Errorf("%s: step %d: %w", c.Name, i+1, err)
		}
		if len(next) == 0 {
			prev := "the start"
			if i > 0 {
				prev = fmt.Sprintf("step %d (%s, line %d)", i, steps[i-1].Kind, steps[i-1].Line)
			}
			return fmt.Errorf("%s: step %d (%s, line %d) cannot follow %s", c.Name, i+1, st.Kind, st.Line, prev)
		}
		cur = next
	}
	if !complete {
		return nil
	}
	_, ended, err := c.reach(cur, len(steps) == 0, 0)
	if err != nil {
		return fmt.Errorf("%s: after the last step: %w", c.Name, err)
	}
	if !ended {
		return fmt.Errorf("%s: the program cannot end after its last step without another", c.Name)
	}
	return nil
}

// reach explores the points reachable from cur without a step, and returns those about
// to run target (a line reporting a step), and whether the program can end. fresh says
// whether the points of cur are about to run their line (the start), rather than having
// just run it (a step's line).
func (c Code) reach(cur []state, fresh bool, target int) (hits []state, ended bool, err error) {
	seen := map[state]bool{}
	var work []state
	var hitSeen = map[state]bool{}
	// arrive puts a point about to run its line on the work list, or records a hit.
	arrive := func(s state) {
		l := c.Lines[s.line-1]
		if s.line == target && !hitSeen[s] {
			hitSeen[s] = true
			hits = append(hits, s)
		}
		if l.Event != "" && len(l.Else) == 0 {
			return // it reports its step whenever it runs: no quiet way through
		}
		if !seen[s] {
			seen[s] = true
			work = append(work, s)
		}
	}
	// after follows a line once it has run: its call, or its successors.
	var after func(s state, next []int, call int)
	after = func(s state, next []int, call int) {
		if call != 0 {
			arrive(state{line: call, stack: s.push(s.line)})
			return
		}
		for _, x := range next {
			if x != 0 {
				arrive(state{line: x, stack: s.stack})
				continue
			}
			l, rest, ok := s.pop()
			if !ok {
				ended = true
				continue
			}
			caller := c.Lines[l-1]
			after(state{line: l, stack: rest}, caller.Next, 0)
		}
	}
	for _, s := range cur {
		if fresh {
			arrive(s)
			continue
		}
		l := c.Lines[s.line-1]
		after(s, l.Next, l.Call)
	}
	for len(work) > 0 {
		if len(seen) > maxStates {
			return nil, false, errors.New("too many points of the program between two steps")
		}
		s := work[len(work)-1]
		work = work[:len(work)-1]
		l := c.Lines[s.line-1]
		if l.Event != "" { // a conditional step, passed quietly
			after(s, l.Else, 0)
			continue
		}
		after(s, l.Next, l.Call)
	}
	return hits, ended, nil
}
