package duplicate

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArt6_3_DecisionEnAppelEnVigueur: the commission's decision on appeal
// (§6.3) is told apart as long as it is the bulletin's decision in force —
// the pages say who decided what the player is paid (issue 31 item 7) — an
// appeal rejected leaves the decision in force as it was, and a later
// correction replaces it.
func TestArt6_3_DecisionEnAppelEnVigueur(t *testing.T) {
	p := dernierCoupJoue(t)
	require.NoError(t, p.CorrigerAMain(aMain(21, "L2", paye(0))))
	_, ok := p.DecisionEnAppel(21, "L2")
	assert.False(t, ok, "an arbiter's decision")

	require.NoError(t, p.DeciderAppel(DecisionCommission{Coup: 21, Licence: "L2", Appel: "A1", Niveau: 1, Issue: AppelRejete, Motif: "bulletin bien corrigé"}))
	_, ok = p.DecisionEnAppel(21, "L2")
	assert.False(t, ok, "rejected: the arbiter's decision stands")

	d := paye(8)
	require.NoError(t, p.DeciderAppel(DecisionCommission{Coup: 21, Licence: "L2", Appel: "A2", Niveau: 1, Issue: AppelAccueilli, Decision: &d, Motif: "bulletin retrouvé"}))
	e, ok := p.DecisionEnAppel(21, "L2")
	require.True(t, ok)
	assert.Equal(t, "A2", e.Appel)
	assert.Equal(t, d, *e.Decision)
	enVigueur, _ := p.Decision(21, "L2")
	assert.Equal(t, d, enVigueur)
	_, ok = p.Copie().DecisionEnAppel(21, "L2")
	assert.True(t, ok, "a copy of the game keeps it")

	require.NoError(t, p.DeciderAppel(DecisionCommission{Coup: 21, Licence: "L2", Appel: "A3", Niveau: 1, Issue: AppelRejete, Motif: "déjà jugé"}))
	_, ok = p.DecisionEnAppel(21, "L2")
	assert.True(t, ok, "a later appeal rejected leaves the commission's decision in force")

	require.NoError(t, p.CorrigerAMain(aMain(21, "L2", paye(7))))
	_, ok = p.DecisionEnAppel(21, "L2")
	assert.False(t, ok, "corrected again: the new correction is in force")
}
