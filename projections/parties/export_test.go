package parties

// OublierAussitot makes rebuilds drop a finished game from memory after
// each event, until restore is called.
func OublierAussitot() (restore func()) {
	i, b := inactive, balayage
	inactive, balayage = 1, 1
	return func() { inactive, balayage = i, b }
}

// Lire reads one row of the projection (lire).
var Lire = lire
