package main

import (
	"github.com/spf13/cobra"

	"arbitre/engine/correction"
)

// The example line of `bulletin correct --help`, which TestBulletinCorrect_AideDonneLeContrat runs.
const (
	bulletinExempleEntree = `  {"id":"5.3.1-exact","board":["...............","...............","...............","...............","...............","...............","...............","...MINER.......","...............","...............","...............","...............","...............","...............","..............."],"tirage":"CEHIOA?","coup":3,"first_word_length":5,"bulletin":{"solutions":[{"word":"CHEMINER","written":"h","ref":"H1","score":42}]}}`
	bulletinExempleSortie = `  {"id":"5.3.1-exact","paid":42,"sanction":"none","reasons":[],"commission":false,"place":"H1","score_written_back":42}`
)

func init() {
	cmd := &cobra.Command{Use: "bulletin", Short: "Correction des bulletins (duplicate FISF §4–§5)",
		Example: "  arbitre bulletin correct --lexicon ods8.gaddag < cases.jsonl > decisions.jsonl"}
	var lexPath string
	correct := &cobra.Command{
		Use:   "correct --lexicon FICHIER < cases.jsonl > decisions.jsonl",
		Short: "Corrige les bulletins tels qu'écrits (un cas JSON par ligne, une décision par ligne)",
		Long: `Lit un cas JSON par ligne sur l'entrée standard (le coup : grille avant le coup, tirage, numéro du
coup, longueur du premier mot ; et le bulletin tel qu'écrit) et écrit la décision de chacun, une ligne
JSON par cas, dans l'ordre de l'entrée.

Une ligne d'entrée :
` + bulletinExempleEntree + `
Sa décision :
` + bulletinExempleSortie + `
  paid : les points payés ; sanction : none, warning (avertissement) ou zero ; reasons : les motifs
  (docs/erreurs.md) ; place : la référence retenue ; score_written_back : le score à reporter.

Une ligne fautive reçoit une ligne {"id":…,"error":"CODE at champ: …"} ; le lot continue et la
commande finit en erreur (code 1).`,
		Example: "  arbitre bulletin correct --lexicon ods8.gaddag < cases.jsonl > decisions.jsonl",
		Args:    aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lex, err := loadLexicon(lexPath)
			if err != nil {
				return err
			}
			tally, err := correction.NewBatch(lex).Run(cmd.InOrStdin(), cmd.OutOrStdout())
			if err != nil {
				return err
			}
			return tally.Err()
		},
	}
	lexiconFlag(correct, &lexPath)
	cmd.AddCommand(correct)
	rootCmd.AddCommand(cmd)
}
