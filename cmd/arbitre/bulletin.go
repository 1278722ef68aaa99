package main

import (
	"github.com/spf13/cobra"

	"arbitre/engine/correction"
)

func init() {
	cmd := &cobra.Command{Use: "bulletin", Short: "Correction des bulletins (duplicate FISF §4–§5)",
		Example: "  arbitre bulletin correct --lexicon ods8.gaddag < cases.jsonl > decisions.jsonl"}
	var lexPath string
	correct := &cobra.Command{
		Use:     "correct --lexicon FICHIER < cases.jsonl > decisions.jsonl",
		Short:   "Corrige les bulletins tels qu'écrits (un cas JSON par ligne, une décision par ligne)",
		Example: "  arbitre bulletin correct --lexicon ods8.gaddag < cases.jsonl > decisions.jsonl",
		Args:    aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lex, err := loadLexicon(lexPath)
			if err != nil {
				return err
			}
			return correction.NewBatch(lex).Run(cmd.InOrStdin(), cmd.OutOrStdout())
		},
	}
	lexiconFlag(correct, &lexPath)
	cmd.AddCommand(correct)
	rootCmd.AddCommand(cmd)
}
