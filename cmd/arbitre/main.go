// Command arbitre is the single binary of Arbitre: the server (`serve`) and the
// tools directors, arbiters and the federation run from a terminal.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// rootCmd is the parent of every subcommand; each subcommand lives in its own
// file and registers itself in an init function.
var rootCmd = &cobra.Command{
	Use:           "arbitre",
	Short:         "Arbitre: event-sourced tournament manager for French-language Scrabble (FISF rules)",
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	if err := rootCmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "arbitre:", err)
		os.Exit(1)
	}
}
