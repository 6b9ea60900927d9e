package sysmem

import "fmt"

// Text writes a byte count for people, the number and its unit joined by sep: with sep
// " ", 4.5 GB, 120 MB, 3 kB, and from 10^12 on 26 TB when tb is set (else 2810.5 GB);
// the root's MemoryError writes them with a space and terabytes, the command's plan
// without either (216MB, 1.6GB), so that its text line stays key=value pairs.
func Text(b int64, sep string, tb bool) string {
	switch {
	case tb && b >= 1e12:
		return fmt.Sprintf("%.0f%sTB", float64(b)/1e12, sep)
	case b >= 1e9:
		return fmt.Sprintf("%.1f%sGB", float64(b)/1e9, sep)
	case b >= 1e6:
		return fmt.Sprintf("%.0f%sMB", float64(b)/1e6, sep)
	}
	return fmt.Sprintf("%.0f%skB", float64(b)/1e3, sep)
}
