package command_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/command"
	"arbitre/domain/classique/tournoiclassique"
)

// federation is the cotes the federation knows (its archive): the latest
// of each player, live or imported.
type federation map[string]int

func (f federation) CoteConnue(_ context.Context, joueur string) (int, bool, error) {
	if joueur == "panne" {
		return 0, false, errors.New("archive illisible")
	}
	c, ok := f[joueur]
	return c, ok, nil
}

// TestInscrire_CoteConnueDeLaFederation: a player registered without a
// cote enters with the latest one the federation knows (docs/archive.md:
// an imported past tournament's cote included), which then seeds and pairs
// him; a cote given at registration stands; a player the federation does
// not know has none. Registration by list does the same, all or nothing.
func TestInscrire_CoteConnueDeLaFederation(t *testing.T) {
	b := nouveauBanc(t)
	app := b.app.AvecCotesConnues(federation{"connu": 1512, "donne": 1700})
	require.NoError(t, app.OuvrirTournoi(b.ctx, command.OuvrirTournoi{Tournoi: "open", Nom: "Open de test", Rondes: 3, Config: tournoiclassique.ConfigParDefaut()}))
	require.NoError(t, app.Inscrire(b.ctx, command.Inscrire{Tournoi: "open", Joueur: "connu", Nom: "Connu"}))
	require.NoError(t, app.Inscrire(b.ctx, command.Inscrire{Tournoi: "open", Joueur: "donne", Nom: "Donné", Cote: 1300}))
	require.NoError(t, app.InscrireLot(b.ctx, command.InscrireLot{Tournoi: "open", Lot: []tournoiclassique.Inscription{{Joueur: "nouveau", Nom: "Nouveau"}, {Joueur: "lot", Nom: "Lot", Cote: 1400}}}))
	assert.Error(t, app.Inscrire(b.ctx, command.Inscrire{Tournoi: "open", Joueur: "panne", Nom: "Panne"}), "an unreadable archive registers nobody")
	assert.Error(t, app.InscrireLot(b.ctx, command.InscrireLot{Tournoi: "open", Lot: []tournoiclassique.Inscription{{Joueur: "x", Nom: "X"}, {Joueur: "panne", Nom: "Panne"}}}))

	cotes := map[string]int{}
	for _, i := range b.tournoi(t).Inscrits() {
		cotes[i.Joueur] = i.Cote
	}
	assert.Equal(t, map[string]int{"connu": 1512, "donne": 1300, "nouveau": 0, "lot": 1400}, cotes)
	require.NoError(t, app.EtablirTetesDeSerie(b.ctx, command.EtablirTetesDeSerie{Tournoi: "open"}))
	assert.Equal(t, []string{"connu", "lot", "donne", "nouveau"}, b.tournoi(t).TetesDeSerie(), "seeded by the cotes registered")
}
