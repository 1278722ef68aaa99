package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
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
	lex, err := loadLexicon(lexPath)
	if err != nil {
		return err
	}
	store, _, err := flags.openStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	registre, err := registreDuplicate()
	if err != nil {
		return err
	}
	stream, err := eventstore.PartieStream(id)
	if err != nil {
		return err
	}
	evts, err := eventstore.ReadWholeStream(ctx, store, stream)
	if err != nil {
		return err
	}
	if len(evts) == 0 {
		return fmt.Errorf("partie %s introuvable", id)
	}
	out := cmd.OutOrStdout()
	var p *duplicate.Partie
	var top *duplicate.TopRetenu
	for _, e := range evts {
		payload, err := registre.Decode(e)
		if err != nil {
			return err
		}
		if c, ok := payload.(duplicate.PartieCreee); ok {
			p = duplicate.Nouvelle(duplicate.NewMoteur(lex, c.Config.Variant()))
		}
		if t, ok := payload.(duplicate.TopRetenu); ok && t.Coup == coup {
			top = &t
			break
		}
		if r, ok := payload.(duplicate.TirageRejete); ok && r.Coup == coup {
			fmt.Fprintf(out, "rejet (%s) : reliquat %q, tirées %q\n", r.Motif, r.Reliquat, r.Tirees)
		}
		if err := p.Appliquer(payload); err != nil {
			return err
		}
	}
	if top == nil {
		return fmt.Errorf("la partie %s n'a pas de top au coup %d", id, coup)
	}
	g := p.Grille()
	fmt.Fprintf(out, "partie %s, coup %d\n%s\n", id, coup, g.String())
	return afficherCoup(out, p, top, debut)
}

func afficherCoup(out io.Writer, p *duplicate.Partie, top *duplicate.TopRetenu, debut time.Time) error {
	rack, sac := p.Rack(), p.Sac()
	fmt.Fprintf(out, "tirage   : %s\n", rack.String())
	fmt.Fprintf(out, "sac      : %s (%d lettres)\n", sac.String(), sac.Size())
	sols := p.Solutions()
	fmt.Fprintf(out, "tops recalculés par le moteur (%d) :\n", len(sols))
	for _, s := range sols {
		marque := " "
		if s.Admissible {
			marque = "*"
		}
		fmt.Fprintf(out, "  %s %-4s %-15s %4d  joker=%t fin=%t\n", marque, s.Move.Ref().String(), s.Move.WordString(), s.Move.Score, s.Joker, s.FinDePartie)
	}
	fmt.Fprintf(out, "top retenu : %s %s %d points (placées %s)\n", top.Ref, top.Mot, top.Score, top.Placees)
	fmt.Fprintf(out, "durée %s\n", time.Since(debut).Round(time.Millisecond))
	return nil
}
