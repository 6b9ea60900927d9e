package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/nqueens/nqueens"
)

// Exit codes: 0 ok, 1 failure or invalid placement, 2 usage, 3 unknown (complete: no
// completion found within the budget, none ruled out), 130 interrupted.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitUnknown     = 3
	exitInterrupted = 130
)

// usageError marks an error in the command line or its arguments (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// failure marks an error that is a result, not a fault: an invalid placement, a board
// without solution (exit 1). Its message was printed already when silent is set.
type failure struct {
	err    error
	silent bool
}

func (e failure) Error() string { return e.err.Error() }
func (e failure) Unwrap() error { return e.err }

// undecided is an answer that is neither yes nor no: complete found no completion within
// its budget and could not rule one out (exit 3).
type undecided struct{ err error }

func (e undecided) Error() string { return e.err.Error() }
func (e undecided) Unwrap() error { return e.err }

// interrupted is a run stopped by Ctrl-C or SIGTERM (exit 130); its message says what
// was kept, so that the user reads one line, not two.
type interrupted struct{ msg string }

func (e interrupted) Error() string { return e.msg }

// env is what a command needs from the process, so that tests can run it in-process.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	settings
}

// kernelEnv is the environment variable that names the matcher kernel of the counts
// (go, avx2, avx512; unset or auto: the fastest this CPU runs). The library reads no
// environment: the command passes it as CountOptions.Kernel and ShardOptions.Kernel.
const kernelEnv = "NQUEENS_KERNEL"

// kernelSetting is the kernel the counts run: NQUEENS_KERNEL's value.
func kernelSetting() string { return os.Getenv(kernelEnv) }

// settings are the values of an env that the tests change; defaultSettings are the
// command's.
type settings struct {
	progressDelay       time.Duration // the time a run lasts before its progress shows
	completeMemoryLimit int64         // complete's memory limit of FindCompletion, 0: the process's own
}

// defaultSettings are the settings of the command.
func defaultSettings() settings {
	return settings{progressDelay: progressDelay}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := osFile(w)
	return ok && term.IsTerminal(int(f.Fd()))
}

// osFile is the file behind w, if w is one (or the stdout of run, which wraps one).
func osFile(w io.Writer) (*os.File, bool) {
	if cw, ok := w.(*checkedWriter); ok {
		w = cw.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

// checkedWriter remembers the first error of the writes to stdout, so that no command
// can end with exit 0 after output was lost (a full disk, a closed pipe): run turns the
// error into exit 1 even where a command printed without looking at the result.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "nqueens",
		Short: "Count, solve and verify n-queens boards",
		Long: `nqueens counts every solution of an n×n board (total and unique), finds one
solution for any n up to 10^9, and verifies placements.

Columns in text are 1-based, listed in row order: the solutions of n=4 are
"2 4 1 3" and "3 1 4 2". N accepts plain integers and exact scientific
notation (1e6).

Exit codes: 0 ok, 1 failure or invalid placement, 2 usage, 3 unknown (complete
found no completion within its budget and ruled none out), 130 interrupted.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		// "-5" reads as a flag to the parser; say what the user meant.
		if m := negativeRE.FindStringSubmatch(err.Error()); m != nil {
			return usagef("invalid board size %q: n must be at least 1", m[1])
		}
		var bad *pflag.InvalidValueError
		if errors.As(err, &bad) {
			return usagef("invalid --%s %q: %s", bad.GetFlag().Name, bad.GetValue(), flagWant(bad))
		}
		return usageError{err}
	})
	root.AddCommand(newCountCmd(e), newSolveCmd(e), newVerifyCmd(e), newVersionCmd(e), newListCmd(e), newCompleteCmd(e), newLabCmd(e))
	root.AddCommand(newPlanCmd(e), newMergeCmd(e), newStatusCmd(e), newAuditCmd(e), newServeCmd(e))
	root.CompletionOptions.DisableDefaultCmd = true
	// cobra's own help command answers an unknown topic with exit 0.
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(_ *cobra.Command, args []string) error {
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == nil || len(rest) > 0 {
				return usagef("no help topic %q: see nqueens --help for the commands", strings.Join(args, " "))
			}
			return cmd.Help()
		},
	})
	return root
}

// flagWant says what a flag of bad's type takes, in place of the parser's message
// (`strconv.ParseUint: parsing "-1": invalid syntax`).
func flagWant(bad *pflag.InvalidValueError) string {
	outOfRange := errors.Is(bad, strconv.ErrRange)
	switch t := bad.GetFlag().Value.Type(); t {
	case "int", "int64", "int32":
		if outOfRange {
			return "out of range"
		}
		return "want a whole number"
	case "uint", "uint64", "uint32":
		if outOfRange {
			return fmt.Sprintf("out of range (at most %d)", uint64(math.MaxUint64))
		}
		return "want a whole number, 0 or more"
	case "float64", "float32":
		if outOfRange {
			return "out of range"
		}
		return "want a number such as 0.05"
	case "intSlice", "uintSlice":
		return "want whole numbers separated by commas, such as 3,17,42"
	case "bool":
		return "want true or false"
	case "duration":
		return "want a duration such as 30s, 5m or 1h30m"
	default:
		if cause := errors.Unwrap(bad); cause != nil {
			return cause.Error()
		}
		return "not a valid value"
	}
}

var negativeRE = regexp.MustCompile(`^unknown shorthand flag: '[0-9]' in (-[0-9][0-9.eE_]*)$`)

// run executes the command line args and returns the exit code.
func run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string) int {
	return runWith(ctx, stdin, stdout, stderr, args, defaultSettings())
}

// runWith is run with the settings of its env (a test's).
func runWith(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, args []string, s settings) int {
	out := &checkedWriter{w: stdout}
	e := &env{ctx: ctx, stdin: stdin, stdout: out, stderr: stderr, settings: s}
	root := newRoot(e)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(stderr)
	started := false
	root.PersistentPreRun = func(*cobra.Command, []string) { started = true }
	err := root.ExecuteContext(ctx)
	writeFailed := out.err != nil && (err == nil || errors.Is(err, out.err))
	if writeFailed {
		err = fmt.Errorf("write to stdout: %w", stripPath(out.err))
	}
	if err == nil {
		return exitOK
	}
	code := exitFailure
	var ue usageError
	var f failure
	var ir interrupted
	var ud undecided
	switch {
	case errors.As(err, &ir):
		code = exitInterrupted
	case errors.As(err, &ud) && ctx.Err() == nil:
		code = exitUnknown
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		code = exitInterrupted
		err = errors.New("interrupted")
	case errors.As(err, &ue) || (!started && !writeFailed):
		// cobra's own errors (unknown command, bad args) come before the run; --help
		// does too, but its failed write is a failed write, exit 1 as anywhere else.
		code = exitUsage
	case errors.As(err, new(*nqueens.MemoryError)):
		code = exitUsage // a board too large for this machine, refused before any work
	case errors.Is(err, nqueens.ErrKernel):
		code = exitUsage // NQUEENS_KERNEL names no kernel that runs here: a setting, not a failure
		err = fmt.Errorf("%s=%s: %w", kernelEnv, kernelSetting(), err)
	case errors.As(err, &f):
		if f.silent {
			return exitFailure
		}
	case errors.Is(err, nqueens.ErrNoSolution):
	}
	fmt.Fprintf(stderr, "nqueens: %s\n", shorten(err.Error()))
	return code
}

// Error messages quote what the user gave; a quotation longer than maxQuote runes is cut
// to its start, and a whole message to maxMessage bytes, so that an argument of a
// megabyte does not come back as a megabyte of error.
const (
	maxQuote   = 40
	maxMessage = 1000
)

var quotedRE = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// shorten cuts the long quotations of an error message, then the message itself.
func shorten(msg string) string {
	msg = quotedRE.ReplaceAllStringFunc(msg, func(q string) string {
		inner := []rune(q[1 : len(q)-1])
		if len(inner) <= maxQuote {
			return q
		}
		cut := string(inner[:maxQuote])
		if trailing := len(cut) - len(strings.TrimRight(cut, `\`)); trailing%2 == 1 {
			cut = cut[:len(cut)-1] // not half an escape
		}
		return `"` + cut + `…"`
	})
	if len(msg) > maxMessage {
		cut := []rune(msg[:maxMessage])
		msg = string(cut[:len(cut)-1]) + "…"
	}
	return msg
}

// stripPath drops the file name from a write error ("write /dev/stdout: no space left
// on device" becomes "no space left on device"): the caller names the output.
func stripPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// exactArgs is cobra.ExactArgs with a usage error.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("want %s, got %d arguments", what, len(args))
		}
		return nil
	}
}

// textFormat parses --format for the commands that print many placements, or --json
// which stands for --format json; binary is refused.
func textFormat(name string, asJSON bool, cmd string) (nqueens.Format, error) {
	f, err := nqueens.ParseFormat(name)
	if err != nil {
		return "", usagef("unknown format %q (want text, board or json)", name)
	}
	if asJSON {
		f = nqueens.JSON
	}
	if f == nqueens.Binary {
		return "", usagef("%s writes text, board or json, not binary", cmd)
	}
	return f, nil
}

// jsonAndFormat refuses --json with a --format other than json (--json is --format
// json): one of the two would be ignored. An unknown format is left to the command's
// own check; hint, if any, ends the message.
func jsonAndFormat(fl *pflag.FlagSet, hint string) error {
	if !given(fl, "json") || !fl.Changed("format") {
		return nil
	}
	name := fl.Lookup("format").Value.String()
	if f, err := nqueens.ParseFormat(name); err != nil || f == nqueens.JSON {
		return nil
	}
	return usagef("--json and --format %s exclude each other (--json is --format json%s)", name, hint)
}

// given says whether the flag is on the command line (a bool flag: set to true).
func given(fl *pflag.FlagSet, name string) bool {
	f := fl.Lookup(name)
	return f != nil && f.Changed && !(f.Value.Type() == "bool" && f.Value.String() == "false")
}

// exclusive refuses the first flag of others given with flag, which makes it
// meaningless (why says how): "--exact and --trials exclude each other: ...".
func exclusive(fl *pflag.FlagSet, flag string, others []string, why string) error {
	if !given(fl, flag) {
		return nil
	}
	for _, o := range others {
		if given(fl, o) {
			return usagef("--%s and --%s exclude each other: %s", flag, o, why)
		}
	}
	return nil
}

// maxWorkers caps --workers: far above any machine's cores, and low enough that a
// typo (-w 100000000) cannot start goroutines without bound.
const maxWorkers = 4096

// checkWorkers checks --workers; 0 (one per core) is passed on as it is, and the results
// say how many goroutines ran.
func checkWorkers(w int) error {
	if w < 0 || w > maxWorkers {
		return usagef("--workers must be from 1 to %d (0 means one per core), got %d", maxWorkers, w)
	}
	return nil
}
