package adapters_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/appel"
	"arbitre/domain/appel/adapters"
	"arbitre/domain/appel/command"
	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	dupadapters "arbitre/domain/duplicate/adapters"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/tournoi"
	tadapters "arbitre/domain/tournoi/adapters"
)

// TestArt6_3_HorairesLusDansLeJournal: the times of §6.3 are those the
// store recorded the games' events at: the first tirage (kept or
// rejected) starts a game, the closure of its results ends it; an appeal filed after
// the deadline they give is refused and nothing is written.
func TestArt6_3_HorairesLusDansLeJournal(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2024, 5, 11, 14, 0, 0, 0, time.UTC)
	h := eventstoretest.NewManualClock(t0)
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: h})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	tournois := tadapters.NewDepot(store, reg)
	tr := tournoi.Nouveau()
	require.NoError(t, tr.Creer("t1", "Open", true))
	require.NoError(t, tr.Inscrire(tournoi.Joueur{Licence: "J01", Nom: "J01", Table: 1}))
	for _, p := range []string{"p1", "p2", "p3"} {
		require.NoError(t, tr.AjouterPartie(p))
	}
	require.NoError(t, tournois.Enregistrer(ctx, tr, directeur))

	ecrire := func(partie, typ string, a time.Time) {
		t.Helper()
		h.Set(a)
		stream, err := streamname.PartieStream(partie)
		require.NoError(t, err)
		_, err = store.Append(ctx, stream, eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: json.RawMessage(`{}`)})
		require.NoError(t, err)
	}
	ecrire("p1", duplicate.TypePartieCreee, t0)
	ecrire("p1", duplicate.TypeTirageRejete, t0.Add(time.Minute))
	ecrire("p1", duplicate.TypeTirageEffectue, t0.Add(2*time.Minute))
	ecrire("p1", duplicate.TypePartieTerminee, t0.Add(50*time.Minute))
	ecrire("p1", duplicate.TypeResultatsClos, t0.Add(time.Hour))
	ecrire("p2", duplicate.TypePartieCreee, t0.Add(time.Hour))
	ecrire("p2", duplicate.TypeTirageEffectue, t0.Add(90*time.Minute))

	faits := adapters.NewFaits(dupadapters.NewDepot(store, reg, nil), tournois, store)
	horaires, err := faits.Horaires(ctx, "t1")
	require.NoError(t, err)
	assert.Equal(t, []appel.Horaire{
		{Partie: "p1", Debut: t0.Add(time.Minute), Fin: eventstore.Instant{Wall: t0.Add(time.Hour)}},
		{Partie: "p2", Debut: t0.Add(90 * time.Minute)},
		{Partie: "p3"},
	}, horaires)
	_, err = faits.Horaires(ctx, "t9")
	assert.Equal(t, appel.CodeNotFound, erreur.CodeOf(err))

	h.Set(t0.Add(91 * time.Minute))
	app := command.New(adapters.NewDepot(store, reg), faitsSansPartie{faits}, nil, h, directeur)
	err = app.DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: appel.Objet{Tournoi: "t1", Partie: "p1"},
		Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "mot valide", Echeance: &appel.Echeance{Depuis: eventstore.Instant{Wall: t0}, Delai: 24 * time.Hour}}})
	assert.Equal(t, appel.CodeDeadlinePassed, erreur.CodeOf(err), "p2 started at %s", t0.Add(90*time.Minute))
	_, err = adapters.NewDepot(store, reg).Charger(ctx, "t1", "a1")
	assert.Equal(t, appel.CodeAppealNotFound, erreur.CodeOf(err), "nothing written")
}

// TestArt6_3_DelaiDepuisLaClotureDesResultats: « un éventuel recours doit
// être formulé avant le début de la partie suivante ou, à défaut, 15
// minutes après la dernière partie de la compétition » (§6.3); the
// decisions on the last coup, which any player may appeal, are taken after
// the top that ends the game (introduction, guide §3.2), so a game is over
// for §6.3 when the director closes its results (partie.resultats_clos),
// not at its end event. Before the closure its end is unknown: no
// deadline runs.
func TestArt6_3_DelaiDepuisLaClotureDesResultats(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2024, 5, 11, 14, 0, 0, 0, time.UTC)
	cas := []struct {
		nom      string
		clos     bool
		fin      time.Time // the Horaire's end
		depot    time.Time // an appeal on the game filed then
		accepte  bool
		pourquoi string
	}{
		{"not closed", false, time.Time{}, t0.Add(3 * time.Hour), true, "the arbiters' work goes on: no deadline"},
		{"closed, within 15 minutes", true, t0.Add(90 * time.Minute), t0.Add(100 * time.Minute), true, "35 minutes after the end, 10 after the closure"},
		{"closed, after 15 minutes", true, t0.Add(90 * time.Minute), t0.Add(106 * time.Minute), false, "16 minutes after the closure"},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			h := eventstoretest.NewManualClock(t0)
			store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: h})
			require.NoError(t, err)
			t.Cleanup(func() { _ = store.Close() })
			reg, err := catalogue.Registre()
			require.NoError(t, err)
			tournois := tadapters.NewDepot(store, reg)
			tr := tournoi.Nouveau()
			require.NoError(t, tr.Creer("t1", "Open", true))
			require.NoError(t, tr.Inscrire(tournoi.Joueur{Licence: "J01", Nom: "J01", Table: 1}))
			require.NoError(t, tr.AjouterPartie("p1"))
			require.NoError(t, tournois.Enregistrer(ctx, tr, directeur))
			ecrire := func(typ string, a time.Time) {
				t.Helper()
				h.Set(a)
				_, err := store.Append(ctx, "partie-p1", eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: json.RawMessage(`{}`)})
				require.NoError(t, err)
			}
			ecrire(duplicate.TypePartieCreee, t0)
			ecrire(duplicate.TypeTirageEffectue, t0.Add(time.Minute))
			ecrire(duplicate.TypePartieTerminee, t0.Add(time.Hour))
			if c.clos {
				ecrire(duplicate.TypeResultatsClos, c.fin)
			}

			faits := adapters.NewFaits(dupadapters.NewDepot(store, reg, nil), tournois, store)
			horaires, err := faits.Horaires(ctx, "t1")
			require.NoError(t, err)
			assert.Equal(t, []appel.Horaire{{Partie: "p1", Debut: t0.Add(time.Minute), Fin: eventstore.Instant{Wall: c.fin}}}, horaires)

			h.Set(c.depot)
			app := command.New(adapters.NewDepot(store, reg), faitsSansPartie{faits}, nil, h, directeur)
			err = app.DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: appel.Objet{Tournoi: "t1", Partie: "p1"},
				Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "mot valide"}})
			if c.accepte {
				assert.NoError(t, err, c.pourquoi)
			} else {
				assert.Equal(t, appel.CodeDeadlinePassed, erreur.CodeOf(err), c.pourquoi)
			}
		})
	}
}

// faitsSansPartie answers for the games written as bare events above,
// which the games' repository cannot replay.
type faitsSansPartie struct{ *adapters.Faits }

func (faitsSansPartie) Partie(context.Context, string) (string, []string, error) {
	return "t1", []string{"J01"}, nil
}

// TestArt6_3_PartiesDeLaCompetitionPasEncoreCreees: the games of the
// competition not created yet (tournoi.NombreParties) follow the created
// ones without times: the deadline of an appeal on the last game created
// waits for the next game's first tirage (§6.3), however long the break.
func TestArt6_3_PartiesDeLaCompetitionPasEncoreCreees(t *testing.T) {
	ctx := context.Background()
	store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: eventstoretest.NewManualClock(time.Date(2024, 5, 11, 14, 0, 0, 0, time.UTC))})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	reg, err := catalogue.Registre()
	require.NoError(t, err)
	tournois := tadapters.NewDepot(store, reg)
	tr := tournoi.Nouveau()
	require.NoError(t, tr.Creer("t1", "Open", true))
	require.NoError(t, tr.AjouterPartie("p1"))
	require.NoError(t, tr.FixerNombreParties(3, ""))
	require.NoError(t, tournois.Enregistrer(ctx, tr, directeur))

	horaires, err := adapters.NewFaits(dupadapters.NewDepot(store, reg, nil), tournois, store).Horaires(ctx, "t1")
	require.NoError(t, err)
	assert.Equal(t, []appel.Horaire{{Partie: "p1"}, {}, {}}, horaires)
}

// TestAppel_Paragraphe6_3_HorlogeQuiSaute: « 15 minutes après la dernière
// partie » (§6.3) is a real length of time, measured from the closure of
// the results on the server's monotonic reading, which the closure
// records: the clock set forward does not refuse an appeal early, set back
// it does not accept one late. « Avant le début de la partie suivante » is
// a fact, not a time: once that game's first tirage is stored, an appeal
// read after it is late whatever the clock says.
func TestAppel_Paragraphe6_3_HorlogeQuiSaute(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2024, 5, 11, 14, 0, 0, 0, time.UTC)
	cas := []struct {
		nom     string
		partie  string // the game appealed
		apres   func(h *eventstoretest.ManualClock)
		accepte bool
	}{
		{"5 minutes après la clôture, l'horloge avance d'une heure : recevable", "p2", func(h *eventstoretest.ManualClock) {
			h.Advance(5 * time.Minute)
			h.Jump(time.Hour)
		}, true},
		{"20 minutes après la clôture, l'horloge recule d'une heure : trop tard", "p2", func(h *eventstoretest.ManualClock) {
			h.Advance(20 * time.Minute)
			h.Jump(-time.Hour)
		}, false},
		{"la partie suivante tirée, l'horloge recule d'une heure : trop tard", "p1", func(h *eventstoretest.ManualClock) {
			h.Jump(-time.Hour)
		}, false},
	}
	for _, c := range cas {
		t.Run(c.nom, func(t *testing.T) {
			h := eventstoretest.NewManualClock(t0)
			store, err := sqlitestore.OpenDir(ctx, t.TempDir(), sqlitestore.Options{Clock: h})
			require.NoError(t, err)
			t.Cleanup(func() { _ = store.Close() })
			reg, err := catalogue.Registre()
			require.NoError(t, err)
			tournois := tadapters.NewDepot(store, reg)
			tr := tournoi.Nouveau()
			require.NoError(t, tr.Creer("t1", "Open", true))
			require.NoError(t, tr.Inscrire(tournoi.Joueur{Licence: "J01", Nom: "J01", Table: 1}))
			require.NoError(t, tr.AjouterPartie("p1"))
			require.NoError(t, tr.AjouterPartie("p2"))
			require.NoError(t, tournois.Enregistrer(ctx, tr, directeur))
			ecrire := func(partie, typ string, data any) {
				t.Helper()
				h.Advance(time.Minute)
				stream, err := streamname.PartieStream(partie)
				require.NoError(t, err)
				b, err := json.Marshal(data)
				require.NoError(t, err)
				_, err = store.Append(ctx, stream, eventstore.Any, eventstore.EventData{ID: uuid.New(), Type: typ, Version: 1, Data: b})
				require.NoError(t, err)
			}
			for _, p := range []string{"p1", "p2"} {
				ecrire(p, duplicate.TypePartieCreee, struct{}{})
				ecrire(p, duplicate.TypeTirageEffectue, struct{}{})
				ecrire(p, duplicate.TypePartieTerminee, struct{}{})
			}
			ecrire("p2", duplicate.TypeResultatsClos, map[string]any{"monotone": h.Monotonic()})
			c.apres(h)

			app := command.New(adapters.NewDepot(store, reg), faitsSansPartie{adapters.NewFaits(dupadapters.NewDepot(store, reg, nil), tournois, store)}, nil, h, directeur)
			err = app.DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: appel.Objet{Tournoi: "t1", Partie: c.partie},
				Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "mot valide"}})
			if c.accepte {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, appel.CodeDeadlinePassed, erreur.CodeOf(err))
			_, err = adapters.NewDepot(store, reg).Charger(ctx, "t1", "a1")
			assert.Equal(t, appel.CodeAppealNotFound, erreur.CodeOf(err), "nothing written")
		})
	}
}
