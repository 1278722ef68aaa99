package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"arbitre/engine/lexicon"
)

func init() {
	cmd := &cobra.Command{Use: "lexicon", Short: "Word lists: compile a plain list into the engine's binary form"}
	var out, label string
	compile := &cobra.Command{
		Use:   "compile WORDS.txt -o FILE",
		Short: "Compile a word list (one word per line, any case, accents folded; .gz accepted) into a GADDAG file",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer src.Close()
			if label == "" {
				label = args[0]
			}
			lex, err := lexicon.Compile(src, label)
			if err != nil {
				return err
			}
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			if _, err := lex.WriteTo(f); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d words, %d arcs\n", out, lex.Words(), lex.ArcCount())
			return nil
		},
	}
	compile.Flags().StringVarP(&out, "output", "o", "", "compiled lexicon to write")
	compile.Flags().StringVar(&label, "label", "", "description stored in the file (edition, source, licence)")
	_ = compile.MarkFlagRequired("output")
	cmd.AddCommand(compile)
	rootCmd.AddCommand(cmd)
}
