package cluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/u128"
)

// A checksum proves a shard's result file, not its sums: a node with a bad core or a bad
// build writes a well-formed file with a wrong sum. AuditShards counts a sample of the
// finished shards again, each with another matcher kernel than the one its file says
// counted it, compares, and leaves a sealed record that RequireAudit asks of a merge.

// DefaultAuditFraction is the share of the finished shards AuditShards checks when
// AuditOptions.Fraction and Only are not set.
const DefaultAuditFraction = 0.01

// AuditOptions configures AuditShards. The shards checked are Only if set, else a
// Fraction of the finished ones (at least one) chosen by Seed; with Host, only among
// those counted on that host.
type AuditOptions struct {
	Fraction float64 // 0 means DefaultAuditFraction
	Only     []int
	Host     string
	Seed     uint64
	// SeedSet takes Seed as it is; else the seed is derived from the plan hash, so that
	// two audits of one run check the same shards.
	SeedSet bool
	Workers int    // goroutines; 0 means one per CPU
	Version string // the program version recorded
	// Kernel names the matcher kernel of every recount ("go", "avx2", "avx512"); "" or
	// "auto" takes, for each shard, another kernel than the one that counted it. A name
	// that is no kernel, or one this CPU does not run, fails the audit before any work
	// with an error wrapping nqueens.ErrKernel; a shard it counted is reported as counted
	// again with its own kernel (see Warn).
	Kernel string
	// RecordDir is the directory the audit record goes to (audit-PLAN-TIME.json, format
	// nqueens-audit/2, sealed with a checksum as result files are); "" writes none.
	RecordDir string
	// Progress, if not nil, is called after each sub-problem counted again: phase
	// "audit", in units of the sub-problems' estimated cost over every shard checked.
	Progress func(nqueens.Progress)
	// Warn, if not nil, hears what the audit skips (unreadable files, files of another
	// plan) and a shard counted again with the kernel that counted it (the CPU runs no
	// other, or the board is counted without kernels).
	Warn func(msg string)
}

// AuditedShard is one shard AuditShards counted again: what its file says and what the
// recount gives. Its JSON is that of the audit record's shards (and, the shard written
// "I/K", of the command's audit --json).
type AuditedShard struct {
	Shard      int    `json:"shard"`
	ResultFile string `json:"result_file"`
	Host       string `json:"host,omitempty"` // where it was counted, as its file says
	// Kernel is the matcher kernel(s) that counted it, as its file says ("go", "avx2",
	// "avx512", "none" for n ≤ 9, "unknown" for files of format 3; names joined by commas
	// when a resumed shard changed kernel); AuditKernel that of the recount.
	Kernel      string          `json:"kernel"`
	AuditKernel string          `json:"audit_kernel"`
	Total       nqueens.Uint128 `json:"total"`
	Burnside    nqueens.Uint128 `json:"burnside"`
	// ResultChecksum is the checksum of the result file checked, by which RequireAudit
	// tells that the file is still the one audited.
	ResultChecksum  string          `json:"result_checksum,omitempty"`
	RecountTotal    nqueens.Uint128 `json:"recount_total"`
	RecountBurnside nqueens.Uint128 `json:"recount_burnside"`
	OK              bool            `json:"ok"`      // the sums agree
	Seconds         float64         `json:"seconds"` // of the recount
}

// AuditResult is the outcome of AuditShards.
type AuditResult struct {
	PlanHash, Engine string // the plan's Hash and Engine
	N, Shards        int
	ShardsFound      int     // the finished shards of the plan, that the sample is drawn from
	Fraction         float64 // 0 when the shards were listed
	Seed             uint64
	Checked          []AuditedShard
	Failed           int    // checked shards whose sums disagree
	RecordFile       string // the record written, if any
}

// AuditShards reads the result files at paths (those of the plan most of them share; the
// others are skipped with a warning), chooses the shards to check (see AuditOptions),
// counts their sub-problems again with another kernel than the one that counted each
// (the pure-Go kernel for a shard counted by an assembly one; for one counted by go the
// widest assembly kernel this CPU runs, else go again, with a warning) and compares the
// total and the Burnside numerator. A shard that disagrees is no error: Failed counts
// them. It fails when no file is left, when this program's plan is not the files'
// (another engine version), when a listed shard has no file, and when ctx stops it
// (ctx.Err(); no record is written then).
func AuditShards(ctx context.Context, paths []string, opt AuditOptions) (AuditResult, error) {
	if opt.Fraction == 0 {
		opt.Fraction = DefaultAuditFraction
	}
	rec, err := audit(ctx, paths, opt)
	if err != nil {
		return AuditResult{}, err
	}
	res := AuditResult{PlanHash: rec.Plan, Engine: rec.Engine, N: rec.N, Shards: rec.Shards, ShardsFound: rec.Found,
		Fraction: rec.Fraction, Seed: rec.Seed, Checked: rec.Checked, Failed: rec.Failed}
	if opt.RecordDir != "" {
		if res.RecordFile, err = writeAudit(opt.RecordDir, rec); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ErrNoSuchShard is wrapped by the error of AuditShards when AuditOptions.Only names a
// shard that is not one of 0 to K-1 of the files' run.
var ErrNoSuchShard = errors.New("no such shard")

// ErrNoAudit is wrapped by the error of RequireAudit when the directories hold no audit
// record of the plan (AuditShards with RecordDir writes one).
var ErrNoAudit = errors.New("no audit record")

// RequireAudit checks that the directories dirs hold a passing audit record (one that
// checked at least one shard and found none wrong) of the plan of the merge m, and no
// failing or unreadable one, and holds every shard a passing record checked to it: the
// shard's result file in m must still say the total, Burnside numerator and kernel the
// audit checked, and have the checksum it checked (records of nqueens-audit/1 keep no
// checksum). The error names the shards and records that do not hold. It returns the
// number of shards the passing records checked.
func RequireAudit(dirs []string, m MergeResult) (audited int, err error) {
	results := m.results
	if len(results) != m.Shards { // a MergeResult not made by MergeShards: read its files
		results = make([]*result, m.Shards)
		for i, f := range m.Files {
			if i < len(results) && f != "" {
				if results[i], err = readResult(f); err != nil {
					return 0, err
				}
			}
		}
	}
	return requireAudit(dirs, m.PlanHash, m.Shards, results)
}

// auditFormat names the layout of audit records. Version 2 records the
// checksum of each result file checked; readAudit reads version 1 as well.
const auditFormat = "nqueens-audit/2"

// auditFormatV1 is the layout before the result files' checksums.
const auditFormatV1 = "nqueens-audit/1"

// auditRecord is the content of an audit record file.
type auditRecord struct {
	Format   string         `json:"format"`
	Plan     string         `json:"plan"`
	Engine   string         `json:"engine"`
	N        int            `json:"n"`
	Shards   int            `json:"shards"`             // K
	Found    int            `json:"shards_found"`       // the finished shards of the plan found, that the sample is drawn from
	Fraction float64        `json:"fraction,omitempty"` // of those, when sampled
	Only     []int          `json:"only,omitempty"`     // the shards asked for, when listed
	OnlyHost string         `json:"only_host,omitempty"`
	Seed     uint64         `json:"seed"`
	Checked  []AuditedShard `json:"checked"`
	Failed   int            `json:"failed"` // checked shards whose sums disagree
	Version  string         `json:"version"`
	Host     string         `json:"host,omitempty"` // where the audit ran
	Time     string         `json:"time"`           // RFC 3339 time of the end
	Checksum string         `json:"checksum"`
}

// passed tells whether the record checked at least one shard and found none wrong.
func (a *auditRecord) passed() bool { return len(a.Checked) > 0 && a.Failed == 0 }

// seedOf is the default seed of an audit of the plan with hash plan: its
// first 16 hex digits, so that two audits of one run check the same shards
// unless told otherwise.
func seedOf(plan string) uint64 {
	if len(plan) > 16 {
		plan = plan[:16]
	}
	s, _ := strconv.ParseUint(plan, 16, 64)
	return s
}

// auditKernel is the kernel an audit recounts with, for a shard counted by
// the kernels counted (names joined by commas, as files record them): the
// kernel asked for when not KernelAuto (same tells whether it counted);
// else the pure-Go kernel when none of them was it; else the widest assembly
// kernel this CPU runs that did not count, else the pure-Go kernel again,
// and same is true. For a plan without kernels it is KernelAuto, named
// kernelNone, and same is true: the recount runs the same code.
func auditKernel(p *fastcount.Plan, counted string, asked qjoin.Kernel) (k qjoin.Kernel, name string, same bool) {
	if !p.HasKernel() {
		return qjoin.KernelAuto, kernelNone, true
	}
	used := strings.Split(counted, ",")
	if asked != qjoin.KernelAuto {
		return asked, asked.String(), slices.Contains(used, asked.String())
	}
	if !slices.Contains(used, qjoin.KernelGo.String()) {
		return qjoin.KernelGo, qjoin.KernelGo.String(), false
	}
	for _, k := range []qjoin.Kernel{qjoin.KernelAVX512, qjoin.KernelAVX2} {
		if k.Available() && !slices.Contains(used, k.String()) {
			return k, k.String(), false
		}
	}
	return qjoin.KernelGo, qjoin.KernelGo.String(), true
}

// audit reads the result files at paths, chooses the shards to check (see
// AuditOptions), counts their sub-problems again with auditKernel and compares the sums
// with the files'. The files of the plan most of them share are audited; the others,
// and the unreadable, are skipped with a warning. It fails when no file is left, when
// this program's plan of n is not the files' (another engine version), when a listed
// shard has no file, and when ctx stops it (ctx.Err()): then no record is made. A shard
// that disagrees is no error: the record says so (Failed, passed).
func audit(ctx context.Context, paths []string, opt AuditOptions) (*auditRecord, error) {
	warn := func(format string, a ...any) {
		if opt.Warn != nil {
			opt.Warn(fmt.Sprintf(format, a...))
		}
	}
	asked := qjoin.KernelAuto
	if opt.Kernel != "" {
		k, err := qjoin.ParseKernel(opt.Kernel)
		if err == nil {
			k, err = k.Resolve()
		}
		if err != nil {
			return nil, err
		}
		asked = k
	}
	files, err := readAuditFiles(paths, warn)
	if err != nil {
		return nil, err
	}
	ref := files.ref
	p, err := fastcount.NewPlanContext(ctx, ref.N, fastcount.EngineAuto)
	if err != nil {
		return nil, err
	}
	if p.Hash() != ref.Plan || p.Version() != ref.Engine {
		return nil, fmt.Errorf("the files are of n=%d plan %.12s (engine %s), this program's plan of n=%d is %.12s (engine %s): audit with the version that counted",
			ref.N, ref.Plan, ref.Engine, p.N, p.Hash(), p.Version())
	}
	rec := &auditRecord{Format: auditFormat, Plan: ref.Plan, Engine: ref.Engine, N: ref.N, Shards: ref.Shards,
		Only: opt.Only, OnlyHost: opt.Host, Seed: opt.Seed, Version: opt.Version}
	if !opt.SeedSet {
		rec.Seed = seedOf(ref.Plan)
	}
	chosen, err := files.choose(rec, opt)
	if err != nil {
		return nil, err
	}
	rep := report.New(opt.Progress)
	defer rep.Close()
	if err := files.recount(ctx, p, rec, chosen, opt.Workers, asked, rep.Phase("audit"), warn); err != nil {
		return nil, err
	}
	rec.Host, _ = os.Hostname()
	rec.Time = time.Now().UTC().Format(time.RFC3339)
	return rec, nil
}

// auditFiles are the result files an audit checks: those of the plan and shard count
// most files share, one a shard.
type auditFiles struct {
	rs      []*result
	files   []string    // of rs
	byShard map[int]int // shard → index in rs
	ref     *result     // one of the plan's
}

// readAuditFiles reads the result files at paths for an audit, telling warn of the files
// skipped: unreadable, of another plan or shard count, a shard's second file.
func readAuditFiles(paths []string, warn func(format string, a ...any)) (*auditFiles, error) {
	a := &auditFiles{byShard: map[int]int{}}
	for _, path := range paths {
		r, err := readResult(path)
		if err != nil {
			warn("skipped: %v", err)
			continue
		}
		a.rs = append(a.rs, r)
		a.files = append(a.files, path)
	}
	if len(a.rs) == 0 {
		return nil, errors.New("no readable result files to audit")
	}
	keys := make([]planOf, len(a.rs))
	for i, r := range a.rs {
		keys[i] = keyOf(r)
	}
	major, ok := majority(keys)
	if !ok {
		return nil, describeGroups(keys, a.files)
	}
	a.ref = a.rs[major[0]]
	for _, i := range major {
		if j, dup := a.byShard[a.rs[i].Shard]; dup {
			warn("shard %d of %d appears twice: %s and %s; auditing the first", a.rs[i].Shard, a.ref.Shards, a.files[j], a.files[i])
			continue
		}
		a.byShard[a.rs[i].Shard] = i
	}
	if other := len(a.rs) - len(major); other > 0 {
		warn("skipped %d file(s) of another plan or shard count than the other %s", other, filesLike(len(major), a.files[major[0]]))
	}
	return a, nil
}

// choose returns the shards to check, in increasing order: opt.Only, each of which must
// have a file (counted on opt.Host if set), or else a share opt.Fraction of the shards
// found (on opt.Host if set), chosen by rec.Seed. It sets rec.Found and, when sampling,
// rec.Fraction.
func (a *auditFiles) choose(rec *auditRecord, opt AuditOptions) ([]int, error) {
	ref := a.ref
	var found []int // the shards to choose from, in order
	for s := range a.byShard {
		if opt.Host == "" || a.rs[a.byShard[s]].Host == opt.Host {
			found = append(found, s)
		}
	}
	slices.Sort(found)
	rec.Found = len(found)
	switch {
	case len(opt.Only) > 0:
		var chosen []int
		for _, s := range opt.Only {
			switch {
			case s < 0 || s >= ref.Shards:
				return nil, fmt.Errorf("shard %d of %d: %w (the shards are 0 to %d)", s, ref.Shards, ErrNoSuchShard, ref.Shards-1)
			case !slices.Contains(found, s) && opt.Host != "":
				return nil, fmt.Errorf("shard %d: no result file of plan %.12s counted on host %s", s, ref.Plan, opt.Host)
			case !slices.Contains(found, s):
				return nil, fmt.Errorf("shard %d of %d: no result file of plan %.12s", s, ref.Shards, ref.Plan)
			}
			if !slices.Contains(chosen, s) {
				chosen = append(chosen, s)
			}
		}
		slices.Sort(chosen)
		return chosen, nil
	case len(found) == 0:
		return nil, fmt.Errorf("no result file of plan %.12s counted on host %s", ref.Plan, opt.Host)
	}
	rec.Fraction = opt.Fraction
	return sample(found, opt.Fraction, rec.Seed), nil
}

// recount counts the chosen shards of plan p again on workers goroutines, each with
// auditKernel, into rec.Checked (rec.Failed counts those that disagree), calling
// progress, if not nil, after each sub-problem with the estimated cost done and to do
// over every shard checked; warn hears of the shards counted again with the kernel that
// counted them, or perhaps so (files of format 3).
func (a *auditFiles) recount(ctx context.Context, p *fastcount.Plan, rec *auditRecord, chosen []int, workers int, asked qjoin.Kernel,
	progress func(done, total uint64), warn func(format string, a ...any)) error {
	want, totalCost, err := subsOfShards(p, a.ref.Shards, chosen)
	if err != nil {
		return err
	}
	var doneCost uint64
	counted := func(id int) {
		if progress != nil {
			doneCost += uint64(p.Cost(id))
			progress(doneCost, totalCost)
		}
	}
	var same, unknown []int
	for _, s := range chosen {
		r, f := a.rs[a.byShard[s]], a.files[a.byShard[s]]
		if err := r.matches(p, s, a.ref.Shards, want[s]); err != nil {
			return fmt.Errorf("%s %w", f, err)
		}
		checked, reused, err := recountShard(ctx, p, s, r, f, want[s], workers, asked, counted)
		if err != nil {
			return err
		}
		if reused {
			same = append(same, s)
		}
		if slices.Contains(strings.Split(r.Kernel, ","), kernelUnknown) {
			unknown = append(unknown, s)
		}
		if !checked.OK {
			rec.Failed++
		}
		rec.Checked = append(rec.Checked, checked)
	}
	if len(same) > 0 {
		what := "this CPU runs no other kernel"
		if asked != qjoin.KernelAuto {
			what = "it is the kernel asked for"
		}
		if !p.HasKernel() {
			what = fmt.Sprintf("n=%d is counted without kernels", p.N)
		}
		warn("warning: %d shard(s) (%s) counted again with the kernel that counted them (%s): %s; the audit checks the machines, not the kernel",
			len(same), rangesOf(same), rec.Checked[slices.Index(chosen, same[0])].AuditKernel, what)
	}
	if len(unknown) > 0 {
		warn("warning: %d shard(s) (%s) from files of format 3, which do not say which kernel counted them, counted again with %s: perhaps the same",
			len(unknown), rangesOf(unknown), qjoin.KernelGo)
	}
	return nil
}

// subsOfShards returns the sub-problems of the chosen shards of p split into k, in
// increasing order, in one pass over the split, and their estimated cost.
func subsOfShards(p *fastcount.Plan, k int, chosen []int) (map[int][]int, uint64, error) {
	want := map[int][]int{}
	for _, s := range chosen {
		want[s] = []int{}
	}
	if err := assign(p, k, func(id, s int) {
		if ids, ok := want[s]; ok {
			want[s] = append(ids, id)
		}
	}); err != nil {
		return nil, 0, err
	}
	var cost uint64
	for _, s := range chosen {
		slices.Sort(want[s])
		for _, id := range want[s] {
			cost += uint64(p.Cost(id))
		}
	}
	return want, cost, nil
}

// recountShard counts the sub-problems ids of shard s, whose result r was read from the
// file f, again with auditKernel on workers goroutines, calling counted after each, and
// compares; reused tells that the kernel is the one that counted it.
func recountShard(ctx context.Context, p *fastcount.Plan, s int, r *result, f string, ids []int, workers int, asked qjoin.Kernel,
	counted func(id int)) (a AuditedShard, reused bool, err error) {
	k, kname, reused := auditKernel(p, r.Kernel, asked)
	a = AuditedShard{Shard: s, ResultFile: f, Host: r.Host, Kernel: r.Kernel, AuditKernel: kname,
		Total: nqueens.Uint128(r.Total), Burnside: nqueens.Uint128(r.Burnside), ResultChecksum: r.Checksum}
	start := time.Now()
	var overflow bool
	var total, burnside u128.U128
	err = p.CountSubsKernel(ctx, ids, workers, k, func(id int, sr fastcount.SubResult) {
		t, c1 := total.Add64(sr.Total)
		b, c2 := burnside.Add64(sr.Burnside)
		total, burnside = t, b
		overflow = overflow || c1 || c2
		counted(id)
	})
	a.RecountTotal, a.RecountBurnside = nqueens.Uint128(total), nqueens.Uint128(burnside)
	if err != nil {
		return AuditedShard{}, false, err
	}
	a.Seconds = time.Since(start).Seconds()
	a.OK = !overflow && a.RecountTotal == a.Total && a.RecountBurnside == a.Burnside
	return a, reused, nil
}

// sample returns the share f of found (at least one), chosen by seed: the
// shards of the least hashes of seed and shard, so that the choice of a shard
// does not depend on the others found with it. In increasing order.
func sample(found []int, f float64, seed uint64) []int {
	m := int(math.Ceil(f*float64(len(found)) - 1e-9)) // 0.07 × 100 is 7.000000000000001
	m = max(1, min(m, len(found)))
	type item struct {
		h     uint64
		shard int
	}
	items := make([]item, len(found))
	for i, s := range found {
		items[i] = item{mix(seed ^ mix(uint64(s)+1)), s}
	}
	slices.SortFunc(items, func(a, b item) int { return cmp.Compare(a.h, b.h) })
	out := make([]int, m)
	for i := range out {
		out[i] = items[i].shard
	}
	slices.Sort(out)
	return out
}

// mix is SplitMix64's finaliser.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// auditName is the name of an audit record of the plan with hash plan made at
// t: audit-0123456789ab-20260102T030405Z.json.
func auditName(plan string, t time.Time) string {
	if len(plan) > 12 {
		plan = plan[:12]
	}
	return fmt.Sprintf("audit-%s-%s.json", plan, t.UTC().Format("20060102T150405Z"))
}

// writeAudit seals a with its checksum and writes it into dir under
// auditName (with -2, -3... when a record of that name exists); it returns
// the path.
func writeAudit(dir string, a *auditRecord) (string, error) {
	a.Format = auditFormat
	b, err := seal(a, &a.Checksum)
	if err != nil {
		return "", err
	}
	t, err := time.Parse(time.RFC3339, a.Time)
	if err != nil {
		t = time.Now()
	}
	name := auditName(a.Plan, t)
	path := filepath.Join(dir, name)
	for i := 2; ; i++ {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		path = filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.TrimSuffix(name, ".json"), i))
	}
	return path, atomicfile.WriteBytes(path, b)
}

// readAudit reads and checks an audit record: JSON complete and strict,
// checksum and format. Errors name the file.
func readAudit(path string) (*auditRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := &auditRecord{}
	want := auditFormat
	if formatOf(data) == auditFormatV1 {
		want = auditFormatV1
	}
	if err = checkFormat(data, want); err == nil {
		err = unseal(data, a, &a.Checksum)
	}
	if err == nil && a.Format != want {
		err = fmt.Errorf("format %q, want %q", a.Format, auditFormat)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// auditPaths lists the audit records in dirs (audit-*.json).
func auditPaths(dirs []string) ([]string, error) {
	var paths []string
	for _, d := range dirs {
		m, err := filepath.Glob(filepath.Join(d, "audit-*.json"))
		if err != nil {
			return nil, err
		}
		paths = append(paths, m...)
	}
	return paths, nil
}

// requireAudit checks that dirs hold a passing audit record of the plan with
// hash plan split in shards shards, and no failing one (nor one that cannot
// be read), and that the result file of every shard a passing record checked,
// byShard[shard], is still the one the newest such record checked: the same
// total, Burnside numerator, kernel and, in records of format 2, checksum. The error says
// what is missing or wrong, naming the shards. It returns the shards the
// passing records checked.
func requireAudit(dirs []string, plan string, shards int, byShard []*result) (checked int, err error) {
	paths, err := auditPaths(dirs)
	if err != nil {
		return 0, err
	}
	// Each shard is held to the newest passing record that checked it, so
	// that a shard counted again and audited again is held to its new file.
	type heldTo struct {
		shard        AuditedShard
		record, time string
	}
	held := map[int]heldTo{}
	var passed []string
	for _, path := range paths {
		a, err := readAudit(path)
		if err != nil {
			return 0, fmt.Errorf("audit record %w", err)
		}
		if a.Plan != plan || a.Shards != shards {
			continue
		}
		if !a.passed() {
			var bad []string
			for _, c := range a.Checked {
				if !c.OK {
					bad = append(bad, c.ResultFile)
				}
			}
			return 0, fmt.Errorf("audit record %s failed: %d of %d shards disagree (%s): count them again on another machine, then remove the record and audit again",
				path, a.Failed, len(a.Checked), strings.Join(bad, ", "))
		}
		passed = append(passed, path)
		for _, c := range a.Checked {
			if h, ok := held[c.Shard]; !ok || a.Time > h.time || a.Time == h.time && path > h.record {
				held[c.Shard] = heldTo{c, path, a.Time}
			}
		}
	}
	if len(passed) == 0 {
		return 0, fmt.Errorf("%w of plan %.12s with %d shards in %s", ErrNoAudit, plan, shards, strings.Join(dirs, ", "))
	}
	var changed []string
	for _, s := range slices.Sorted(maps.Keys(held)) {
		h := held[s]
		if s < 0 || s >= len(byShard) || byShard[s] == nil {
			changed = append(changed, fmt.Sprintf("shard %d, checked by %s, has no result file here", s, h.record))
		} else if d := h.shard.differs(byShard[s]); d != "" {
			changed = append(changed, fmt.Sprintf("shard %d's result file is not the one %s checked (%s)", s, h.record, d))
		}
	}
	if len(changed) > 0 {
		if len(changed) > 5 {
			changed = append(changed[:5:5], fmt.Sprintf("… (%d in all)", len(changed)))
		}
		return 0, fmt.Errorf("%s: audit those shards again, and count again the ones that fail", strings.Join(changed, "; "))
	}
	return len(held), nil
}

// differs says how the result r of a shard differs from what the audit
// checked of it: "" when it does not.
func (c *AuditedShard) differs(r *result) string {
	var d []string
	if nqueens.Uint128(r.Total) != c.Total {
		d = append(d, fmt.Sprintf("total %v, audited %v", r.Total, c.Total))
	}
	if nqueens.Uint128(r.Burnside) != c.Burnside {
		d = append(d, fmt.Sprintf("Burnside numerator %v, audited %v", r.Burnside, c.Burnside))
	}
	if r.Kernel != c.Kernel {
		d = append(d, fmt.Sprintf("kernel %q, audited %q", r.Kernel, c.Kernel))
	}
	if c.ResultChecksum != "" && r.Checksum != c.ResultChecksum {
		d = append(d, fmt.Sprintf("checksum %.19s…, audited %.19s…", r.Checksum, c.ResultChecksum))
	}
	return strings.Join(d, ", ")
}
