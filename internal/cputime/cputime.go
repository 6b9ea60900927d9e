// Package cputime reads the CPU time this process has used, so that a speed measured on a
// busy machine is that of the code, not of the machine's load: the lab's estimates time
// short runs with it.
package cputime

import "time"

// Since returns the CPU time the process used since start, a value of Now; where the
// system does not say (Available false), the wall time.
func Since(start Stamp) time.Duration {
	return Now().sub(start)
}

// Stamp is a reading of Now.
type Stamp struct {
	cpu, wall time.Duration
	ok        bool
}

func (s Stamp) sub(t Stamp) time.Duration {
	if s.ok && t.ok {
		return s.cpu - t.cpu
	}
	return s.wall - t.wall
}

var epoch = time.Now()

// Now reads the process's CPU time so far (user and system).
func Now() Stamp {
	cpu, ok := processCPU()
	return Stamp{cpu: cpu, wall: time.Since(epoch), ok: ok}
}

// Available says whether Since measures CPU time here.
func Available() bool {
	_, ok := processCPU()
	return ok
}
