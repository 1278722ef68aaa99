package appel

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/erreur"
	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

var t0 = time.Date(2024, 5, 11, 14, 0, 0, 0, time.UTC)

var (
	// contestee: the arbiter gave a zéro for a word not admitted (§5.7).
	contestee = &correction.Decision{Paid: 0, Sanction: correction.Zero, Reasons: []correction.Reason{correction.WordNotAdmitted}, Billet: true}
	// demandee: the player asks for the word's 24 points.
	demandee = &correction.Decision{Paid: 24, Sanction: correction.None}
	// amendee: the commission's own decision, an avertissement (§5.5).
	amendee = &correction.Decision{Paid: 24, Sanction: correction.Warning, Reasons: []correction.Reason{correction.ScoreWrong}}

	membres = []string{"PRES", "M2", "M3", "M4", "M5"}
)

func saisine() Saisine {
	return Saisine{Appel: "a1", Objet: Objet{Tournoi: "t1", Partie: "p1", Coup: 3, Licence: "J01", Table: 12},
		Requerant: Requerant{Identite: "J01", Qualite: QualiteJoueur}, Motif: "le mot est valide dans l'ODS",
		Contestee: contestee, Demandee: demandee, Echeance: &Echeance{Depuis: instant(t0), Delai: time.Hour}}
}

// instant is a reading of a clock without a monotonic one: lengths are
// read on the wall clock.
func instant(t time.Time) eventstore.Instant { return eventstore.Instant{Wall: t} }

func depose(t *testing.T) *Appel {
	t.Helper()
	a := Nouveau()
	require.NoError(t, a.Deposer(saisine(), instant(t0)))
	return a
}

func compose(t *testing.T) *Appel {
	t.Helper()
	a := depose(t)
	require.NoError(t, a.ComposerCommission("PRES", membres))
	return a
}

// voter casts votes in the order of the members.
func voter(t *testing.T, a *Appel, issues ...Issue) {
	t.Helper()
	ms := a.Niveaux()[len(a.Niveaux())-1].Membres
	for i, is := range issues {
		require.NoError(t, a.Voter(ms[i], is))
	}
}

func decide(t *testing.T, issue Issue, d *correction.Decision) *Appel {
	t.Helper()
	a := compose(t)
	voter(t, a, issue, issue, issue, IssueRejete, IssueRejete)
	require.NoError(t, a.Decider(Deliberation{Issue: issue, Decision: d, Motivation: "motivée"}, t0.Add(time.Hour)))
	return a
}

// refuse checks a refused command: its code, and that it recorded nothing.
func refuse(t *testing.T, a *Appel, code Code, f func() error) {
	t.Helper()
	version, niveaux, n := a.Version(), a.Niveaux(), len(a.Pending())
	err := f()
	require.Error(t, err)
	assert.Equal(t, code, erreur.CodeOf(err), "%v", err)
	assert.ErrorIs(t, err, &erreur.Erreur{Code: code})
	assert.Equal(t, version, a.Version(), "un refus n'enregistre rien")
	assert.Len(t, a.Pending(), n)
	assert.Equal(t, niveaux, a.Niveaux())
}

// §6.3: deadline before the next game or 15 minutes after the last one.
func TestEcheanceRecours_Paragraphe6_3(t *testing.T) {
	suivante, derniere := t0.Add(2*time.Hour), instant(t0.Add(time.Hour))
	tests := []struct {
		name     string
		suivante time.Time
		derniere eventstore.Instant
		want     Echeance
		ok       bool
		date     time.Time
	}{
		{"partie suivante commencée", suivante, derniere, Echeance{Depuis: instant(suivante), PartieSuivante: true}, true, suivante},
		{"dernière partie : 15 minutes après", time.Time{}, derniere, Echeance{Depuis: derniere, Delai: 15 * time.Minute}, true, t0.Add(75 * time.Minute)},
		{"rien de connu : pas d'échéance", time.Time{}, eventstore.Instant{}, Echeance{}, false, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := EcheanceRecours(tt.suivante, tt.derniere)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
			if ok {
				assert.Equal(t, tt.date, got.Date())
			}
		})
	}
}

func TestDeposer_Paragraphe6_3(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(s *Saisine)
		quand time.Time
		code  Code
	}{
		{"joueur lésé, avant l'échéance", func(*Saisine) {}, t0, ""},
		{"arbitre saisissant la commission (§6.3)", func(s *Saisine) { s.Requerant = Requerant{Identite: "ARB7", Qualite: QualiteArbitre} }, t0, ""},
		{"à l'échéance exacte", func(*Saisine) {}, t0.Add(time.Hour), ""},
		{"sans échéance connue", func(s *Saisine) { s.Echeance = nil }, t0.Add(48 * time.Hour), ""},
		{"recours sur le tournoi seul", func(s *Saisine) { s.Objet = Objet{Tournoi: "t1"}; s.Contestee, s.Demandee = nil, nil }, t0, ""},
		{"après l'échéance (§6.3)", func(*Saisine) {}, t0.Add(time.Hour + time.Second), CodeDeadlinePassed},
		{"sans motif", func(s *Saisine) { s.Motif = "" }, t0, CodeInvalidAppeal},
		{"identifiant invalide", func(s *Saisine) { s.Appel = "a 1" }, t0, CodeInvalidAppeal},
		{"sans tournoi", func(s *Saisine) { s.Objet.Tournoi = "" }, t0, CodeInvalidAppeal},
		{"coup sans partie", func(s *Saisine) { s.Objet.Partie = "" }, t0, CodeInvalidAppeal},
		{"coup négatif", func(s *Saisine) { s.Objet.Coup = -1 }, t0, CodeInvalidAppeal},
		{"requérant anonyme", func(s *Saisine) { s.Requerant.Identite = "" }, t0, CodeInvalidAppeal},
		{"qualité inconnue (ni joueur ni arbitre, §6.3)", func(s *Saisine) { s.Requerant.Qualite = "spectateur" }, t0, CodeInvalidAppeal},
		{"sanction inconnue", func(s *Saisine) { s.Demandee = &correction.Decision{Sanction: "amende"} }, t0, CodeInvalidAppeal},
		{"nullité avec des points (§5.7)", func(s *Saisine) { s.Contestee = &correction.Decision{Sanction: correction.Zero, Paid: 3} }, t0, CodeInvalidAppeal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := saisine()
			tt.edit(&s)
			a := Nouveau()
			if tt.code != "" {
				refuse(t, a, tt.code, func() error { return a.Deposer(s, instant(tt.quand)) })
				return
			}
			require.NoError(t, a.Deposer(s, instant(tt.quand)))
			assert.Equal(t, StatutDepose, a.Statut())
			assert.Equal(t, 1, a.Version())
			assert.Equal(t, tt.quand, a.DeposeLe())
			n := a.Niveaux()
			require.Len(t, n, 1)
			assert.Equal(t, InstanceCommissionArbitrage, n[0].Instance)
			assert.Equal(t, s.Requerant, n[0].Requerant)
		})
	}
	a := depose(t)
	refuse(t, a, CodeAppealAlreadyFiled, func() error { return a.Deposer(saisine(), instant(t0)) })
}

func TestComposerCommission_Paragraphe6_4_1(t *testing.T) {
	tests := []struct {
		name      string
		president string
		membres   []string
		code      Code
	}{
		{"président et quatre membres (guide §3.8.2, France)", "PRES", membres, ""},
		{"trois membres (guide §3.8.2, Suisse)", "PRES", []string{"PRES", "M2", "M3"}, ""},
		{"deux membres", "PRES", []string{"PRES", "M2"}, CodeInvalidCommission},
		{"membre en double", "PRES", []string{"PRES", "M2", "M2"}, CodeInvalidCommission},
		{"membre vide", "PRES", []string{"PRES", "M2", ""}, CodeInvalidCommission},
		{"président hors de la commission", "X", membres, CodeInvalidCommission},
		{"joueur objet du litige (guide §3.8.1.A)", "PRES", []string{"PRES", "M2", "J01"}, CodeMemberInvolved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := depose(t)
			if tt.code != "" {
				refuse(t, a, tt.code, func() error { return a.ComposerCommission(tt.president, tt.membres) })
				return
			}
			require.NoError(t, a.ComposerCommission(tt.president, tt.membres))
			assert.Equal(t, StatutEnExamen, a.Statut())
			assert.Equal(t, tt.membres, a.Niveaux()[0].Membres)
			refuse(t, a, CodeCommissionAlreadyComposed, func() error { return a.ComposerCommission(tt.president, tt.membres) })
		})
	}
	t.Run("l'arbitre requérant ne siège pas (guide §3.8.1.A)", func(t *testing.T) {
		a := Nouveau()
		s := saisine()
		s.Requerant = Requerant{Identite: "ARB7", Qualite: QualiteArbitre}
		require.NoError(t, a.Deposer(s, instant(t0)))
		refuse(t, a, CodeMemberInvolved, func() error { return a.ComposerCommission("PRES", []string{"PRES", "M2", "ARB7"}) })
	})
	t.Run("avant dépôt", func(t *testing.T) {
		a := Nouveau()
		refuse(t, a, CodeAppealNotFound, func() error { return a.ComposerCommission("PRES", membres) })
	})
}

func TestVoter_SeulsLesMembres(t *testing.T) {
	a := depose(t)
	refuse(t, a, CodeCommissionNotComposed, func() error { return a.Voter("PRES", IssueRejete) })
	require.NoError(t, a.ComposerCommission("PRES", membres))
	refuse(t, a, CodeNotAMember, func() error { return a.Voter("INTRUS", IssueRejete) })
	refuse(t, a, CodeInvalidAppeal, func() error { return a.Voter("M2", "abstention") })
	require.NoError(t, a.Voter("M2", IssueAccueilli))
	refuse(t, a, CodeVoteAlreadyCast, func() error { return a.Voter("M2", IssueRejete) })
	assert.Equal(t, []Vote{{Membre: "M2", Issue: IssueAccueilli}}, a.Niveaux()[0].Votes)

	sans := Nouveau()
	s := saisine()
	s.Demandee = nil
	require.NoError(t, sans.Deposer(s, instant(t0)))
	require.NoError(t, sans.ComposerCommission("PRES", membres))
	refuse(t, sans, CodeInvalidAppeal, func() error { return sans.Voter("M2", IssueAccueilli) })
}

// Guide §3.8.1.A: simple majority; a tie goes to the président's vote (a
// rule of Arbitre, the texts being silent).
func TestMajorite_Guide3_8_1_A(t *testing.T) {
	A, R, M := IssueAccueilli, IssueRejete, IssueAmende
	votes := func(is ...Issue) []Vote {
		out := make([]Vote, len(is))
		for i, x := range is {
			out[i] = Vote{Membre: []string{"PRES", "M2", "M3", "M4", "M5"}[i], Issue: x}
		}
		return out
	}
	tests := []struct {
		name      string
		votes     []Vote
		want      Issue
		departage bool
		code      Code
	}{
		{"unanimité", votes(R, R, R, R, R), R, false, ""},
		{"trois contre deux", votes(A, A, R, R, A), A, false, ""},
		{"2-2-1, président dans l'égalité", votes(M, M, A, A, R), M, true, ""},
		{"quatre membres, 2-2 : voix du président", votes(R, A, A, R), R, true, ""},
		{"2-2-1, président seul : pas de majorité", votes(R, A, A, M, M), "", false, CodeNoMajority},
		{"président minoritaire", votes(R, A, A, A, R), A, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dep, err := Majorite(tt.votes, "PRES")
			if tt.code != "" {
				assert.Equal(t, tt.code, erreur.CodeOf(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.departage, dep)
		})
	}
}

func TestDecider_Invariants(t *testing.T) {
	A, R, M := IssueAccueilli, IssueRejete, IssueAmende
	tests := []struct {
		name  string
		votes []Issue
		d     Deliberation
		code  Code
	}{
		{"accueilli à la majorité", []Issue{A, A, A, R, R}, Deliberation{Issue: A, Motivation: "ODS8"}, ""},
		{"rejeté à l'unanimité", []Issue{R, R, R, R, R}, Deliberation{Issue: R, Motivation: "mot non admis"}, ""},
		{"amendé, président départageant", []Issue{M, M, A, A, R}, Deliberation{Issue: M, Decision: amendee, Motivation: "avertissement"}, ""},
		{"votes incomplets (guide §3.8 : tous présents)", []Issue{A, A, A}, Deliberation{Issue: A, Motivation: "x"}, CodeVotesIncomplete},
		{"la décision contredit la majorité", []Issue{A, A, A, R, R}, Deliberation{Issue: R, Motivation: "x"}, CodeMajorityMismatch},
		{"sans majorité", []Issue{R, A, A, M, M}, Deliberation{Issue: A, Motivation: "x"}, CodeNoMajority},
		{"sans motivation", []Issue{A, A, A, R, R}, Deliberation{Issue: A}, CodeInvalidAppeal},
		{"amendé sans décision", []Issue{M, M, M, R, R}, Deliberation{Issue: M, Motivation: "x"}, CodeInvalidAppeal},
		{"accueilli avec une autre décision", []Issue{A, A, A, R, R}, Deliberation{Issue: A, Decision: amendee, Motivation: "x"}, CodeInvalidAppeal},
		{"issue inconnue", []Issue{A, A, A, R, R}, Deliberation{Issue: "casse", Motivation: "x"}, CodeInvalidAppeal},
		{"décision amendée invalide", []Issue{M, M, M, R, R}, Deliberation{Issue: M, Decision: &correction.Decision{Sanction: correction.Zero, Paid: 9}, Motivation: "x"}, CodeInvalidAppeal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := compose(t)
			voter(t, a, tt.votes...)
			if tt.code != "" {
				refuse(t, a, tt.code, func() error { return a.Decider(tt.d, t0) })
				return
			}
			require.NoError(t, a.Decider(tt.d, t0))
			assert.Equal(t, StatutDecide, a.Statut())
			d := a.Niveaux()[0].Decision
			require.NotNil(t, d)
			assert.Equal(t, tt.d.Issue, d.Issue)
			assert.Equal(t, "PRES", d.President)
			assert.Len(t, d.Votes, len(membres))
			assert.Equal(t, tt.d.Motivation, d.Motivation)
		})
	}
	t.Run("avant dépôt", func(t *testing.T) {
		a := Nouveau()
		refuse(t, a, CodeAppealNotFound, func() error { return a.Decider(Deliberation{Issue: R, Motivation: "x"}, t0) })
	})
	t.Run("avant composition (§6.4.1)", func(t *testing.T) {
		a := depose(t)
		refuse(t, a, CodeCommissionNotComposed, func() error { return a.Decider(Deliberation{Issue: R, Motivation: "x"}, t0) })
	})
}

func TestDecisionEnVigueur(t *testing.T) {
	tests := []struct {
		name  string
		issue Issue
		d     *correction.Decision
		want  *correction.Decision
	}{
		{"accueilli : la décision demandée", IssueAccueilli, nil, demandee},
		{"amendé : la décision de la commission", IssueAmende, amendee, amendee},
		{"rejeté : la décision contestée demeure", IssueRejete, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := decide(t, tt.issue, tt.d)
			got, niveau := a.DecisionEnVigueur()
			assert.Equal(t, tt.want, got)
			d, ok := a.AAppliquer()
			assert.Equal(t, tt.want != nil, ok)
			if ok {
				assert.Equal(t, tt.want, d.Decision)
				assert.Equal(t, tt.issue, d.Issue)
				assert.Equal(t, NiveauCommissionArbitrage, niveau)
				require.NoError(t, a.MarquerAppliquee(d.Niveau))
				_, ok = a.AAppliquer()
				assert.False(t, ok, "appliquée une seule fois")
			}
			refuse(t, a, CodeNothingToApply, func() error { return a.MarquerAppliquee(NiveauCommissionArbitrage) })
		})
	}
}

// A decided level is immutable: nothing but a higher-level appeal (§6.4.2).
func TestDecide_Immuable(t *testing.T) {
	a := decide(t, IssueAccueilli, nil)
	avant := a.Niveaux()[0]
	refuse(t, a, CodeAppealAlreadyDecided, func() error {
		return a.Decider(Deliberation{Issue: IssueRejete, Motivation: "revirement"}, t0)
	})
	refuse(t, a, CodeAppealAlreadyDecided, func() error { return a.Voter("M4", IssueAccueilli) })
	refuse(t, a, CodeAppealAlreadyDecided, func() error { return a.ComposerCommission("PRES", membres) })
	refuse(t, a, CodeAppealAlreadyDecided, func() error { return a.DemanderPieces("grille", instant(t0)) })
	assert.Equal(t, avant, a.Niveaux()[0])
}

func fisf(t *testing.T, a *Appel, demande *correction.Decision) {
	t.Helper()
	require.NoError(t, a.FormerRecoursFISF(RecoursFISF{Requerant: Requerant{Identite: "ARB7", Qualite: QualiteArbitre},
		Motif: "désaccord avec la commission", Demandee: demande, TransmisPar: "PRES"}, t0.Add(2*time.Hour)))
}

var membresFISF = []string{"CR", "RT", "BA", "F1", "F2"}

func TestRecoursFISF_Paragraphe6_4_2(t *testing.T) {
	a := compose(t)
	r := RecoursFISF{Requerant: Requerant{Identite: "J01", Qualite: QualiteJoueur}, Motif: "m", TransmisPar: "PRES"}
	refuse(t, a, CodeAppealNotDecided, func() error { return a.FormerRecoursFISF(r, t0) })

	a = decide(t, IssueRejete, nil)
	refuse(t, a, CodeInvalidAppeal, func() error { return a.FormerRecoursFISF(RecoursFISF{Requerant: r.Requerant, Motif: "m"}, t0) })
	refuse(t, a, CodeInvalidAppeal, func() error { return a.FormerRecoursFISF(RecoursFISF{Requerant: r.Requerant, TransmisPar: "PRES"}, t0) })
	fisf(t, a, nil)
	assert.Equal(t, StatutDepose, a.Statut())
	n := a.Niveaux()
	require.Len(t, n, 2)
	assert.Equal(t, InstanceRecoursFISF, n[1].Instance)
	assert.Equal(t, contestee, n[1].Contestee, "rejected below: the original decision is contested")
	assert.Equal(t, demandee, n[1].Demandee, "the request of the level below is kept")

	refuse(t, a, CodeMemberInvolved, func() error { return a.ComposerCommission("CR", []string{"CR", "RT", "M2"}) })
	refuse(t, a, CodeMemberInvolved, func() error { return a.ComposerCommission("CR", []string{"CR", "RT", "ARB7"}) })
	require.NoError(t, a.ComposerCommission("CR", membresFISF))
	voter(t, a, IssueAmende, IssueAmende, IssueAmende, IssueAccueilli, IssueRejete)
	require.NoError(t, a.Decider(Deliberation{Issue: IssueAmende, Decision: amendee, Motivation: "avertissement seulement"}, t0.Add(72*time.Hour)))

	d, niveau := a.DecisionEnVigueur()
	assert.Equal(t, amendee, d)
	assert.Equal(t, NiveauRecoursFISF, niveau)
	assert.Equal(t, IssueRejete, a.Niveaux()[0].Decision.Issue, "the first level is never edited")
	refuse(t, a, CodeAppealFinal, func() error { return a.FormerRecoursFISF(r, t0) })
}

func TestRecoursFISF_ContesteLaDecisionEnVigueur(t *testing.T) {
	a := decide(t, IssueAccueilli, nil)
	fisf(t, a, contestee)
	n := a.Niveaux()[1]
	assert.Equal(t, demandee, n.Contestee, "upheld below: the decision in force is contested")
	assert.Equal(t, contestee, n.Demandee)
	require.NoError(t, a.ComposerCommission("CR", membresFISF))
	voter(t, a, IssueRejete, IssueRejete, IssueRejete, IssueRejete, IssueRejete)
	require.NoError(t, a.Decider(Deliberation{Issue: IssueRejete, Motivation: "confirmé"}, t0))
	d, niveau := a.DecisionEnVigueur()
	assert.Equal(t, demandee, d, "rejected at the FISF: the commission d'arbitrage's decision stands")
	assert.Equal(t, NiveauCommissionArbitrage, niveau)
}

func TestPieces_Paragraphe6_4_2_c(t *testing.T) {
	a := decide(t, IssueAccueilli, nil)
	refuse(t, a, CodeAppealAlreadyDecided, func() error { return a.DemanderPieces("grille", instant(t0)) })
	fisf(t, a, contestee)
	refuse(t, a, CodeCommissionNotComposed, func() error { return a.DemanderPieces("grille", instant(t0)) })
	require.NoError(t, a.ComposerCommission("CR", membresFISF))
	refuse(t, a, CodeInvalidAppeal, func() error { return a.CompleterDossier(instant(t0)) })
	refuse(t, a, CodeInvalidAppeal, func() error { return a.DemanderPieces("", instant(t0)) })
	require.NoError(t, a.DemanderPieces("état de la grille et tirage", instant(t0)))
	refuse(t, a, CodeDossierIncomplete, func() error { return a.DemanderPieces("autre", instant(t0)) })
	refuse(t, a, CodeDossierIncomplete, func() error { return a.Voter("CR", IssueRejete) })
	refuse(t, a, CodeDossierIncomplete, func() error { return a.Decider(Deliberation{Issue: IssueRejete, Motivation: "x"}, t0) })

	deuxSemaines := t0.Add(14 * 24 * time.Hour)
	t.Run("pièces reçues à temps", func(t *testing.T) {
		b := *a
		b.niveaux = []*Niveau{a.niveaux[0], new(Niveau)}
		*b.niveaux[1] = a.niveaux[1].copie()
		require.NoError(t, b.CompleterDossier(instant(deuxSemaines)))
		require.NoError(t, b.Voter("CR", IssueRejete))
	})
	refuse(t, a, CodeDeadlineRunning, func() error { return a.Classer(instant(deuxSemaines)) })
	refuse(t, a, CodeDeadlinePassed, func() error { return a.CompleterDossier(instant(deuxSemaines.Add(time.Second))) })
	require.NoError(t, a.Classer(instant(deuxSemaines.Add(time.Second))))
	assert.Equal(t, StatutClasse, a.Statut())
	d, niveau := a.DecisionEnVigueur()
	assert.Equal(t, demandee, d, "classé : la décision de la commission d'arbitrage demeure")
	assert.Equal(t, NiveauCommissionArbitrage, niveau)
	refuse(t, a, CodeAppealClosed, func() error { return a.Voter("CR", IssueRejete) })
	refuse(t, a, CodeAppealFinal, func() error { return a.FormerRecoursFISF(RecoursFISF{}, t0) })
}

// Replay equals live: the events recorded, encoded and decoded through the
// registry, rebuild the same appeal.
func TestRejouer_EgalDirect(t *testing.T) {
	a := decide(t, IssueAmende, amendee)
	require.NoError(t, a.MarquerAppliquee(NiveauCommissionArbitrage))
	fisf(t, a, demandee)
	require.NoError(t, a.ComposerCommission("CR", membresFISF))
	require.NoError(t, a.DemanderPieces("grille", instant(t0)))
	require.NoError(t, a.CompleterDossier(instant(t0.Add(time.Hour))))
	voter(t, a, IssueAccueilli, IssueAccueilli, IssueRejete, IssueRejete, IssueAmende)
	require.NoError(t, a.Decider(Deliberation{Issue: IssueAccueilli, Motivation: "le mot est valide"}, t0.Add(3*time.Hour)))
	evts := a.Pending()
	a.MarkSaved()

	reg := eventstore.NewRegistry()
	require.NoError(t, RegisterEvents(reg))
	b := Nouveau()
	for i, e := range evts {
		data, err := reg.NewEventData([16]byte{1, byte(i)}, e, eventstore.Metadata{})
		require.NoError(t, err)
		decoded, err := reg.Decode(eventstore.Event{Type: data.Type, Version: data.Version, Data: data.Data})
		require.NoError(t, err)
		require.NoError(t, b.Apply(decoded))
	}
	assert.Equal(t, a, b)
	assert.Equal(t, a.Version(), b.Version())
	assert.True(t, a.Niveaux()[1].Decision.Departage, "2-2-1 with the président in the tie")
}

func TestAppliquer_HistoireCorrompue(t *testing.T) {
	tests := []struct {
		name string
		a    *Appel
		e    any
	}{
		{"vote avant dépôt", Nouveau(), VoteEmis{Niveau: 1, Membre: "PRES", Issue: IssueRejete}},
		{"vote d'un non-membre", compose(t), VoteEmis{Niveau: 1, Membre: "X", Issue: IssueRejete}},
		{"décision sans commission", depose(t), DecisionRendue{Niveau: 1, Issue: IssueRejete}},
		{"double dépôt", depose(t), AppelDepose{Appel: "a1"}},
		{"seconde décision", decide(t, IssueRejete, nil), DecisionRendue{Niveau: 1, Issue: IssueRejete}},
		{"recours FISF avant décision", compose(t), RecoursFISFForme{Niveau: 2}},
		{"type inconnu", depose(t), struct{}{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.a.Version()
			err := tt.a.Apply(tt.e)
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(err), "%v", err)
			assert.Equal(t, v, tt.a.Version())
		})
	}
}

func TestRegisterEvents_NomsVersionnes(t *testing.T) {
	reg := eventstore.NewRegistry()
	require.NoError(t, RegisterEvents(reg))
	for _, n := range []string{TypeAppelDepose, TypeCommissionComposee, TypeVoteEmis, TypeDecisionRendue, TypeDecisionAppliquee,
		TypeRecoursFISFForme, TypePiecesDemandees, TypeDossierComplete, TypeAppelClasse} {
		v, err := reg.CurrentVersion(n)
		require.NoError(t, err, n)
		assert.Equal(t, 1, v)
	}
	assert.ErrorIs(t, RegisterEvents(reg), eventstore.ErrInvalidArgument, "registering twice is refused")
}
