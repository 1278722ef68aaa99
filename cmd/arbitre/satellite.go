package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"arbitre/domain/acces"
	"arbitre/domain/duplicate"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/federation"
	"arbitre/domain/federation/adapters"
	fedcommand "arbitre/domain/federation/command"
	"arbitre/domain/federation/command/liaison"
	tcommand "arbitre/domain/tournoi/command"
	"arbitre/graphql/server"
	"arbitre/projections/centres"
)

// satelliteFlags are serve's options of a twinned site (guide §2.18,
// docs/federation.md): the principal's address, the CENTRE token it issued
// for this site, and the site's own tournament.
type satelliteFlags struct {
	principal, jeton, tournoi string
}

func (f *satelliteFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.principal, "satellite-de", "", "`URL` du serveur principal d'un jumelage (guide §2.18) : ce serveur suit ses parties en direct et les joue comme les siennes")
	cmd.Flags().StringVar(&f.jeton, "jeton-centre", "", "`SECRET` du jeton de centre émis par le principal pour ce site (--satellite-de)")
	cmd.Flags().StringVar(&f.tournoi, "tournoi", "", "`ID` du tournoi de ce site, dont les joueurs jouent les parties du principal (--satellite-de)")
}

// verifier refuses a partial set of the options.
func (f *satelliteFlags) verifier() error {
	if (f.principal == "") != (f.jeton == "") || (f.principal == "") != (f.tournoi == "") {
		return fmt.Errorf("--satellite-de, --jeton-centre et --tournoi vont ensemble : l'adresse du principal, le jeton de centre qu'il a émis pour ce site et le tournoi de ce site")
	}
	if f.principal != "" && !strings.HasPrefix(f.principal, "http://") && !strings.HasPrefix(f.principal, "https://") {
		return fmt.Errorf("--satellite-de %q : adresse http:// ou https:// attendue", f.principal)
	}
	return nil
}

// configurer adds the link of a twinned site to the server: the follower
// of the principal's games, run while the server serves, with the
// server's own use cases and clock.
func (f *satelliteFlags) configurer(log *slog.Logger) func(*server.Config) {
	return func(c *server.Config) {
		if f.principal == "" {
			return
		}
		r := c.Resolver
		md := eventstore.Metadata{Actor: liaison.Acteur, Role: string(acces.Centre)}
		suiveur := &liaison.Suiveur{
			Principal: &adapters.Principal{URL: f.principal, Jeton: f.jeton, HTTP: &http.Client{Timeout: 30 * time.Second}},
			Origine:   f.principal, Log: log, Attente: 500 * time.Millisecond, AttenteMax: 10 * time.Second,
			Site: liaison.Site{
				Tournoi: f.tournoi, Parties: dupcommand.New(r.Parties, r.Moteur, r.Clock, md), Tournois: tcommand.New(r.TournoiDepot, md),
				Jumelages: fedcommand.NewTwinning(r.Jumelages, nil, md), Journal: r.Journal, Horloge: r.Clock,
				TournoiDe: func(ctx context.Context) ([]string, []string, error) {
					t, err := r.Queries().Tournoi.Tournoi(ctx, f.tournoi)
					if err != nil {
						return nil, nil, err
					}
					joueurs, err := t.JoueursDePartie(duplicate.ModeNormal, nil, nil)
					return joueurs, t.Parties(), err
				},
				Paquet: func(ctx context.Context, jumelage, site, partie string) ([]byte, federation.ResultatsCentre, error) {
					var paquet bytes.Buffer
					if err := centres.Exporter(ctx, r.Journal, r.Registry, centres.Manifeste{Epreuve: jumelage, Centre: site, Partie: partie}, &paquet); err != nil {
						return nil, federation.ResultatsCentre{}, err
					}
					lu, err := centres.Lire(ctx, paquet.Bytes(), r.Registry)
					return paquet.Bytes(), lu.Resultats, err
				},
				Changements: func(ctx context.Context, partie string) <-chan uint64 {
					flux, _ := streamname.PartieStream(partie)
					return r.Hub.Subscribe(ctx, func(stream string) bool {
						principal, _ := streamname.MainStream(stream)
						return stream == flux || principal == flux
					})
				},
			},
		}
		if c.Taches == nil {
			c.Taches = map[string]func(context.Context) error{}
		}
		c.Taches["satellite de "+f.principal] = suiveur.Suivre
	}
}
