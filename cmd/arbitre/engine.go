package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/cpuprofile"
	"arbitre/engine/movegen"
	"arbitre/engine/solve"
)

// The example line of `engine solve --help`, which TestEngineSolve_AideDonneLeContrat runs.
const (
	solveExempleEntree = `  {"id":"p1","board":["...............","...............","...............","...............","...............","...............","...............","...MINER.......","...............","...............","...............","...............","...............","...............","..............."],"rack":"CEHIOA?"}`
	solveExempleSortie = `  {"id":"p1","top_score":98,"moves":4910,"tops":[{"word":"CHOIErAI","ref":"5E","score":98}]}`
)

func init() {
	cmd := &cobra.Command{Use: "engine", Short: "Outils du moteur de Scrabble, par lots",
		Example: "  arbitre engine solve --lexicon ods8.gaddag < positions.jsonl > results.jsonl"}
	var lexPath, variant string
	var all, vertical, topOnly bool
	var workers int
	var profileDir string
	solveCmd := &cobra.Command{
		Use:   "solve --lexicon FICHIER [--all] < positions.jsonl > results.jsonl",
		Short: "Top et nombre de coups de chaque position (un objet JSON par ligne)",
		Long: `Lit une position JSON par ligne sur l'entrée standard et écrit une réponse JSON par ligne, dans
l'ordre de l'entrée.

Une ligne d'entrée :
` + solveExempleEntree + `
  id : toute valeur JSON, rendue telle quelle ; board : les 15 lignes A à O de 15 caractères ('.' case
  vide, A-Z une lettre, a-z un joker) ; rack : le tirage, '?' pour un joker, de 1 à 7 lettres en formule
  normale (8 en 7sur8 et 7et8, 9 en 789 : --variant).
Sa réponse :
` + solveExempleSortie + `
  avec --top-only, la même sans "moves" ; avec --all, chaque placement en plus sous "all".

Une ligne fautive (champ inconnu ou manquant, grille ou tirage impossible) reçoit une ligne
{"id":…,"error":"…"} qui nomme le champ ; le lot continue et la commande finit en erreur (code 1).`,
		Example: `  arbitre engine solve --lexicon ods8.gaddag < positions.jsonl > results.jsonl
  arbitre engine solve --all --variant 7sur8 < positions.jsonl
  arbitre engine solve --top-only --lexicon ods8.gaddag < positions.jsonl`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if topOnly && all {
				return fmt.Errorf("--top-only et --all s'excluent : --all liste chaque placement")
			}
			if workers < 1 {
				return fmt.Errorf("--workers vaut au moins 1 (reçu %d)", workers)
			}
			lex, err := loadLexicon(lexPath)
			if err != nil {
				return err
			}
			v, err := movegen.VariantNamed(variant)
			if err != nil {
				return fmt.Errorf("formule %q inconnue : normal, 7sur8, 7et8 ou 789 (§3.8.2)", variant)
			}
			opts := movegen.Options{Variant: v, FirstMoveVertical: vertical}
			solvers := make([]*solve.Solver, workers)
			for i := range solvers {
				solvers[i] = solve.NewSolver(lex, opts, all)
				if topOnly {
					solvers[i] = solve.NewTopSolver(lex, opts)
				}
			}
			return cpuprofile.Run(profileDir, "solve", func() error {
				tally, err := solve.RunAll(cmd.InOrStdin(), cmd.OutOrStdout(), solvers)
				if err != nil {
					return err
				}
				return tally.Err()
			})
		},
	}
	lexiconFlag(solveCmd, &lexPath)
	solveCmd.Flags().BoolVar(&all, "all", false, "liste chaque placement sous \"all\"")
	solveCmd.Flags().StringVar(&variant, "variant", movegen.Standard.Name, "`FORMULE` : normal, 7sur8, 7et8 ou 789 (§3.8.2)")
	solveCmd.Flags().BoolVar(&vertical, "first-vertical", false, "premier mot vertical permis (classique)")
	solveCmd.Flags().IntVar(&workers, "workers", runtime.GOMAXPROCS(0), "`N` positions résolues à la fois (par défaut, une par cœur) ; la sortie garde l'ordre de l'entrée")
	solveCmd.Flags().BoolVar(&topOnly, "top-only", false, "le top et chaque top seulement, sans \"moves\" (recherche élaguée, plus rapide)")
	solveCmd.Flags().StringVar(&profileDir, "profile", "", "`DOSSIER` d'un profil CPU de la résolution (solve.pprof, chargement du lexique exclu)")
	cmd.AddCommand(solveCmd)
	rootCmd.AddCommand(cmd)
}
