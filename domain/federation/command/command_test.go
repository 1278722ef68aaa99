package command_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/federation"
	"arbitre/domain/federation/adapters"
	"arbitre/domain/federation/command"
	"arbitre/domain/federation/query"
)

// concurrent is a repository where another writer saves, once, just
// before the command saves: another process (the command line's `centre
// import`) recording a centre at the same moment.
type concurrent struct {
	command.Epreuves
	avant func()
}

func (c *concurrent) Enregistrer(ctx context.Context, e *federation.Epreuve, md eventstore.Metadata) error {
	if f := c.avant; f != nil {
		c.avant = nil
		f()
	}
	return c.Epreuves.Enregistrer(ctx, e, md)
}

func resultats(centre string) federation.ResultatsCentre {
	return federation.ResultatsCentre{Centre: centre, Joueurs: []federation.JoueurCentre{
		{Licence: centre + "-1", Nom: "Joueur " + centre, Serie: "3A", Score: 30, Points: []int{10, 20}}}}
}

// TestGuide2_17_CentresEnvoyantEnMemeTemps (issue 34 item 2): the 150
// centres of a national simultaneous event send their results within a
// minute; one whose results were saved while another centre's were was
// refused with CONFLICT (`arbitre charge national`: 6 of 10 centres
// sending at once), though nothing it asks depends on the other's. Within
// the server, the commands on one event run one at a time; a writer of
// another process makes the command decide again on the event as it now
// is. Every centre is ranked.
func TestGuide2_17_CentresEnvoyantEnMemeTemps(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	defer store.Close()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	md := eventstore.Metadata{Actor: "test"}
	seul := command.New(adapters.NewEpreuves(store, reg), md)
	lectures := query.Queries{Epreuves: seul.Epreuves}
	require.NoError(t, seul.OuvrirEpreuve(ctx, command.OuvrirEpreuve{Epreuve: "SIM", Nom: "Simultané", Coups: 2}))

	tests := []struct {
		nom     string
		autre   string // saved by another writer first
		centre  string
		attendu []string
	}{
		{"un autre centre enregistré entre-temps", "Lyon", "Nice", []string{"Lyon", "Nice"}},
		{"le même centre déjà enregistré entre-temps", "Brest", "Brest", nil},
	}
	for _, tt := range tests {
		t.Run(tt.nom, func(t *testing.T) {
			autre := adapters.NewEpreuves(store, reg)
			depot := &concurrent{Epreuves: autre, avant: func() {
				e, err := autre.Charger(ctx, "SIM")
				require.NoError(t, err)
				require.NoError(t, e.Recevoir(resultats(tt.autre), federation.OrigineFichier, "h-"+tt.autre))
				require.NoError(t, autre.Enregistrer(ctx, e, md))
			}}
			err := command.New(depot, md).RecevoirResultats(ctx, command.RecevoirResultats{Epreuve: "SIM", Resultats: resultats(tt.centre), Origine: federation.OrigineEnLigne, Empreinte: "h2-" + tt.centre})
			n, errN := lectures.Classement(ctx, "SIM")
			require.NoError(t, errN)
			if tt.attendu == nil {
				assert.Equal(t, federation.CodeCentreDejaRecu, erreur.CodeOf(err), "decided again: the centre is there already")
				return
			}
			require.NoError(t, err)
			for _, c := range tt.attendu {
				assert.Contains(t, n.Centres, c, fmt.Sprint(n.Centres))
			}
		})
	}

	t.Run("trente centres à la fois", func(t *testing.T) {
		require.NoError(t, seul.OuvrirEpreuve(ctx, command.OuvrirEpreuve{Epreuve: "NAT", Nom: "National", Coups: 2}))
		var wg sync.WaitGroup
		errs := make([]error, 30)
		for k := range errs {
			wg.Go(func() {
				c := fmt.Sprintf("C%02d", k)
				errs[k] = command.New(adapters.NewEpreuves(store, reg), md).RecevoirResultats(ctx, command.RecevoirResultats{Epreuve: "NAT", Resultats: resultats(c), Origine: federation.OrigineEnLigne, Empreinte: "h-" + c})
			})
		}
		wg.Wait()
		for k, err := range errs {
			assert.NoError(t, err, "C%02d", k)
		}
		n, err := lectures.Classement(ctx, "NAT")
		require.NoError(t, err)
		assert.Len(t, n.Centres, 30)
	})
}
