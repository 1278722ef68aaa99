package historique_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	cadapters "arbitre/domain/classique/adapters"
	"arbitre/domain/classique/pairing"
	csim "arbitre/domain/classique/simulation"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	dsim "arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"
	tadapters "arbitre/domain/tournoi/adapters"
	tcommand "arbitre/domain/tournoi/command"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/classique"
	"arbitre/projections/historique"
	"arbitre/projections/projection"
)

// archive plays a small duplicate game and a small classique tournament
// into a store and returns it with the archive and cotes projections
// rebuilt in db.
func archive(t *testing.T) (eventstore.Store, *sql.DB, []*projection.Runner) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := sqlitestore.OpenDir(ctx, dir, sqlitestore.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	reg, err := catalogue.Registre()
	require.NoError(t, err)

	jouerPartie(t, store, reg, "D1", "Open duplicate", []string{"L1", "L2", "L3"}, 5)
	_, err = csim.Simuler(ctx, store, lex, csim.Config{Tournoi: "C1", Joueurs: 6, Rondes: 3, Seed: 3, Workers: 1})
	require.NoError(t, err)

	db, runners := vues(t, store, dir)
	return store, db, runners
}

// vues opens the archive and cotes projections of store in dir, caught up.
func vues(t testing.TB, store eventstore.Store, dir string) (*sql.DB, []*projection.Runner) {
	t.Helper()
	db, err := projection.OpenDB(filepath.Join(dir, projection.FileName))
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db, vuesSur(t, store, db)
}

// vuesSur opens the archive and cotes projections of store in db, caught
// up.
func vuesSur(t testing.TB, store eventstore.Store, db *sql.DB) []*projection.Runner {
	t.Helper()
	ctx := context.Background()
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	journal := projection.Journal{Store: store, Registry: reg}
	cotes, err := classique.NewCotes(journal)
	require.NoError(t, err)
	hist, err := historique.NewProjection(journal)
	require.NoError(t, err)
	var runners []*projection.Runner
	for _, p := range []projection.Projection{hist, cotes} {
		r, err := projection.NewRunner(ctx, db, p, store)
		require.NoError(t, err)
		_, err = r.CatchUp(ctx, nil)
		require.NoError(t, err)
		runners = append(runners, r)
	}
	return runners
}

// reconstruitCommeVivant rebuilds the runners from position zero and
// checks the rows are exactly the live ones.
func reconstruitCommeVivant(t *testing.T, db *sql.DB, runners []*projection.Runner) {
	t.Helper()
	ctx := context.Background()
	live, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	for _, r := range runners {
		_, err := r.Rebuild(ctx, nil)
		require.NoError(t, err)
	}
	rebuilt, err := projection.Dump(ctx, db)
	require.NoError(t, err)
	assert.Equal(t, string(live), string(rebuilt))
}

// jouerPartie opens duplicate tournament id with players (named "Joueur
// <licence>", tables 1, 2...) and plays its game id-1 with the engine.
func jouerPartie(t *testing.T, store eventstore.Store, reg *eventstore.Registry, id, nom string, joueurs []string, graine uint64) {
	t.Helper()
	ctx := context.Background()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	md := eventstore.Metadata{Actor: "test"}
	app := tcommand.New(tadapters.NewDepot(store, reg), md)
	require.NoError(t, app.Creer(ctx, tcommand.Creer{Tournoi: id, Nom: nom, Homologue: true}))
	for i, l := range joueurs {
		require.NoError(t, app.Inscrire(ctx, tcommand.Inscrire{Tournoi: id, Joueur: tournoi.Joueur{Licence: l, Nom: "Joueur " + l, Club: "Club", Table: i + 1}}))
	}
	require.NoError(t, app.AjouterPartie(ctx, tcommand.AjouterPartie{Tournoi: id, Partie: id + "-1"}))
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(graine))}
	sim := dsim.New(lex, cfg)
	depot := adapters.NewDepot(store, reg, sim.Moteur())
	_, err = sim.Jouer(dsim.Partie{ID: id + "-1", Tournoi: id, Numero: 1, Config: cfg, Joueurs: joueurs, Graine: graine},
		func(p *duplicate.Partie) error { return depot.Enregistrer(ctx, p, md) })
	require.NoError(t, err)
}

func TestArchiveListsTournamentsGamesAndPlayers(t *testing.T) {
	ctx := context.Background()
	_, db, _ := archive(t)

	first, more, err := historique.LecteurDe(db).Tournois(ctx, historique.Page{First: 1})
	require.NoError(t, err)
	require.Len(t, first, 1)
	assert.True(t, more)
	assert.Equal(t, "D1", first[0].ID)
	assert.Equal(t, historique.KindDuplicate, first[0].Kind)
	assert.Equal(t, 1, first[0].Parties)
	rest, more, err := historique.LecteurDe(db).Tournois(ctx, historique.Page{After: first[0].Position, First: 10})
	require.NoError(t, err)
	assert.False(t, more)
	require.Len(t, rest, 1, "the cursor continues exactly after the first page")
	assert.Equal(t, "C1", rest[0].ID)
	assert.False(t, rest[0].ClosLe.IsZero(), "the classique tournament closed")
	assert.Equal(t, 9, rest[0].Parties, "6 players × 3 rounds")

	games, _, err := historique.LecteurDe(db).Parties(ctx, "D1", historique.Page{})
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.True(t, games[0].Terminee)

	j, ok, err := historique.LecteurDe(db).JoueurDe(ctx, "L2")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "Joueur L2", j.Nom)
	parts, _, err := historique.LecteurDe(db).Participations(ctx, "L2", historique.Page{})
	require.NoError(t, err)
	assert.Equal(t, []historique.Participation{{Position: parts[0].Position, Partie: "D1-1", Tournoi: "D1", Kind: historique.KindDuplicate}}, parts)
}

func TestArchiveClassiqueHistoryHeadToHeadAndCotes(t *testing.T) {
	ctx := context.Background()
	_, db, _ := archive(t)
	rs, err := historique.LecteurDe(db).RencontresDuTournoi(ctx, "C1")
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	r := rs[0]
	a, b := r.Joueurs[0], r.Joueurs[1]
	h2h, err := historique.LecteurDe(db).FaceAFace(ctx, b, a)
	require.NoError(t, err)
	require.NotEmpty(t, h2h)
	assert.Equal(t, r, h2h[0], "head-to-head is symmetric")

	parts, _, err := historique.LecteurDe(db).Participations(ctx, a, historique.Page{})
	require.NoError(t, err)
	assert.NotEmpty(t, parts)
	for _, p := range parts {
		assert.Equal(t, "C1", p.Tournoi)
		require.NotNil(t, p.Rencontre, "each game with its meeting")
		assert.Equal(t, p.Partie, p.Rencontre.Match)
	}
	cotes, err := historique.LecteurDe(db).Cotes(ctx, a)
	require.NoError(t, err)
	require.Len(t, cotes, 1, "one cote per closed tournament")
	assert.Equal(t, "C1", cotes[0].Tournoi)
	assert.NotZero(t, cotes[0].Apres)
}

// Rebuilding the archive from position zero gives exactly the live state.
func TestArchiveRebuildEqualsLive(t *testing.T) {
	ctx := context.Background()
	_, db, runners := archive(t)
	reconstruitCommeVivant(t, db, runners)
	_, ok, err := historique.LecteurDe(db).JoueurDe(ctx, fmt.Sprint("nobody"))
	require.NoError(t, err)
	assert.False(t, ok)
}

// A result the director corrects replaces the earlier one in every read
// model: the archive's rencontre (once, not twice), the standings, and the
// cotes' games (no duplicate row refused).
func TestArchive_ResultatCorrigeRemplaceLAncien(t *testing.T) {
	ctx := context.Background()
	store, db, runners := archive(t)
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	tr := tournoiclassique.Nouveau()
	err = tr.Ouvrir("CX", "Open corrigé", 1, tournoiclassique.ConfigParDefaut())
	require.NoError(t, err)
	require.NoError(t, tr.InscrireLot([]tournoiclassique.Inscription{{Joueur: "X1", Cote: 1200}, {Joueur: "X2", Cote: 1100}}))
	require.NoError(t, tr.EtablirTetesDeSerie())
	require.NoError(t, tr.Proposer(pairing.InitialByCote, false))
	require.NoError(t, tr.Publier())
	tb := tr.Publiees()[0].Tables[0]
	require.NoError(t, tr.SaisirResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{420, 380}}))
	depot := cadapters.NewTournois(store, reg)
	md := eventstore.Metadata{Actor: "test"}
	require.NoError(t, depot.Enregistrer(ctx, tr, md))
	require.NoError(t, tr.CorrigerResultat(tb.Match, tournoiclassique.Saisie{Scores: [2]int{380, 420}}, "scores inversés"))
	require.NoError(t, depot.Enregistrer(ctx, tr, md))

	cl, err := classique.NewClassement(projection.Journal{Store: store})
	require.NoError(t, err)
	standings, err := projection.NewRunner(ctx, db, cl, store)
	require.NoError(t, err)
	for _, r := range append(runners, standings) {
		_, err := r.CatchUp(ctx, nil)
		require.NoError(t, err)
	}
	parts, _, err := historique.LecteurDe(db).Participations(ctx, "X1", historique.Page{})
	require.NoError(t, err)
	require.Len(t, parts, 1, "the corrected game counts once")
	require.NotNil(t, parts[0].Rencontre)
	assert.Equal(t, tb.Match, parts[0].Rencontre.Match)
	assert.Equal(t, []int{380, 420}, parts[0].Rencontre.Scores[:])
	got, err := classique.NewLecteurClassement(standings).Standings(ctx, "CX")
	require.NoError(t, err)
	assert.Equal(t, tr.Classement(), got)
	assert.Equal(t, tb.Second, got[0].Joueur, "the corrected winner leads")
}
