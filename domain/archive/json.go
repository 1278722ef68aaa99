package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Lire reads a file in either layout of the export: JSON when it starts
// with '{' (LireJSON), else CSV (LireCSV). A file over MaxOctets is refused
// before any parsing.
func Lire(contenu []byte) (Document, []int, error) {
	if len(contenu) > MaxOctets {
		return Document{}, nil, refus(0, "", "le fichier dépasse %d Mio : ce n'est pas une archive de tournoi (au plus %d lignes)", MaxOctets>>20, MaxLignes)
	}
	if bytes.HasPrefix(bytes.TrimLeft(bytes.TrimPrefix(contenu, []byte(bom)), " \t\r\n"), []byte("{")) {
		return LireJSON(contenu)
	}
	return LireCSV(contenu)
}

// LireJSON reads and checks a file in the JSON layout EcrireJSON writes,
// with LireCSV's checks: a bad record is refused with the line of the file
// it starts on and its field (INVALID_INPUT, details "ligne" and "champ"),
// and nothing is returned then. numeros holds, for each of the document's
// lines, the line its record starts on.
func LireJSON(contenu []byte) (Document, []int, error) {
	if !utf8.Valid(contenu) {
		return Document{}, nil, refus(0, "", "le fichier n'est pas en UTF-8")
	}
	contenu = bytes.TrimPrefix(contenu, []byte(bom))
	l := &lecteurJSON{contenu: contenu, dec: json.NewDecoder(bytes.NewReader(contenu)), cles: map[string]int{}}
	l.dec.DisallowUnknownFields()
	d, numeros, err := l.document()
	if err != nil {
		return Document{}, nil, err
	}
	return d, numeros, nil
}

// lecteurJSON reads a document token by token, to know the line each
// record and each field starts on.
type lecteurJSON struct {
	contenu []byte
	dec     *json.Decoder
	// cles are the document's fields and their lines.
	cles map[string]int
}

// colonneJSON names the document's fields as the CSV's columns, for the
// checks they share.
var colonneJSON = map[string]string{"nom_tournoi": "nom"}

func (l *lecteurJSON) document() (Document, []int, error) {
	var d Document
	var numeros []int
	if err := l.delim('{', "un objet JSON"); err != nil {
		return d, nil, err
	}
	for l.dec.More() {
		n := l.ligne(l.dec.InputOffset())
		tok, err := l.dec.Token()
		if err != nil {
			return d, nil, l.illisible(n, "", err)
		}
		cle, _ := tok.(string)
		if _, ok := l.cles[cle]; ok {
			return d, nil, refus(n, cle, "le champ « %s » figure deux fois", cle)
		}
		l.cles[cle] = n
		switch cle {
		case "tournoi":
			err = l.valeur(n, cle, &d.Tournoi)
		case "nom":
			err = l.valeur(n, cle, &d.Nom)
		case "genre":
			err = l.valeur(n, cle, &d.Genre)
		case "date":
			err = l.valeur(n, cle, &d.Date)
		case "exempt":
			err = l.valeur(n, cle, &d.Exempt)
		case "duplicate":
			d.Duplicate, numeros, err = lireEnregistrements(l, colonnesDuplicate)
		case "classique":
			d.Classique, numeros, err = lireEnregistrements(l, colonnesClassique)
		default:
			err = refus(n, cle, "le champ « %s » est inconnu", cle)
		}
		if err != nil {
			return d, nil, err
		}
	}
	if err := l.delim('}', "la fin de l'objet"); err != nil {
		return d, nil, err
	}
	if n := l.ligne(l.dec.InputOffset()); l.dec.More() {
		return d, nil, refus(n, "", "le fichier tient un seul document JSON")
	}
	if err := l.verifierGenre(d); err != nil {
		return d, nil, err
	}
	ligne := func(champ string) int {
		if c, ok := colonneJSON[champ]; ok {
			champ = c
		}
		return l.cles[champ]
	}
	if err := verifierEnTete(ligne, d); err != nil {
		return d, nil, err
	}
	if err := d.verifier(numeros, l.cles["exempt"]); err != nil {
		return d, nil, err
	}
	return d, numeros, nil
}

// verifierGenre checks the form of play and that its lines, and only
// them, are there.
func (l *lecteurJSON) verifierGenre(d Document) error {
	n := l.cles["genre"]
	switch {
	case d.Genre != GenreDuplicate && d.Genre != GenreClassique:
		return refus(n, "genre", "le genre « %s » n'est ni duplicate ni classique", d.Genre)
	case d.Genre == GenreDuplicate && (len(d.Duplicate) == 0 || len(d.Classique) > 0),
		d.Genre == GenreClassique && (len(d.Classique) == 0 || len(d.Duplicate) > 0):
		return refus(n, "genre", "un tournoi %s tient ses lignes de résultat, au moins une, sous « %s » et nulle part ailleurs", d.Genre, d.Genre)
	case d.Genre == GenreDuplicate && d.Exempt != nil:
		return refus(l.cles["exempt"], "exempt", "un tournoi duplicate n'a pas d'exempt")
	}
	return nil
}

// lireEnregistrements reads an array of lines, checking each value as the
// CSV's column does.
func lireEnregistrements[L any](l *lecteurJSON, cols []colonne[L]) ([]L, []int, error) {
	if err := l.delim('[', "un tableau de lignes"); err != nil {
		return nil, nil, err
	}
	var lignes []L
	var numeros []int
	for l.dec.More() {
		n := l.ligne(l.dec.InputOffset())
		if len(numeros) == MaxLignes {
			return nil, nil, refus(n, "", "le fichier dépasse %d lignes de résultats", MaxLignes)
		}
		var ligne, verifiee L
		if err := l.dec.Decode(&ligne); err != nil {
			return nil, nil, l.illisible(n, "", err)
		}
		for _, c := range cols {
			if err := c.lire(n, &verifiee, c.ecrire(&ligne)); err != nil {
				return nil, nil, err
			}
		}
		lignes = append(lignes, ligne)
		numeros = append(numeros, n)
	}
	return lignes, numeros, l.delim(']', "la fin du tableau")
}

// valeur decodes a field's value.
func (l *lecteurJSON) valeur(n int, cle string, v any) error {
	if err := l.dec.Decode(v); err != nil {
		return l.illisible(n, cle, err)
	}
	return nil
}

// delim reads the delimiter d (quoi says what was expected).
func (l *lecteurJSON) delim(d json.Delim, quoi string) error {
	n := l.ligne(l.dec.InputOffset())
	tok, err := l.dec.Token()
	if err != nil {
		return l.illisible(n, "", err)
	}
	if tok != d {
		return refus(n, "", "%s était attendu ici", quoi)
	}
	return nil
}

// ligne is the line of the first value at or after offset off.
func (l *lecteurJSON) ligne(off int64) int {
	i := int(off)
	for i < len(l.contenu) && strings.IndexByte(" \t\r\n,:", l.contenu[i]) >= 0 {
		i++
	}
	return 1 + bytes.Count(l.contenu[:i], []byte("\n"))
}

// illisible reports what the decoder refused at line n (the field champ,
// when known): a syntax error where it is, a value of the wrong type, a
// field the layout does not have, a file cut short.
func (l *lecteurJSON) illisible(n int, champ string, err error) error {
	var syntaxe *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntaxe):
		return refus(1+bytes.Count(l.contenu[:min(int(syntaxe.Offset), len(l.contenu))], []byte("\n")), champ, "JSON illisible (%v)", syntaxe)
	case errors.As(err, &typ):
		if typ.Field != "" {
			champ = typ.Field
		}
		return refus(n, champ, "%s : %s attendu, pas %s", champ, typ.Type, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return refus(0, "", "le JSON s'arrête avant la fin du document")
	}
	if inconnu, ok := strings.CutPrefix(err.Error(), `json: unknown field "`); ok {
		inconnu = strings.TrimSuffix(inconnu, `"`)
		return refus(n, inconnu, "le champ « %s » est inconnu", inconnu)
	}
	return fmt.Errorf("archive: lecture du JSON: %w", err)
}
