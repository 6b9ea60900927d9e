package sysmem

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

const gib = 1 << 30

// mountinfo lines of the three layouts.
const (
	v2Mount = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"
	v1Mount = "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n" +
		"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	hybridMount = v1Mount + "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	procMount   = "22 1 0:5 / /proc rw - proc proc rw\n"
)

func TestLimit(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		ram   int64
		want  int64
	}{
		{"no cgroups", map[string]string{}, 24 * gib, 24 * gib},
		{"unknown ram, no cgroups", map[string]string{}, 0, 0},
		{"v2 limit", map[string]string{
			"proc/self/mountinfo":               procMount + v2Mount,
			"proc/self/cgroup":                  "0::/job/step\n",
			"sys/fs/cgroup/job/step/memory.max": "1073741824\n",
			"sys/fs/cgroup/job/memory.max":      "max\n",
			"sys/fs/cgroup/memory.max":          "max\n",
		}, 24 * gib, gib},
		{"v2 parent binds", map[string]string{
			"proc/self/mountinfo":               v2Mount,
			"proc/self/cgroup":                  "0::/job/step\n",
			"sys/fs/cgroup/job/step/memory.max": "max\n",
			"sys/fs/cgroup/job/memory.max":      "536870912\n",
		}, 24 * gib, gib / 2},
		{"v2 above ram", map[string]string{
			"proc/self/mountinfo":          v2Mount,
			"proc/self/cgroup":             "0::/big\n",
			"sys/fs/cgroup/big/memory.max": strconv.Itoa(64 * gib),
		}, 24 * gib, 24 * gib},
		{"v2 unlimited", map[string]string{
			"proc/self/mountinfo":      v2Mount,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "max\n",
		}, 24 * gib, 24 * gib},
		{"v2 namespaced container", map[string]string{
			// The container's own cgroup is mounted as the root.
			"proc/self/mountinfo":      "30 23 0:26 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n",
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "268435456\n",
		}, 24 * gib, gib / 4},
		{"v1 limit", map[string]string{
			"proc/self/mountinfo": v1Mount,
			"proc/self/cgroup":    "5:cpu:/\n4:memory:/slurm/uid_0/job_7\n0::/\n",
			"sys/fs/cgroup/memory/slurm/uid_0/job_7/memory.limit_in_bytes": "2147483648\n",
			"sys/fs/cgroup/memory/slurm/memory.limit_in_bytes":             "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                   "9223372036854771712\n",
		}, 24 * gib, 2 * gib},
		{"v1 unlimited", map[string]string{
			"proc/self/mountinfo": v1Mount,
			"proc/self/cgroup":    "4:memory:/process_api/0c08\n",
			"sys/fs/cgroup/memory/process_api/0c08/memory.limit_in_bytes": "9223372036854771712\n",
		}, 24 * gib, 24 * gib},
		{"v1 docker, mount root is the container", map[string]string{
			"proc/self/mountinfo":                        "35 31 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n",
			"proc/self/cgroup":                           "4:memory:/docker/abc\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "3221225472\n",
		}, 24 * gib, 3 * gib},
		{"hybrid: the smaller of both", map[string]string{
			"proc/self/mountinfo":                          hybridMount,
			"proc/self/cgroup":                             "4:memory:/a\n0::/b\n",
			"sys/fs/cgroup/memory/a/memory.limit_in_bytes": strconv.Itoa(4 * gib),
			"sys/fs/cgroup/unified/b/memory.max":           strconv.Itoa(3 * gib),
		}, 24 * gib, 3 * gib},
		{"garbage", map[string]string{
			"proc/self/mountinfo":        "junk\n- - -\n" + v2Mount,
			"proc/self/cgroup":           "no colons\n0::/x\n",
			"sys/fs/cgroup/x/memory.max": "lots\n",
		}, 24 * gib, 24 * gib},
		{"mount point with a space", map[string]string{
			"proc/self/mountinfo":           `30 23 0:26 / /sys/fs/my\040cgroup rw - cgroup2 cgroup2 rw` + "\n",
			"proc/self/cgroup":              "0::/j\n",
			"sys/fs/my cgroup/j/memory.max": "1048576\n",
		}, 24 * gib, 1 << 20},
	}
	for _, c := range cases {
		fsys := fstest.MapFS{}
		for name, body := range c.files {
			fsys[name] = &fstest.MapFile{Data: []byte(body)}
		}
		if got := limit(fsys, c.ram); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

// TestLimitInRealCgroup puts a child process into a new memory cgroup with a 96 MiB
// limit, where the machine allows it (root, a writable v1 memory hierarchy or a v2
// one with the memory controller), and checks that Limit sees the limit there.
func TestLimitInRealCgroup(t *testing.T) {
	if os.Getenv("MEMLIMIT_CHILD") == "1" {
		os.Stdout.WriteString(strconv.FormatInt(Limit(), 10) + "\n")
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a cgroup")
	}
	const want = 96 << 20
	var dir, limitFile string
	for _, m := range readMounts(os.DirFS("/")) {
		root := "/" + m.point
		if m.v2 {
			if b, err := os.ReadFile(filepath.Join(root, "cgroup.controllers")); err != nil || !strings.Contains(string(b), "memory") {
				continue
			}
			dir, limitFile = filepath.Join(root, "nqueens-memlimit-test"), "memory.max"
		} else {
			dir, limitFile = filepath.Join(root, "nqueens-memlimit-test"), "memory.limit_in_bytes"
		}
		break
	}
	if dir == "" {
		t.Skip("no cgroup hierarchy with the memory controller")
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		t.Skipf("cannot make a cgroup: %v", err)
	}
	defer os.Remove(dir)
	if err := os.WriteFile(filepath.Join(dir, limitFile), []byte(strconv.Itoa(want)), 0o644); err != nil {
		t.Skipf("cannot set a limit: %v", err)
	}
	// The child enters the cgroup through a shell, then runs this test binary.
	self, _ := os.Executable()
	cmd := exec.Command("sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" -test.run '^TestLimitInRealCgroup$'`, "sh", dir, self)
	cmd.Env = append(os.Environ(), "MEMLIMIT_CHILD=1")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot run in the cgroup: %v", err)
	}
	got, _ := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	if got != want {
		t.Fatalf("Limit in a cgroup limited to %d bytes: %s", want, out)
	}
}
