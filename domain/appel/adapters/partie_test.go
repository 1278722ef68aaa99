package adapters_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/appel"
	"arbitre/domain/appel/adapters"
	"arbitre/domain/appel/command"
	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	dupcommand "arbitre/domain/duplicate/command"
	"arbitre/domain/duplicate/simulation"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/sqlitestore"
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

// End to end over SQLite: a simulated duplicate game, a player's zéro
// appealed (§6.3) and upheld by the commission d'arbitrage (§6.4.1). The
// player's score in the standings rises by the top through one new event
// in the game's stream; every earlier event is unchanged.
func TestBoutEnBout_AppelAccueilliChangeLeClassement(t *testing.T) {
	ctx := context.Background()
	h := eventstore.ClockFunc(func() time.Time { return time.Date(2024, 5, 11, 18, 0, 0, 0, time.UTC) })
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: h})
	require.NoError(t, err)
	defer store.Close()
	reg, err := dupadapters.Registre()
	require.NoError(t, err)
	require.NoError(t, appel.RegisterEvents(reg))

	lex, err := libre.Lexicon()
	require.NoError(t, err)
	cfg := duplicate.Config{TempsParCoup: 3 * time.Minute, Graine: 3}
	sim := simulation.New(lex, cfg)
	parties := dupadapters.NewDepot(store, reg, sim.Moteur())
	directeur := eventstore.Metadata{Actor: "JA", Role: "directeur"}
	joueurs := []string{"J01", "J02", "J03", "J04", "J05", "J06"}
	_, err = sim.Jouer(simulation.Partie{ID: "p1", Tournoi: "t1", Config: cfg, Joueurs: joueurs, Graine: 3},
		func(p *duplicate.Partie) error { return parties.Enregistrer(ctx, p, directeur) })
	require.NoError(t, err)

	// The first zéro (§5.7) of the game is the bulletin appealed.
	p, err := parties.Charger(ctx, "p1")
	require.NoError(t, err)
	var coup int
	var licence string
	var contestee correction.Decision
	for c := 1; c < p.ProchainCoup() && licence == ""; c++ {
		for _, j := range joueurs {
			if d, ok := p.Decision(c, j); ok && d.Sanction == correction.Zero {
				coup, licence, contestee = c, j, d
				break
			}
		}
	}
	require.NotEmpty(t, licence, "the simulated game has a zéro to appeal")
	top, ok := p.Top(coup)
	require.True(t, ok)
	demandee := correction.Decision{Paid: top.Score, Sanction: correction.None, Engine: correction.EngineVersion}

	avant, scoresAvant := tout(t, store), scores(t, store, reg)

	jeux := dupcommand.New(parties, sim.Moteur(), h, directeur)
	app := command.New(adapters.NewDepot(store, reg), adapters.NewPartie(jeux), h, directeur)
	require.NoError(t, app.Par(eventstore.Metadata{Actor: licence, Role: "joueur"}).DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{
		Appel: "a1", Objet: appel.Objet{Tournoi: "t1", Partie: "p1", Coup: coup, Licence: licence},
		Requerant: appel.Requerant{Identite: licence, Qualite: appel.QualiteJoueur}, Motif: "le mot est valide",
		Contestee: &contestee, Demandee: &demandee}}))
	membres := []string{"PRES", "M2", "M3", "M4", "M5"}
	require.NoError(t, app.ComposerCommission(ctx, command.ComposerCommission{Appel: "a1", President: "PRES", Membres: membres}))
	for i, m := range membres {
		issue := appel.IssueAccueilli
		if i >= 3 {
			issue = appel.IssueRejete
		}
		require.NoError(t, app.Par(eventstore.Metadata{Actor: m, Role: "commission"}).Voter(ctx, command.Voter{Appel: "a1", Membre: m, Issue: issue}))
	}
	require.NoError(t, app.Par(eventstore.Metadata{Actor: "PRES", Role: "commission"}).Decider(ctx, command.Decider{Appel: "a1",
		Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "mot admis : la nullité tombe (§6.3)"}}))

	apres, scoresApres := tout(t, store), scores(t, store, reg)
	require.Greater(t, len(apres), len(avant))
	assert.Equal(t, avant, apres[:len(avant)], "earlier events are never edited")
	for j, s := range scoresAvant {
		want := s
		if j == licence {
			want = s + top.Score
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
	assert.Equal(t, string(appel.InstanceCommissionArbitrage), e.Metadata.Actor)
	assert.Equal(t, command.RoleCommission, e.Metadata.Role)
	assert.Equal(t, "appel-a1", e.Metadata.CausationID)
	payload, err := reg.Decode(e)
	require.NoError(t, err)
	dc := payload.(duplicate.DecisionCommission)
	assert.Equal(t, duplicate.AppelAccueilli, dc.Issue)
	assert.Equal(t, "a1", dc.Appel)
	assert.Equal(t, &demandee, dc.Decision)

	p, err = parties.Charger(ctx, "p1")
	require.NoError(t, err)
	enVigueur, ok := p.Decision(coup, licence)
	require.True(t, ok)
	assert.Equal(t, demandee, enVigueur, "the game replayed from its stream holds the commission's decision")
}
