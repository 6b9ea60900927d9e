package cluster

import (
	"context"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/shard"
)

// A checksum proves a shard's result file, not its sums: a node with a bad core or a bad
// build writes a well-formed file with a wrong sum. AuditShards counts a sample of the
// finished shards again, each with another matcher kernel than the one its file says
// counted it, compares, and leaves a sealed record that RequireAudit asks of a merge.

// DefaultAuditFraction is the share of the finished shards AuditShards checks when
// AuditOptions.Fraction and Only are not set.
const DefaultAuditFraction = shard.DefaultAuditFraction

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
	// RecordDir is the directory the audit record goes to (audit-PLAN-TIME.json, format
	// nqueens-audit/1, sealed with a checksum as result files are); "" writes none.
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
	rep := report.New(opt.Progress)
	rec, err := shard.Audit(ctx, paths, shard.AuditOptions{Fraction: opt.Fraction, Only: opt.Only, OnlyHost: opt.Host,
		Seed: opt.Seed, SeedSet: opt.SeedSet, Workers: opt.Workers, Version: opt.Version,
		Progress: rep.Phase("audit"), Warn: opt.Warn})
	rep.Close()
	if err != nil {
		return AuditResult{}, err
	}
	res := AuditResult{PlanHash: rec.Plan, Engine: rec.Engine, N: rec.N, Shards: rec.Shards, ShardsFound: rec.Found,
		Fraction: rec.Fraction, Seed: rec.Seed, Failed: rec.Failed}
	for _, a := range rec.Checked {
		res.Checked = append(res.Checked, AuditedShard(a))
	}
	if opt.RecordDir != "" {
		if res.RecordFile, err = shard.WriteAudit(opt.RecordDir, rec); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ErrNoAudit is wrapped by the error of RequireAudit when the directories hold no audit
// record of the plan (AuditShards with RecordDir writes one).
var ErrNoAudit = shard.ErrNoAudit

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
		results = make([]*shard.Result, m.Shards)
		for i, f := range m.Files {
			if i < len(results) && f != "" {
				if results[i], err = shard.ReadResult(f); err != nil {
					return 0, err
				}
			}
		}
	}
	return shard.RequireAudit(dirs, m.PlanHash, m.Shards, results)
}
