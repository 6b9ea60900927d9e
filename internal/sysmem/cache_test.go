package sysmem

import (
	"testing"
	"testing/fstest"
)

func TestL1Data(t *testing.T) {
	const dir = "sys/devices/system/cpu/cpu0/cache/"
	cache := func(index, level, typ, size string) fstest.MapFS {
		return fstest.MapFS{
			dir + index + "/level": {Data: []byte(level + "\n")},
			dir + index + "/type":  {Data: []byte(typ + "\n")},
			dir + index + "/size":  {Data: []byte(size + "\n")},
		}
	}
	merge := func(fs ...fstest.MapFS) fstest.MapFS {
		out := fstest.MapFS{}
		for _, f := range fs {
			for k, v := range f {
				out[k] = v
			}
		}
		return out
	}
	zen4 := merge(cache("index0", "1", "Data", "32K"), cache("index1", "1", "Instruction", "32K"),
		cache("index2", "2", "Unified", "1024K"), cache("index3", "3", "Unified", "32768K"))
	spr := merge(cache("index1", "1", "Instruction", "32K"), cache("index0", "1", "Data", "48K"),
		cache("index2", "2", "Unified", "2048K"))
	cases := []struct {
		name string
		fs   fstest.MapFS
		want int
	}{
		{"zen 4", zen4, 32 << 10},
		{"sapphire rapids", spr, 48 << 10},
		{"no sysfs", fstest.MapFS{}, 0},
		{"no data cache", merge(cache("index1", "1", "Instruction", "32K"), cache("index2", "2", "Unified", "1M")), 0},
		{"bytes", cache("index0", "1", "Data", "65536"), 64 << 10},
		{"megabytes", cache("index0", "1", "Data", "1M"), 1 << 20},
		{"garbage size", cache("index0", "1", "Data", "lots"), 0},
		{"negative size", cache("index0", "1", "Data", "-4K"), 0},
		{"unified level 1", cache("index0", "1", "Unified", "64K"), 0},
	}
	for _, c := range cases {
		if got := l1Data(c.fs); got != c.want {
			t.Errorf("%s: l1Data = %d, want %d", c.name, got, c.want)
		}
	}
}

func TestL1DataHere(t *testing.T) {
	// On Linux the real sysfs answers with a plausible size; elsewhere 0.
	n := L1Data()
	if n != 0 && (n < 4<<10 || n > 4<<20) {
		t.Fatalf("L1Data() = %d bytes: not a level-1 data cache", n)
	}
	t.Logf("L1Data() = %d bytes", n)
}
