// shuffle.go: the memory-bound yardstick for linear-time N-Queens solvers.
//
// It does what a Sosic–Gu style solver cannot avoid: fill an int32 array of n entries and
// shuffle it with Fisher–Yates (n random swaps over the whole array). A local-search solver
// makes about 3n random probes of the same array plus its diagonal sets, so its time over
// this one, measured in the same run, says how close it is to the memory-bound limit.
//
// Run: go run ./bench/yardstick/shuffle N        prints: n=N seconds=S checksum=C
package main

import (
	"fmt"
	"math/bits"
	"os"
	"strconv"
	"time"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: shuffle N")
		os.Exit(2)
	}
	n, err := strconv.ParseFloat(os.Args[1], 64) // accepts 1e8
	if err != nil || n < 1 || n > 4e9 {
		fmt.Fprintln(os.Stderr, "shuffle: N must be a number from 1 to 4e9")
		os.Exit(2)
	}
	size := int(n)
	start := time.Now()
	q := make([]int32, size)
	for i := range q {
		q[i] = int32(i)
	}
	state := uint64(0x9E3779B97F4A7C15)
	for i := size - 1; i > 0; i-- {
		// wyrand step, then Lemire's multiply-shift to map into [0, i]
		state += 0xA0761D6478BD642F
		hi, lo := bits.Mul64(state, state^0xE7037ED1A0B428DB)
		r := hi ^ lo
		j, _ := bits.Mul64(r, uint64(i+1))
		q[i], q[j] = q[j], q[i]
	}
	elapsed := time.Since(start).Seconds()
	var sum uint64
	for i, v := range q {
		sum += uint64(i) * uint64(v)
	}
	fmt.Printf("n=%d seconds=%.3f checksum=%d\n", size, elapsed, sum)
}
