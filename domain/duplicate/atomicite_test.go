package duplicate

import (
	"arbitre/domain/aggregate"
	"arbitre/domain/aggregate/aggregatetest"
	"arbitre/domain/erreur"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// vider reads the new events and forgets them, as a save would.
func vider(p *Partie) []any {
	n := p.Pending()
	p.MarkSaved()
	return n
}

// TestAtomicite_EvenementRefuseLaissePartieIntacte: a command's events are
// recorded all or nothing. A refused event, alone or after events that
// apply, leaves the game exactly as it was, its new events included.
func TestAtomicite_EvenementRefuseLaissePartieIntacte(t *testing.T) {
	joker := Config{TempsParCoup: configDirecteur.TempsParCoup, Source: SourceDirecteur, Formule: FormuleJoker}
	tests := []struct {
		name  string
		cfg   Config
		avant func(t *testing.T, p *Partie)
		evts  []any
	}{
		{"tirage puis top dont la troisième lettre manque", configDirecteur, nil,
			[]any{TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}, TopRetenu{Coup: 1, Ref: "H4", Mot: "ABZ", Score: 10}}},
		{"rejet puis tirage de lettres absentes du sac", configDirecteur, nil,
			[]any{TirageRejete{Coup: 1, Tirees: "AAAAAAA", Motif: RejetVoyellesConsonnes}, TirageEffectue{Coup: 1, Tirees: "ZZZZZZZ"}}},
		{"top seul dont la troisième lettre manque", configDirecteur,
			func(t *testing.T, p *Partie) {
				require.NoError(t, aggregate.Record(p, TirageEffectue{Coup: 1, Tirees: "ABCDEFG"}))
			},
			[]any{TopRetenu{Coup: 1, Ref: "H4", Mot: "ABZ", Score: 10}}},
		{"tirage avec joker ajouté et lettres absentes du sac", joker, nil,
			[]any{TirageEffectue{Coup: 1, Tirees: "ZZZZZZ", JokerAjoute: true}}},
		{"éliminations dont le second joueur est inconnu", configDirecteur, nil,
			[]any{EliminationsDecidees{Coup: 1, Elimines: []string{"L1", "L9"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := nouvellePartie(t, tt.cfg, fixe(t))
			if tt.avant != nil {
				tt.avant(t, p)
			}
			avant := p.Copie()
			assert.Equal(t, CodeCorruptHistory, erreur.CodeOf(aggregate.Record(p, tt.evts...)))
			assert.Equal(t, avant, p)
		})
	}
}

// TestAtomicite_NouveauxNeVidePas: Nouveaux only reads; Sauves forgets.
func TestAtomicite_NouveauxNeVidePas(t *testing.T) {
	p := Nouvelle(fixe(t))
	require.NoError(t, p.Creer("p1", "t1", 1, configDirecteur, []string{"L1"}))
	require.Len(t, p.Pending(), 1)
	assert.Len(t, p.Pending(), 1)
	p.MarkSaved()
	assert.Empty(t, p.Pending())
}

// TestAtomicite_Issue34_CopiePartageSansFuite: a copy shares the game's
// entries by player (players, bulletins, corrections, decisions,
// sanctions... coup by coup) until one of the two writes them. A command
// that changes its copy — coups already played and the coup of a player
// who arrives — and then fails leaves the kept game exactly as it was,
// seen by reflection (aggregatetest.Empreinte), not by the game's own
// copy; and the kept game brought up to date in place, as the repository
// does, leaves a copy handed out before exactly as it was.
func TestAtomicite_Issue34_CopiePartageSansFuite(t *testing.T) {
	garde, _ := deuxCoups(t, configDirecteur)
	require.NoError(t, garde.DeposerBulletin(BulletinDepose{Coup: 1, Licence: "L1", Bulletin: BulletinEcrit("H8", "BAC", entier(14), false, false)}))
	require.NoError(t, garde.CorrigerAMain(aMain(1, "L1", paye(14))))
	require.NoError(t, garde.CorrigerAMain(aMain(2, "L2", paye(14))))
	require.NoError(t, garde.Sanctionner(sanction(1, "L3", SanctionAvertissement)))
	vider(garde)

	commande := func(c *Partie) {
		require.NoError(t, c.DeposerBulletin(BulletinDepose{Coup: 1, Licence: "L2", Bulletin: BulletinEcrit("H8", "BAC", entier(12), false, false)}))
		require.NoError(t, c.CorrigerAMain(aMain(1, "L1", avertissement(12))))
		require.NoError(t, c.ContreArbitrer(DoubleArbitrage{Coup: 1, Licence: "L1", Arbitre: "A2", Confirme: true}))
		require.NoError(t, c.EmettreBillet(2, "L2", "A1"))
		require.NoError(t, c.CorrigerAMain(aMain(2, "L2", nullite())))
		require.NoError(t, c.Sanctionner(sanction(1, "L3", SanctionZero)))
		require.NoError(t, c.Sanctionner(sanction(2, "L1", SanctionAvertissement)))
		require.NoError(t, c.ArriveeEnRetard("L9"))
		require.NoError(t, aggregate.Record(c, EliminationsDecidees{Coup: 2, Elimines: []string{"L3"}}))
		refuse(t, c, CodeInvalidBulletin, func() error {
			return c.DeposerBulletin(BulletinDepose{Coup: 1, Licence: "L2", Bulletin: BulletinEcrit("H8", "BAC", entier(14), false, false)})
		})
	}

	t.Run("une commande qui échoue après avoir changé sa copie laisse la partie gardée intacte", func(t *testing.T) {
		c := garde.Copie()
		avant := aggregatetest.Empreinte(garde)
		commande(c)
		_, depose := c.Depose(1, "L2")
		require.True(t, depose, "the copy changed")
		aggregatetest.Identique(t, avant, garde)
		_, depose = garde.Depose(1, "L2")
		assert.False(t, depose)
	})
	t.Run("la partie gardée mise à jour sur place laisse intacte la copie donnée avant", func(t *testing.T) {
		c := garde.Copie()
		avant := aggregatetest.Empreinte(c)
		commande(garde)
		aggregatetest.Identique(t, avant, c)
		_, depose := c.Depose(1, "L2")
		assert.False(t, depose)
	})
}
