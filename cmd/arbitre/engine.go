package main

import (
	"github.com/spf13/cobra"

	"arbitre/engine/movegen"
	"arbitre/engine/solve"
)

func init() {
	cmd := &cobra.Command{Use: "engine", Short: "The Scrabble engine's batch tools"}
	var lexPath, variant string
	var all, vertical bool
	solveCmd := &cobra.Command{
		Use:   "solve --lexicon FILE [--all] < positions.jsonl > results.jsonl",
		Short: "Top and move count of each position (one JSON object per line)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lex, err := loadLexicon(lexPath)
			if err != nil {
				return err
			}
			v, err := movegen.VariantNamed(variant)
			if err != nil {
				return err
			}
			s := solve.NewSolver(lex, movegen.Options{Variant: v, FirstMoveVertical: vertical}, all)
			return s.Run(cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	solveCmd.Flags().StringVar(&lexPath, "lexicon", "", "compiled lexicon or word list (default: the shipped non-ODS list)")
	solveCmd.Flags().BoolVar(&all, "all", false, "list every placement under \"all\"")
	solveCmd.Flags().StringVar(&variant, "variant", movegen.Standard.Name, "formula: normal, 7sur8, 7et8 or 789 (§3.8.2)")
	solveCmd.Flags().BoolVar(&vertical, "first-vertical", false, "allow a vertical first word (classique)")
	cmd.AddCommand(solveCmd)
	rootCmd.AddCommand(cmd)
}
