package main

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"arbitre/engine/movegen"
	"arbitre/engine/solve"
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
			return profiled(profileDir, "solve", func() error {
				return solve.RunAll(cmd.InOrStdin(), cmd.OutOrStdout(), solvers)
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
