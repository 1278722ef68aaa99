package duplicate

import "arbitre/engine/tile"

// nature counts the letters of a set by kind for §3.2: vowels (A E I O U),
// consonants, and the letters the director may count as either (Y and
// jokers).
type nature struct {
	voyelles, consonnes, libres int
}

func natureDe(r *tile.Rack) nature {
	var n nature
	n.libres = int(r[tile.NoLetter]) + int(r[lettreY])
	for l := tile.Letter(1); l <= tile.Alphabet; l++ {
		switch {
		case l == lettreY:
		case l.IsVowel():
			n.voyelles += int(r[l])
		default:
			n.consonnes += int(r[l])
		}
	}
	return n
}

const lettreY = tile.Letter('Y' - 'A' + 1)

func (n nature) total() int { return n.voyelles + n.consonnes + n.libres }

// manque is how many flexible letters must count as vowels and consonants
// for the set to hold m of each.
func (n nature) manque(m int) int { return max(0, m-n.voyelles) + max(0, m-n.consonnes) }

// Validite is the verdict on a tirage (§3.2).
type Validite string

// The verdicts of §3.2: valid whatever Y and jokers count as; valid only if
// the director counts Y and jokers favourably (he may keep or reject it,
// guide §4.2); invalid (rejet).
const (
	TirageValide   Validite = "valide"
	TirageAuChoix  Validite = "au_choix"
	TirageInvalide Validite = "invalide"
)

// minimumDuCoup is the number of vowels and of consonants coup requires
// (§3.2): two of each up to coup 15, one of each from coup 16 or earlier
// when the letters left (reliquat and bag) can no longer give two of each.
func minimumDuCoup(coup int, restantes nature) int {
	if coup <= 15 && restantes.manque(2) <= restantes.libres {
		return 2
	}
	return 1
}

// finDeSac reports the end of the game in the sense of §3.2: the letters
// left, Y and jokers aside, are all vowels or all consonants, and the
// director no longer chooses what Y and jokers count as.
func finDeSac(restantes nature) bool {
	return restantes.voyelles == 0 || restantes.consonnes == 0
}

// evaluerTirage applies §3.2 to a complete tirage, given the letters not yet
// on the grid (tirage and bag together).
func evaluerTirage(coup int, tirage, restantes nature) Validite {
	m := minimumDuCoup(coup, restantes)
	switch {
	case tirage.voyelles >= m && tirage.consonnes >= m:
		return TirageValide
	case tirage.manque(m) > tirage.libres:
		return TirageInvalide
	case finDeSac(restantes):
		return TirageValide
	}
	return TirageAuChoix
}

// MotifFin says why a game ended (§3.7, §3.8.3, guide §2.13–2.15).
type MotifFin string

// The reasons of §3.7 and of the elimination modes.
const (
	FinToutesLettresPlacees MotifFin = "toutes_lettres_placees"
	FinUneSeuleLettre       MotifFin = "une_seule_lettre"
	FinReliquatVoyelles     MotifFin = "reliquat_voyelles"
	FinReliquatConsonnes    MotifFin = "reliquat_consonnes"
	FinPlusDePlacement      MotifFin = "plus_de_placement"
	FinTirageDifferent      MotifFin = "tirage_different_impossible"
	FinInterruption         MotifFin = "interruption"
	FinVainqueur            MotifFin = "vainqueur"
)

// Libelle says the reason in French, as the pages do.
func (m MotifFin) Libelle() string {
	switch m {
	case FinToutesLettresPlacees:
		return "toutes les lettres sont placées"
	case FinUneSeuleLettre:
		return "il ne reste qu'une lettre"
	case FinReliquatVoyelles:
		return "il ne reste que des voyelles"
	case FinReliquatConsonnes:
		return "il ne reste que des consonnes"
	case FinPlusDePlacement:
		return "plus aucun placement possible"
	case FinTirageDifferent:
		return "plus de tirage différent possible"
	case FinInterruption:
		return "interruption de plus de 15 minutes"
	case FinVainqueur:
		return "un seul joueur reste en lice"
	}
	return string(m)
}

// finDePartie applies the letter conditions of §3.7 to the letters not yet
// on the grid: none left; a single letter; only vowels or only consonants,
// unless a joker or the Y remains among two letters or more.
func finDePartie(restantes nature) (MotifFin, bool) {
	switch {
	case restantes.total() == 0:
		return FinToutesLettresPlacees, true
	case restantes.total() == 1:
		return FinUneSeuleLettre, true
	case restantes.libres > 0:
		return "", false
	case restantes.consonnes == 0:
		return FinReliquatVoyelles, true
	case restantes.voyelles == 0:
		return FinReliquatConsonnes, true
	}
	return "", false
}
