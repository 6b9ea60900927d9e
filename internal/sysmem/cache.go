package sysmem

import (
	"io/fs"
	"os"
	"strconv"
	"strings"
)

// L1Data returns the bytes of the level-1 data cache of the first CPU, as
// Linux's sysfs gives it (/sys/devices/system/cpu/cpu0/cache), or 0 where
// it is not known. The counting kernels size the share of their tables
// they run every query against by it.
func L1Data() int {
	return l1Data(os.DirFS("/"))
}

// l1Data is L1Data over the file system fsys, rooted at "/".
func l1Data(fsys fs.FS) int {
	const dir = "sys/devices/system/cpu/cpu0/cache"
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return 0
	}
	read := func(name string) string {
		b, err := fs.ReadFile(fsys, dir+"/"+name)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "index") {
			continue
		}
		if read(e.Name()+"/level") != "1" || read(e.Name()+"/type") != "Data" {
			continue
		}
		if n := cacheSize(read(e.Name() + "/size")); n > 0 {
			return n
		}
	}
	return 0
}

// cacheSize parses sysfs's size of a cache: "48K", "2048K", "32M" or a
// byte count; 0 if it is none of these.
func cacheSize(s string) int {
	unit := 1
	switch {
	case strings.HasSuffix(s, "K"):
		unit, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		unit, s = 1<<20, s[:len(s)-1]
	}
	v, err := strconv.Atoi(s)
	if err != nil || v <= 0 || v > 1<<30/unit {
		return 0
	}
	return v * unit
}
