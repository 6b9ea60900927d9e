package u128

import (
	"encoding/json"
	"math/big"
	"testing"

	"pgregory.net/rapid"
)

// TestAgainstBig: sums, differences, the eighth, the decimal spelling and
// its parse against math/big, on random values and the edges.
func TestAgainstBig(t *testing.T) {
	two128 := new(big.Int).Lsh(big.NewInt(1), 128)
	gen := rapid.Custom(func(t *rapid.T) U128 {
		return U128{rapid.SampledFrom([]uint64{0, 1, 7, 1<<63 - 1, 1 << 63, ^uint64(0)}).Draw(t, "hi0") ^ rapid.Uint64().Draw(t, "hi")&rapid.Uint64().Draw(t, "mhi"),
			rapid.Uint64().Draw(t, "lo")}
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		A, B := a.Big(), b.Big()
		s, o := a.Add(b)
		want := new(big.Int).Add(A, B)
		if (want.Cmp(two128) >= 0) != o || s.Big().Cmp(new(big.Int).Mod(want, two128)) != 0 {
			t.Fatalf("%v + %v = %v (overflow %v), want %v", a, b, s, o, want)
		}
		d, u := a.Sub(b)
		if (A.Cmp(B) < 0) != u || (!u && d.Big().Cmp(new(big.Int).Sub(A, B)) != 0) {
			t.Fatalf("%v - %v = %v (underflow %v)", a, b, d, u)
		}
		if a.Div8().Big().Cmp(new(big.Int).Rsh(A, 3)) != 0 || a.Mod8() != new(big.Int).Mod(A, big.NewInt(8)).Uint64() {
			t.Fatalf("%v / 8 = %v, %% 8 = %d", a, a.Div8(), a.Mod8())
		}
		if a.String() != A.String() {
			t.Fatalf("String %q, want %q", a.String(), A.String())
		}
		if p, err := Parse(a.String()); err != nil || p != a {
			t.Fatalf("Parse(%q) = %v, %v", a.String(), p, err)
		}
		if a.Cmp(b) != A.Cmp(B) {
			t.Fatalf("Cmp(%v, %v) = %d", a, b, a.Cmp(b))
		}
		j, _ := json.Marshal(struct{ T U128 }{a})
		var back struct{ T U128 }
		if err := json.Unmarshal(j, &back); err != nil || back.T != a {
			t.Fatalf("JSON %s: %v %v", j, back.T, err)
		}
	})
	for _, bad := range []string{"", "-1", "1e3", "340282366920938463463374607431768211456", "12a", " 1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if p, err := Parse("340282366920938463463374607431768211455"); err != nil || p != (U128{^uint64(0), ^uint64(0)}) {
		t.Errorf("2^128-1: %v %v", p, err)
	}
}
