package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/federation"
	"arbitre/domain/federation/adapters"
	"arbitre/domain/federation/command"
	"arbitre/domain/federation/query"
	tadapters "arbitre/domain/tournoi/adapters"
	"arbitre/projections/centres"
)

// The commands of the events played in many centres on pre-drawn games
// (guide §2.17, docs/federation.md).
func init() {
	cmd := &cobra.Command{Use: "centre", Short: "Épreuves par centres sur parties prétirées (guide §2.17) : ouvrir, exporter, importer, classer",
		Example: `  arbitre centre ouvrir --data federation --epreuve simultane-2026 --nom "Simultané de France" --coups 10
  arbitre centre export --data data --epreuve simultane-2026 --centre Brest --partie SIM-1 -o brest.zip
  arbitre centre import --data federation brest.zip
  arbitre centre classement --data federation --epreuve simultane-2026`}
	cmd.AddCommand(centreOuvrir(), centreExport(), centreImport(), centreClassement())
	rootCmd.AddCommand(cmd)
}

// centreOuvrir is `centre ouvrir`.
func centreOuvrir() *cobra.Command {
	var flags storeflags.Flags
	var epreuve, nom string
	var coups int
	c := &cobra.Command{
		Use:     "ouvrir --epreuve ID --coups N [--nom NOM]",
		Short:   "Ouvre une épreuve jouée par centres sur une partie prétirée de N coups",
		Example: `  arbitre centre ouvrir --data federation --epreuve simultane-2026 --nom "Simultané de France" --coups 10`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("epreuve", "coups"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return avecFederation(cmd.Context(), &flags, func(apps federationApps) error {
				return apps.centres.OuvrirEpreuve(cmd.Context(), command.OuvrirEpreuve{Epreuve: epreuve, Nom: nom, Coups: coups})
			})
		},
	}
	flags.Register(c)
	c.Flags().StringVar(&epreuve, "epreuve", "", "`ID` de l'épreuve")
	c.Flags().StringVar(&nom, "nom", "", "nom de l'épreuve")
	c.Flags().IntVar(&coups, "coups", 0, "nombre de coups de la partie prétirée")
	return c
}

// centreExport is `centre export`.
func centreExport() *cobra.Command {
	var flags storeflags.Flags
	var m centres.Manifeste
	var sortie string
	c := &cobra.Command{
		Use:   "export --epreuve ID --centre NOM --partie ID -o FICHIER [--coup-annule N]... [--partie-annulee]",
		Short: "Écrit le paquet des résultats du centre (événements de la partie, manifeste et empreintes), à envoyer à la fédération",
		Example: `  arbitre centre export --data data --epreuve simultane-2026 --centre Brest --partie SIM-1 -o brest.zip
  arbitre centre export --data data --epreuve simultane-2026 --centre Brest --partie SIM-1 --coup-annule 4 -o brest.zip`,
		Long: `export lit la partie du centre et les inscriptions de son tournoi et les écrit dans un
paquet zip : evenements.jsonl (un événement par ligne) et manifeste.json (épreuve,
centre, partie, nombre d'événements, empreinte SHA-256). --coup-annule déclare un
coup annulé par un incident au centre (§2.17.2) : ses joueurs recevront la moyenne
des autres centres ; --partie-annulee déclare la partie annulée au centre
(§2.17.2–2.17.4) : le centre est classé à part.`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("epreuve", "centre", "partie", "output"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var paquet bytes.Buffer
			if err := avecFederation(cmd.Context(), &flags, func(apps federationApps) error {
				return centres.Exporter(cmd.Context(), apps.store, apps.registre, m, &paquet)
			}); err != nil {
				return fmt.Errorf("centre export : %w", err)
			}
			if err := os.WriteFile(sortie, paquet.Bytes(), 0o644); err != nil {
				return fmt.Errorf("centre export : %w", err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "paquet %s écrit : centre %s, partie %s\n", sortie, m.Centre, m.Partie)
			return nil
		},
	}
	flags.Register(c)
	c.Flags().StringVar(&m.Epreuve, "epreuve", "", "`ID` de l'épreuve")
	c.Flags().StringVar(&m.Centre, "centre", "", "`NOM` du centre")
	c.Flags().StringVar(&m.Partie, "partie", "", "`ID` de la partie jouée au centre")
	c.Flags().IntSliceVar(&m.CoupsAnnules, "coup-annule", nil, "coup annulé par un incident au centre (§2.17.2), répétable")
	c.Flags().BoolVar(&m.PartieAnnulee, "partie-annulee", false, "la partie a été annulée au centre (§2.17.2–2.17.4)")
	c.Flags().StringVarP(&sortie, "output", "o", "", "`FICHIER` du paquet (zip)")
	return c
}

// centreImport is `centre import`.
func centreImport() *cobra.Command {
	var flags storeflags.Flags
	c := &cobra.Command{
		Use:     "import FICHIER...",
		Short:   "Importe les paquets des centres : intégrité vérifiée, un paquet importé deux fois est sans effet",
		Example: `  arbitre centre import --data federation brest.zip nice.zip`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, fichiers []string) error {
			return avecFederation(cmd.Context(), &flags, func(apps federationApps) error {
				for _, f := range fichiers {
					p, err := lirePaquet(cmd.Context(), f, apps.registre)
					if err == nil {
						err = apps.centres.RecevoirResultats(cmd.Context(), command.RecevoirResultats{Epreuve: p.Manifeste.Epreuve, Resultats: p.Resultats, Origine: federation.OrigineFichier, Empreinte: p.Empreinte})
					}
					if err != nil {
						return fmt.Errorf("centre import %s : %w", f, err)
					}
					fmt.Fprintf(cmd.ErrOrStderr(), "%s : centre %s, %d joueurs, empreinte %.12s\n", f, p.Resultats.Centre, len(p.Resultats.Joueurs), p.Empreinte)
				}
				return nil
			})
		},
	}
	flags.Register(c)
	return c
}

// centreClassement is `centre classement`.
func centreClassement() *cobra.Command {
	var flags storeflags.Flags
	var epreuveClassee string
	c := &cobra.Command{
		Use:     "classement --epreuve ID",
		Short:   "Affiche en JSON le classement national de l'épreuve (§2.17.2–2.17.4)",
		Example: `  arbitre centre classement --data federation --epreuve simultane-2026`,
		Args:    aucunArgument,
		PreRunE: exigerOptions("epreuve"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return avecFederation(cmd.Context(), &flags, func(apps federationApps) error {
				n, err := apps.lectures.Classement(cmd.Context(), epreuveClassee)
				if err != nil {
					return err
				}
				return ecrireJSON(cmd.OutOrStdout(), n)
			})
		},
	}
	flags.Register(c)
	c.Flags().StringVar(&epreuveClassee, "epreuve", "", "`ID` de l'épreuve")
	return c
}

// federationApps are the federation's use cases over one store, acting
// for the command line (metadataCLI), and its queries.
type federationApps struct {
	centres   *command.Application
	jumelages *command.Twinning
	lectures  query.Queries
	store     eventstore.Reader
	registre  *eventstore.Registry
}

// avecFederation opens the store and runs f with the federation's use
// cases over it.
func avecFederation(ctx context.Context, flags *storeflags.Flags, f func(federationApps) error) error {
	store, _, err := flags.Open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	registre, err := catalogue.Registre()
	if err != nil {
		return err
	}
	lectures := query.Queries{Epreuves: adapters.NewEpreuves(store, registre), Jumelages: adapters.NewJumelages(store, registre),
		Principal: centres.Principal{Journal: store, Registre: registre, Tournois: tadapters.NewDepot(store, registre)}}
	return f(federationApps{centres: command.New(lectures.Epreuves, metadataCLI()),
		jumelages: command.NewTwinning(lectures.Jumelages, lectures.Principal, metadataCLI()),
		lectures:  lectures, store: store, registre: registre})
}

// lirePaquet reads and checks a centre's bundle file (centres.Lire).
func lirePaquet(ctx context.Context, fichier string, registre *eventstore.Registry) (centres.Paquet, error) {
	data, err := lireFichierPaquet(fichier)
	if err != nil {
		return centres.Paquet{}, err
	}
	return centres.Lire(ctx, data, registre)
}

// lireFichierPaquet reads a bundle file, never more than one byte past
// centres.TaillePaquetMax: a larger one is refused by centres.Ouvrir.
func lireFichierPaquet(fichier string) ([]byte, error) {
	f, err := os.Open(fichier)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, centres.TaillePaquetMax+1))
}

// metadataCLI is who acts from the command line.
func metadataCLI() eventstore.Metadata { return eventstore.Metadata{Actor: "cli", Role: "federation"} }
