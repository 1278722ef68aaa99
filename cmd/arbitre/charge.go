package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/charge"
	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation/command"
	"arbitre/projections/centres"
)

// `arbitre charge` and `arbitre charge national`: the benchmarks live in
// internal/charge; this file gives them their flags and what they take from
// the rest of the tool (outilsCharge).

// outilsCharge are this tool's own serve and store preparations, which the
// benchmarks measure.
var outilsCharge = charge.Outils{
	Serve: runServe,
	SimulerSalle: func(ctx context.Context, flags *storeflags.Flags, lexPath string, joueurs int, graine uint64) error {
		sim := &cobra.Command{}
		sim.SetContext(ctx)
		sim.SetOut(io.Discard)
		return runSimulateDuplicate(sim, flags, lexPath, joueurs, 1, graine)
	},
	JouerCentres: jouerCentres,
	OuvrirEpreuve: func(ctx context.Context, flags *storeflags.Flags, epreuve, nom string, coups int, md eventstore.Metadata) error {
		return avecFederation(ctx, flags, func(apps federationApps) error {
			return apps.centres.Par(md).OuvrirEpreuve(ctx, command.OuvrirEpreuve{Epreuve: epreuve, Nom: nom, Coups: coups})
		})
	},
	EcrireJSON: ecrireJSON,
}

func init() {
	var c charge.Config
	cmd := &cobra.Command{
		Use:   "charge [--players 1000 --displays 1000 --arbiters 50 --qps 200 --duration 20s]",
		Short: "Banc de charge contre un vrai serveur local : requêtes de classement, affichages en direct, saisie simultanée des bulletins",
		Example: `  arbitre charge
  arbitre charge --players 1000 --displays 1000 --arbiters 50 --qps 200 --duration 20s --json
  arbitre charge --verifier --tours 20 --tuer-tous 50
  arbitre charge --verifier --tours 20 --sauts-horloge 40`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if !c.Verifier && c.SautsHorloge != 0 {
				return errors.New("--sauts-horloge va avec --verifier")
			}
			if c.Verifier {
				return outilsCharge.RunChargeVerifier(ctx, cmd.OutOrStdout(), c, cmd.Flags().Changed("players"))
			}
			return outilsCharge.Run(ctx, cmd.OutOrStdout(), c)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.Data, "data", "", "`DOSSIER` de données neuf à conserver (par défaut un dossier temporaire, supprimé à la fin)")
	lexiconFlag(cmd, &c.LexPath)
	f.IntVar(&c.Players, "players", 1000, "joueurs du tournoi")
	f.IntVar(&c.Displays, "displays", 1000, "affichages websocket qui suivent la partie en direct")
	f.IntVar(&c.Arbiters, "arbiters", 50, "arbitres saisissant des bulletins en même temps, sur des tables disjointes")
	f.IntVar(&c.QPS, "qps", 200, "requêtes de classement par seconde")
	f.DurationVar(&c.Duration, "duration", 20*time.Second, "durée de la phase de classement")
	f.BoolVar(&c.JSON, "json", false, "affiche le rapport en JSON")
	f.BoolVar(&c.Verifier, "verifier", false, "vérifie la cohérence plutôt que la charge : directeurs, arbitres et affichages jouent des parties en même temps contre un serveur lancé à part (dans ce processus avec --sauts-horloge), chaque appel est noté et l'historique de chaque partie vérifié (porcupine), puis le journal (docs/charge.md)")
	f.IntVar(&c.Verif.Parties, "parties", 4, "avec --verifier : parties jouées en même temps à chaque tour")
	f.IntVar(&c.Verif.Coups, "coups", 6, "avec --verifier : coups de chaque partie")
	f.IntVar(&c.Verif.Tours, "tours", 10, "avec --verifier : tours, chacun sur de nouvelles parties")
	f.IntVar(&c.Verif.Lecteurs, "lecteurs", 3, "avec --verifier : affichages qui lisent chaque partie sans cesse")
	f.Uint64Var(&c.Verif.Graine, "graine", 32, "avec --verifier : graine des tirages et des pauses des clients")
	f.IntVar(&c.Verif.TuerTous, "tuer-tous", 0, "avec --verifier : tue le serveur (kill -9) et le relance toutes les N commandes acquittées (0 : jamais)")
	f.IntVar(&c.SautsHorloge, "sauts-horloge", 0, "avec --verifier : lance le serveur dans ce processus et avance son horloge d'une heure, puis la recule, toutes les N commandes acquittées (0 : jamais ; exclut --tuer-tous)")
	f.StringVar(&c.ProfileDir, "profile", "", "`DOSSIER` d'un profil CPU par phase (standings.pprof, displays.pprof, bulletins.pprof), serveur et client étiquetés side=server et side=client, et de ses attentes (PHASE-mutex.pprof : verrous disputés, au compte de qui les tenait ; PHASE-block.pprof : blocages ; par exemple bulletins-mutex.pprof)")
	cmd.AddCommand(chargeNationalCmd())
	rootCmd.AddCommand(cmd)
}

func chargeNationalCmd() *cobra.Command {
	var c charge.NationalConfig
	cmd := &cobra.Command{
		Use:   "national [--centres 150 --players 40 --arrivee 60s --qps 500 --duration 20s]",
		Short: "Banc d'une épreuve nationale en simultané (guide §2.17) : les paquets des centres, le classement national complet, ses requêtes publiques",
		Example: `  arbitre charge national
  arbitre charge national --centres 150 --players 40 --arrivee 60s --qps 500 --duration 20s --json`,
		Args: aucunArgument,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return outilsCharge.RunNational(ctx, cmd.OutOrStdout(), c)
		},
	}
	f := cmd.Flags()
	f.StringVar(&c.Data, "data", "", "`DOSSIER` neuf où garder les données des centres (centres/) et de la fédération (federation/) ; par défaut un dossier temporaire, supprimé à la fin")
	lexiconFlag(cmd, &c.LexPath)
	f.IntVar(&c.Centres, "centres", 150, "centres qui jouent la partie prétirée")
	f.IntVar(&c.Players, "players", 40, "joueurs par centre")
	f.DurationVar(&c.Arrivee, "arrivee", time.Minute, "les paquets des centres arrivent au hasard dans ce délai (0 : tous à la fois)")
	f.IntVar(&c.QPS, "qps", 500, "requêtes du classement national par seconde")
	f.DurationVar(&c.Duration, "duration", 20*time.Second, "durée de la phase de requêtes")
	f.BoolVar(&c.JSON, "json", false, "affiche le rapport en JSON")
	f.StringVar(&c.ProfileDir, "profile", "", "`DOSSIER` d'un profil CPU par phase (paquets.pprof, requetes.pprof), serveur et client étiquetés side=server et side=client")
	return cmd
}

// jouerCentres plays the pre-drawn game in every centre (one tournament per
// centre, the same tirages everywhere, each player his own answers) into
// one store, and exports each centre's bundle as `arbitre centre export`
// does; coups is the game's length.
func jouerCentres(ctx context.Context, flags *storeflags.Flags, c charge.NationalConfig) (paquets [][]byte, coups int, err error) {
	ws, err := openWorkspace(ctx, flags, []string{c.LexPath})
	if err != nil {
		return nil, 0, err
	}
	defer ws.store.Close()
	for k := range c.Centres {
		centre := charge.CentreNational(k)
		licences := make([]string, c.Players)
		for i := range licences {
			licences[i] = fmt.Sprintf("%s-%03d", centre, i+1)
		}
		t := tournoiSimule{id: centre, nom: "Simultané national, centre " + centre, licences: licences, parties: 1,
			graineTirages: func(int) uint64 { return charge.GraineNationale }, graineJoueurs: func(int) uint64 { return uint64(k + 1) }}
		var joues int
		if err := jouerTournoiSimule(ctx, &ws, t, "national", func(_ int, p *duplicate.Partie, fini bool) {
			if fini {
				joues = p.ProchainCoup() - 1
			}
		}); err != nil {
			return nil, 0, err
		}
		if k > 0 && joues != coups {
			return nil, 0, fmt.Errorf("centre %s : %d coups, les autres %d (la partie prétirée est la même partout)", centre, joues, coups)
		}
		coups = joues
		var paquet bytes.Buffer
		m := centres.Manifeste{Epreuve: charge.EpreuveNationale, Centre: centre, Partie: centre + "-1"}
		if err := centres.Exporter(ctx, ws.store, ws.registry, m, &paquet); err != nil {
			return nil, 0, err
		}
		paquets = append(paquets, paquet.Bytes())
	}
	return paquets, coups, nil
}
