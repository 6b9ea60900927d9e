package cluster

// The external tests (package cluster_test) use the public API; these reach inside it
// where a test must do what no user does.

// AddToTotal rewrites the result file at path as a bad node would write it: its total
// plus add, sealed again with a valid checksum.
func AddToTotal(path string, add uint64) error {
	r, err := readResult(path)
	if err != nil {
		return err
	}
	r.Total, _ = r.Total.Add64(add)
	return writeResult(path, r)
}
