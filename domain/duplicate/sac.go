package duplicate

import (
	crand "crypto/rand"
	"math/rand/v2"

	"arbitre/domain/erreur"
	"arbitre/engine/tile"
)

// lettres is the state of the letters: the bag, the rack in front of the
// players (the reliquat between coups, the tirage during a coup), the
// jokers set aside by the joker formula (§3.8.1) and the number of draws
// made, which seeds the next one. It is a value: commands simulate their
// transitions on a copy with the same methods the events apply.
type lettres struct {
	sac     tile.Rack
	rack    tile.Rack
	reserve int
	tirages int
}

// restantes is every letter not on the grid.
func (l *lettres) restantes() tile.Rack {
	r := l.sac
	for i := range r {
		r[i] += l.rack[i]
	}
	r[tile.NoLetter] += uint8(l.reserve)
	return r
}

// rendre puts the rack back: letters in the bag, jokers of the joker formula
// back with the director (§3.2 rejet, §3.6 annulment).
func (l *lettres) rendre(formule Formule) {
	for i := range l.rack {
		l.sac[i] += l.rack[i]
	}
	if formule == FormuleJoker {
		l.reserve += int(l.sac[tile.NoLetter])
		l.sac[tile.NoLetter] = 0
	}
	l.rack = tile.Rack{}
}

// contient reports whether the bag holds every letter of ls.
func (l *lettres) contient(ls []tile.Letter) bool {
	s := l.sac
	for _, x := range ls {
		if s[x] == 0 {
			return false
		}
		s[x]--
	}
	return true
}

// puiser moves letters from the bag to the rack.
func (l *lettres) puiser(ls []tile.Letter) {
	for _, x := range ls {
		l.sac[x]--
		l.rack[x]++
	}
}

// piocher draws n letters at random from the bag, in order of extraction.
// With the director's test seed the draw depends only on the seed, the
// number of draws already made and the bag, so a test game redraws
// identically; without one it comes from crypto/rand and nobody can
// foresee it. The letters drawn are recorded (TirageEffectue,
// TirageRejete): a replay never draws again.
func (l *lettres) piocher(graineTest *uint64, n int) []tile.Letter {
	var indice func(total uint64) uint64
	if graineTest != nil {
		rng := splitmix{*graineTest ^ (uint64(l.tirages)+1)*0x9e3779b97f4a7c15}
		indice = func(total uint64) uint64 { return rng.next() % total }
	} else {
		indice = aleatoire()
	}
	s := l.sac
	total := s.Size()
	out := make([]tile.Letter, 0, n)
	for ; n > 0 && total > 0; n-- {
		k := int(indice(uint64(total)))
		for x := range s {
			if k < int(s[x]) {
				out = append(out, tile.Letter(x))
				s[x]--
				break
			}
			k -= int(s[x])
		}
		total--
	}
	return out
}

// aleatoire returns a uniform draw in [0, total) seeded with 256 bits from
// crypto/rand, as classique's HasardCrypto.
func aleatoire() func(total uint64) uint64 {
	var graine [32]byte
	_, _ = crand.Read(graine[:]) // never fails (crypto/rand.Read)
	r := rand.New(rand.NewChaCha8(graine))
	return r.Uint64N
}

// splitmix is SplitMix64, a small generator that is the same on every
// platform and Go version (math/rand's streams are not guaranteed).
type splitmix struct{ s uint64 }

func (g *splitmix) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// texteLettres renders letters in order, '?' for a joker.
func texteLettres(ls []tile.Letter) string {
	b := make([]byte, len(ls))
	for i, x := range ls {
		b[i] = x.Byte()
	}
	return string(b)
}

// lireLettres parses letters typed by the director ('?' for a joker,
// accents folded).
func lireLettres(s string) ([]tile.Letter, error) {
	out, err := tile.ParseLetters(s)
	if err != nil {
		return nil, erreur.Refus(CodeInvalidTirage, "lettres %q : %v", s, err)
	}
	return out, nil
}

// sacComplet is the French set of §1.1.
func sacComplet() tile.Rack {
	var r tile.Rack
	for x := range r {
		r[x] = uint8(tile.Letter(x).Count())
	}
	return r
}
