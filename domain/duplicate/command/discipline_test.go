package command_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
	"arbitre/domain/duplicate/adapters"
	"arbitre/domain/duplicate/command"
)

// The director's disciplinary decision (§5.5, §5.7, §6.1) is recorded as
// partie.sanction_disciplinaire signed by the acting director; a refused
// one writes nothing.
func TestApplication_SanctionDisciplinaire(t *testing.T) {
	b := nouveauBanc(t)
	b.topper(t)
	avant := b.position(t)
	err := b.app.SanctionDisciplinaire(b.ctx, command.SanctionDisciplinaire{Partie: "p1", Coup: 1, Licence: "L1", Nature: "blame", Motif: "bavardage"})
	refuse(t, b, duplicate.CodeInvalidSanction, err)
	assert.Equal(t, avant, b.position(t), "nothing written")

	require.NoError(t, b.app.SanctionDisciplinaire(b.ctx, command.SanctionDisciplinaire{Partie: "p1", Coup: 1, Licence: "L1",
		Nature: duplicate.SanctionZero, Motif: "motif disciplinaire grave"}))
	evts, err := b.store.ReadStream(b.ctx, "partie-p1", 0, 1000)
	require.NoError(t, err)
	last := evts[len(evts)-1]
	assert.Equal(t, duplicate.TypeSanctionDisciplinaire, last.Type)
	r, err := adapters.Registre()
	require.NoError(t, err)
	e, err := r.Decode(last)
	require.NoError(t, err)
	assert.Equal(t, duplicate.SanctionDisciplinaire{Coup: 1, Licence: "L1", Nature: duplicate.SanctionZero,
		Motif: "motif disciplinaire grave", Par: directeur.Actor}, e)
	d, ok := b.partie(t).DecisionSanctionnee(1, "L1")
	assert.True(t, ok)
	assert.Zero(t, d.Paid, "§5.7")
}
