package lab

// Progress is what a running experiment reports through the Progress hook of its
// options, the one hook of every experiment: Step names what runs now, for people ("cell",
// "m=12 (3/13)", "n=10,000"), and Fraction is the part of the whole experiment done, 0..1.
// The hook is called on the goroutine that runs the experiment, so calls never overlap;
// it should return quickly, as the experiment waits for it.
type Progress struct {
	Step     string
	Fraction float64
}

// report calls hook, if set.
func report(hook func(Progress), step string, frac float64) {
	if hook != nil {
		hook(Progress{Step: step, Fraction: frac})
	}
}
