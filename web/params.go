package web

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens"
)

// params reads the query of a request: each getter checks one parameter, the first
// problem is kept in err, and done refuses parameters that no getter asked for, so that a
// typo is an error rather than a silent default.
type params struct {
	path  string
	v     url.Values
	known []string
	err   error
}

func newParams(r *http.Request) *params {
	p := &params{path: r.URL.Path}
	p.v, p.err = url.ParseQuery(r.URL.RawQuery)
	if p.err != nil {
		p.err = badRequest("bad query string: %v", p.err)
	}
	return p
}

// raw returns the parameter's value and whether it was given (once).
func (p *params) raw(name string) (string, bool) {
	p.known = append(p.known, name)
	vs, ok := p.v[name]
	if !ok || p.err != nil {
		return "", false
	}
	if len(vs) > 1 {
		p.fail(badRequest("parameter %s is given %d times", name, len(vs)))
		return "", false
	}
	return vs[0], true
}

func (p *params) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

var sizeRE = regexp.MustCompile(`^([0-9]+)(?:[eE]([0-9]{1,2}))?$`)

// parseWhole reads a whole number written plainly or as AeB (1e6).
func parseWhole(s string) (int64, bool) {
	m := sizeRE.FindStringSubmatch(strings.ReplaceAll(s, "_", ""))
	if m == nil {
		return 0, false
	}
	v, ok := new(big.Int).SetString(m[1], 10)
	if !ok {
		return 0, false
	}
	if m[2] != "" {
		e, _ := strconv.Atoi(m[2])
		v.Mul(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	}
	if !v.IsInt64() {
		return math.MaxInt64, true
	}
	return v.Int64(), true
}

// asSent returns a number as the client wrote it (parseWhole caps what it reads at the
// largest int64), shortened past 40 characters.
func asSent(s string) string {
	if len(s) <= 40 {
		return s
	}
	return fmt.Sprintf("%s… (%d characters)", s[:24], len(s))
}

// size reads the board size n, required, from 1 to limit, the cap of this endpoint, in
// the grammar of nqueens.ParseSize.
func (p *params) size(limit int) int {
	s, ok := p.raw("n")
	if !ok {
		p.fail(badRequest("parameter n, the board size, is missing"))
		return 0
	}
	v, err := nqueens.ParseSize(s) // the command's grammar
	var se *nqueens.SizeError
	switch {
	case errors.As(err, &se) && se.N < se.Min:
		p.fail(badRequest("n must be at least 1"))
	case err != nil && se == nil:
		p.fail(badRequest("n = %q is not a whole number such as 8 or 1e6", s))
	case err != nil || v > limit:
		p.fail(&apiError{status: http.StatusBadRequest, limit: int64(limit),
			msg: fmt.Sprintf("n = %s is more than this server allows for %s (at most %d)", asSent(s), p.path, limit)})
	default:
		return v
	}
	return 0
}

// int reads a whole number from lo to hi, def when absent.
func (p *params) int(name string, def, lo, hi int64) int64 {
	s, ok := p.raw(name)
	if !ok {
		return def
	}
	v, ok := parseWhole(s)
	switch {
	case !ok:
		p.fail(badRequest("%s = %q is not a whole number", name, s))
	case v < lo || v > hi:
		p.fail(&apiError{status: http.StatusBadRequest, limit: hi, msg: fmt.Sprintf("%s = %s is not in %d..%d", name, asSent(s), lo, hi)})
	default:
		return v
	}
	return def
}

// bool reads true/false (or 1/0), def when absent.
func (p *params) bool(name string, def bool) bool {
	s, ok := p.raw(name)
	if !ok {
		return def
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		p.fail(badRequest("%s = %q is not true or false", name, s))
		return def
	}
	return v
}

// oneOf reads a name from a fixed list, def when absent.
func (p *params) oneOf(name, def string, allowed ...string) string {
	s, ok := p.raw(name)
	if !ok {
		return def
	}
	if !slices.Contains(allowed, s) {
		p.fail(badRequest("%s = %q is not one of %s", name, s, strings.Join(allowed, ", ")))
		return def
	}
	return s
}

// parsed reads a value with the library's parser (the command's: its error is the
// command's), def when absent.
func parsed[T any](p *params, name string, def T, parse func(string) (T, error)) T {
	s, ok := p.raw(name)
	if !ok {
		return def
	}
	v, err := parse(s)
	if err != nil {
		p.fail(badRequest("%v", err))
		return def
	}
	return v
}

// done returns the first problem, or an error naming a parameter no getter read.
func (p *params) done() error {
	if p.err != nil {
		return p.err
	}
	var unknown []string
	for name := range p.v {
		if !slices.Contains(p.known, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		takes := "no parameters"
		if len(p.known) > 0 {
			takes = strings.Join(p.known, ", ")
		}
		return badRequest("unknown parameter %s for %s (it takes %s)", strings.Join(unknown, ", "), p.path, takes)
	}
	return nil
}
