package nqueens

import "testing"

// TestBytesText: the byte counts of MemoryError's message, with their units.
func TestBytesText(t *testing.T) {
	for b, want := range map[int64]string{3e3: "3 kB", 120e6: "120 MB", 4.5e9: "4.5 GB", 999.5e9: "999.5 GB", 2810.5e9: "3 TB", 26e12: "26 TB"} {
		if got := bytesText(b); got != want {
			t.Errorf("bytesText(%d) = %q, want %q", b, got, want)
		}
	}
	e := &MemoryError{N: 30, Need: 26e12, Have: 24e9}
	if got, want := e.Error(), "n = 30 needs 26 TB of memory, more than the 24.0 GB available"; got != want {
		t.Errorf("MemoryError: %q, want %q", got, want)
	}
}
