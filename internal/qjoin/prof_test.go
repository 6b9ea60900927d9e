package qjoin

import (
	"context"
	"os"
	"strconv"
	"testing"
)

func TestProfCount(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("PROF_N"))
	if n == 0 {
		t.Skip()
	}
	p, _ := NewPlan(n)
	r, err := p.Count(context.Background(), Options{Workers: 1})
	t.Log(r, err)
}
