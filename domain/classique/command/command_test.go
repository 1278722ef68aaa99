package command_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/classique/adapters"
	"arbitre/domain/classique/command"
	"arbitre/domain/classique/matchclassique"
	"arbitre/domain/classique/pairing"
	"arbitre/domain/classique/tournoiclassique"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon/libre"
	"arbitre/engine/tile"
)

// graine is the fixed seed of the electronic bag in these tests.
const graine = matchclassique.HasardFixe(13)

var directeur = eventstore.Metadata{Actor: "JA", Role: "directeur"}

type banc struct {
	ctx      context.Context
	store    *sqlitestore.Store
	tournois *adapters.Tournois
	matchs   *adapters.Matchs
	app      *command.Application
}

func nouveauBanc(t *testing.T) *banc {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	reg, err := adapters.Registre()
	require.NoError(t, err)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	regles, err := matchclassique.NewRegles(lex)
	require.NoError(t, err)
	b := &banc{ctx: ctx, store: store, tournois: adapters.NewTournois(store, reg), matchs: adapters.NewMatchs(store, reg, regles)}
	b.app = command.New(b.tournois, b.matchs, regles, graine, directeur)
	return b
}

// publier opens the tournament "open" of four players and publishes its
// first round, paired by cote.
func (b *banc) publier(t *testing.T) tournoiclassique.RondePubliee {
	t.Helper()
	require.NoError(t, b.app.OuvrirTournoi(b.ctx, command.OuvrirTournoi{Tournoi: "open", Nom: "Open de test", Rondes: 3, Config: tournoiclassique.ConfigParDefaut()}))
	for i := range 4 {
		require.NoError(t, b.app.Inscrire(b.ctx, command.Inscrire{Tournoi: "open", Joueur: fmt.Sprintf("p%d", i), Cote: 1000 + 10*i}))
	}
	require.NoError(t, b.app.EtablirTetesDeSerie(b.ctx, command.EtablirTetesDeSerie{Tournoi: "open"}))
	require.NoError(t, b.app.ProposerRonde(b.ctx, command.ProposerRonde{Tournoi: "open", Methode: pairing.InitialByCote}))
	require.NoError(t, b.app.PublierRonde(b.ctx, command.PublierRonde{Tournoi: "open"}))
	pub := b.tournoi(t).Publiees()
	require.Len(t, pub, 1)
	require.NotEmpty(t, pub[0].Tables)
	return pub[0]
}

func (b *banc) tournoi(t *testing.T) *tournoiclassique.TournoiClassique {
	t.Helper()
	tr, err := b.tournois.Charger(b.ctx, "open")
	require.NoError(t, err)
	return tr
}

func (b *banc) match(t *testing.T, id string) *matchclassique.Match {
	t.Helper()
	p, err := b.matchs.Charger(b.ctx, id)
	require.NoError(t, err)
	return p
}

func (b *banc) position(t *testing.T) uint64 {
	t.Helper()
	last, err := b.store.LastPosition(b.ctx)
	require.NoError(t, err)
	return last
}

// refuse checks a refusal's code and that it wrote nothing.
func refuse(t *testing.T, b *banc, code erreur.Code, run func() error) {
	t.Helper()
	avant := b.position(t)
	err := run()
	require.Error(t, err)
	assert.Equal(t, code, erreur.CodeOf(err), "%v", err)
	assert.Equal(t, avant, b.position(t), "a refused command writes nothing")
}

// A match is created from the published table that plays it: round, table,
// players and first player come from the stored tournament.
func TestCreerMatch_DepuisLaTablePubliee(t *testing.T) {
	b := nouveauBanc(t)
	pub := b.publier(t)
	tb := pub.Tables[len(pub.Tables)-1]
	require.NoError(t, b.app.CreerMatch(b.ctx, command.CreerMatch{Tournoi: "open", Match: tb.Match}))

	c := b.match(t, tb.Match).Creation()
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	identite := lex.Identite()
	assert.Equal(t, matchclassique.MatchCree{Match: tb.Match, Tournoi: "open", Ronde: pub.Ronde, Table: tb.Numero,
		Joueurs: [2]string{tb.Premier, tb.Second}, Premier: 0, Designation: c.Designation, Lexique: lex.Label(), Identite: &identite}, c,
		"the match records its lexicon")
	events, err := eventstore.ReadWholeStream(b.ctx, b.store, "match-"+tb.Match)
	require.NoError(t, err)
	require.Len(t, events, 1)
	assert.Equal(t, "JA", events[0].Metadata.Actor, "the acting director signs the creation")
}

func TestCreerMatch_Refus(t *testing.T) {
	b := nouveauBanc(t)
	pub := b.publier(t)
	cree := pub.Tables[0].Match
	require.NoError(t, b.app.CreerMatch(b.ctx, command.CreerMatch{Tournoi: "open", Match: cree}))
	tests := []struct {
		name           string
		tournoi, match string
		code           erreur.Code
	}{
		{"match d'aucune table publiée", "open", tournoiclassique.MatchID("open", 2, 1), erreur.CodeNotFound},
		{"tournoi inconnu", "nulle-part", cree, erreur.CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refuse(t, b, tt.code, func() error { return b.app.CreerMatch(b.ctx, command.CreerMatch{Tournoi: tt.tournoi, Match: tt.match}) })
		})
	}

	avant := b.position(t)
	require.NoError(t, b.app.CreerMatch(b.ctx, command.CreerMatch{Tournoi: "open", Match: cree}), "the same creation again is a retry")
	assert.Equal(t, avant, b.position(t), "and writes nothing")
}

// The result copied into the tournament is the match's validated feuille
// de match, never anything else.
func TestEnregistrerResultat(t *testing.T) {
	b := nouveauBanc(t)
	pub := b.publier(t)
	forfait, enCours := pub.Tables[0], pub.Tables[1]
	for _, tb := range []tournoiclassique.Table{forfait, enCours} {
		require.NoError(t, b.app.CreerMatch(b.ctx, command.CreerMatch{Tournoi: "open", Match: tb.Match}))
	}
	require.NoError(t, b.app.DeclarerForfait(b.ctx, command.DeclarerForfait{Match: forfait.Match, Joueur: forfait.Second}))
	require.NoError(t, b.app.TirerLettres(b.ctx, command.TirerLettres{Match: enCours.Match, Joueur: enCours.Premier}))

	refus := []struct {
		name, match string
		code        erreur.Code
	}{
		{"feuille non validée", enCours.Match, erreur.CodeInvalidInput},
		{"match jamais créé", tournoiclassique.MatchID("open", 1, 99), erreur.CodeNotFound},
	}
	for _, tt := range refus {
		t.Run(tt.name, func(t *testing.T) {
			refuse(t, b, tt.code, func() error {
				return b.app.EnregistrerResultat(b.ctx, command.EnregistrerResultat{Tournoi: "open", Match: tt.match})
			})
			_, ok := b.tournoi(t).Resultat(tt.match)
			assert.False(t, ok)
		})
	}

	require.NoError(t, b.app.EnregistrerResultat(b.ctx, command.EnregistrerResultat{Tournoi: "open", Match: forfait.Match}))
	res, ok := b.tournoi(t).Resultat(forfait.Match)
	require.True(t, ok)
	assert.Equal(t, [2]string{forfait.Premier, forfait.Second}, res.Joueurs)
	assert.Equal(t, string(matchclassique.FinForfait), res.Fin)
	assert.Equal(t, [2]int{matchclassique.PointsVictoire, 0}, res.PointsDeMatch)
}

// unMatch creates the first table's match of a published round.
func (b *banc) unMatch(t *testing.T) tournoiclassique.Table {
	t.Helper()
	tb := b.publier(t).Tables[0]
	require.NoError(t, b.app.CreerMatch(b.ctx, command.CreerMatch{Tournoi: "open", Match: tb.Match}))
	return tb
}

func rack(t *testing.T, s string) tile.Rack {
	t.Helper()
	r, err := tile.ParseRack(s)
	require.NoError(t, err)
	return r
}

// The electronic bag draws from the injected Hasard: with a fixed seed the
// letters are those of the seed, the match and its version, on every run;
// letters typed by the arbiter are taken as they are.
func TestTirerLettres_HasardFixe(t *testing.T) {
	tests := []struct {
		name    string
		lettres string
		attendu func(sac tile.Rack, match string, version int) string
	}{
		{"sac électronique", "", func(sac tile.Rack, match string, version int) string {
			return matchclassique.TirerAuHasard(sac, 7, graine.Source(match, version))
		}},
		{"lettres saisies", "AEIMNOS", func(tile.Rack, string, int) string { return "AEIMNOS" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tirages []tile.Rack
			for range 2 {
				b := nouveauBanc(t)
				tb := b.unMatch(t)
				avant := b.match(t, tb.Match)
				attendu := tt.attendu(avant.Sac(), tb.Match, avant.Version())
				require.NoError(t, b.app.TirerLettres(b.ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Premier, Lettres: tt.lettres}))
				chevalet := b.match(t, tb.Match).Chevalet(0)
				assert.Equal(t, rack(t, attendu), chevalet)
				assert.Equal(t, 7, chevalet.Size())
				tirages = append(tirages, chevalet)
			}
			assert.Equal(t, tirages[0], tirages[1], "the same seed takes the same path")
		})
	}
}

// An exchange without the letters drawn takes them from the electronic bag,
// as many as the letters put back.
func TestEchanger_HasardFixe(t *testing.T) {
	b := nouveauBanc(t)
	tb := b.unMatch(t)
	require.NoError(t, b.app.TirerLettres(b.ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Premier}))
	require.NoError(t, b.app.TirerLettres(b.ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Second}))
	avant := b.match(t, tb.Match)
	chevalet := avant.Chevalet(0)
	rejetees := chevalet.String()[:3]
	tirees := rack(t, matchclassique.TirerAuHasard(avant.Sac(), 3, graine.Source(tb.Match, avant.Version())))

	require.NoError(t, b.app.Echanger(b.ctx, command.Echanger{Match: tb.Match, Joueur: tb.Premier, Rejetees: rejetees}))
	attendu := chevalet
	out := rack(t, rejetees)
	for l := range attendu {
		attendu[l] += tirees[l] - out[l]
	}
	p := b.match(t, tb.Match)
	assert.Equal(t, attendu, p.Chevalet(0))
	assert.Equal(t, avant.Version()+1, p.Version())
}

// A match command the aggregate refuses writes nothing, bag draws included.
func TestMatch_RefusNEcritRien(t *testing.T) {
	b := nouveauBanc(t)
	tb := b.unMatch(t)
	require.NoError(t, b.app.TirerLettres(b.ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Premier}))
	require.NoError(t, b.app.TirerLettres(b.ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Second}))
	tests := []struct {
		name     string
		code     erreur.Code
		commande func() error
	}{
		{"tirage sans lettres à tirer", matchclassique.CodeInvalidDraw, func() error {
			return b.app.TirerLettres(b.ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Premier})
		}},
		{"pas son tour", matchclassique.CodeNotYourTurn, func() error { return b.app.Passer(b.ctx, command.Passer{Match: tb.Match, Joueur: tb.Second}) }},
		{"échange illisible", matchclassique.CodeExchangeRefused, func() error {
			return b.app.Echanger(b.ctx, command.Echanger{Match: tb.Match, Joueur: tb.Premier, Rejetees: "123"})
		}},
		{"match inconnu", erreur.CodeNotFound, func() error { return b.app.Passer(b.ctx, command.Passer{Match: "inconnu", Joueur: tb.Premier}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { refuse(t, b, tt.code, tt.commande) })
	}
}

// The client's envelope (eventstore.Command): a retried command is applied
// once, its events carry the command id as causation, a stale version is
// refused with the current version and writes nothing.
func TestCommande_RejeuEtVersionPerimee(t *testing.T) {
	tests := []struct {
		name string
		// prepare returns the stream the commands write, its events and
		// the table of the match.
		prepare  func(t *testing.T, b *banc) (stream string, n int, tb tournoiclassique.Table)
		commande func(ctx context.Context, b *banc, tb tournoiclassique.Table) error
		perimee  func(ctx context.Context, b *banc, tb tournoiclassique.Table) error
	}{
		{"tournoi", func(t *testing.T, b *banc) (string, int, tournoiclassique.Table) {
			tb := b.publier(t).Tables[0]
			return "tournoi-classique-open", b.tournoi(t).Version(), tb
		}, func(ctx context.Context, b *banc, _ tournoiclassique.Table) error {
			return b.app.RetirerJoueur(ctx, command.RetirerJoueur{Tournoi: "open", Joueur: "p1", Motif: "malade"})
		}, func(ctx context.Context, b *banc, _ tournoiclassique.Table) error {
			return b.app.RetirerJoueur(ctx, command.RetirerJoueur{Tournoi: "open", Joueur: "p2"})
		}},
		{"match", func(t *testing.T, b *banc) (string, int, tournoiclassique.Table) {
			tb := b.unMatch(t)
			return "match-" + tb.Match, 1, tb
		}, func(ctx context.Context, b *banc, tb tournoiclassique.Table) error {
			return b.app.TirerLettres(ctx, command.TirerLettres{Match: tb.Match, Joueur: tb.Premier})
		}, func(ctx context.Context, b *banc, tb tournoiclassique.Table) error {
			return b.app.DeclarerForfait(ctx, command.DeclarerForfait{Match: tb.Match, Joueur: tb.Second})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := nouveauBanc(t)
			stream, n, tb := tt.prepare(t, b)
			v := n
			cmd := idempotency.WithCommand(b.ctx, idempotency.Command{ID: "cmd-1", Version: &v, Author: "JA"})
			require.NoError(t, tt.commande(cmd, b, tb))
			require.NoError(t, tt.commande(cmd, b, tb), "a retry succeeds")
			events, err := eventstore.ReadWholeStream(b.ctx, b.store, stream)
			require.NoError(t, err)
			require.Len(t, events, n+1, "and is applied once")
			assert.Equal(t, "cmd-1", events[n].Metadata.CausationID)

			perimee := idempotency.WithCommand(b.ctx, idempotency.Command{ID: "cmd-2", Version: &v, Author: "JA"})
			avant := b.position(t)
			err = tt.perimee(perimee, b, tb)
			current, ok := idempotency.VersionOf(err)
			require.True(t, ok, "%v", err)
			assert.Equal(t, n+1, current)
			assert.Equal(t, avant, b.position(t), "the stale command wrote nothing")
		})
	}
}
