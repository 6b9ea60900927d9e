package web

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/conformance"
)

// TestSizeGrammar: the web board reads n with the command's grammar (nqueens.ParseSize),
// on the table the library and the command are tested with: the same sizes accepted, the
// others refused with a 400 that says why (a server limit for a size too large).
func TestSizeGrammar(t *testing.T) {
	for _, c := range conformance.SizeCases {
		p := newParams(httptest.NewRequest("GET", "/api/solve?n="+url.QueryEscape(c.In), nil))
		n := p.size(nqueens.MaxN)
		err := p.done()
		var ae *apiError
		switch {
		case c.Err == "" && (err != nil || n != c.N):
			t.Errorf("n=%q: %d, %v; want %d", c.In, n, err, c.N)
		case c.Err == "":
		case !errors.As(err, &ae) || ae.status != 400:
			t.Errorf("n=%q: %d, %v; want a 400 (%s)", c.In, n, err, c.Err)
		case c.Err == "large" && !strings.Contains(ae.msg, "more than this server allows"),
			c.Err == "small" && !strings.Contains(ae.msg, "at least 1"),
			c.Err == "syntax" && !strings.Contains(ae.msg, "not a whole number"):
			t.Errorf("n=%q: %q, want a message for %s", c.In, ae.msg, c.Err)
		}
	}
}
