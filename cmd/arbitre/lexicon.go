package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"arbitre/engine/lexicon"
)

func init() {
	cmd := &cobra.Command{Use: "lexicon", Short: "Listes de mots : compile une liste simple dans la forme binaire du moteur",
		Example: "  arbitre lexicon compile ods8.txt.gz -o ods8.gaddag --label \"ODS8, licence FISF\""}
	var out, label string
	compile := &cobra.Command{
		Use:     "compile MOTS.txt -o FICHIER",
		Short:   "Compile une liste de mots (un par ligne, casse indifférente, accents repliés ; .gz accepté) en fichier GADDAG",
		Example: "  arbitre lexicon compile ods8.txt.gz -o ods8.gaddag --label \"ODS8, licence FISF\"",
		Args:    argumentsExacts(1),
		PreRunE: exigerOptions("output"),
		RunE: func(cmd *cobra.Command, args []string) error {
			src, err := os.Open(args[0])
			if err != nil {
				return fmt.Errorf("liste de mots illisible : %w", err)
			}
			defer src.Close()
			if label == "" {
				label = lexicon.NomDeFichier(args[0])
			}
			lex, err := lexicon.Compile(src, label)
			if err != nil {
				return fmt.Errorf("liste de mots %s : %w", args[0], err)
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
			fmt.Fprintf(cmd.ErrOrStderr(), "%s : %d mots, %d arcs\n", out, lex.Words(), lex.ArcCount())
			return nil
		},
	}
	compile.Flags().StringVarP(&out, "output", "o", "", "`FICHIER` du lexique compilé à écrire")
	compile.Flags().StringVar(&label, "label", "", "description enregistrée dans le fichier (édition, source, licence), son premier mot étant le nom du lexique (#lexicon des GCG) ; par défaut le nom du fichier sans extension, en capitales (ods8.txt.gz : ODS8)")
	cmd.AddCommand(compile)
	rootCmd.AddCommand(cmd)
}
