package main

import "github.com/spf13/cobra"

func newCompleteCmd(e *env) *cobra.Command {
	return &cobra.Command{Use: "complete", Hidden: true}
}
