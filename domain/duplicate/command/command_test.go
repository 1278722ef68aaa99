package command_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	"arbitre/engine/correction"
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
)

type banc struct {
	ctx    context.Context
	store  *sqlitestore.Store
	depot  *adapters.Depot
	app    *command.Application
	moteur duplicate.Moteur
}

var directeur = eventstore.Metadata{Actor: "JA", Role: "directeur"}

func nouveauBanc(t *testing.T) *banc {
	t.Helper()
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewStepClock(eventstoretest.Epoch)})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	r, err := adapters.Registre()
	require.NoError(t, err)
	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute}
	m := duplicate.NewMoteur(lex, cfg.Variant())
	depot := adapters.NewDepot(store, r, m)
	b := &banc{ctx: ctx, store: store, depot: depot, moteur: m,
		app: command.New(depot, m, eventstoretest.NewStepClock(eventstoretest.Epoch), directeur)}
	require.NoError(t, b.app.CreerPartie(ctx, command.CreerPartie{Partie: "p1", Tournoi: "t1", Numero: 1,
		Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(11))}, Joueurs: []string{"L1", "L2", "L3"}}))
	return b
}

func (b *banc) partie(t *testing.T) *duplicate.Partie {
	t.Helper()
	p, err := b.depot.Charger(b.ctx, "p1")
	require.NoError(t, err)
	return p
}

func (b *banc) position(t *testing.T) uint64 {
	t.Helper()
	last, err := b.store.LastPosition(b.ctx)
	require.NoError(t, err)
	return last
}

// topper draws coup 1 and retains the engine's first admissible top (§3.4).
func (b *banc) topper(t *testing.T) duplicate.TopRetenu {
	t.Helper()
	require.NoError(t, b.app.Tirer(b.ctx, command.Tirer{Partie: "p1"}))
	s := b.partie(t).Solutions()[0].Move
	require.NoError(t, b.app.RetenirTop(b.ctx, command.RetenirTop{Partie: "p1", Ref: s.Ref().String(), Mot: s.WordString()}))
	top, ok := b.partie(t).Top(1)
	require.True(t, ok)
	return top
}

func refuse(t *testing.T, b *banc, code duplicate.Code, err error) {
	t.Helper()
	require.Error(t, err)
	assert.Equal(t, code, erreur.CodeOf(err), err.Error())
}

// Two writers load the same version of a game: exactly one appends; the
// other gets CONFLICT carrying the version the game holds now, and nothing
// of his is written (optimistic concurrency, expected revision).
func TestDepot_ConflitDeuxEcrivains(t *testing.T) {
	b := nouveauBanc(t)
	p1, p2 := b.partie(t), b.partie(t)
	require.NoError(t, p1.Tirer(""))
	require.NoError(t, b.depot.Enregistrer(b.ctx, p1, directeur))
	avant := b.position(t)
	require.NoError(t, p2.ArriveeEnRetard("L9"))
	err := b.depot.Enregistrer(b.ctx, p2, directeur)
	refuse(t, b, duplicate.CodeConflict, err)
	var e *erreur.Erreur
	require.True(t, errors.As(err, &e))
	assert.Equal(t, p1.Version(), e.Details["version"], "the conflict carries the current version")
	assert.ErrorIs(t, err, eventstore.ErrConflict)
	assert.Equal(t, avant, b.position(t), "nothing written")
	assert.Equal(t, p1.Version(), b.partie(t).Version())
}

// A retried request (same correlation id, same state) is recognized by the
// store and writes nothing twice.
func TestDepot_RequeteRejouee(t *testing.T) {
	b := nouveauBanc(t)
	p1, p2 := b.partie(t), b.partie(t)
	require.NoError(t, p1.Tirer(""))
	require.NoError(t, p2.Tirer(""))
	require.NoError(t, b.depot.Enregistrer(b.ctx, p1, directeur))
	avant := b.position(t)
	require.NoError(t, b.depot.Enregistrer(b.ctx, p2, directeur), "same request, same events: a retry")
	assert.Equal(t, avant, b.position(t))
}

// Many requests draw the same tirage at once: exactly one wins; each
// other one is refused (CONFLICT, or WRONG_STATE if it loaded the game
// after the winner) and the stream holds one tirage (§3.1).
func TestApplication_UnSeulGagnant(t *testing.T) {
	b := nouveauBanc(t)
	const n = 8
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			requete := b.app.Par(eventstore.Metadata{Actor: "JA", Role: "directeur", CorrelationID: fmt.Sprint("requete-", i)})
			errs[i] = requete.Tirer(b.ctx, command.Tirer{Partie: "p1"})
		}()
	}
	wg.Wait()
	gagnants := 0
	for _, err := range errs {
		if err == nil {
			gagnants++
			continue
		}
		assert.Contains(t, []duplicate.Code{duplicate.CodeConflict, duplicate.CodeWrongState}, erreur.CodeOf(err), err.Error())
	}
	assert.Equal(t, 1, gagnants)
	evts, err := eventstore.ReadWholeStream(b.ctx, b.store, "partie-p1")
	require.NoError(t, err)
	tirages := 0
	for _, e := range evts {
		if e.Type == duplicate.TypeTirageEffectue {
			tirages++
		}
	}
	assert.Equal(t, 1, tirages)
}

// Bad input is refused with its code and changes nothing in the store.
func TestApplication_MauvaiseSaisieNeChangeRien(t *testing.T) {
	b := nouveauBanc(t)
	top := b.topper(t)
	require.NoError(t, b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{
		{Coup: 1, Licence: "L1", Table: 1, Arbitre: "A1", Bulletin: duplicate.BulletinEcrit(top.Ref, top.Mot, &top.Score, false, false)}}}))
	require.NoError(t, b.app.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p1", Corrections: []duplicate.Correction{{Coup: 1, Licence: "L1", Arbitre: "A1", Table: 1}}}))
	zero := correction.Decision{Sanction: correction.Zero, Reasons: []correction.Reason{correction.WordNotAdmitted}}
	tropHaut := correction.Decision{Paid: top.Score + 1, Sanction: correction.None}
	tests := []struct {
		name string
		code duplicate.Code
		f    func() error
	}{
		{"§3.4 top déjà annoncé", duplicate.CodeWrongState, func() error { return b.app.RetenirTop(b.ctx, command.RetenirTop{Partie: "p1", Ref: "H8", Mot: "MOT"}) }},
		{"§3.2 rejet après le top", duplicate.CodeWrongState, func() error { return b.app.Rejeter(b.ctx, command.Rejeter{Partie: "p1"}) }},
		{"partie inconnue", duplicate.CodeNotFound, func() error { return b.app.Tirer(b.ctx, command.Tirer{Partie: "p9"}) }},
		{"§4 bulletins tout ou rien : un joueur inconnu", duplicate.CodeUnknownPlayer, func() error {
			return b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{
				{Coup: 1, Licence: "L2", Arbitre: "A1", Bulletin: correction.Bulletin{Blank: true}},
				{Coup: 1, Licence: "X", Arbitre: "A1", Bulletin: correction.Bulletin{Blank: true}}}})
		}},
		{"§4 bulletin mal saisi", duplicate.CodeInvalidBulletin, func() error {
			return b.app.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{
				{Coup: 1, Licence: "L2", Bulletin: correction.Bulletin{Solutions: []correction.Solution{{Word: "A", Written: "x"}}}}}})
		}},
		{"§5 correction d'un bulletin non saisi", duplicate.CodeInvalidBulletin, func() error {
			return b.app.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p1", Corrections: []duplicate.Correction{{Coup: 1, Licence: "L2", Arbitre: "A1"}}})
		}},
		{"§5 l'arbitre qui s'écarte du moteur donne son motif", duplicate.CodeInvalidBulletin, func() error {
			return b.app.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p1", Corrections: []duplicate.Correction{{Coup: 1, Licence: "L1", Arbitre: "A1", Arbitrage: &zero}}})
		}},
		{"§5.9 score au-dessus du top", duplicate.CodeInvalidBulletin, func() error {
			return b.app.CorrigerAMain(b.ctx, command.CorrigerAMain{Partie: "p1", Correction: duplicate.Correction{Coup: 1, Licence: "L1", Arbitre: "A1", Arbitrage: &tropHaut, Motif: "m"}})
		}},
		{"guide §5 double arbitrage par le même arbitre", duplicate.CodeInvalidBulletin, func() error {
			return b.app.ContreArbitrer(b.ctx, command.ContreArbitrer{Partie: "p1", Arbitrage: duplicate.DoubleArbitrage{Coup: 1, Licence: "L1", Arbitre: "A1", Confirme: true}})
		}},
		{"§6.3 issue inconnue", duplicate.CodeInvalidBulletin, func() error {
			return b.app.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t1", Partie: "p1", Coup: 1, Licence: "L1", Appel: "a1", Issue: "cassé", Motif: "m"})
		}},
		{"§6.3 appel rejeté avec une décision", duplicate.CodeInvalidBulletin, func() error {
			return b.app.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t1", Partie: "p1", Coup: 1, Licence: "L1", Appel: "a1", Issue: duplicate.AppelRejete, Decision: &zero, Motif: "m"})
		}},
		{"§6.3 décision sur un bulletin non corrigé", duplicate.CodeInvalidBulletin, func() error {
			return b.app.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t1", Partie: "p1", Coup: 1, Licence: "L2", Appel: "a1", Issue: duplicate.AppelAmende, Decision: &zero, Motif: "m"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			avant := b.position(t)
			refuse(t, b, tt.code, tt.f())
			assert.Equal(t, avant, b.position(t), "store unchanged")
		})
	}
}

// The life of a bulletin (issue 5, guide §5, §5.9, §6.3): submitted as
// written, corrected by the engine and the arbiter, amended by a second
// arbiter, notified, sent to the commission, decided on appeal. Every step
// is a new event with who did it; the decision in force is the latest.
func TestApplication_CycleDuBulletin(t *testing.T) {
	b := nouveauBanc(t)
	top := b.topper(t)
	faux := top.Score + 3
	arbitre1 := b.app.Par(eventstore.Metadata{Actor: "A1", Role: "arbitre"})
	arbitre2 := b.app.Par(eventstore.Metadata{Actor: "A2", Role: "arbitre"})
	commission := b.app.Par(eventstore.Metadata{Actor: "CRA", Role: "commission"})
	require.NoError(t, arbitre1.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{
		{Coup: 1, Licence: "L1", Table: 1, Arbitre: "A1", Bulletin: duplicate.BulletinEcrit(top.Ref, top.Mot, &faux, false, false)}}}))

	moteur, err := b.partie(t).DecisionMoteur(1, "L1")
	require.NoError(t, err)
	assert.Equal(t, correction.Warning, moteur.Sanction, "§5.3.2 correct place, wrong score: warning")
	assert.Equal(t, top.Score, moteur.Paid)
	assert.Equal(t, []correction.Reason{correction.ScoreWrong}, moteur.Reasons)

	require.NoError(t, arbitre1.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p1", Corrections: []duplicate.Correction{{Coup: 1, Licence: "L1", Arbitre: "A1", Table: 1}}}))
	c, ok := b.partie(t).Correction(1, "L1")
	require.True(t, ok)
	assert.Equal(t, &moteur, c.Moteur, "the engine's decision is recorded")
	assert.Nil(t, c.Arbitrage, "confirmed: no second decision")

	amende := moteur
	amende.Sanction, amende.Reasons = correction.None, []correction.Reason{}
	require.NoError(t, arbitre2.ContreArbitrer(b.ctx, command.ContreArbitrer{Partie: "p1", Arbitrage: duplicate.DoubleArbitrage{Coup: 1, Licence: "L1", Arbitre: "A2", Decision: &amende, Motif: "score rectifié par le joueur avant la fin du coup"}}))
	d, _ := b.partie(t).Decision(1, "L1")
	assert.Equal(t, correction.None, d.Sanction, "the amendment is in force")
	c, _ = b.partie(t).Correction(1, "L1")
	assert.Equal(t, correction.Warning, c.Finale().Sanction, "the first correction is kept")

	require.NoError(t, arbitre2.EmettreBillet(b.ctx, command.EmettreBillet{Partie: "p1", Coup: 1, Licence: "L1", Arbitre: "A2"}))
	require.NoError(t, arbitre2.RenvoyerCommission(b.ctx, command.RenvoyerCommission{Partie: "p1", Renvoi: duplicate.RenvoiCommission{Coup: 1, Licence: "L1", Arbitre: "A2", Appel: "a1", Motif: "appel du joueur"}}))
	nul := correction.Decision{Sanction: correction.Zero, Reasons: []correction.Reason{correction.WordNotAdmitted}}
	require.NoError(t, commission.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t1", Partie: "p1", Coup: 1, Licence: "L1", Appel: "a1",
		Issue: duplicate.AppelAmende, Decision: &nul, Motif: "mot non admis"}))
	d, _ = b.partie(t).Decision(1, "L1")
	assert.Equal(t, correction.Zero, d.Sanction, "§6.3 the commission's decision is in force")
	require.NoError(t, commission.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t1", Partie: "p1", Coup: 1, Licence: "L1", Appel: "a2",
		Issue: duplicate.AppelRejete, Motif: "rien de nouveau"}))
	d, _ = b.partie(t).Decision(1, "L1")
	assert.Equal(t, correction.Zero, d.Sanction, "§6.3 a rejected appeal leaves the decision in force")

	// Issue 11, item 10: a decision of an appeal's level is recorded once,
	// so that carrying it again after a crash changes nothing; item 1: it
	// goes into a game of the appeal's tournament only.
	avant := b.position(t)
	for _, niveau := range []int{1, 1} {
		require.NoError(t, commission.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t1", Partie: "p1", Coup: 1, Licence: "L1", Appel: "a3", Niveau: niveau,
			Issue: duplicate.AppelAmende, Decision: &amende, Motif: "FISF"}))
	}
	assert.Equal(t, avant+1, b.position(t), "one event for the level, retries record nothing")
	avant = b.position(t)
	err = commission.DeciderAppel(b.ctx, command.DeciderAppel{Tournoi: "t2", Partie: "p1", Coup: 1, Licence: "L1", Appel: "a4", Niveau: 1,
		Issue: duplicate.AppelRejete, Motif: "autre tournoi"})
	assert.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err))
	assert.Equal(t, avant, b.position(t))

	evts, err := eventstore.ReadFamily(b.ctx, b.store, "partie-p1")
	require.NoError(t, err)
	var qui []string
	for _, e := range evts[len(evts)-8 : len(evts)-1] {
		qui = append(qui, e.Type+" "+e.Metadata.Actor+"/"+e.Metadata.Role)
	}
	assert.Equal(t, []string{
		"partie.bulletin_depose A1/arbitre",
		"partie.bulletin_corrige A1/arbitre",
		"partie.double_arbitrage A2/arbitre",
		"partie.billet_emis A2/arbitre",
		"partie.renvoi_commission A2/arbitre",
		"partie.decision_commission CRA/commission",
		"partie.decision_commission CRA/commission",
	}, qui, "who did what, never an edited event")
}

// Arbiters entering bulletins of different players at once all succeed: a
// writer that loses the race decides again on the fresher game; a client
// that sent its version still gets the conflict.
func TestApplication_ArbitresSimultanes(t *testing.T) {
	b := nouveauBanc(t)
	b.topper(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i, licence := range []string{"L1", "L2", "L3"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			arbitre := b.app.Par(eventstore.Metadata{Actor: "arbitre-" + licence, Role: "arbitre"})
			errs[i] = arbitre.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{{Coup: 1, Licence: licence, Bulletin: correction.Bulletin{Blank: true}}}})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		assert.NoError(t, err)
	}
	p := b.partie(t)
	for _, l := range []string{"L1", "L2", "L3"} {
		_, ok := p.Depose(1, l)
		assert.True(t, ok, l)
	}

	stale := p.Version() - 1
	ctx := idempotency.WithCommand(b.ctx, idempotency.Command{ID: "late", Version: &stale})
	err := b.app.DeposerBulletins(ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{{Coup: 1, Licence: "L1", Bulletin: correction.Bulletin{Blank: true}}}})
	refuse(t, b, duplicate.CodeConflict, err)
}

// Guide §2.18.1.A with issue 16 item 6: a twinned site plays the principal's
// game with the principal's lexicon, not its own default. A site holding
// that list plays; a site without it records the principal's list all the
// same (the game is never judged with another one) and every command is
// LEXICON_NOT_LOADED, naming the list to load.
func TestCreerPartie_Guide2_18_LexiqueDuPrincipal(t *testing.T) {
	b := nouveauBanc(t)
	autre, err := lexicon.Compile(strings.NewReader("ABCDEFG\n"), "ODS-principal")
	require.NoError(t, err)
	libreLex, err := libre.Lexicon()
	require.NoError(t, err)
	libreID := libreLex.Identite()
	// The server's engines: every list it holds, the shipped one by default.
	r, err := adapters.Registre()
	require.NoError(t, err)
	moteurs := duplicate.NewMoteurs(libreLex)
	b.app = command.New(adapters.NewDepot(b.store, r, moteurs), moteurs, eventstoretest.NewStepClock(eventstoretest.Epoch), directeur)
	for _, tc := range []struct {
		nom, partie string
		lexique     lexicon.Identite
		absent      bool
	}{
		{"liste du principal chargée", "p-meme", libreID, false},
		{"liste du principal absente", "p-autre", autre.Identite(), true},
	} {
		lex := tc.lexique
		require.NoError(t, b.app.CreerPartie(b.ctx, command.CreerPartie{Partie: tc.partie, Tournoi: "t1", Numero: 2,
			Config: duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceDirecteur}, Joueurs: []string{"L1"}, Lexique: &lex}), tc.nom)
		evts, err := b.store.ReadStream(b.ctx, "partie-"+tc.partie, 0, 1)
		require.NoError(t, err)
		require.Len(t, evts, 1)
		assert.Contains(t, string(evts[0].Data), fmt.Sprintf("%q", lex.Label), tc.nom)
		err = b.app.Tirer(b.ctx, command.Tirer{Partie: tc.partie, Lettres: "ABCDEFG"})
		if !tc.absent {
			require.NoError(t, err, tc.nom)
			continue
		}
		refuse(t, b, duplicate.CodeLexiqueAbsent, err)
		assert.Contains(t, err.Error(), "ODS-principal", tc.nom)
	}
}
