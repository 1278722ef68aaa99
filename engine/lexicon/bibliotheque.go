package lexicon

import "slices"

// Bibliotheque is the set of lexicons a server holds at once: the default,
// on which new games are created, and the others, kept for the games
// created under them (an ODS7 game goes on being judged with ODS7 after the
// switch to ODS8).
type Bibliotheque struct {
	lexiques []*Lexicon
}

// NewBibliotheque holds defaut and autres; a lexicon given twice (same
// identity) is held once.
func NewBibliotheque(defaut *Lexicon, autres ...*Lexicon) *Bibliotheque {
	b := &Bibliotheque{lexiques: []*Lexicon{defaut}}
	for _, l := range autres {
		if _, ok := b.Trouver(&l.identite); !ok {
			b.lexiques = append(b.lexiques, l)
		}
	}
	return b
}

// Defaut is the lexicon of new games.
func (b *Bibliotheque) Defaut() *Lexicon { return b.lexiques[0] }

// Trouver returns the lexicon of a recorded identity, its own or one of its
// former labels' (ConnuAussi). A nil identity is a
// game recorded before games recorded their lexicon: it is played with the
// server's default lexicon, as it always was.
func (b *Bibliotheque) Trouver(id *Identite) (*Lexicon, bool) {
	if id == nil {
		return b.Defaut(), true
	}
	for _, l := range b.lexiques {
		if slices.Contains(l.Identites(), *id) {
			return l, true
		}
	}
	return nil, false
}

// Lexiques lists the lexicons held, the default first.
func (b *Bibliotheque) Lexiques() []*Lexicon { return b.lexiques }
