package main

import (
	"github.com/spf13/cobra"

	"arbitre/engine/correction"
)

func init() {
	cmd := &cobra.Command{Use: "bulletin", Short: "Bulletin correction tools (FISF duplicate §4–§5)"}
	var lexPath string
	correct := &cobra.Command{
		Use:   "correct --lexicon FILE < cases.jsonl > decisions.jsonl",
		Short: "Correct bulletins as written (one JSON case per line, one decision per line)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lex, err := loadLexicon(lexPath)
			if err != nil {
				return err
			}
			return correction.NewBatch(lex).Run(cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	correct.Flags().StringVar(&lexPath, "lexicon", "", "compiled lexicon or word list (default: the shipped non-ODS list)")
	cmd.AddCommand(correct)
	rootCmd.AddCommand(cmd)
}
