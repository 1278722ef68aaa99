package command_test

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
	"arbitre/domain/appel/query"
	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/eventstoretest"
	"arbitre/domain/eventstore/repository"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/correction"
)

var t0 = time.Date(2024, 5, 11, 14, 0, 0, 0, time.UTC)

// correcteur records the decisions carried into the game; refus makes the
// game refuse them, echec makes writing them fail.
type correcteur struct {
	mu        sync.Mutex
	decisions []command.DecisionBulletin
	md        []eventstore.Metadata
	refus     error
	echec     error
}

func (c *correcteur) VerifierDecision(context.Context, command.DecisionBulletin) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refus
}

func (c *correcteur) AppliquerDecision(_ context.Context, d command.DecisionBulletin, md eventstore.Metadata) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.echec != nil {
		return c.echec
	}
	c.decisions = append(c.decisions, d)
	c.md = append(c.md, md)
	return nil
}

// faits are the stored games and tournaments of the tests: p1 and p2 of
// t1, whose players J01 and J02 sit at tables 1 and 2; t2 has no player.
// horaires are t1's games in order with their times (none: no deadline).
type faits struct {
	horaires []appel.Horaire
}

func (faits) Partie(_ context.Context, id string) (string, []string, error) {
	if id == "p1" || id == "p2" {
		return "t1", []string{"J01", "J02"}, nil
	}
	return "", nil, &erreur.Erreur{Code: appel.CodeNotFound, Message: "la partie " + id + " n'existe pas"}
}

func (faits) Tables(_ context.Context, id string) (map[string]int, error) {
	switch id {
	case "t1":
		return map[string]int{"J01": 1, "J02": 2}, nil
	case "t2":
		return map[string]int{}, nil
	}
	return nil, &erreur.Erreur{Code: appel.CodeNotFound, Message: "le tournoi " + id + " n'existe pas"}
}

func (f faits) Horaires(ctx context.Context, id string) ([]appel.Horaire, error) {
	if _, err := f.Tables(ctx, id); err != nil {
		return nil, err
	}
	if id == "t1" {
		return f.horaires, nil
	}
	return nil, nil
}

type banc struct {
	store *sqlitestore.Store
	reg   *eventstore.Registry
	depot *adapters.Depot
	app   *command.Application
	corr  *correcteur
	h     *eventstoretest.ManualClock
}

func nouveauBanc(t *testing.T) *banc {
	t.Helper()
	h := eventstoretest.NewManualClock(t0)
	store, err := sqlitestore.OpenDir(context.Background(), t.TempDir(), sqlitestore.Options{Clock: h})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })
	reg := eventstore.NewRegistry()
	require.NoError(t, appel.RegisterEvents(reg))
	b := &banc{store: store, reg: reg, depot: adapters.NewDepot(store, reg), corr: &correcteur{}, h: h}
	b.app = command.New(b.depot, faits{}, b.corr, h, eventstore.Metadata{Actor: "JA", Role: "directeur"})
	return b
}

var (
	contestee = &correction.Decision{Sanction: correction.Zero, Reasons: []correction.Reason{correction.WordNotAdmitted}}
	demandee  = &correction.Decision{Paid: 30, Sanction: correction.None}
	membres   = []string{"PRES", "M2", "M3"}
)

func (b *banc) deposer(t *testing.T, id string, o appel.Objet) {
	t.Helper()
	require.NoError(t, b.app.Par(eventstore.Metadata{Actor: "J01", Role: "joueur", CorrelationID: "req-" + id}).DeposerAppel(context.Background(),
		command.DeposerAppel{Saisine: appel.Saisine{Appel: id, Objet: o, Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur},
			Motif: "mot valide", Contestee: contestee, Demandee: demandee, Echeance: jusqua(t0.Add(time.Hour))}}))
}

func (b *banc) examiner(t *testing.T, id string, issue appel.Issue) {
	t.Helper()
	ctx := context.Background()
	require.NoError(t, b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: id, President: "PRES", Membres: membres}))
	for _, m := range membres {
		b.h.Advance(time.Minute)
		require.NoError(t, b.app.Par(eventstore.Metadata{Actor: m, Role: "commission"}).Voter(ctx, command.Voter{Tournoi: "t1", Appel: id, Membre: m, Issue: issue}))
	}
}

// jusqua is a deadline a client sends: at t on the wall clock.
func jusqua(t time.Time) *appel.Echeance {
	if t.IsZero() {
		return nil
	}
	return &appel.Echeance{Depuis: eventstore.Instant{Wall: t}}
}

var bulletin = appel.Objet{Tournoi: "t1", Partie: "p1", Coup: 4, Licence: "J01"}

func TestDecider_ProcessusVersLaPartie(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		objet    appel.Objet
		d        appel.Deliberation
		applique *correction.Decision
	}{
		{"accueilli : la décision demandée va à la partie", bulletin, appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}, demandee},
		{"amendé : la décision de la commission va à la partie", bulletin,
			appel.Deliberation{Issue: appel.IssueAmende, Decision: &correction.Decision{Paid: 30, Sanction: correction.Warning}, Motivation: "avertissement"},
			&correction.Decision{Paid: 30, Sanction: correction.Warning}},
		{"rejeté : rien ne change dans la partie", bulletin, appel.Deliberation{Issue: appel.IssueRejete, Motivation: "non admis"}, nil},
		{"accueilli hors bulletin : rien à appliquer", appel.Objet{Tournoi: "t1"}, appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "x"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := nouveauBanc(t)
			b.deposer(t, "a1", tt.objet)
			b.examiner(t, "a1", tt.d.Issue)
			require.NoError(t, b.app.Par(eventstore.Metadata{Actor: "PRES", Role: "commission", CorrelationID: "dec-1"}).Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: tt.d}))
			v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, "t1", "a1")
			require.NoError(t, err)
			if tt.applique == nil {
				assert.Empty(t, b.corr.decisions)
				assert.Equal(t, appel.TypeDecisionRendue, v.Historique[len(v.Historique)-1].Type)
				return
			}
			require.Len(t, b.corr.decisions, 1)
			d := b.corr.decisions[0]
			assert.Equal(t, command.DecisionBulletin{Appel: "a1", Niveau: 1, Instance: appel.InstanceCommissionArbitrage, Issue: tt.d.Issue,
				Tournoi: "t1", Partie: "p1", Coup: 4, Licence: "J01", Decision: *tt.applique, Motivation: tt.d.Motivation}, d)
			assert.Equal(t, eventstore.Metadata{Actor: "PRES", Role: "commission", CorrelationID: "dec-1", CausationID: "appel-2-t1-a1/niveau-1"},
				b.corr.md[0], "signed by who decided, caused by the decision")
			dernier := v.Historique[len(v.Historique)-1]
			assert.Equal(t, appel.TypeDecisionAppliquee, dernier.Type)
			assert.True(t, v.Niveaux[0].Appliquee)
			require.NoError(t, b.app.AppliquerDecision(ctx, command.AppliquerDecision{Tournoi: "t1", Appel: "a1"}))
			assert.Len(t, b.corr.decisions, 1, "applied once")
		})
	}
}

// Item 10 of issue 11: a decision the game refuses is not recorded in the
// appeal either; today the appeal stored it and answered an error.
func TestSecurite_DeciderAppelRefuseParLaPartie(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	b.deposer(t, "a1", bulletin)
	b.examiner(t, "a1", appel.IssueAccueilli)
	avant, err := eventstore.ReadWholeStream(ctx, b.store, "appel-a1")
	require.NoError(t, err)
	refus := errors.New("score au-dessus du top")
	b.corr.refus = refus
	err = b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}})
	assert.ErrorIs(t, err, refus)
	apres, err := eventstore.ReadWholeStream(ctx, b.store, "appel-a1")
	require.NoError(t, err)
	assert.Equal(t, avant, apres, "nothing is recorded")
	assert.Empty(t, b.corr.decisions)

	b.corr.refus = nil
	require.NoError(t, b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}}))
	assert.Len(t, b.corr.decisions, 1)
}

// Writing into the game failing after the decision is recorded (a crash
// between the two writes) leaves the decision pending; AppliquerDecision
// completes it, once.
func TestDecider_EchecDeLaPartieEstRepris(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	b.deposer(t, "a1", bulletin)
	b.examiner(t, "a1", appel.IssueAccueilli)
	cause := errors.New("partie indisponible")
	b.corr.echec = cause
	err := b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}})
	assert.Equal(t, appel.CodeDecisionNotApplied, erreur.CodeOf(err))
	assert.ErrorIs(t, err, cause)

	x, err := query.Reconstruire(ctx, b.store, b.reg)
	require.NoError(t, err)
	r := x.ParPartie("p1")
	require.Len(t, r, 1)
	assert.Equal(t, appel.StatutDecide, r[0].Statut, "the decision is recorded")
	assert.True(t, r[0].AAppliquer, "and pending")
	require.Len(t, x.EnAttente(), 1)
	assert.Equal(t, r[0], x.EnAttente()[0])

	b.corr.echec = nil
	require.NoError(t, b.app.AppliquerDecision(ctx, command.AppliquerDecision{Tournoi: "t1", Appel: "a1"}))
	assert.Len(t, b.corr.decisions, 1)
	err = b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}})
	assert.ErrorIs(t, err, appel.ErrAppealAlreadyDecided)
	x, err = query.Reconstruire(ctx, b.store, b.reg)
	require.NoError(t, err)
	assert.Empty(t, x.EnAttente())
}

// Item 1 of issue 11: the object of an appeal comes from the stored facts.
// The tournament is the game's, the table the player's registration; a
// client's tournament or table that differs is refused, an unknown game,
// tournament, player or table is NOT_FOUND, and nothing is recorded.
func TestSecurite_DeposerAppelDeriveDesFaits(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		objet appel.Objet
		code  appel.Code
		situe appel.Objet
	}{
		{"tournoi et table tirés de la partie et de l'inscription", appel.Objet{Partie: "p1", Coup: 4, Licence: "J02"}, "",
			appel.Objet{Tournoi: "t1", Partie: "p1", Coup: 4, Licence: "J02", Table: 2}},
		{"tournoi et table exacts", appel.Objet{Tournoi: "t1", Partie: "p1", Coup: 4, Licence: "J02", Table: 2}, "",
			appel.Objet{Tournoi: "t1", Partie: "p1", Coup: 4, Licence: "J02", Table: 2}},
		{"table d'un tournoi", appel.Objet{Tournoi: "t1", Partie: "p1", Table: 1}, "", appel.Objet{Tournoi: "t1", Partie: "p1", Table: 1}},
		{"tournoi seul", appel.Objet{Tournoi: "t2"}, "", appel.Objet{Tournoi: "t2"}},
		{"partie d'un autre tournoi", appel.Objet{Tournoi: "t2", Partie: "p1", Coup: 4, Licence: "J02"}, appel.CodeInvalidAppeal, appel.Objet{}},
		{"table mentie", appel.Objet{Partie: "p1", Coup: 4, Licence: "J02", Table: 1}, appel.CodeInvalidAppeal, appel.Objet{}},
		{"partie inconnue", appel.Objet{Tournoi: "t1", Partie: "p9", Coup: 4, Licence: "J02"}, appel.CodeNotFound, appel.Objet{}},
		{"tournoi inconnu", appel.Objet{Tournoi: "t9"}, appel.CodeNotFound, appel.Objet{}},
		{"joueur absent de la partie", appel.Objet{Partie: "p1", Coup: 4, Licence: "J99"}, appel.CodeNotFound, appel.Objet{}},
		{"table sans joueur", appel.Objet{Tournoi: "t1", Partie: "p1", Table: 7}, appel.CodeNotFound, appel.Objet{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := nouveauBanc(t)
			err := b.app.DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: tt.objet,
				Requerant: appel.Requerant{Identite: "J02", Qualite: appel.QualiteJoueur}, Motif: "mot valide", Demandee: demandee}})
			assert.Equal(t, tt.code, erreur.CodeOf(err), "%v", err)
			if tt.code != "" {
				for _, tournoi := range []string{"t1", "t2"} {
					_, err := query.NewLecteur(b.store, b.reg).Appel(ctx, tournoi, "a1")
					assert.ErrorIs(t, err, appel.ErrAppealNotFound, "nothing is recorded")
				}
				return
			}
			v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, tt.situe.Tournoi, "a1")
			require.NoError(t, err)
			assert.Equal(t, tt.situe, v.Objet)
		})
	}
}

// Two writers load the same revision; the second to save gets the typed
// conflict with the current revision, and nothing of his is written.
func TestConflit_DeuxEcrivains(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	b.deposer(t, "a1", bulletin)
	require.NoError(t, b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "PRES", Membres: membres}))

	premier, err := b.depot.Charger(ctx, "t1", "a1")
	require.NoError(t, err)
	second, err := b.depot.Charger(ctx, "t1", "a1")
	require.NoError(t, err)
	require.NoError(t, premier.Voter("M2", appel.IssueAccueilli))
	require.NoError(t, second.Voter("M3", appel.IssueRejete))
	require.NoError(t, b.depot.Enregistrer(ctx, premier, eventstore.Metadata{Actor: "M2"}))
	err = b.depot.Enregistrer(ctx, second, eventstore.Metadata{Actor: "M3"})
	assert.Equal(t, appel.CodeConflict, erreur.CodeOf(err))
	var conflit *eventstore.ConflictError
	require.ErrorAs(t, err, &conflit)
	assert.Equal(t, uint64(2), conflit.Current)

	v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, "t1", "a1")
	require.NoError(t, err)
	assert.Equal(t, []appel.Vote{{Membre: "M2", Issue: appel.IssueAccueilli}}, v.Niveaux[0].Votes)

	t.Run("révision périmée donnée par le client", func(t *testing.T) {
		stale := uint64(1)
		err := b.app.Voter(ctx, command.Voter{Tournoi: "t1", Appel: "a1", Membre: "M3", Issue: appel.IssueRejete, Revision: &stale})
		assert.ErrorIs(t, err, appel.ErrConflict)
		require.ErrorAs(t, err, &conflit)
		assert.Equal(t, uint64(2), conflit.Current)
		courante := v.Revision
		require.NoError(t, b.app.Voter(ctx, command.Voter{Tournoi: "t1", Appel: "a1", Membre: "M3", Issue: appel.IssueRejete, Revision: &courante}))
	})
}

// Many members voting at once on the same revision: exactly one wins.
func TestConflit_UnSeulGagnant(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	b.deposer(t, "a1", bulletin)
	ms := []string{"PRES", "M2", "M3", "M4", "M5", "M6", "M7"}
	require.NoError(t, b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "PRES", Membres: ms}))
	rev := uint64(1)
	var wg sync.WaitGroup
	errs := make([]error, len(ms))
	for i, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.app.Voter(ctx, command.Voter{Tournoi: "t1", Appel: "a1", Membre: m, Issue: appel.IssueRejete, Revision: &rev})
		}()
	}
	wg.Wait()
	gagnants := 0
	for _, err := range errs {
		if err == nil {
			gagnants++
			continue
		}
		assert.ErrorIs(t, err, appel.ErrConflict)
	}
	assert.Equal(t, 1, gagnants)
	v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, "t1", "a1")
	require.NoError(t, err)
	assert.Len(t, v.Niveaux[0].Votes, 1)
}

func TestRefus_NeChangeRien(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	assert.ErrorIs(t, b.app.Voter(ctx, command.Voter{Tournoi: "t1", Appel: "absent", Membre: "M2", Issue: appel.IssueRejete}), appel.ErrAppealNotFound)
	b.deposer(t, "a1", bulletin)
	err := b.app.DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: bulletin,
		Requerant: appel.Requerant{Identite: "J02", Qualite: appel.QualiteJoueur}, Motif: "x"}})
	assert.Equal(t, appel.CodeAlreadyExists, erreur.CodeOf(err), "filing twice under one id is refused")
	assert.NotErrorIs(t, err, eventstore.ErrConflict, "without the existing appeal's revision (ids are global: issue 28 item 10)")
	tests := []struct {
		name string
		f    func() error
		code appel.Code
	}{
		{"vote avant composition", func() error {
			return b.app.Voter(ctx, command.Voter{Tournoi: "t1", Appel: "a1", Membre: "M2", Issue: appel.IssueRejete})
		}, appel.CodeCommissionNotComposed},
		{"commission de deux", func() error {
			return b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "PRES", Membres: []string{"PRES", "M2"}})
		}, appel.CodeInvalidCommission},
		{"recours FISF avant décision (§6.4.2.a)", func() error {
			return b.app.FormerRecoursFISF(ctx, command.FormerRecoursFISF{Tournoi: "t1", Appel: "a1", RecoursFISF: appel.RecoursFISF{
				Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "x", TransmisPar: "PRES"}})
		}, appel.CodeAppealNotDecided},
		{"pièces au premier niveau (§6.4.2.c)", func() error {
			return b.app.DemanderPieces(ctx, command.DemanderPieces{Tournoi: "t1", Appel: "a1", Pieces: "grille"})
		}, appel.CodeInvalidAppeal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			avant, err := eventstore.ReadWholeStream(ctx, b.store, "appel-a1")
			require.NoError(t, err)
			assert.Equal(t, tt.code, erreur.CodeOf(tt.f()))
			apres, err := eventstore.ReadWholeStream(ctx, b.store, "appel-a1")
			require.NoError(t, err)
			assert.Equal(t, avant, apres)
		})
	}
}

// §6.4.2: the FISF level through the handlers, with its documents
// (§6.4.2.c) dated by the injected clock.
func TestRecoursFISF_Paragraphe6_4_2(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	b.deposer(t, "a1", bulletin)
	b.examiner(t, "a1", appel.IssueRejete)
	require.NoError(t, b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueRejete, Motivation: "non admis"}}))
	require.NoError(t, b.app.FormerRecoursFISF(ctx, command.FormerRecoursFISF{Tournoi: "t1", Appel: "a1", RecoursFISF: appel.RecoursFISF{
		Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "désaccord", TransmisPar: "PRES"}}))
	fisf := []string{"CR", "RT", "BA", "F1", "F2"}
	require.NoError(t, b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "CR", Membres: fisf}))
	require.NoError(t, b.app.DemanderPieces(ctx, command.DemanderPieces{Tournoi: "t1", Appel: "a1", Pieces: "grille"}))
	b.h.Advance(13 * 24 * time.Hour)
	assert.ErrorIs(t, b.app.Classer(ctx, command.Classer{Tournoi: "t1", Appel: "a1"}), appel.ErrDeadlineRunning)
	require.NoError(t, b.app.CompleterDossier(ctx, command.CompleterDossier{Tournoi: "t1", Appel: "a1"}))
	for _, m := range fisf {
		require.NoError(t, b.app.Voter(ctx, command.Voter{Tournoi: "t1", Appel: "a1", Membre: m, Issue: appel.IssueAccueilli}))
	}
	require.NoError(t, b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "admis"}}))
	require.Len(t, b.corr.decisions, 1)
	assert.Equal(t, appel.InstanceRecoursFISF, b.corr.decisions[0].Instance)
	assert.Equal(t, *demandee, b.corr.decisions[0].Decision)
	assert.Equal(t, "JA", b.corr.md[0].Actor, "the acting token signs")
	assert.Equal(t, "appel-2-t1-a1/niveau-2", b.corr.md[0].CausationID)
}

// TestAppel_Paragraphe6_4_2_c_HorlogeQuiSaute: « deux semaines pour
// compléter le dossier » (§6.4.2.c) is a real length of time: the server's
// clock set forward neither classes the dossier early nor refuses the
// documents, set back it neither keeps the deadline running nor accepts
// them late. After a restart (a new clock) the request's reading cannot be
// compared: the wall clock measures.
func TestAppel_Paragraphe6_4_2_c_HorlogeQuiSaute(t *testing.T) {
	tests := []struct {
		name        string
		passe       func(h *eventstoretest.ManualClock)
		redemarrage bool
		echue       bool // two weeks have passed: Classer is accepted, CompleterDossier refused
	}{
		{"13 jours, l'horloge avance de deux jours : le délai court", func(h *eventstoretest.ManualClock) {
			h.Advance(13 * 24 * time.Hour)
			h.Jump(48 * time.Hour)
		}, false, false},
		{"15 jours, l'horloge recule de deux jours : le délai est échu", func(h *eventstoretest.ManualClock) {
			h.Advance(15 * 24 * time.Hour)
			h.Jump(-48 * time.Hour)
		}, false, true},
		{"redémarrage, 15 jours à l'horloge murale : le délai est échu", func(h *eventstoretest.ManualClock) {
			h.Advance(15 * 24 * time.Hour)
		}, true, true},
		{"redémarrage, 13 jours à l'horloge murale : le délai court", func(h *eventstoretest.ManualClock) {
			h.Advance(13 * 24 * time.Hour)
		}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			b := nouveauBanc(t)
			b.deposer(t, "a1", bulletin)
			b.examiner(t, "a1", appel.IssueRejete)
			require.NoError(t, b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueRejete, Motivation: "non admis"}}))
			require.NoError(t, b.app.FormerRecoursFISF(ctx, command.FormerRecoursFISF{Tournoi: "t1", Appel: "a1", RecoursFISF: appel.RecoursFISF{
				Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "désaccord", TransmisPar: "PRES"}}))
			require.NoError(t, b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "CR", Membres: []string{"CR", "RT", "BA", "F1", "F2"}}))
			require.NoError(t, b.app.DemanderPieces(ctx, command.DemanderPieces{Tournoi: "t1", Appel: "a1", Pieces: "grille"}))
			tt.passe(b.h)
			app := b.app
			if tt.redemarrage {
				app = command.New(b.depot, faits{}, b.corr, eventstoretest.NewManualClock(b.h.Now()), eventstore.Metadata{Actor: "JA", Role: "directeur"})
			}
			if tt.echue {
				assert.Equal(t, appel.CodeDeadlinePassed, erreur.CodeOf(app.CompleterDossier(ctx, command.CompleterDossier{Tournoi: "t1", Appel: "a1"})))
				assert.NoError(t, app.Classer(ctx, command.Classer{Tournoi: "t1", Appel: "a1"}))
				return
			}
			assert.Equal(t, appel.CodeDeadlineRunning, erreur.CodeOf(app.Classer(ctx, command.Classer{Tournoi: "t1", Appel: "a1"})))
			assert.NoError(t, app.CompleterDossier(ctx, command.CompleterDossier{Tournoi: "t1", Appel: "a1"}))
		})
	}
}

func TestQuery_HistoriqueEtListes(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	b.deposer(t, "a1", bulletin)
	b.h.Advance(time.Minute)
	b.deposer(t, "a2", appel.Objet{Tournoi: "t1", Partie: "p2", Coup: 1, Licence: "J01"})
	b.deposer(t, "a3", appel.Objet{Tournoi: "t2"})
	b.examiner(t, "a1", appel.IssueAccueilli)
	require.NoError(t, b.app.Par(eventstore.Metadata{Actor: "PRES", Role: "commission"}).Decider(ctx,
		command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}}))

	v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, "t1", "a1")
	require.NoError(t, err)
	type qui struct {
		Type, Acteur string
		Quand        time.Time
	}
	var h []qui
	for _, e := range v.Historique {
		h = append(h, qui{e.Type, e.Acteur, e.Quand})
	}
	assert.Equal(t, []qui{
		{appel.TypeAppelDepose, "J01", t0},
		{appel.TypeCommissionComposee, "JA", t0.Add(time.Minute)},
		{appel.TypeVoteEmis, "PRES", t0.Add(2 * time.Minute)},
		{appel.TypeVoteEmis, "M2", t0.Add(3 * time.Minute)},
		{appel.TypeVoteEmis, "M3", t0.Add(4 * time.Minute)},
		{appel.TypeDecisionRendue, "PRES", t0.Add(4 * time.Minute)},
		{appel.TypeDecisionAppliquee, "PRES", t0.Add(4 * time.Minute)},
	}, h)
	assert.Equal(t, "req-a1", v.Historique[0].Correlation)
	assert.Equal(t, uint64(6), v.Revision)
	assert.Equal(t, demandee, v.DecisionEnVigueur)
	_, err = query.NewLecteur(b.store, b.reg).Appel(ctx, "t1", "absent")
	assert.ErrorIs(t, err, appel.ErrAppealNotFound)

	x, err := query.Reconstruire(ctx, b.store, b.reg)
	require.NoError(t, err)
	ids := func(rs []query.Resume) (out []string) {
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	assert.Equal(t, []string{"a1", "a2"}, ids(x.ParTournoi("t1")))
	assert.Equal(t, []string{"a3"}, ids(x.ParTournoi("t2")))
	assert.Equal(t, []string{"a2"}, ids(x.ParPartie("p2")))
	r := x.ParPartie("p1")[0]
	assert.Equal(t, appel.IssueAccueilli, r.Issue)
	assert.False(t, r.AAppliquer)
	assert.Equal(t, appel.StatutDepose, x.ParPartie("p2")[0].Statut)
}

// TestArt6_3_EcheanceDuRecours: an appeal is filed before the next game of
// the competition starts or, failing that, at the latest 15 minutes after
// its last game (§6.3). The deadline is derived from the stored games
// (first tirage, end), never from the client: the Echeance it sends is
// ignored both ways.
func TestArt6_3_EcheanceDuRecours(t *testing.T) {
	var zero time.Time
	p1Finie := appel.Horaire{Partie: "p1", Debut: t0.Add(-3 * time.Hour), Fin: eventstore.Instant{Wall: t0.Add(-2 * time.Hour)}}
	p2 := func(debut, fin time.Time) []appel.Horaire {
		return []appel.Horaire{p1Finie, {Partie: "p2", Debut: debut, Fin: eventstore.Instant{Wall: fin}}}
	}
	sansPartie := appel.Objet{Tournoi: "t1"}
	surP2 := appel.Objet{Partie: "p2", Coup: 4, Licence: "J01"}
	tests := []struct {
		name     string
		horaires []appel.Horaire
		objet    appel.Objet
		client   time.Time // the Echeance the client sends
		code     appel.Code
	}{
		{"partie suivante commencée : trop tard", p2(t0.Add(-time.Second), zero), bulletin, t0.Add(time.Hour), appel.CodeDeadlinePassed},
		{"partie suivante pas encore tirée : recevable", p2(zero, zero), bulletin, t0.Add(-time.Hour), ""},
		{"partie suivante tirée à l'instant même : trop tard, son tirage est là", p2(t0, zero), bulletin, zero, appel.CodeDeadlinePassed},
		{"une partie plus loin commencée : trop tard", append(p2(zero, zero), appel.Horaire{Partie: "p3", Debut: t0.Add(-time.Minute)}), bulletin, zero, appel.CodeDeadlinePassed},
		{"dernière partie finie il y a 15 minutes : recevable", p2(t0.Add(-time.Hour), t0.Add(-15*time.Minute)), surP2, zero, ""},
		{"dernière partie finie il y a 15 minutes et 1 seconde : trop tard", p2(t0.Add(-time.Hour), t0.Add(-15*time.Minute-time.Second)), surP2, t0.Add(time.Hour), appel.CodeDeadlinePassed},
		{"dernière partie en cours : recevable", p2(t0.Add(-time.Hour), zero), surP2, zero, ""},
		{"recours sur le tournoi après la dernière partie : trop tard", p2(t0.Add(-time.Hour), t0.Add(-16*time.Minute)), sansPartie, zero, appel.CodeDeadlinePassed},
		{"recours sur le tournoi pendant la compétition : recevable", p2(t0.Add(-time.Hour), zero), sansPartie, t0.Add(-time.Hour), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := nouveauBanc(t)
			app := command.New(b.depot, faits{horaires: tt.horaires}, b.corr, b.h, eventstore.Metadata{Actor: "J01", Role: "joueur"})
			err := app.DeposerAppel(context.Background(), command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: tt.objet,
				Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "mot valide",
				Contestee: contestee, Demandee: demandee, Echeance: jusqua(tt.client)}})
			_, lu := b.depot.Charger(context.Background(), "t1", "a1")
			if tt.code == "" {
				require.NoError(t, err)
				assert.NoError(t, lu)
				return
			}
			assert.Equal(t, tt.code, erreur.CodeOf(err))
			assert.Equal(t, appel.CodeAppealNotFound, erreur.CodeOf(lu), "nothing written")
		})
	}
}

// TestSecurite_AppelDeposeAvantLesIdentifiantsParTournoi (issue 28 item
// 10): an appeal stored while ids were global, in "appel-<id>", still loads
// for its tournament, and its commission's commands, its decision's cause
// and the restart's recovery go on in that stream; to another tournament
// the id is free: its own appeal a1 goes to that tournament's stream, and
// each tournament lists its own.
func TestSecurite_AppelDeposeAvantLesIdentifiantsParTournoi(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	ancien := appel.Nouveau()
	require.NoError(t, ancien.Deposer(appel.Saisine{Appel: "a1", Objet: appel.Objet{Tournoi: "t1", Partie: "p1", Coup: 4, Licence: "J01", Table: 1},
		Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "mot valide", Contestee: contestee, Demandee: demandee}, eventstore.Instant{Wall: t0}))
	require.NoError(t, repository.Streams{Store: b.store, Registry: b.reg}.Save(ctx, "appel-a1", 0, ancien.Pending(),
		eventstore.Metadata{Actor: "J01", Role: "joueur"}), "written as the store did before")

	lu, err := b.depot.Charger(ctx, "t1", "a1")
	require.NoError(t, err)
	assert.Equal(t, "appel-a1", lu.Flux())
	_, err = b.depot.Charger(ctx, "t2", "a1")
	assert.Equal(t, appel.Inconnu("a1"), err, "another tournament's a1 is an id nobody used")
	err = b.app.DeposerAppel(ctx, command.DeposerAppel{Saisine: appel.Saisine{Appel: "a1", Objet: bulletin,
		Requerant: appel.Requerant{Identite: "J02", Qualite: appel.QualiteJoueur}, Motif: "mot valide"}})
	assert.Equal(t, appel.CodeAlreadyExists, erreur.CodeOf(err), "t1's a1 is taken in t1")
	b.deposer(t, "a1", appel.Objet{Tournoi: "t2"})

	b.examiner(t, "a1", appel.IssueAccueilli)
	b.corr.echec = errors.New("partie indisponible")
	err = b.app.Decider(ctx, command.Decider{Tournoi: "t1", Appel: "a1", Deliberation: appel.Deliberation{Issue: appel.IssueAccueilli, Motivation: "ODS8"}})
	assert.Equal(t, appel.CodeDecisionNotApplied, erreur.CodeOf(err))
	b.corr.echec = nil
	require.NoError(t, command.Reprendre(ctx, b.store, b.reg, b.app))
	require.Len(t, b.corr.decisions, 1, "the recovery carries t1's decision")
	assert.Equal(t, "appel-a1/niveau-1", b.corr.md[0].CausationID)
	assert.Equal(t, "t1", b.corr.decisions[0].Tournoi)

	for _, tt := range []struct {
		tournoi, flux string
		types         []string
	}{
		{"t1", "appel-a1", []string{appel.TypeAppelDepose, appel.TypeCommissionComposee, appel.TypeVoteEmis, appel.TypeVoteEmis,
			appel.TypeVoteEmis, appel.TypeDecisionRendue, appel.TypeDecisionAppliquee}},
		{"t2", "appel-2-t2-a1", []string{appel.TypeAppelDepose}},
	} {
		evts, err := eventstore.ReadWholeStream(ctx, b.store, tt.flux)
		require.NoError(t, err)
		var types []string
		for _, e := range evts {
			types = append(types, e.Type)
		}
		assert.Equal(t, tt.types, types, tt.flux)
		v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, tt.tournoi, "a1")
		require.NoError(t, err)
		assert.Equal(t, tt.tournoi, v.Objet.Tournoi)
		assert.Len(t, v.Historique, len(tt.types))
	}
	x, err := query.Reconstruire(ctx, b.store, b.reg)
	require.NoError(t, err)
	for _, tournoi := range []string{"t1", "t2"} {
		r := x.ParTournoi(tournoi)
		require.Len(t, r, 1, tournoi)
		assert.Equal(t, "a1", r[0].ID)
		assert.Equal(t, tournoi, r[0].Objet.Tournoi)
	}
	assert.Empty(t, x.EnAttente())
}

// A client's revision is the envelope's version of the appeal's own
// stream: for an appeal filed while ids were global, the old stream's, not
// the empty stream of its tournament read first.
func TestConflit_RevisionDUnAppelDeposeAvantLesIdentifiantsParTournoi(t *testing.T) {
	ctx := context.Background()
	b := nouveauBanc(t)
	ancien := appel.Nouveau()
	require.NoError(t, ancien.Deposer(appel.Saisine{Appel: "a1", Objet: bulletin,
		Requerant: appel.Requerant{Identite: "J01", Qualite: appel.QualiteJoueur}, Motif: "mot valide", Contestee: contestee, Demandee: demandee}, eventstore.Instant{Wall: t0}))
	require.NoError(t, repository.Streams{Store: b.store, Registry: b.reg}.Save(ctx, "appel-a1", 0, ancien.Pending(),
		eventstore.Metadata{Actor: "J01", Role: "joueur"}))

	stale, courante := uint64(1), uint64(0)
	err := b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "PRES", Membres: membres, Revision: &stale})
	assert.ErrorIs(t, err, appel.ErrConflict)
	require.NoError(t, b.app.ComposerCommission(ctx, command.ComposerCommission{Tournoi: "t1", Appel: "a1", President: "PRES", Membres: membres, Revision: &courante}))
	v, err := query.NewLecteur(b.store, b.reg).Appel(ctx, "t1", "a1")
	require.NoError(t, err)
	assert.Equal(t, uint64(1), v.Revision)
}
