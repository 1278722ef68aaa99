package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/query"
	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

func init() {
	var (
		flags   storeFlags
		lexPath string
		partie  string
		coup    int
	)
	replayCmd := &cobra.Command{
		Use:   "replay --data DIR --game ID --coup N",
		Short: "Show a duplicate game before coup N, rebuilt from its events only",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runReplay(cmd, &flags, lexPath, partie, coup)
		},
	}
	flags.register(replayCmd)
	replayCmd.Flags().StringVar(&lexPath, "lexicon", "", "compiled lexicon or word list (default: the shipped non-ODS list)")
	replayCmd.Flags().StringVar(&partie, "game", "", "game id (stream partie-<id>)")
	replayCmd.Flags().IntVar(&coup, "coup", 1, "coup number, from 1")
	rootCmd.AddCommand(replayCmd)
}

func runReplay(cmd *cobra.Command, flags *storeFlags, lexPath, id string, coup int) error {
	ctx := cmd.Context()
	debut := time.Now()
	ws, err := flags.openWorkspace(ctx, lexPath)
	if err != nil {
		return err
	}
	defer ws.store.Close()
	lex, store, registre := ws.lex, ws.store, ws.registry
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return err
	}
	evts, err := eventstore.LireFluxVerifie(ctx, store, stream)
	if err != nil {
		return err
	}
	if len(evts) == 0 {
		return fmt.Errorf("partie %s introuvable", id)
	}
	etat, err := query.Reconstituer(evts, registre, lex, coup)
	if err != nil {
		return fmt.Errorf("partie %s : %w", id, err)
	}
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
	differents := 0
	fmt.Fprintf(out, "bulletins (%d) : licence, table, arbitre, décision enregistrée → décision du moteur aujourd'hui\n", len(e.Bulletins))
	for _, b := range e.Bulletins {
		enregistree := "non corrigé"
		if b.EnVigueur != nil {
			enregistree = decisionTexte(*b.EnVigueur)
		}
		marque := " "
		if b.Differe {
			marque, differents = "!", differents+1
		}
		fmt.Fprintf(out, "  %s %-8s t%-3d %-4s %-28s → %s\n", marque, b.Licence, b.Table, b.Arbitre, enregistree, decisionTexte(b.Maintenant))
		for _, d := range b.Differences {
			fmt.Fprintf(out, "      %s : enregistré %s, aujourd'hui %s\n", d.Field, d.Recorded, d.Now)
		}
		for _, a := range b.Actes {
			if a.Type != duplicate.TypeBulletinDepose && a.Type != duplicate.TypeBulletinCorrige {
				fmt.Fprintf(out, "      %s par %s (%s) à %s\n", a.Type, a.Acteur, a.Role, a.A.Format(time.RFC3339))
			}
		}
	}
	fmt.Fprintf(out, "décisions différentes du moteur actuel : %d\n", differents)
	fmt.Fprintf(out, "durée %s\n", time.Since(debut).Round(time.Millisecond))
}

func decisionTexte(d correction.Decision) string {
	return fmt.Sprintf("%d %s %v", d.Paid, d.Sanction, d.Reasons)
}
