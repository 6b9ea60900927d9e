package lab

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Table is an experiment's result laid out for printing: typed cells, rendered as aligned
// text for people (WriteText) or as CSV for machines (WriteCSV), in the manner of
// benchstat's tables. Every experiment's result has a Table method; its JSON is the
// result itself.
type Table struct {
	// Head and Foot are lines printed above and below the text table (not in the CSV):
	// the experiment's settings, its optimum.
	Head, Foot []string
	Columns    []Column
	// Rows holds one entry per column.
	Rows [][]Entry
}

// Column is a column of a Table. Key is its name in the CSV header, the key of the same
// number in the result's JSON; Head is its header in the text table. A column with an
// empty Key is printed only as text (the marks of the optimum), one with an empty Head
// only in the CSV.
type Column struct {
	Key, Head string
	// Scale multiplies the column's numbers in the text table only (1e3: seconds shown
	// as milliseconds); 0 means 1.
	Scale float64
}

// Entry is one cell of a Table. Value is an int64, a float64, a string, a bool, or nil for
// a quantity that the row does not have (printed "-" in text, empty in the CSV).
// Decimals is the number of decimals of a float64 in the text table, halves rounded up as
// in the published tables (39.625 → 39.63); the CSV writes every number in full.
type Entry struct {
	Value    any
	Decimals int
}

// intCell, floatCell and textCell make entries; naCell is the entry of a quantity a row
// does not have.
func intCell(v int64) Entry                   { return Entry{Value: v} }
func floatCell(v float64, decimals int) Entry { return Entry{Value: v, Decimals: decimals} }
func textCell(s string) Entry                 { return Entry{Value: s} }
func naCell() Entry                           { return Entry{} }

// optInt is the entry of an optional counter: NA when nil.
func optInt(v *int64) Entry {
	if v == nil {
		return naCell()
	}
	return intCell(*v)
}

// text renders the entry for people, its number multiplied by scale (0: 1).
func (c Entry) text(scale float64) string {
	if scale == 0 {
		scale = 1
	}
	switch v := c.Value.(type) {
	case nil:
		return "-"
	case int64:
		if scale != 1 {
			return floatCell(float64(v), c.Decimals).text(scale)
		}
		return group(v)
	case float64:
		v *= scale
		switch {
		case math.IsNaN(v):
			return "-"
		case math.IsInf(v, 1):
			return "∞"
		}
		p := math.Pow(10, float64(c.Decimals))
		return strconv.FormatFloat(math.Floor(v*p+0.5+1e-9)/p, 'f', c.Decimals, 64)
	case string:
		return v
	case bool:
		if v {
			return "yes"
		}
		return "no"
	}
	return fmt.Sprint(c.Value)
}

// csv renders the entry for machines: numbers in full, as in the JSON.
func (c Entry) csv() string {
	switch v := c.Value.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "" // null in the JSON
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(c.Value)
}

// WriteText writes the head lines, the columns that have a Head aligned on the right,
// and the foot lines.
func (t Table) WriteText(w io.Writer) error {
	for _, l := range t.Head {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	var b strings.Builder
	line := func(cell func(i int) string) {
		b.Reset()
		for i, col := range t.Columns {
			if col.Head != "" {
				b.WriteString(cell(i))
				b.WriteByte('\t')
			}
		}
		b.WriteByte('\n')
		tw.Write([]byte(b.String()))
	}
	line(func(i int) string { return t.Columns[i].Head })
	for _, r := range t.Rows {
		line(func(i int) string { return r[i].text(t.Columns[i].Scale) })
	}
	tw.Flush()
	for _, l := range strings.SplitAfter(buf.String(), "\n") {
		if l == "" {
			continue
		}
		if _, err := io.WriteString(w, strings.TrimRight(l, " \n")+"\n"); err != nil {
			return err
		}
	}
	for _, l := range t.Foot {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes the columns that have a Key: a header of the keys, then one record
// per row.
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var rec []string
	for _, col := range t.Columns {
		if col.Key != "" {
			rec = append(rec, col.Key)
		}
	}
	cw.Write(rec)
	for _, r := range t.Rows {
		rec = rec[:0]
		for i, col := range t.Columns {
			if col.Key != "" {
				rec = append(rec, r[i].csv())
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// group writes an integer with thousands separators: 7,535,369.
func group(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
