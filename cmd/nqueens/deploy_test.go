package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// k8sObject is the part of a Kubernetes manifest the deploy test reads.
type k8sObject struct {
	Kind     string
	Metadata struct{ Name string }
	Spec     struct {
		AccessModes      []string `yaml:"accessModes"`
		StorageClassName *string  `yaml:"storageClassName"`
		Completions      int
		CompletionMode   string `yaml:"completionMode"`
		Template         struct{ Spec k8sPodSpec }
		k8sPodSpec       `yaml:",inline"`
	}
}

type k8sPodSpec struct {
	Containers []struct {
		Name, Image     string
		ImagePullPolicy string `yaml:"imagePullPolicy"`
		Args            []string
		VolumeMounts    []struct {
			Name      string
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	}
	Volumes []struct {
		Name                  string
		PersistentVolumeClaim struct {
			ClaimName string `yaml:"claimName"`
		} `yaml:"persistentVolumeClaim"`
	}
}

func readManifests(t *testing.T, file string) ([]k8sObject, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy/kubernetes", file))
	if err != nil {
		t.Fatal(err)
	}
	var objs []k8sObject
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var o k8sObject
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		objs = append(objs, o)
	}
	return objs, string(b)
}

// TestKubernetesManifests checks deploy/kubernetes against itself and the Dockerfile:
// the image built locally is used as is (imagePullPolicy set, not Always, one tag in
// every file), the Job has one completion per shard, the results go into the shared
// claim where the merge pod reads them, and the claim asks for ReadWriteMany and says
// which storage class that takes.
func TestKubernetesManifests(t *testing.T) {
	job, jobText := readManifests(t, "count-job.yaml")
	merge, _ := readManifests(t, "merge-pod.yaml")
	docker, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy/Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`docker build .*-t (\S+)`).FindSubmatch(docker)
	if m == nil {
		t.Fatal("the Dockerfile does not say how it is tagged")
	}
	tag := string(m[1])

	var pvc, countJob, mergePod *k8sObject
	for i := range job {
		switch job[i].Kind {
		case "PersistentVolumeClaim":
			pvc = &job[i]
		case "Job":
			countJob = &job[i]
		}
	}
	if len(merge) == 1 && merge[0].Kind == "Pod" {
		mergePod = &merge[0]
	}
	if pvc == nil || countJob == nil || mergePod == nil {
		t.Fatalf("want a claim and a Job in count-job.yaml and a Pod in merge-pod.yaml")
	}
	if !strings.Contains(strings.Join(pvc.Spec.AccessModes, ","), "ReadWriteMany") {
		t.Errorf("claim access modes %v: every pod writes at once, it needs ReadWriteMany", pvc.Spec.AccessModes)
	}
	if pvc.Spec.StorageClassName == nil && !strings.Contains(jobText, "storageClassName:") {
		t.Errorf("the claim neither names a storage class nor says which one it needs")
	}

	pods := map[string]k8sPodSpec{"count": countJob.Spec.Template.Spec, "merge": mergePod.Spec.k8sPodSpec}
	mounts := map[string]string{}
	for name, spec := range pods {
		if len(spec.Containers) != 1 || len(spec.Volumes) != 1 {
			t.Fatalf("%s: want one container and one volume", name)
		}
		c := spec.Containers[0]
		if c.Image != tag {
			t.Errorf("%s: image %q, the Dockerfile builds %q", name, c.Image, tag)
		}
		if c.ImagePullPolicy == "" || c.ImagePullPolicy == "Always" {
			t.Errorf("%s: imagePullPolicy %q cannot use a locally built image", name, c.ImagePullPolicy)
		}
		if spec.Volumes[0].PersistentVolumeClaim.ClaimName != pvc.Metadata.Name || len(c.VolumeMounts) != 1 ||
			c.VolumeMounts[0].Name != spec.Volumes[0].Name {
			t.Errorf("%s: does not mount the claim %q", name, pvc.Metadata.Name)
		} else {
			mounts[name] = c.VolumeMounts[0].MountPath
		}
	}

	args := pods["count"].Containers[0].Args
	flag := func(name string) string {
		for i, a := range args {
			if a == name && i+1 < len(args) {
				return args[i+1]
			}
		}
		t.Fatalf("count args %v lack %s", args, name)
		return ""
	}
	var k int
	if _, err := fmt.Sscanf(flag("--shard"), "auto/%d", &k); err != nil || k != countJob.Spec.Completions ||
		countJob.Spec.CompletionMode != "Indexed" {
		t.Errorf("an Indexed Job needs one completion per shard: --shard %s, %d completions (%s)",
			flag("--shard"), countJob.Spec.Completions, countJob.Spec.CompletionMode)
	}
	out := flag("--out-dir")
	if !strings.HasPrefix(out, mounts["count"]+"/") {
		t.Errorf("--out-dir %s is not on the volume mounted at %s", out, mounts["count"])
	}
	mergeArgs := pods["merge"].Containers[0].Args
	if len(mergeArgs) != 2 || mergeArgs[0] != "merge" ||
		path.Join(mounts["merge"], strings.TrimPrefix(out, mounts["count"])) != mergeArgs[1] {
		t.Errorf("the merge pod reads %v, the shards go to %s", mergeArgs, out)
	}
}

// installHint is how the README and the deploy scripts say to install the program: from
// a clone (the module path is not published; TestInstallCommandsRun runs every install
// command the docs give, in a fresh clone).
const installHint = "go install ./cmd/nqueens"

// TestInstallDocumented: the README says how to put nqueens on PATH, next to its first
// block, before the first example that calls nqueens, and that the module path is not
// published (its go install …@latest answers 403).
func TestInstallDocumented(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(repoRoot(t), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module (\S+)$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod names no module")
	}
	text := string(readme)
	first := strings.Index(text, "```sh\n")
	if first < 0 {
		t.Fatal("the README has no first block")
	}
	// The first two command lines stay what they were: build and run, then the tests.
	lines := strings.SplitN(text[first+len("```sh\n"):], "\n", 3)
	if !strings.HasPrefix(lines[0], "go run ./cmd/nqueens ") || lines[1] != "make test" {
		t.Errorf("the README's first two command lines changed: %q", lines[:2])
	}
	// The install block comes before the first example that calls nqueens.
	example := strings.Index(text, "$ nqueens ")
	for _, cmd := range []string{installHint, "make build"} {
		if i := strings.Index(text, cmd); i < 0 || i > example {
			t.Errorf("the README does not say %q before its first example", cmd)
		}
	}
	flat := strings.Join(strings.Fields(text[:example]), " ")
	if !strings.Contains(flat, "module path, "+string(m[1])+", is not published") {
		t.Errorf("the README does not say that the module path %s is not published", m[1])
	}
}

// installCommandRE finds the install commands the docs give: go install of a package,
// and make build.
var installCommandRE = regexp.MustCompile(`go install [A-Za-z0-9_./@-]+|make build`)

// TestInstallCommandsRun: every install command that the README, docs/ and the deploy
// scripts give runs in a fresh clone of the repository (at this commit), and the program
// it makes runs: "go install github.com/nqueens/nqueens/cmd/nqueens@latest", which the
// README led with, answers 403, the module not being published. The clone builds from
// the module cache, offline.
func TestInstallCommandsRun(t *testing.T) {
	root := repoRoot(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): nothing to clone", err)
	}
	commands := map[string][]string{} // command → where it is given
	var files []string
	for _, pattern := range []string{"README.md", "docs/*.md", "deploy/*", "deploy/*/*"} {
		m, _ := filepath.Glob(filepath.Join(root, pattern))
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		for _, c := range installCommandRE.FindAllString(string(b), -1) {
			rel, _ := filepath.Rel(root, f)
			if !slices.Contains(commands[c], rel) {
				commands[c] = append(commands[c], rel)
			}
		}
	}
	if len(commands) == 0 || commands[installHint] == nil {
		t.Fatalf("no install command found in the docs (%d files): %v", len(files), commands)
	}
	clone := filepath.Join(t.TempDir(), "nqueens")
	if out, err := exec.Command("git", "clone", "-q", root, clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v %s", err, out)
	}
	if out, err := exec.Command("git", "-C", clone, "checkout", "-q", strings.TrimSpace(string(head))).CombinedOutput(); err != nil {
		t.Fatalf("git checkout: %v %s", err, out)
	}
	for c, where := range commands {
		gobin := t.TempDir()
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOPROXY=off", "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%q (given in %s) fails in a fresh clone: %v\n%s", c, strings.Join(where, ", "), err, out)
			continue
		}
		bin := filepath.Join(gobin, "nqueens")
		if c == "make build" {
			bin = filepath.Join(clone, "bin", "nqueens")
		}
		if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "nqueens ") {
			t.Errorf("%q (given in %s): the program does not run: %v %s", c, strings.Join(where, ", "), err, out)
		}
	}
}

// TestDeployScriptsCheckProgram: the Slurm and GNU parallel scripts check that the
// program runs before any work, and say how to install it, instead of failing in every
// task with "nqueens: not found".
func TestDeployScriptsCheckProgram(t *testing.T) {
	for _, script := range []string{"deploy/slurm/count.sbatch", "deploy/parallel/count.sh"} {
		out := filepath.Join(t.TempDir(), "q")
		cmd := exec.Command("bash", filepath.Join(repoRoot(t), script))
		cmd.Env = append(os.Environ(), "N=12", "K=2", "OUT="+out, "NQUEENS=nqueens-not-installed", "SLURM_ARRAY_TASK_ID=0")
		var errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &errb, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 127 || !strings.Contains(errb.String(), "'nqueens-not-installed' does not run") ||
			!strings.Contains(errb.String(), installHint) {
			t.Errorf("%s without the program: %v, %q; want exit 127 naming it and how to install it", script, err, errb.String())
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s made %s before checking the program", script, out)
		}
	}
}

// TestGNUParallelHostWithoutProgram: count.sh -S checks the program on every host before
// it starts a shard: a host without it stops the run (exit 127), named, with no shard
// counted anywhere.
func TestGNUParallelHostWithoutProgram(t *testing.T) {
	if os.Getenv("NQUEENS_PARALLEL") != "1" {
		t.Skip("set NQUEENS_PARALLEL=1 with GNU parallel installed to run")
	}
	bin := binary(t)
	work, home, tools := t.TempDir(), t.TempDir(), t.TempDir()
	// nqueens is on this machine's PATH (tools), not on the PATH of host "bare".
	if err := os.Symlink(bin, filepath.Join(tools, "nqueens")); err != nil {
		t.Fatal(err)
	}
	ssh := filepath.Join(tools, "ssh")
	if err := os.WriteFile(ssh, []byte(fakeSSH), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(repoRoot(t), "deploy/parallel/count.sh"), "-S", "1/nodeA,1/bare")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "N=12", "K=4", "OUT=q", "NQUEENS=nqueens", "PATH="+tools+":"+os.Getenv("PATH"),
		"PARALLEL_SSH="+ssh, "FAKE_SSH_LOG="+filepath.Join(tools, "hosts.log"), "HOME="+home)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 127 || !strings.Contains(string(out), "bare") ||
		!strings.Contains(string(out), "does not run on every host") {
		t.Fatalf("count.sh -S with a host lacking the program: %v\n%s", err, out)
	}
	if res, _ := filepath.Glob(filepath.Join(work, "q", "shard-*")); len(res) > 0 {
		t.Errorf("shards ran before the check: %v", res)
	}
}
