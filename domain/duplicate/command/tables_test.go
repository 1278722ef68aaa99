package command_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/idempotency"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/engine/correction"
)

// The write path of the bulletins (issue 17, « saisie des bulletins sans
// conflits »): each table's bulletins and corrections go to the table's
// stream, checked against the game as its own stream decided it when the
// command read it. These tests race the writers by hand: each loads, then
// each saves, in the order that used to conflict.

var arbitre = eventstore.Metadata{Actor: "A1", Role: "arbitre"}

// bancTables is a game of six players, two per table on three tables,
// with coup 1 drawn and topped.
func bancTables(t *testing.T) (*banc, duplicate.TopRetenu) {
	t.Helper()
	b := nouveauBanc(t)
	require.NoError(t, b.app.CreerPartie(b.ctx, command.CreerPartie{Partie: "p2", Tournoi: "t1", Numero: 2,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(11))}, Joueurs: []string{"J1", "J2", "J3", "J4", "J5", "J6"}}))
	require.NoError(t, b.app.Tirer(b.ctx, command.Tirer{Partie: "p2"}))
	s := b.charger(t, "p2").Solutions()[0].Move
	require.NoError(t, b.app.RetenirTop(b.ctx, command.RetenirTop{Partie: "p2", Ref: s.Ref().String(), Mot: s.WordString()}))
	top, ok := b.charger(t, "p2").Top(1)
	require.True(t, ok)
	return b, top
}

func (b *banc) charger(t *testing.T, id string) *duplicate.Partie {
	t.Helper()
	p, err := b.depot.Charger(b.ctx, id)
	require.NoError(t, err)
	return p
}

// tableDe is the table of player Jn: J1, J2 at table 1, J3, J4 at 2...
func tableDe(licence string) int {
	var n int
	fmt.Sscanf(licence, "J%d", &n)
	return (n + 1) / 2
}

func depot(coup int, licence string, top duplicate.TopRetenu) duplicate.BulletinDepose {
	return duplicate.BulletinDepose{Coup: coup, Licence: licence, Table: tableDe(licence), Arbitre: fmt.Sprintf("A%d", tableDe(licence)),
		Bulletin: duplicate.BulletinEcrit(top.Ref, top.Mot, &top.Score, false, false)}
}

// Arbiters of different tables who loaded the same version of the game
// all save: none conflicts, each bulletin lands once, in its table's
// stream. Before, every one after the first got CONFLICT.
func TestSaisie_ArbitresDeTablesDifferentesSansConflit(t *testing.T) {
	b, top := bancTables(t)
	var charges []*duplicate.Partie
	for _, licence := range []string{"J1", "J3", "J5"} {
		p := b.charger(t, "p2")
		require.NoError(t, p.DeposerBulletin(depot(1, licence, top)))
		charges = append(charges, p)
	}
	for _, p := range charges {
		require.NoError(t, b.depot.Enregistrer(b.ctx, p, arbitre), "an arbiter of another table saved first")
	}
	for _, licence := range []string{"J1", "J3", "J5"} {
		stream, err := streamname.TableStream("p2", tableDe(licence))
		require.NoError(t, err)
		evts, err := eventstore.ReadWholeStream(b.ctx, b.store, stream)
		require.NoError(t, err)
		require.Len(t, evts, 1, stream)
		assert.Equal(t, duplicate.TypeBulletinDepose, evts[0].Type)
		_, ok := b.charger(t, "p2").Depose(1, licence)
		assert.True(t, ok, licence)
	}
	assert.Equal(t, charges[0].Version()+2, b.charger(t, "p2").Version())
}

// Two arbiters of one table still conflict: the second one is decided
// again on the fresher game, so a player's bulletin is never entered twice.
func TestSaisie_MemeTableConflitEtPasDeDoublon(t *testing.T) {
	b, top := bancTables(t)
	p1, p2 := b.charger(t, "p2"), b.charger(t, "p2")
	require.NoError(t, p1.DeposerBulletin(depot(1, "J1", top)))
	require.NoError(t, p2.DeposerBulletin(depot(1, "J1", top)))
	require.NoError(t, b.depot.Enregistrer(b.ctx, p1, arbitre))
	refuse(t, b, duplicate.CodeConflict, b.depot.Enregistrer(b.ctx, p2, eventstore.Metadata{Actor: "A9", Role: "arbitre"}))
	err := b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J1", top)}})
	refuse(t, b, duplicate.CodeInvalidBulletin, err)
}

// course is a repository whose first save runs another command first: the
// race of a command that read the game before another writer saved. It
// keeps what each save answered.
type course struct {
	command.Depot
	avant     func() error
	resultats []error
}

func (c *course) Enregistrer(ctx context.Context, p *duplicate.Partie, md eventstore.Metadata) error {
	if avant := c.avant; avant != nil {
		c.avant = nil
		if err := avant(); err != nil {
			return err
		}
	}
	err := c.Depot.Enregistrer(ctx, p, md)
	c.resultats = append(c.resultats, err)
	return err
}

// The rules that span tables hold for a command that read the game before
// the director's command was stored: the table's append fails on the
// game stream's guard and the command is decided again on the game as the
// director left it.
func TestSaisie_ReglesEntreTables(t *testing.T) {
	zero := correction.Decision{Paid: 0, Sanction: correction.Zero, Reasons: []correction.Reason{}}
	tests := []struct {
		name string
		// prepare brings the game to the state the arbiter reads.
		prepare func(b *banc, top duplicate.TopRetenu) error
		// directeur is stored between the arbiter's read and his save.
		directeur func(b *banc) error
		// arbitre is the arbiter's command.
		arbitre func(app *command.Application, top duplicate.TopRetenu) error
		code    duplicate.Code
	}{
		{"§3.6 a coup annulled after the read refuses its bulletin",
			func(*banc, duplicate.TopRetenu) error { return nil },
			func(b *banc) error {
				return b.app.AnnulerCoup(b.ctx, command.AnnulerCoup{Partie: "p2", Motif: duplicate.AnnulationErreur})
			},
			func(app *command.Application, top duplicate.TopRetenu) error {
				return app.DeposerBulletins(context.Background(), command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J3", top)}})
			}, duplicate.CodeInvalidBulletin},
		{"§3.6, §5 a top annulled after the read refuses the correction",
			func(b *banc, top duplicate.TopRetenu) error {
				return b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J3", top)}})
			},
			func(b *banc) error {
				return b.app.AnnulerCoup(b.ctx, command.AnnulerCoup{Partie: "p2", Motif: duplicate.AnnulationErreur})
			},
			func(app *command.Application, _ duplicate.TopRetenu) error {
				return app.CorrigerBulletins(context.Background(), command.CorrigerBulletins{Partie: "p2", Corrections: []duplicate.Correction{{Coup: 1, Licence: "J3", Arbitre: "A2", Table: 2}}})
			}, duplicate.CodeInvalidBulletin},
		{"§3.6, §5 a top annulled after the read refuses a correction by hand",
			func(b *banc, top duplicate.TopRetenu) error {
				return b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J5", top)}})
			},
			func(b *banc) error {
				return b.app.AnnulerCoup(b.ctx, command.AnnulerCoup{Partie: "p2", Motif: duplicate.AnnulationErreur})
			},
			func(app *command.Application, _ duplicate.TopRetenu) error {
				return app.CorrigerAMain(context.Background(), command.CorrigerAMain{Partie: "p2", Correction: duplicate.Correction{Coup: 1, Licence: "J5", Arbitre: "A3", Table: 3,
					Arbitrage: &zero, Motif: "bulletin illisible"}})
			}, duplicate.CodeInvalidBulletin},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, top := bancTables(t)
			require.NoError(t, tt.prepare(b, top))
			c := &course{Depot: b.depot, avant: func() error { return tt.directeur(b) }}
			app := command.New(c, b.moteur, eventstoretest.NewStepClock(eventstoretest.Epoch), arbitre)
			avant := b.position(t)
			refuse(t, b, tt.code, tt.arbitre(app, top))
			evts, err := b.store.ReadAllAfter(b.ctx, avant, eventstore.PageSize)
			require.NoError(t, err)
			for _, e := range evts {
				assert.NotContains(t, e.Stream, "-table-", "only the director's events are written: %s %s", e.Stream, e.Type)
			}
		})
	}
}

// The ramassage (§3.7) stored between an arbiter's read and his save makes
// his table's append fail on the game stream's guard: nothing a table
// writes was decided on a game older than the one stored. Decided again on
// the game as the ramassage left it, the bulletin comes after the
// ramassage in the game's history.
func TestSaisie_RamassageEntreLectureEtEcriture(t *testing.T) {
	b := nouveauBanc(t)
	require.NoError(t, b.app.CreerPartie(b.ctx, command.CreerPartie{Partie: "p2", Tournoi: "t1", Numero: 2,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(11))}, Joueurs: []string{"J1", "J2", "J3", "J4"}}))
	require.NoError(t, b.app.Tirer(b.ctx, command.Tirer{Partie: "p2"}))
	s := b.charger(t, "p2").Solutions()[0].Move
	top := duplicate.TopRetenu{Ref: s.Ref().String(), Mot: s.WordString(), Score: int(s.Score)}

	c := &course{Depot: b.depot, avant: func() error { return b.app.Ramasser(b.ctx, command.Ramasser{Partie: "p2"}) }}
	app := command.New(c, b.moteur, eventstoretest.NewStepClock(eventstoretest.Epoch), arbitre)
	require.NoError(t, app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J3", top)}}))
	require.Len(t, c.resultats, 2, "saved once more after the conflict")
	assert.Equal(t, duplicate.CodeConflict, erreur.CodeOf(c.resultats[0]), "the ramassage moved the game stream")

	evts, err := eventstore.ReadFamily(b.ctx, b.store, "partie-p2")
	require.NoError(t, err)
	var types []string
	for _, e := range evts[len(evts)-2:] {
		types = append(types, e.Stream+" "+e.Type)
	}
	assert.Equal(t, []string{"partie-p2 " + duplicate.TypeBulletinsRamasses, "partie-p2-table-2 " + duplicate.TypeBulletinDepose}, types)
}

// A command of the game's own stream guards the tables it read: a
// director's command decided before an arbiter's bulletin was stored is
// decided again (here the second arbiter's double arbitrage, kept in the
// game stream, sees the correction stored meanwhile).
func TestSaisie_CommandeDeLaPartieGardeLesTables(t *testing.T) {
	b, top := bancTables(t)
	lu := b.charger(t, "p2")
	require.NoError(t, lu.ArriveeEnRetard("J9"))
	require.NoError(t, b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J1", top)}}))
	avant := b.position(t)
	refuse(t, b, duplicate.CodeConflict, b.depot.Enregistrer(b.ctx, lu, directeur))
	assert.Equal(t, avant, b.position(t), "nothing written")
}

// sansSections hides the SQLite store's sub-streams: a store written
// before issue 17 (or an EventStoreDB) keeps every event in the game's
// stream.
type sansSections struct{ eventstore.Store }

// jouer plays the same game on a store: three coups, bulletins and
// corrections of two tables, a double arbitrage and a billet.
func jouer(t *testing.T, store eventstore.Store, b *banc) *adapters.Depot {
	t.Helper()
	r, err := adapters.Registre()
	require.NoError(t, err)
	d := adapters.NewDepot(store, r, b.moteur)
	app := command.New(d, b.moteur, eventstoretest.NewStepClock(eventstoretest.Epoch), directeur)
	ctx := context.Background()
	require.NoError(t, app.CreerPartie(ctx, command.CreerPartie{Partie: "p3", Tournoi: "t1", Numero: 3,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(5))}, Joueurs: []string{"J1", "J2", "J3", "J4"}}))
	for coup := 1; coup <= 3; coup++ {
		require.NoError(t, app.Tirer(ctx, command.Tirer{Partie: "p3"}))
		p, err := d.Charger(ctx, "p3")
		require.NoError(t, err)
		s := p.Solutions()[0].Move
		top := duplicate.TopRetenu{Ref: s.Ref().String(), Mot: s.WordString(), Score: int(s.Score)}
		for _, licence := range []string{"J1", "J2", "J3", "J4"} {
			bul := depot(coup, licence, top)
			if licence == "J2" {
				bul.Bulletin = duplicate.BulletinEcrit("", "", nil, true, false)
			}
			require.NoError(t, app.Par(arbitre).DeposerBulletins(ctx, command.DeposerBulletins{Partie: "p3", Bulletins: []duplicate.BulletinDepose{bul}}))
		}
		require.NoError(t, app.Ramasser(ctx, command.Ramasser{Partie: "p3"}))
		require.NoError(t, app.RetenirTop(ctx, command.RetenirTop{Partie: "p3", Ref: top.Ref, Mot: top.Mot}))
		for _, licence := range []string{"J1", "J2", "J3", "J4"} {
			require.NoError(t, app.Par(arbitre).CorrigerBulletins(ctx, command.CorrigerBulletins{Partie: "p3", Corrections: []duplicate.Correction{{Coup: coup, Licence: licence,
				Arbitre: fmt.Sprintf("A%d", tableDe(licence)), Table: tableDe(licence)}}}))
		}
		require.NoError(t, app.ContreArbitrer(ctx, command.ContreArbitrer{Partie: "p3", Arbitrage: duplicate.DoubleArbitrage{Coup: coup, Licence: "J3", Arbitre: "A9", Confirme: true}}))
		require.NoError(t, app.EmettreBillet(ctx, command.EmettreBillet{Partie: "p3", Coup: coup, Licence: "J2", Arbitre: "A1"}))
	}
	return d
}

// A store written with every event in the game's stream (before issue 17)
// replays as the same game as one written with the tables' streams: the
// same events (types and payloads) in the same order, the same state.
func TestSaisie_AncienMagasinRejoueAIdentique(t *testing.T) {
	b := nouveauBanc(t)
	ancien, err := sqlitestore.OpenDir(b.ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { ancien.Close() })
	jouer(t, sansSections{ancien}, b)
	jouer(t, b.store, b)

	lire := func(store eventstore.Store) ([]string, []string) {
		evts, err := eventstore.ReadFamily(b.ctx, store, "partie-p3")
		require.NoError(t, err)
		var faits, streams []string
		for _, e := range evts {
			faits = append(faits, e.Type+" "+string(e.Data))
			streams = append(streams, e.Stream)
		}
		return faits, streams
	}
	faitsAnciens, streamsAnciens := lire(ancien)
	faits, streams := lire(b.store)
	assert.Equal(t, faitsAnciens, faits, "same types and payloads, same order")
	assert.NotContains(t, streamsAnciens, "partie-p3-table-1", "the old layout keeps one stream")
	assert.Contains(t, streams, "partie-p3-table-1")
	assert.Contains(t, streams, "partie-p3-table-2")

	r, err := adapters.Registre()
	require.NoError(t, err)
	vue := func(store eventstore.Store) string {
		p, err := adapters.NewDepot(store, r, b.moteur).Charger(b.ctx, "p3")
		require.NoError(t, err)
		grille := p.Grille()
		etat := map[string]any{"version": p.Version(), "statut": p.Statut(), "grille": grille.Rows()}
		for coup := 1; coup <= 3; coup++ {
			for _, licence := range []string{"J1", "J2", "J3", "J4"} {
				d, _ := p.DecisionSanctionnee(coup, licence)
				etat[fmt.Sprint(coup, licence)] = d
			}
		}
		out, err := json.Marshal(etat)
		require.NoError(t, err)
		return string(out)
	}
	assert.JSONEq(t, vue(ancien), vue(b.store), "the same game, replayed by the new repository from either layout")
}

// Issue 17: the repository keeps one state per game and brings it up to
// date in place with the events stored since, instead of copying the
// 1,000-player game at every load; a command decides on a copy of its own,
// so what it records and does not save never reaches the kept state.
func TestSaisie_EtatGardeRafraichiSurPlace(t *testing.T) {
	b, top := bancTables(t)
	var garde *duplicate.Partie
	consulter := func() *duplicate.Partie {
		var vu *duplicate.Partie
		require.NoError(t, b.depot.Consulter(b.ctx, "p2", func(p *duplicate.Partie) error { vu = p; return nil }))
		return vu
	}
	garde = consulter()

	perdu := b.charger(t, "p2")
	require.NoError(t, perdu.DeposerBulletin(depot(1, "J2", top))) // decided, never saved
	for _, licence := range []string{"J1", "J3"} {
		require.NoError(t, b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, licence, top)}}))
	}
	p := consulter()
	assert.Same(t, garde, p, "the kept state is refreshed in place, not copied")
	for licence, depose := range map[string]bool{"J1": true, "J3": true, "J2": false} {
		_, ok := p.Depose(1, licence)
		assert.Equal(t, depose, ok, licence)
	}
	assert.Empty(t, p.Pending())
	assert.NotSame(t, p, b.charger(t, "p2"), "a command gets a copy of its own")

	err := b.depot.Consulter(b.ctx, "absente", func(*duplicate.Partie) error { return nil })
	assert.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err))

	// The game's tournament, fixed at its creation, is taken from the kept
	// state; a game never read is read first, an unknown one is NOT_FOUND.
	r, err := adapters.Registre()
	require.NoError(t, err)
	for _, depot := range []*adapters.Depot{b.depot, adapters.NewDepot(b.store, r, b.moteur)} {
		tournoi, err := depot.Tournoi(b.ctx, "p2")
		require.NoError(t, err)
		assert.Equal(t, "t1", tournoi)
		_, err = depot.Tournoi(b.ctx, "absente")
		assert.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err))
	}
}

// Issue 17: arbiters of many tables at once, on one repository that keeps
// the game and refreshes it in place while they read it: every bulletin is
// stored once, none conflicts, and the kept state ends equal to the game
// read whole by another repository.
func TestSaisie_EtatGardeSousSaisiesSimultanees(t *testing.T) {
	b := nouveauBanc(t)
	const tables = 20
	var joueurs []string
	for i := 1; i <= 2*tables; i++ {
		joueurs = append(joueurs, fmt.Sprintf("J%d", i))
	}
	require.NoError(t, b.app.CreerPartie(b.ctx, command.CreerPartie{Partie: "p3", Tournoi: "t1", Numero: 3,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(11))}, Joueurs: joueurs}))
	require.NoError(t, b.app.Tirer(b.ctx, command.Tirer{Partie: "p3"}))
	s := b.charger(t, "p3").Solutions()[0].Move
	require.NoError(t, b.app.RetenirTop(b.ctx, command.RetenirTop{Partie: "p3", Ref: s.Ref().String(), Mot: s.WordString()}))
	top, ok := b.charger(t, "p3").Top(1)
	require.True(t, ok)

	var wg sync.WaitGroup
	errs := make([]error, len(joueurs))
	for i, licence := range joueurs {
		wg.Go(func() {
			errs[i] = b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p3", Bulletins: []duplicate.BulletinDepose{depot(1, licence, top)}})
			_ = b.depot.Consulter(b.ctx, "p3", func(p *duplicate.Partie) error { p.Depose(1, licence); return nil })
		})
	}
	wg.Wait()
	for i, err := range errs {
		assert.NoError(t, err, joueurs[i])
	}
	r, err := adapters.Registre()
	require.NoError(t, err)
	entiere, err := adapters.NewDepot(b.store, r, b.moteur).Charger(b.ctx, "p3")
	require.NoError(t, err)
	garde := b.charger(t, "p3")
	for _, licence := range joueurs {
		_, dansGarde := garde.Depose(1, licence)
		_, dansEntiere := entiere.Depose(1, licence)
		assert.True(t, dansGarde && dansEntiere, licence)
	}
	assert.Equal(t, entiere.Version(), garde.Version())
}

// The game a command saved (Application.Enregistree) holds the player's
// bulletin, its correction and the engine's decision as the store does,
// even when an arbiter of another table saved in between: a bulletin's
// answer is read from it instead of reading the game back (issue 17).
// A retry already applied saves nothing and tells nothing.
func TestSaisie_PartieEnregistreeCommeLeMagasin(t *testing.T) {
	b, top := bancTables(t)
	require.NoError(t, b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J3", top)}}))
	var enregistree *duplicate.Partie
	app := b.app.Par(arbitre).Enregistree(func(p *duplicate.Partie) { enregistree = p })
	ctx := idempotency.WithCommand(b.ctx, idempotency.Command{ID: "saisie-J1", Author: arbitre.Actor, Request: "deposerBulletin:J1"})
	require.NoError(t, app.DeposerBulletins(ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J1", top)}}))
	require.NotNil(t, enregistree)
	require.NoError(t, b.app.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p2", Corrections: []duplicate.Correction{{Coup: 1, Licence: "J3", Arbitre: "A2", Table: 2}}}))
	enregistree = nil
	require.NoError(t, app.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p2", Corrections: []duplicate.Correction{{Coup: 1, Licence: "J1", Arbitre: "A1", Table: 1}}}))
	require.NotNil(t, enregistree)
	stockee := b.charger(t, "p2")
	d1, ok := enregistree.Depose(1, "J1")
	require.True(t, ok)
	d2, _ := stockee.Depose(1, "J1")
	assert.Equal(t, d2, d1)
	c1, ok := enregistree.Correction(1, "J1")
	require.True(t, ok)
	c2, _ := stockee.Correction(1, "J1")
	assert.Equal(t, c2, c1)
	m1, err1 := enregistree.DecisionMoteur(1, "J1")
	m2, err2 := stockee.DecisionMoteur(1, "J1")
	require.NoError(t, err1)
	require.NoError(t, err2)
	assert.Equal(t, m2, m1)

	enregistree = nil
	require.NoError(t, app.DeposerBulletins(ctx, command.DeposerBulletins{Partie: "p2", Bulletins: []duplicate.BulletinDepose{depot(1, "J1", top)}}), "the same request again")
	assert.Nil(t, enregistree, "a retry already applied saved nothing")
}
