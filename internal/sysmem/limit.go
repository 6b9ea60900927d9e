// Package sysmem is what nqueens asks the operating system about memory: how much this
// process may use (Limit), huge pages for the big arrays (AdviseHuge), and the size of
// the level-1 data cache (L1Data), which the counting kernels size their tiles by.
//
// Limit is the machine's RAM, or less when a control group sets a lower limit, as
// containers, Kubernetes pods, systemd services and Slurm jobs do. The solver and the
// counter check it before allocating, so that a board too big for the job is refused with
// a clear error instead of being killed by the kernel midway.
//
// Both cgroup versions are read, also side by side (the "hybrid" layout): the process's
// cgroups come from /proc/self/cgroup, where their hierarchies are mounted from
// /proc/self/mountinfo, and the limit is the smallest memory.max (v2) or
// memory.limit_in_bytes (v1) of the process's cgroup and every cgroup above it, since
// a parent's limit binds its children too.
package sysmem

import (
	"bufio"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// Limit returns the bytes of memory this process may use: the smaller of the
// machine's physical memory and its cgroup limit, or 0 when neither is known.
func Limit() int64 {
	return limit(os.DirFS("/"), physicalMemory())
}

// unlimited: cgroup v1 writes "no limit" as a huge number (a page-rounded 2^63-1).
const unlimited = 1 << 62

// limit is Limit over the file system fsys, rooted at "/", and the RAM size ram.
func limit(fsys fs.FS, ram int64) int64 {
	best := ram
	for _, l := range cgroupLimits(fsys) {
		if best <= 0 || l < best {
			best = l
		}
	}
	return best
}

// cgroupLimits returns the memory limits that bind this process, one per
// hierarchy and level that sets one.
func cgroupLimits(fsys fs.FS) []int64 {
	groups := readCgroups(fsys)
	var out []int64
	for _, m := range readMounts(fsys) {
		var cg string
		var ok bool
		file := "memory.max"
		if m.v2 {
			cg, ok = groups.v2, groups.hasV2
		} else {
			cg, ok, file = groups.memoryV1, groups.hasV1, "memory.limit_in_bytes"
		}
		if !ok {
			continue
		}
		// The cgroup path is relative to the hierarchy's root and the mount shows
		// the subtree at m.root. A path outside that subtree comes from a cgroup
		// namespace: it is then relative to the mount itself (a container sees its
		// own cgroup, mounted as the root, as "/").
		rel, inside := strings.CutPrefix(cg, m.root)
		if !inside {
			rel = cg
		}
		dir := path.Join(m.point, rel)
		for {
			if l, ok := readLimit(fsys, path.Join(dir, file)); ok {
				out = append(out, l)
			}
			if dir == m.point || !strings.HasPrefix(dir, m.point) {
				break
			}
			dir = path.Dir(dir)
		}
	}
	return out
}

// cgroups are the process's cgroup paths: the v2 one and the v1 memory one.
type cgroups struct {
	v2, memoryV1 string
	hasV2, hasV1 bool
}

// readCgroups parses /proc/self/cgroup: "id:controllers:path" lines, the v2 one
// with id 0 and no controllers.
func readCgroups(fsys fs.FS) cgroups {
	var g cgroups
	f, err := fsys.Open("proc/self/cgroup")
	if err != nil {
		return g
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			g.v2, g.hasV2 = parts[2], true
		case containsWord(parts[1], "memory"):
			g.memoryV1, g.hasV1 = parts[2], true
		}
	}
	return g
}

// mount is a mounted cgroup hierarchy that can hold memory limits.
type mount struct {
	point, root string // where it is mounted (no leading slash) and the subtree shown
	v2          bool
}

// readMounts parses /proc/self/mountinfo for the cgroup2 mounts and the v1 mounts
// of the memory controller. A line is "id parent dev root point options
// [optional...] - fstype source superoptions".
func readMounts(fsys fs.FS) []mount {
	f, err := fsys.Open("proc/self/mountinfo")
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []mount
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, fl := range fields {
			if fl == "-" {
				sep = i
				break
			}
		}
		if sep < 5 || sep+3 > len(fields) {
			continue
		}
		m := mount{root: unescape(fields[3]), point: strings.TrimPrefix(path.Clean(unescape(fields[4])), "/")}
		switch fields[sep+1] {
		case "cgroup2":
			m.v2 = true
		case "cgroup":
			if !containsWord(fields[sep+3], "memory") {
				continue
			}
		default:
			continue
		}
		out = append(out, m)
	}
	return out
}

// readLimit reads a limit file: a byte count, or "max" (v2) or a huge number
// (v1) for none.
func readLimit(fsys fs.FS, name string) (int64, bool) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v >= unlimited {
		return 0, false // "max", unlimited or unreadable
	}
	return v, true
}

// containsWord reports whether the comma-separated list has w.
func containsWord(list, w string) bool {
	for x := range strings.SplitSeq(list, ",") {
		if x == w {
			return true
		}
	}
	return false
}

// unescape undoes mountinfo's octal escapes of spaces, tabs, newlines and
// backslashes (\040 and so on).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
