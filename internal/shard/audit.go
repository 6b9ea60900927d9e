package shard

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

	"github.com/nqueens/nqueens/internal/atomicfile"
	"github.com/nqueens/nqueens/internal/fastcount"
	"github.com/nqueens/nqueens/internal/qjoin"
	"github.com/nqueens/nqueens/internal/u128"
)

// A checksum proves a result file, not its sums: a node with a bad core or a
// bad build writes a well-formed file with a wrong sum. An audit counts a
// sample of the finished shards again, with another kernel than the one that
// counted each, compares, and keeps what it did in a sealed record, which a
// merge can require.

// AuditFormat names the layout of audit records. Version 2 records the
// checksum of each result file checked; ReadAudit reads version 1 as well.
const AuditFormat = "nqueens-audit/2"

// auditFormatV1 is the layout before the result files' checksums.
const auditFormatV1 = "nqueens-audit/1"

// AuditShard is one shard an audit counted again: what its file says, what
// the recount gives.
type AuditShard struct {
	Shard       int       `json:"shard"`
	ResultFile  string    `json:"result_file"`
	Host        string    `json:"host,omitempty"` // where the shard was counted
	Kernel      string    `json:"kernel"`         // the kernel(s) that counted it, as the file says
	AuditKernel string    `json:"audit_kernel"`   // the kernel of the recount
	Total       u128.U128 `json:"total"`
	Burnside    u128.U128 `json:"burnside"`
	// ResultChecksum is the checksum of the result file checked (its
	// "checksum" field), so that a merge can tell the file is still the one
	// audited; empty in records of format 1.
	ResultChecksum  string    `json:"result_checksum,omitempty"`
	RecountTotal    u128.U128 `json:"recount_total"`
	RecountBurnside u128.U128 `json:"recount_burnside"`
	OK              bool      `json:"ok"`      // the sums agree
	Seconds         float64   `json:"seconds"` // of the recount
}

// AuditRecord is the content of an audit record file.
type AuditRecord struct {
	Format   string       `json:"format"`
	Plan     string       `json:"plan"`
	Engine   string       `json:"engine"`
	N        int          `json:"n"`
	Shards   int          `json:"shards"`             // K
	Found    int          `json:"shards_found"`       // the finished shards of the plan found, that the sample is drawn from
	Fraction float64      `json:"fraction,omitempty"` // of those, when sampled
	Only     []int        `json:"only,omitempty"`     // the shards asked for, when listed
	OnlyHost string       `json:"only_host,omitempty"`
	Seed     uint64       `json:"seed"`
	Checked  []AuditShard `json:"checked"`
	Failed   int          `json:"failed"` // checked shards whose sums disagree
	Version  string       `json:"version"`
	Host     string       `json:"host,omitempty"` // where the audit ran
	Time     string       `json:"time"`           // RFC 3339 time of the end
	Checksum string       `json:"checksum"`
}

// Passed tells whether the record checked at least one shard and found none wrong.
func (a *AuditRecord) Passed() bool { return len(a.Checked) > 0 && a.Failed == 0 }

// AuditOptions configures Audit. The shards checked are Only if set, else a
// Fraction of the finished ones (at least one), chosen by Seed; with
// OnlyHost, among those counted on that host.
type AuditOptions struct {
	Fraction float64
	Only     []int
	OnlyHost string
	Seed     uint64
	SeedSet  bool // else the seed is SeedOf the plan hash
	Workers  int
	Version  string // the program version recorded
	// Progress, if not nil, is called after each sub-problem recounted with
	// the estimated cost done and to do over every shard checked.
	Progress func(done, total uint64)
	// Warn, if not nil, hears what the audit skips or cannot do as asked
	// (unreadable files, files of another plan, a kernel used again).
	Warn func(msg string)
}

// DefaultAuditFraction is the share of the finished shards an audit checks
// when not told.
const DefaultAuditFraction = 0.01

// SeedOf is the default seed of an audit of the plan with hash plan: its
// first 16 hex digits, so that two audits of one run check the same shards
// unless told otherwise.
func SeedOf(plan string) uint64 {
	if len(plan) > 16 {
		plan = plan[:16]
	}
	s, _ := strconv.ParseUint(plan, 16, 64)
	return s
}

// AuditKernel is the kernel an audit recounts with, for a shard counted by
// the kernels counted (names joined by commas, as files record them): the
// pure-Go kernel when none of them was it; else the widest assembly kernel
// this CPU runs that did not count, else the pure-Go kernel again, and same
// is true. For a plan without kernels it is KernelAuto, named KernelNone,
// and same is true: the recount runs the same code.
func AuditKernel(p *fastcount.Plan, counted string) (k qjoin.Kernel, name string, same bool) {
	if !p.HasKernel() {
		return qjoin.KernelAuto, KernelNone, true
	}
	used := strings.Split(counted, ",")
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

// Audit reads the result files at paths, chooses the shards to check (see
// AuditOptions), counts their sub-problems again with AuditKernel and
// compares the sums with the files'. The files of the plan most of them
// share are audited; the others, and the unreadable, are skipped with a
// warning. It fails when no file is left, when this program's plan of n is
// not the files' (another engine version), when a listed shard has no file,
// and when ctx stops it (ctx.Err()): then no record is made. A shard that
// disagrees is no error: the record says so (Failed, Passed).
func Audit(ctx context.Context, paths []string, opt AuditOptions) (*AuditRecord, error) {
	warn := func(format string, a ...any) {
		if opt.Warn != nil {
			opt.Warn(fmt.Sprintf(format, a...))
		}
	}
	var rs []*Result
	var files []string
	for _, path := range paths {
		r, err := ReadResult(path)
		if err != nil {
			warn("skipped: %v", err)
			continue
		}
		rs = append(rs, r)
		files = append(files, path)
	}
	if len(rs) == 0 {
		return nil, errors.New("no readable result files to audit")
	}
	keys := make([]planOf, len(rs))
	for i, r := range rs {
		keys[i] = keyOf(r)
	}
	major, ok := majority(keys)
	if !ok {
		return nil, describeGroups(keys, files)
	}
	ref := rs[major[0]]
	byShard := map[int]int{} // shard → index in rs
	for _, i := range major {
		if j, dup := byShard[rs[i].Shard]; dup {
			warn("shard %d of %d appears twice: %s and %s; auditing the first", rs[i].Shard, ref.Shards, files[j], files[i])
			continue
		}
		byShard[rs[i].Shard] = i
	}
	if other := len(rs) - len(major); other > 0 {
		warn("skipped %d file(s) of another plan or shard count than the other %s", other, filesLike(len(major), files[major[0]]))
	}

	p, err := fastcount.NewPlanContext(ctx, ref.N, fastcount.EngineAuto)
	if err != nil {
		return nil, err
	}
	if p.Hash() != ref.Plan || p.Version() != ref.Engine {
		return nil, fmt.Errorf("the files are of n=%d plan %.12s (engine %s), this program's plan of n=%d is %.12s (engine %s): audit with the version that counted",
			ref.N, ref.Plan, ref.Engine, p.N, p.Hash(), p.Version())
	}

	rec := &AuditRecord{Format: AuditFormat, Plan: ref.Plan, Engine: ref.Engine, N: ref.N, Shards: ref.Shards,
		Only: opt.Only, OnlyHost: opt.OnlyHost, Seed: opt.Seed, Version: opt.Version}
	if !opt.SeedSet {
		rec.Seed = SeedOf(ref.Plan)
	}
	var found []int // the shards to choose from, in order
	for s := range byShard {
		if opt.OnlyHost == "" || rs[byShard[s]].Host == opt.OnlyHost {
			found = append(found, s)
		}
	}
	slices.Sort(found)
	rec.Found = len(found)
	var chosen []int
	switch {
	case len(opt.Only) > 0:
		for _, s := range opt.Only {
			switch {
			case s < 0 || s >= ref.Shards:
				return nil, fmt.Errorf("shard %d is not one of 0 to %d", s, ref.Shards-1)
			case !slices.Contains(found, s) && opt.OnlyHost != "":
				return nil, fmt.Errorf("shard %d: no result file of plan %.12s counted on host %s", s, ref.Plan, opt.OnlyHost)
			case !slices.Contains(found, s):
				return nil, fmt.Errorf("shard %d of %d: no result file of plan %.12s", s, ref.Shards, ref.Plan)
			}
			if !slices.Contains(chosen, s) {
				chosen = append(chosen, s)
			}
		}
		slices.Sort(chosen)
	case len(found) == 0:
		return nil, fmt.Errorf("no result file of plan %.12s counted on host %s", ref.Plan, opt.OnlyHost)
	default:
		rec.Fraction = opt.Fraction
		chosen = sample(found, opt.Fraction, rec.Seed)
	}

	// The sub-problems of the chosen shards, in one pass over the split.
	want := map[int][]int{}
	for _, s := range chosen {
		want[s] = []int{}
	}
	if err := assign(p, ref.Shards, func(id, s int) {
		if ids, ok := want[s]; ok {
			want[s] = append(ids, id)
		}
	}); err != nil {
		return nil, err
	}
	var doneCost, totalCost uint64
	for _, s := range chosen {
		slices.Sort(want[s])
		for _, id := range want[s] {
			totalCost += uint64(p.Cost(id))
		}
	}
	var same, unknown []int
	for _, s := range chosen {
		r, f := rs[byShard[s]], files[byShard[s]]
		if err := r.Matches(p, s, ref.Shards, want[s]); err != nil {
			return nil, fmt.Errorf("%s %w", f, err)
		}
		k, kname, reused := AuditKernel(p, r.Kernel)
		if reused {
			same = append(same, s)
		}
		if slices.Contains(strings.Split(r.Kernel, ","), KernelUnknown) {
			unknown = append(unknown, s)
		}
		a := AuditShard{Shard: s, ResultFile: f, Host: r.Host, Kernel: r.Kernel, AuditKernel: kname, Total: r.Total, Burnside: r.Burnside,
			ResultChecksum: r.Checksum}
		start := time.Now()
		var overflow bool
		err := p.CountSubsKernel(ctx, want[s], opt.Workers, k, func(id int, sr fastcount.SubResult) {
			t, c1 := a.RecountTotal.Add64(sr.Total)
			b, c2 := a.RecountBurnside.Add64(sr.Burnside)
			a.RecountTotal, a.RecountBurnside = t, b
			overflow = overflow || c1 || c2
			if opt.Progress != nil {
				doneCost += uint64(p.Cost(id))
				opt.Progress(doneCost, totalCost)
			}
		})
		if err != nil {
			return nil, err
		}
		a.Seconds = time.Since(start).Seconds()
		a.OK = !overflow && a.RecountTotal == a.Total && a.RecountBurnside == a.Burnside
		if !a.OK {
			rec.Failed++
		}
		rec.Checked = append(rec.Checked, a)
	}
	if len(same) > 0 {
		what := "this CPU runs no other kernel"
		if !p.HasKernel() {
			what = fmt.Sprintf("n=%d is counted without kernels", p.N)
		}
		warn("warning: %d shard(s) (%s) counted again with the kernel that counted them (%s): %s; the audit checks the machines, not the kernel",
			len(same), RangesOf(same), rec.Checked[slices.Index(chosen, same[0])].AuditKernel, what)
	}
	if len(unknown) > 0 {
		warn("warning: %d shard(s) (%s) from files of format 3, which do not say which kernel counted them, counted again with %s: perhaps the same",
			len(unknown), RangesOf(unknown), qjoin.KernelGo)
	}
	rec.Host, _ = os.Hostname()
	rec.Time = time.Now().UTC().Format(time.RFC3339)
	return rec, nil
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

// AuditName is the name of an audit record of the plan with hash plan made at
// t: audit-0123456789ab-20260102T030405Z.json.
func AuditName(plan string, t time.Time) string {
	if len(plan) > 12 {
		plan = plan[:12]
	}
	return fmt.Sprintf("audit-%s-%s.json", plan, t.UTC().Format("20060102T150405Z"))
}

// WriteAudit seals a with its checksum and writes it into dir under
// AuditName (with -2, -3... when a record of that name exists); it returns
// the path.
func WriteAudit(dir string, a *AuditRecord) (string, error) {
	a.Format = AuditFormat
	b, err := seal(a, &a.Checksum)
	if err != nil {
		return "", err
	}
	t, err := time.Parse(time.RFC3339, a.Time)
	if err != nil {
		t = time.Now()
	}
	name := AuditName(a.Plan, t)
	path := filepath.Join(dir, name)
	for i := 2; ; i++ {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			break
		}
		path = filepath.Join(dir, fmt.Sprintf("%s-%d.json", strings.TrimSuffix(name, ".json"), i))
	}
	return path, atomicfile.WriteBytes(path, b)
}

// ReadAudit reads and checks an audit record: JSON complete and strict,
// checksum and format. Errors name the file.
func ReadAudit(path string) (*AuditRecord, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	a := &AuditRecord{}
	want := AuditFormat
	if formatOf(data) == auditFormatV1 {
		want = auditFormatV1
	}
	if err = checkFormat(data, want); err == nil {
		err = unseal(data, a, &a.Checksum)
	}
	if err == nil && a.Format != want {
		err = fmt.Errorf("format %q, want %q", a.Format, AuditFormat)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

// AuditPaths lists the audit records in dirs (audit-*.json).
func AuditPaths(dirs []string) ([]string, error) {
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

// ErrNoAudit is wrapped by the error of RequireAudit when no audit record of
// the plan is found.
var ErrNoAudit = errors.New("no audit record")

// RequireAudit checks that dirs hold a passing audit record of the plan with
// hash plan split in shards shards, and no failing one (nor one that cannot
// be read), and that the result file of every shard a passing record checked,
// byShard[shard], is still the one the newest such record checked: the same
// total, Burnside numerator, kernel and, in records of format 2, checksum. The error says
// what is missing or wrong, naming the shards. It returns the shards the
// passing records checked.
func RequireAudit(dirs []string, plan string, shards int, byShard []*Result) (checked int, err error) {
	paths, err := AuditPaths(dirs)
	if err != nil {
		return 0, err
	}
	// Each shard is held to the newest passing record that checked it, so
	// that a shard counted again and audited again is held to its new file.
	type heldTo struct {
		shard        AuditShard
		record, time string
	}
	held := map[int]heldTo{}
	var passed []string
	for _, path := range paths {
		a, err := ReadAudit(path)
		if err != nil {
			return 0, fmt.Errorf("audit record %w", err)
		}
		if a.Plan != plan || a.Shards != shards {
			continue
		}
		if !a.Passed() {
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
func (c *AuditShard) differs(r *Result) string {
	var d []string
	if r.Total != c.Total {
		d = append(d, fmt.Sprintf("total %v, audited %v", r.Total, c.Total))
	}
	if r.Burnside != c.Burnside {
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
