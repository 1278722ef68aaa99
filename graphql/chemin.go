package graphql

import "strconv"

// Chemin is the path of a value inside a request's arguments or
// variables (deposerBulletin.bulletin.solutions[0].word, $b.solutions[0]):
// each step points to its parent, and the text is spelt out only when an
// error names it. The checks of every request walk every value; building
// each path as they went was most of their allocations (issue 34 item 3).
type Chemin struct {
	parent *Chemin
	nom    string
	indice int
}

// Racine is the path made of nom alone.
func Racine(nom string) Chemin { return Chemin{nom: nom} }

// Champ is the path of c's field nom.
func (c *Chemin) Champ(nom string) Chemin { return Chemin{parent: c, nom: nom} }

// Element is the path of c's element at index i.
func (c *Chemin) Element(i int) Chemin { return Chemin{parent: c, indice: i} }

// String spells the path out.
func (c *Chemin) String() string { return string(c.ecrire(nil)) }

func (c *Chemin) ecrire(b []byte) []byte {
	if c.parent == nil {
		return append(b, c.nom...)
	}
	b = c.parent.ecrire(b)
	if c.nom == "" {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(c.indice), 10)
		return append(b, ']')
	}
	b = append(b, '.')
	return append(b, c.nom...)
}
