package adapters_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/appel"
	"arbitre/domain/appel/adapters"
	"arbitre/domain/appel/command"
	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/tournoi"
	tadapters "arbitre/domain/tournoi/adapters"
	"arbitre/engine/correction"
	"arbitre/engine/lexicon/libre"
	"arbitre/projections/standings"
)

func tout(t *testing.T, store eventstore.Reader) []eventstore.Event {
	t.Helper()
	evts, err := store.ReadAll(context.Background(), 0, 1_000_000)
	require.NoError(t, err)
	return evts
}

func scores(t *testing.T, store eventstore.Reader, reg *eventstore.Registry) map[string]int {
	t.Helper()
	c, err := standings.Reconstruire(context.Background(), store, reg)
	require.NoError(t, err)
	lignes, err := c.Partie("p1")
	require.NoError(t, err)
	out := map[string]int{}
	for _, l := range lignes {
		out[l.Licence] = l.Score
	}
	return out
}

// partieJouee is a simulated duplicate game p1 of tournament t1 over
// SQLite, with its first zéro (§5.7) ready to be appealed.
type partieJouee struct {
	store     *sqlitestore.Store
	reg       *eventstore.Registry
	parties   *dupadapters.Depot
	tournois  *tadapters.Depot
	horloge   eventstore.Clock
	coup      int
	licence   string
	contestee correction.Decision
	top       int
}

var directeur = eventstore.Metadata{Actor: "JA", Role: "directeur"}

func jouerPartie(t *testing.T) *partieJouee {
	t.Helper()
	ctx := context.Background()
	h := eventstore.ClockFunc(func() time.Time { return time.Date(2024, 5, 11, 18, 0, 0, 0, time.UTC) })
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: h})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)

	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Source: duplicate.SourceLogiciel, GraineTest: new(uint64(3))}
	sim := simulation.New(lex, cfg)
	pj := &partieJouee{store: store, reg: reg, parties: dupadapters.NewDepot(store, reg, sim.Moteur()), tournois: tadapters.NewDepot(store, reg), horloge: h}
	joueurs := []string{"J01", "J02", "J03", "J04", "J05", "J06"}
	tr := tournoi.Nouveau()
	require.NoError(t, tr.Creer("t1", "Open", true))
	for i, j := range joueurs {
		require.NoError(t, tr.Inscrire(tournoi.Joueur{Licence: j, Nom: j, Table: i + 1}))
	}
	require.NoError(t, pj.tournois.Enregistrer(ctx, tr, directeur))
	_, err = sim.Jouer(simulation.Partie{ID: "p1", Tournoi: "t1", Config: cfg, Joueurs: joueurs, Graine: 3},
		func(p *duplicate.Partie) error { return pj.parties.Enregistrer(ctx, p, directeur) })
	require.NoError(t, err)

	// The first zéro (§5.7) of the game is the bulletin appealed.
	p, err := pj.parties.Charger(ctx, "p1")
	require.NoError(t, err)
	for c := 1; c < p.ProchainCoup() && pj.licence == ""; c++ {
		for _, j := range joueurs {
			if d, ok := p.Decision(c, j); ok && d.Sanction == correction.Zero {
				pj.coup, pj.licence, pj.contestee = c, j, d
				break
			}
		}
	}
	require.NotEmpty(t, pj.licence, "the simulated game has a zéro to appeal")
	top, ok := p.Top(pj.coup)
	require.True(t, ok)
	pj.top = top.Score
	return pj
}

// app returns the appeal use cases over store (the pj's store or a
// wrapper of it).
func (pj *partieJouee) app(store eventstore.Store) *command.Application {
	parties := dupadapters.NewDepot(store, pj.reg, nil)
	return command.New(adapters.NewDepot(store, pj.reg), adapters.NewFaits(parties, tadapters.NewDepot(store, pj.reg), store),
		command.NewCorrecteurDuplicate(dupcommand.New(parties, nil, pj.horloge, directeur)), pj.horloge, directeur)
}

func (pj *partieJouee) demandee() *correction.Decision {
	return &correction.Decision{Paid: pj.top, Sanction: correction.None, Engine: correction.EngineVersion}
}

var membres = []string{"PRES", "M2", "M3", "M4", "M5"}

// examiner files the appeal of the zéro and has the commission vote.
func (pj *partieJouee) examiner(t *testing.T, app *command.Application, issue appel.Issue) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, app.Par(eventstore.Metadata{Actor: pj.licence, Role: "joueur"}).DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{
		Appel: "a1", Objet: appel.Objet{Tournoi: "t1", Partie: "p1", Coup: pj.coup, Licence: pj.licence},
		Requerant: appel.Requerant{Identite: pj.licence, Qualite: appel.QualiteJoueur}, Motif: "le mot est valide",
		Contestee: &pj.contestee, Demandee: pj.demandee()}}))
	pj.voter(t, app, "t1", issue)
}

// voter composes the commission of appeal a1 of tournoi and has it vote.
func (pj *partieJouee) voter(t *testing.T, app *command.Application, tournoi string, issue appel.Issue) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: tournoi, Appel: "a1", President: "PRES", Membres: membres}))
	for _, m := range membres {
		require.NoError(t, app.Par(eventstore.Metadata{Actor: m, Role: "commission"}).Voter(ctx, command.Voter{Tournoi: tournoi, Appel: "a1", Membre: m, Issue: issue}))
	}
}

// dansLeFlux returns the events of one type in one stream.
func dansLeFlux(t *testing.T, store eventstore.Reader, stream, typ string) []eventstore.Event {
	t.Helper()
	evts, err := eventstore.ReadWholeStream(context.Background(), store, stream)
	require.NoError(t, err)
	var out []eventstore.Event
	for _, e := range evts {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

var pres = eventstore.Metadata{Actor: "jeton:pres", Role: "commission"}

// End to end over SQLite: a simulated duplicate game, a player's zéro
// appealed (§6.3) and upheld by the commission d'arbitrage (§6.4.1). The
// player's score in the standings rises by the top through one new event
// in the game's stream, signed by who decided; every earlier event is
// unchanged.
func TestBoutEnBout_AppelAccueilliChangeLeClassement(t *testing.T) {
	ctx := context.Background()
	pj := jouerPartie(t)
	avant, scoresAvant := tout(t, pj.store), scores(t, pj.store, pj.reg)
	app := pj.app(pj.store)
	pj.examiner(t, app, appel.IssueAccueilli)
	require.NoError(t, app.Par(pres).Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1",
		Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "mot admis : la nullité tombe (§6.3)"}}))

	apres, scoresApres := tout(t, pj.store), scores(t, pj.store, pj.reg)
	require.Greater(t, len(apres), len(avant))
	assert.Equal(t, avant, apres[:len(avant)], "earlier events are never edited")
	for j, s := range scoresAvant {
		want := s
		if j == pj.licence {
			want = s + pj.top
		}
		assert.Equal(t, want, scoresApres[j], "score of %s", j)
	}

	var dansLaPartie []eventstore.Event
	for _, e := range apres[len(avant):] {
		if e.Stream == "partie-p1" {
			dansLaPartie = append(dansLaPartie, e)
		}
	}
	require.Len(t, dansLaPartie, 1, "one new event in the game's stream")
	e := dansLaPartie[0]
	assert.Equal(t, duplicate.TypeDecisionCommission, e.Type)
	assert.Equal(t, pres.Actor, e.Metadata.Actor, "the token that decided signs (issue 11, item 2)")
	assert.Equal(t, pres.Role, e.Metadata.Role)
	assert.Equal(t, "appel-2-t1-a1/niveau-1", e.Metadata.CausationID)
	payload, err := pj.reg.Decode(e)
	require.NoError(t, err)
	dc := payload.(duplicate.DecisionCommission)
	assert.Equal(t, duplicate.AppelAccueilli, dc.Issue)
	assert.Equal(t, "a1", dc.Appel)
	assert.Equal(t, 1, dc.Niveau)
	assert.Equal(t, pj.demandee(), dc.Decision)

	p, err := pj.parties.Charger(ctx, "p1")
	require.NoError(t, err)
	enVigueur, ok := p.Decision(pj.coup, pj.licence)
	require.True(t, ok)
	assert.Equal(t, *pj.demandee(), enVigueur, "the game replayed from its stream holds the commission's decision")
}

// panne is a store whose next append matching echoue fails: a crash
// between the two writes of a decision.
type panne struct {
	eventstore.Store
	mu     sync.Mutex
	echoue func(stream string, events []eventstore.EventData) bool
}

var errPanne = errors.New("panne simulée")

func (p *panne) Append(ctx context.Context, stream string, expected eventstore.ExpectedRevision, events ...eventstore.EventData) (eventstore.AppendResult, error) {
	p.mu.Lock()
	echoue := p.echoue != nil && p.echoue(stream, events)
	if echoue {
		p.echoue = nil
	}
	p.mu.Unlock()
	if echoue {
		return eventstore.AppendResult{}, errPanne
	}
	return p.Store.Append(ctx, stream, expected, events...)
}

// Item 10 of issue 11: a crash between the appeal's write and the game's,
// or between the game's and the mark in the appeal, is completed by
// Reprendre (run by serve at start): both facts then exist exactly once,
// the game's signed by who decided, and running it again changes nothing.
func TestSecurite_DeciderAppelRepriseApresPanne(t *testing.T) {
	tests := []struct {
		name         string
		echoue       func(stream string, events []eventstore.EventData) bool
		dansLaPartie int
		code         appel.Code
	}{
		{"panne avant l'écriture dans la partie", func(stream string, _ []eventstore.EventData) bool { return stream == "partie-p1" }, 0, appel.CodeDecisionNotApplied},
		{"panne avant la marque dans le recours", func(stream string, events []eventstore.EventData) bool {
			return stream == "appel-2-t1-a1" && events[0].Type == appel.TypeDecisionAppliquee
		}, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			pj := jouerPartie(t)
			scoresAvant := scores(t, pj.store, pj.reg)
			enPanne := pj.app(&panne{Store: pj.store, echoue: tt.echoue})
			pj.examiner(t, enPanne, appel.IssueAccueilli)
			err := enPanne.Par(pres).Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "mot admis"}})
			require.ErrorIs(t, err, errPanne)
			assert.Equal(t, tt.code, erreur.CodeOf(err))
			assert.Len(t, dansLaPartie(t, pj), tt.dansLaPartie)
			assert.Len(t, dansLaPartieMarquee(t, pj), 0)

			for range 2 {
				require.NoError(t, command.Reprendre(ctx, pj.store, pj.reg, pj.app(pj.store)))
				evts := dansLaPartie(t, pj)
				require.Len(t, evts, 1, "the game's fact exists once")
				assert.Equal(t, pres.Actor, evts[0].Metadata.Actor, "signed by who decided")
				assert.Equal(t, "appel-2-t1-a1/niveau-1", evts[0].Metadata.CausationID)
				assert.Len(t, dansLaPartieMarquee(t, pj), 1, "the appeal's mark exists once")
				assert.Equal(t, scoresAvant[pj.licence]+pj.top, scores(t, pj.store, pj.reg)[pj.licence])
			}
		})
	}
}

func dansLaPartie(t *testing.T, pj *partieJouee) []eventstore.Event {
	t.Helper()
	return dansLeFlux(t, pj.store, "partie-p1", duplicate.TypeDecisionCommission)
}

func dansLaPartieMarquee(t *testing.T, pj *partieJouee) []eventstore.Event {
	t.Helper()
	return dansLeFlux(t, pj.store, "appel-2-t1-a1", appel.TypeDecisionAppliquee)
}

// Item 10 of issue 11: a decision the game refuses (a score above the
// top) is refused whole: today the appeal recorded it and answered
// DECISION_NOT_APPLIED.
func TestSecurite_DeciderAppelRefuseParLaPartieNeStockeRien(t *testing.T) {
	ctx := context.Background()
	pj := jouerPartie(t)
	app := pj.app(pj.store)
	pj.examiner(t, app, appel.IssueAmende)
	avant := tout(t, pj.store)
	err := app.Par(pres).Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAmende,
		Decision: &correction.Decision{Paid: pj.top + 50, Sanction: correction.None}, Motivation: "bonus"}})
	assert.Equal(t, duplicate.CodeInvalidBulletin, erreur.CodeOf(err))
	assert.Equal(t, avant, tout(t, pj.store), "nothing is written")
}

// Item 1 of issue 11: a decision is written into the appeal's own game
// only, which must belong to the appeal's tournament. An appeal recorded
// before filings were checked, naming tournament t2 and t1's game, cannot
// reach the game.
func TestSecurite_DeciderAppelDansLaPartieDuRecours(t *testing.T) {
	ctx := context.Background()
	pj := jouerPartie(t)
	app := pj.app(pj.store)
	forge := appel.Nouveau()
	require.NoError(t, forge.Deposer(appel.Saisine{Appel: "a1", Objet: appel.Objet{Tournoi: "t2", Partie: "p1", Coup: pj.coup, Licence: pj.licence},
		Requerant: appel.Requerant{Identite: pj.licence, Qualite: appel.QualiteJoueur}, Motif: "x", Demandee: pj.demandee()}, eventstore.ReadClock(pj.horloge)))
	require.NoError(t, adapters.NewDepot(pj.store, pj.reg).Enregistrer(ctx, forge, directeur))
	pj.voter(t, app, "t2", appel.IssueAccueilli)
	avant := tout(t, pj.store)
	err := app.Par(pres).Decider(ctx, command.Decider{Tournoi: "t2", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "x"}})
	assert.Equal(t, duplicate.CodeNotFound, erreur.CodeOf(err), "%v", err)
	assert.Equal(t, avant, tout(t, pj.store), "nothing is written")
}
