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
	Use:   "arbitre",
	Short: "Arbitre : gestion de tournois de Scrabble francophone (règlements FISF), par événements",
	Example: `  arbitre serve --data data --lexicon ods8.gaddag
  arbitre token create --role director --data data
  arbitre replay sim-1-1 3 --data data`,
	Args: cobra.ArbitraryArgs,
	RunE: func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return fmt.Errorf("commande inconnue %q ; « arbitre --help » liste les commandes", args[0])
		}
		return cmd.Help()
	},
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	if lancer() != nil {
		os.Exit(1)
	}
}

// lancer runs the command line and prints its error, in French.
func lancer() error {
	err := enFrancais(rootCmd.Execute())
	if err != nil {
		fmt.Fprintln(os.Stderr, "arbitre:", err)
	}
	return err
}
