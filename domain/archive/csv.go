package archive

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The CSV layout (docs/archive.md): ';' separates the columns, UTF-8 with a
// byte order mark (spreadsheets then read the accents), one header line,
// then one line per player and game; decimals take a comma. Every line
// starts with the tournament's id, name and date.
const (
	separateur = ';'
	bom        = "\ufeff"
)

var colonnesTournoi = []string{"tournoi", "nom_tournoi", "date"}

// colonne is one column of a line L: its header and the field it holds (an
// id, empty when vide allows it; a text, not empty when requis; an integer
// of at least min; or a decimal).
type colonne[L any] struct {
	nom     string
	id      func(*L) *string
	vide    bool
	texte   func(*L) *string
	requis  bool
	entier  func(*L) *int
	min     int
	decimal func(*L) *float64
}

// scoreMin admits the negative scores penalties can leave.
const scoreMin = -100000

var colonnesDuplicate = []colonne[LigneDuplicate]{
	{nom: "partie", id: func(l *LigneDuplicate) *string { return &l.Partie }},
	{nom: "numero", entier: func(l *LigneDuplicate) *int { return &l.Numero }, min: 1},
	{nom: "licence", id: func(l *LigneDuplicate) *string { return &l.Licence }},
	{nom: "nom", texte: func(l *LigneDuplicate) *string { return &l.Nom }, requis: true},
	{nom: "club", texte: func(l *LigneDuplicate) *string { return &l.Club }},
	{nom: "serie", texte: func(l *LigneDuplicate) *string { return &l.Serie }},
	{nom: "score", entier: func(l *LigneDuplicate) *int { return &l.Score }, min: scoreMin},
	{nom: "top", entier: func(l *LigneDuplicate) *int { return &l.Top }},
	{nom: "rang", entier: func(l *LigneDuplicate) *int { return &l.Rang }, min: 1},
	{nom: "cumul", entier: func(l *LigneDuplicate) *int { return &l.Cumul }, min: scoreMin},
	{nom: "top_cumul", entier: func(l *LigneDuplicate) *int { return &l.TopCumul }},
	{nom: "pourcentage", decimal: func(l *LigneDuplicate) *float64 { return &l.Pourcentage }},
	{nom: "rang_general", entier: func(l *LigneDuplicate) *int { return &l.RangGeneral }, min: 1},
}

var colonnesClassique = []colonne[LigneClassique]{
	{nom: "ronde", entier: func(l *LigneClassique) *int { return &l.Ronde }, min: 1},
	{nom: "match", id: func(l *LigneClassique) *string { return &l.Match }, vide: true},
	{nom: "licence", id: func(l *LigneClassique) *string { return &l.Licence }},
	{nom: "nom", texte: func(l *LigneClassique) *string { return &l.Nom }},
	{nom: "club", texte: func(l *LigneClassique) *string { return &l.Club }},
	{nom: "adversaire", id: func(l *LigneClassique) *string { return &l.Adversaire }, vide: true},
	{nom: "score", entier: func(l *LigneClassique) *int { return &l.Score }, min: scoreMin},
	{nom: "score_adversaire", entier: func(l *LigneClassique) *int { return &l.ScoreAdversaire }, min: scoreMin},
	{nom: "points_de_match", entier: func(l *LigneClassique) *int { return &l.PointsDeMatch }},
	{nom: "cote_avant", entier: func(l *LigneClassique) *int { return &l.CoteAvant }},
	{nom: "cote_apres", entier: func(l *LigneClassique) *int { return &l.CoteApres }},
}

// Cells a spreadsheet would run as a formula or a DDE command start with
// one of these (the tab and the carriage return too, OWASP's CSV
// injection); an apostrophe marks text there. A text or id cell starting
// with one of them, or with an apostrophe, is written after an apostrophe
// (neutraliser), which the import takes off (retablir): export, import and
// export again give the same file.
const (
	debutsActifs = "=+-@\t\r"
	marqueTexte  = "'"
)

// neutraliser writes text cell v so that no spreadsheet runs it.
func neutraliser(v string) string {
	if v != "" && strings.ContainsAny(v[:1], debutsActifs+marqueTexte) {
		return marqueTexte + v
	}
	return v
}

// retablir reads back a text cell neutraliser wrote.
func retablir(v string) string { return strings.TrimPrefix(v, marqueTexte) }

func (c colonne[L]) ecrire(l *L) string {
	switch {
	case c.id != nil:
		return neutraliser(*c.id(l))
	case c.texte != nil:
		return neutraliser(*c.texte(l))
	case c.entier != nil:
		return strconv.Itoa(*c.entier(l))
	}
	var b [32]byte
	d := strconv.AppendFloat(b[:0], *c.decimal(l), 'f', 2, 64)
	if i := bytes.IndexByte(d, '.'); i >= 0 {
		d[i] = ','
	}
	return string(d)
}

func (c colonne[L]) lire(ligne int, l *L, v string) error {
	switch {
	case c.id != nil:
		v = retablir(v)
		*c.id(l) = v
		if c.vide && v == "" {
			return nil
		}
		return verifierID(ligne, c.nom, v)
	case c.texte != nil:
		v = retablir(v)
		*c.texte(l) = v
		return verifierTexte(ligne, c.nom, v, c.requis)
	case c.entier != nil:
		n, err := strconv.Atoi(v)
		if err != nil {
			return refus(ligne, c.nom, "%s « %s » n'est pas un nombre entier", c.nom, v)
		}
		if n < c.min {
			return refus(ligne, c.nom, "%s vaut au moins %d, pas %d", c.nom, c.min, n)
		}
		*c.entier(l) = n
		return nil
	}
	f, err := strconv.ParseFloat(strings.Replace(v, ",", ".", 1), 64)
	if err != nil || f < 0 || f > 1000 {
		return refus(ligne, c.nom, "%s « %s » n'est pas un nombre décimal entre 0 et 1000 (virgule décimale)", c.nom, v)
	}
	*c.decimal(l) = f
	return nil
}

func enTete[L any](cols []colonne[L]) []string {
	out := append([]string(nil), colonnesTournoi...)
	for _, c := range cols {
		out = append(out, c.nom)
	}
	return out
}

// EcrireCSV writes the document in the CSV layout.
func EcrireCSV(w io.Writer, d Document) error {
	if _, err := io.WriteString(w, bom); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	cw.Comma = separateur
	var err error
	if d.Genre == GenreClassique {
		err = ecrireLignes(cw, d, colonnesClassique, d.Classique)
	} else {
		err = ecrireLignes(cw, d, colonnesDuplicate, d.Duplicate)
	}
	if err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

func ecrireLignes[L any](cw *csv.Writer, d Document, cols []colonne[L], lignes []L) error {
	if err := cw.Write(enTete(cols)); err != nil {
		return err
	}
	// One record for every line: the tournament's columns are the same.
	rec := make([]string, len(colonnesTournoi), len(colonnesTournoi)+len(cols))
	rec[0], rec[1], rec[2] = neutraliser(d.Tournoi), neutraliser(d.Nom), neutraliser(d.Date)
	for i := range lignes {
		rec = rec[:len(colonnesTournoi)]
		for _, c := range cols {
			rec = append(rec, c.ecrire(&lignes[i]))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

// EcrireJSON writes the document as indented JSON: the same lines as the
// CSV, with typed fields.
func EcrireJSON(w io.Writer, d Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

// LireCSV reads and checks a file in the CSV layout. A bad line is refused
// with its number (the header is line 1) and the column (INVALID_INPUT,
// details "ligne" and "champ"); nothing is returned then. numeros holds,
// for each of the document's lines, its number in the file.
func LireCSV(contenu []byte) (d Document, numeros []int, err error) {
	for i, ligne := range bytes.Split(contenu, []byte("\n")) {
		if !utf8.Valid(ligne) {
			return d, nil, refus(i+1, "", "le fichier n'est pas en UTF-8")
		}
	}
	cr := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(contenu, []byte(bom))))
	cr.Comma = separateur
	cr.FieldsPerRecord = -1
	// lireLignes keeps the fields, not the record: one for every line.
	cr.ReuseRecord = true
	tete, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return d, nil, refus(0, "", "le fichier est vide : la ligne d'en-tête manque")
	}
	if err != nil {
		return d, nil, illisible(err)
	}
	switch strings.Join(tete, ";") {
	case strings.Join(enTete(colonnesDuplicate), ";"):
		d.Genre = GenreDuplicate
		d.Duplicate, numeros, err = lireLignes(cr, &d, colonnesDuplicate)
	case strings.Join(enTete(colonnesClassique), ";"):
		d.Genre = GenreClassique
		d.Classique, numeros, err = lireLignes(cr, &d, colonnesClassique)
	default:
		return d, nil, refus(1, "", "l'en-tête n'est ni celui d'un tournoi duplicate (%s) ni celui d'un tournoi classique (%s)",
			strings.Join(enTete(colonnesDuplicate), ";"), strings.Join(enTete(colonnesClassique), ";"))
	}
	if err == nil {
		err = d.verifier(numeros, 0)
	}
	if err != nil {
		return Document{}, nil, err
	}
	return d, numeros, nil
}

// illisible reports a line the CSV reader could not split.
func illisible(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return refus(pe.Line, "", "CSV illisible (%v)", pe.Err)
	}
	return err
}

func lireLignes[L any](cr *csv.Reader, d *Document, cols []colonne[L]) ([]L, []int, error) {
	var lignes []L
	var numeros []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, illisible(err)
		}
		n, _ := cr.FieldPos(0)
		if len(numeros) == MaxLignes {
			return nil, nil, refus(n, "", "le fichier dépasse %d lignes de résultats", MaxLignes)
		}
		if len(rec) != len(colonnesTournoi)+len(cols) {
			return nil, nil, refus(n, "", "%d colonnes au lieu de %d", len(rec), len(colonnesTournoi)+len(cols))
		}
		for i := range colonnesTournoi {
			rec[i] = retablir(rec[i])
		}
		t := Document{Tournoi: rec[0], Nom: rec[1], Date: rec[2]}
		if len(numeros) == 0 {
			if err := verifierEnTete(func(string) int { return n }, t); err != nil {
				return nil, nil, err
			}
			d.Tournoi, d.Nom, d.Date = t.Tournoi, t.Nom, t.Date
		}
		for i, v := range []string{d.Tournoi, d.Nom, d.Date} {
			if rec[i] != v {
				return nil, nil, refus(n, colonnesTournoi[i], "%s « %s » diffère de celui de la ligne %d (« %s ») : un fichier tient un seul tournoi",
					colonnesTournoi[i], rec[i], numeros[0], v)
			}
		}
		var l L
		for i, c := range cols {
			if err := c.lire(n, &l, rec[len(colonnesTournoi)+i]); err != nil {
				return nil, nil, err
			}
		}
		lignes = append(lignes, l)
		numeros = append(numeros, n)
	}
	if len(lignes) == 0 {
		return nil, nil, refus(0, "", "le fichier n'a aucune ligne de résultat après l'en-tête")
	}
	return lignes, numeros, nil
}
