package plumbing

import "testing"

func TestBytesText(t *testing.T) {
	for _, c := range []struct {
		b    int64
		sep  string
		tb   bool
		want string
	}{
		{3e3, " ", true, "3 kB"}, {120e6, " ", true, "120 MB"}, {4.5e9, " ", true, "4.5 GB"}, {26e12, " ", true, "26 TB"},
		{216e6, "", false, "216MB"}, {1.6e9, "", false, "1.6GB"}, {2810.5e9, "", false, "2810.5GB"},
	} {
		if got := BytesText(c.b, c.sep, c.tb); got != c.want {
			t.Errorf("BytesText(%d, %q, %v) = %q, want %q", c.b, c.sep, c.tb, got, c.want)
		}
	}
}
