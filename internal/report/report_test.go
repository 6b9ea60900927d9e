package report

import (
	"fmt"
	"testing"
)

type progress struct {
	Phase       string
	Done, Total uint64
}

// TestReporter: a report below the last one of its phase is dropped, a new phase starts
// afresh, nothing is reported once closed, and a nil hook gives a nil Reporter that
// reports nothing.
func TestReporter(t *testing.T) {
	var got []string
	r := New(func(p progress) { got = append(got, fmt.Sprintf("%s %d/%d", p.Phase, p.Done, p.Total)) })
	r.Report("count", 5, 10)
	r.Report("count", 3, 10) // workers finish in any order
	r.Phase("count")(7, 10)
	r.Report("verify", 1, 0)
	r.Close()
	r.Report("verify", 2, 0)
	if want := "[count 5/10 count 7/10 verify 1/0]"; fmt.Sprint(got) != want {
		t.Errorf("reports %v, want %s", got, want)
	}
	var none *Reporter = New[progress](nil)
	if none != nil || none.Phase("count") != nil {
		t.Error("a nil hook gives a Reporter")
	}
	none.Report("count", 1, 1)
	none.Close()
}
