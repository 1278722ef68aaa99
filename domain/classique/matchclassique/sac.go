package matchclassique

import (
	"math/rand/v2"

	"arbitre/engine/tile"
)

// TirerAuHasard draws n letters at random from a bag, as a player does
// (§3.2.1), and returns them in rack notation ('?' a joker). The source is
// the caller's, so simulations are reproducible. n is capped by the bag.
func TirerAuHasard(sac tile.Rack, n int, rng *rand.Rand) string {
	var tirees tile.Rack
	total := sac.Size()
	for range min(n, total) {
		k := rng.IntN(total)
		for l := range sac {
			if k < int(sac[l]) {
				sac[l]--
				tirees[l]++
				break
			}
			k -= int(sac[l])
		}
		total--
	}
	return tirees.String()
}
