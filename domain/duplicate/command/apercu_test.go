package command_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/command"
	"arbitre/domain/eventstore"
	"arbitre/engine/correction"
)

// §5 the arbiter's page shows the engine's decision for a bulletin as it is
// typed: Apercu decides without recording anything, for a player of the
// game at a topped coup only.
func TestApercu_DecideSansRienEcrire(t *testing.T) {
	b := nouveauBanc(t)
	top := b.topper(t)
	faux := top.Score + 3
	ecrit := duplicate.BulletinEcrit(top.Ref, top.Mot, &faux, false, false)
	avant := b.position(t)

	d, err := b.partie(t).Apercu(1, "L1", ecrit)
	require.NoError(t, err)
	assert.Equal(t, correction.Warning, d.Sanction, "§5.5 a wrong score: warning")
	assert.Equal(t, []correction.Reason{correction.ScoreWrong}, d.Reasons)
	_, err = b.partie(t).Apercu(2, "L1", ecrit)
	refuse(t, b, duplicate.CodeInvalidBulletin, err)
	_, err = b.partie(t).Apercu(1, "L9", ecrit)
	refuse(t, b, duplicate.CodeUnknownPlayer, err)
	assert.Equal(t, avant, b.position(t), "nothing written")

	arbitre1 := b.app.Par(eventstore.Metadata{Actor: "A1", Role: "arbitre"})
	require.NoError(t, arbitre1.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{{Coup: 1, Licence: "L1", Table: 1, Arbitre: "A1", Bulletin: ecrit}}}))
	moteur, err := b.partie(t).DecisionMoteur(1, "L1")
	require.NoError(t, err)
	assert.Equal(t, d, moteur, "the preview is the decision of the bulletin entered")
}

// guide §5 double arbitrage: the second arbiter's check is kept beside the
// correction it checked; a new correction awaits a check of its own.
func TestContreArbitrage_GardeParCorrection(t *testing.T) {
	b := nouveauBanc(t)
	top := b.topper(t)
	arbitre1 := b.app.Par(eventstore.Metadata{Actor: "A1", Role: "arbitre"})
	arbitre2 := b.app.Par(eventstore.Metadata{Actor: "A2", Role: "arbitre"})
	require.NoError(t, arbitre1.DeposerBulletins(b.ctx, command.DeposerBulletins{Partie: "p1", Bulletins: []duplicate.BulletinDepose{
		{Coup: 1, Licence: "L1", Table: 1, Arbitre: "A1", Bulletin: duplicate.BulletinEcrit(top.Ref, top.Mot, &top.Score, false, false)}}}))
	corriger := duplicate.Correction{Coup: 1, Licence: "L1", Arbitre: "A1", Table: 1}
	require.NoError(t, arbitre1.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p1", Corrections: []duplicate.Correction{corriger}}))
	_, ok := b.partie(t).ContreArbitrage(1, "L1")
	assert.False(t, ok, "not checked yet")

	require.NoError(t, arbitre2.ContreArbitrer(b.ctx, command.ContreArbitrer{Partie: "p1", Arbitrage: duplicate.DoubleArbitrage{Coup: 1, Licence: "L1", Arbitre: "A2", Confirme: true}}))
	e, ok := b.partie(t).ContreArbitrage(1, "L1")
	require.True(t, ok)
	assert.Equal(t, duplicate.DoubleArbitrage{Coup: 1, Licence: "L1", Arbitre: "A2", Confirme: true}, e)

	require.NoError(t, arbitre1.CorrigerBulletins(b.ctx, command.CorrigerBulletins{Partie: "p1", Corrections: []duplicate.Correction{corriger}}))
	_, ok = b.partie(t).ContreArbitrage(1, "L1")
	assert.False(t, ok, "a new correction awaits its own check")
}
