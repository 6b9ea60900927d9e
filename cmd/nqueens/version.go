package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the program version; release builds may set it with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func newVersionCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of nqueens",
		Args:  exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			rev := ""
			if bi, ok := debug.ReadBuildInfo(); ok {
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						rev = s.Value[:12]
					}
				}
			}
			if asJSON {
				return printJSON(e.stdout, map[string]string{"version": version, "revision": rev, "go": runtime.Version(), "platform": runtime.GOOS + "/" + runtime.GOARCH})
			}
			fmt.Fprintf(e.stdout, "nqueens %s %s %s/%s", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			if rev != "" {
				fmt.Fprintf(e.stdout, " (%s)", rev)
			}
			fmt.Fprintln(e.stdout)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}
