package main

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/query"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
)

func init() {
	var (
		flags    storeflags.Flags
		lexPaths []string
		cible    replayCible
	)
	replayCmd := &cobra.Command{
		Use:   "replay [ID N] [--partie ID --coup N] [--data DOSSIER] [--lexicon FICHIER]...",
		Short: "Rejoue une partie duplicate jusqu'avant le coup N, à partir de ses seuls événements",
		Long: `replay reconstruit une partie duplicate avant le coup N à partir de ses événements : grille,
tirage, sac, tops recalculés par le moteur, top retenu et bulletins, avec la décision que le
moteur prendrait aujourd'hui. La partie et le coup se donnent en arguments (replay ID N) ou en
options (--partie ID --coup N ; --game est l'ancien nom de --partie).

Chaque partie enregistre son lexique à sa création : le replay juge avec celui-là, parmi ceux
donnés par --lexicon (répétable) et la liste livrée, et l'affiche en tête ; il refuse la partie
si son lexique n'est pas donné.`,
		Example: `  arbitre replay sim-1-1 3 --data data
  arbitre replay --partie sim-1-1 --coup 3 --lexicon ods8.gaddag --lexicon ods7.gaddag`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, coup, err := cible.resoudre(cmd, args)
			if err != nil {
				return err
			}
			return runReplay(cmd, &flags, lexPaths, id, coup)
		},
	}
	flags.AddFlags(replayCmd)
	lexiconsFlag(replayCmd, &lexPaths)
	replayCmd.Flags().StringVar(&cible.partie, "partie", "", "`ID` de la partie (flux partie-<ID>)")
	replayCmd.Flags().StringVar(&cible.partie, "game", "", "ancien nom de --partie")
	_ = replayCmd.Flags().MarkHidden("game")
	replayCmd.Flags().IntVar(&cible.coup, "coup", 0, "numéro du coup, à partir de 1")
	rootCmd.AddCommand(replayCmd)
}

// replayCible is the game and the coup replay shows, from its flags or its
// arguments.
type replayCible struct {
	partie string
	coup   int
}

// resoudre reads "ID N" or the flags, refusing extra, missing or
// contradictory values in French.
func (c replayCible) resoudre(cmd *cobra.Command, args []string) (string, int, error) {
	usage := " ; usage : arbitre replay ID N, ou arbitre replay --partie ID --coup N"
	id, coup := c.partie, c.coup
	parCoup := cmd.Flags().Changed("coup")
	if len(args) > 2 {
		return "", 0, fmt.Errorf("trop d'arguments (%d) : replay prend la partie et le coup%s", len(args), usage)
	}
	if len(args) >= 1 {
		if id != "" && id != args[0] {
			return "", 0, fmt.Errorf("deux parties données : %q en argument et %q en option%s", args[0], id, usage)
		}
		id = args[0]
	}
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return "", 0, fmt.Errorf("coup %q : un nombre entier est attendu%s", args[1], usage)
		}
		if parCoup && n != coup {
			return "", 0, fmt.Errorf("deux coups donnés : %d en argument et %d en option%s", n, coup, usage)
		}
		coup, parCoup = n, true
	}
	switch {
	case id == "":
		return "", 0, fmt.Errorf("la partie manque%s", usage)
	case !parCoup:
		return "", 0, fmt.Errorf("le coup manque%s", usage)
	case coup < 1:
		return "", 0, fmt.Errorf("coup %d : les coups se comptent à partir de 1", coup)
	}
	return id, coup, nil
}

func runReplay(cmd *cobra.Command, flags *storeflags.Flags, lexPaths []string, id string, coup int) error {
	ctx := cmd.Context()
	debut := time.Now()
	ws, err := openWorkspace(ctx, flags, lexPaths)
	if err != nil {
		return err
	}
	defer ws.store.Close()
	// A replay reads the game's events alone: no repository.
	lectures := query.Queries{Journal: ws.store, Registry: ws.registry, Lexiques: func() *lexicon.Bibliotheque { return ws.lexiques }}
	etat, err := lectures.Replay(ctx, query.Replay{Partie: id, Coup: coup})
	if err != nil {
		return fmt.Errorf("replay : %w", err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "lexique : %s, celui de la partie\n", etat.Lexique)
	afficherCoup(cmd.OutOrStdout(), etat, debut)
	return nil
}

func afficherCoup(out io.Writer, e *query.Etat, debut time.Time) {
	for _, r := range e.Rejets {
		fmt.Fprintf(out, "rejet (%s) : reliquat %q, tirées %q\n", r.Motif, r.Reliquat, r.Tirees)
	}
	fmt.Fprintf(out, "partie %s, coup %d\n%s\n", e.Partie, e.Coup, e.Grille.String())
	fmt.Fprintf(out, "tirage   : %s\n", e.Tirage)
	fmt.Fprintf(out, "sac      : %s (%d lettres)\n", e.Sac, len(e.Sac))
	fmt.Fprintf(out, "tops recalculés par le moteur (%d) :\n", len(e.Solutions))
	for _, s := range e.Solutions {
		marque := " "
		if s.Admissible {
			marque = "*"
		}
		fmt.Fprintf(out, "  %s %-4s %-15s %4d  joker=%t fin=%t\n", marque, s.Move.Ref().String(), s.Move.WordString(), s.Move.Score, s.Joker, s.FinDePartie)
	}
	fmt.Fprintf(out, "top retenu : %s %s %d points (placées %s)\n", e.Top.Ref, e.Top.Mot, e.Top.Score, e.Top.Placees)
	for _, a := range e.Actes {
		if a.Type == duplicate.TypeTopRetenu || a.Type == duplicate.TypeTirageEffectue {
			fmt.Fprintf(out, "  %s par %s (%s) à %s\n", a.Type, a.Acteur, a.Role, a.A.Format(time.RFC3339))
		}
	}
	// Two counts: the decisions in force that today's engine would not take
	// (an arbiter's, a second arbiter's or the commission's choice, or an
	// engine changed since), and those where the engine itself changed
	// since the correction (issue 5).
	enVigueurDifferentes, moteurChange := 0, 0
	fmt.Fprintf(out, "bulletins (%d) : licence, table, arbitre, décision en vigueur → décision du moteur aujourd'hui "+
		"(≠ : elles diffèrent ; ! : le moteur a changé depuis la correction)\n", len(e.Bulletins))
	for _, b := range e.Bulletins {
		enregistree := "non corrigé"
		differe := " "
		if b.EnVigueur != nil {
			enregistree = decisionTexte(*b.EnVigueur)
			if enregistree != decisionTexte(b.Maintenant) {
				differe, enVigueurDifferentes = "≠", enVigueurDifferentes+1
			}
		}
		change := " "
		if b.Differe {
			change, moteurChange = "!", moteurChange+1
		}
		fmt.Fprintf(out, "  %s%s %-8s t%-3d %-4s %-28s → %s\n", differe, change, b.Licence, b.Table, b.Arbitre, enregistree, decisionTexte(b.Maintenant))
		for _, d := range b.Differences {
			fmt.Fprintf(out, "      %s : enregistré %s, aujourd'hui %s\n", d.Field, d.Recorded, d.Now)
		}
		for _, a := range b.Actes {
			if a.Type != duplicate.TypeBulletinDepose && a.Type != duplicate.TypeBulletinCorrige {
				fmt.Fprintf(out, "      %s par %s (%s) à %s\n", a.Type, a.Acteur, a.Role, a.A.Format(time.RFC3339))
			}
		}
	}
	fmt.Fprintf(out, "décisions en vigueur différentes du moteur actuel : %d\n", enVigueurDifferentes)
	fmt.Fprintf(out, "décisions du moteur changées depuis la correction : %d\n", moteurChange)
	fmt.Fprintf(out, "durée %s\n", duree(time.Since(debut)))
}

func decisionTexte(d correction.Decision) string {
	return fmt.Sprintf("%d %s %v", d.Paid, d.Sanction, d.Reasons)
}
