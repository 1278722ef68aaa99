package standings

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/duplicate"
)

// TestParCoup_Guide2_17_2_PointsDuCoup: the points a coup gives each
// player, what an annulled coup's average replaces (guide §2.17.2): the
// score paid, less the 5-point penalty of §5.6; an average counts the
// other players' mean before their penalties (guide §2.10).
func TestParCoup_Guide2_17_2_PointsDuCoup(t *testing.T) {
	c := unePartie(t, 4, normale, []duplicate.BulletinCorrige{paye("J00", 20), pen("J01", 18), paye("J02", 10), moy("J03", 99)}, true)
	points, err := c.ParCoup("p1")
	require.NoError(t, err)
	assert.Equal(t, map[string][]int{"J00": {20}, "J01": {13}, "J02": {10}, "J03": {16}}, points)
	_, err = c.ParCoup("inconnue")
	assert.Error(t, err)
}
