// Package gcgtest reads GCG files as the tools players use do, for tests.
// It is written from the format's specification (John Chew's « .gcg File
// Format », poslfit.com/scrabble/gcg) and from what macondo's gcgio reader
// (the one behind Woogles) accepts, never from Arbitre's writer: a test
// that reads the files Arbitre exports with it checks them against what a
// GCG reader computes.
//
// Lire parses every line form, replays the cumulative scores line by line,
// the board (the letters a play puts down must be free squares, its '.'
// letters already there, its tiles on the rack) and the turns (a player
// moves in turn, player 1 first), and refuses what macondo refuses: a
// cumulative below zero on a line whose pattern has no sign (a play, a
// pass, an exchange, a withdrawn play, a challenge bonus), any move once
// the game is over for a GCG reader (after a « (time) » line, an end-of-
// game rack line, or six consecutive scoreless turns), a pragma other than
// #note after the first move, a #note before it.
//
// The FISF notes the export documents (docs/archive.md) are read too: the
// penalties (« #note FISF §5.3 : J1 -5, … (score officiel 11) ») and the
// official result (« #note FISF résultat officiel : … »).
package gcgtest

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Genre is the kind of an event line of the specification.
type Genre string

// The event lines of the specification.
const (
	Placement     Genre = "placement"      // >J1: RACK 8H MOT +24 24
	Retrait       Genre = "retrait"        // >J1: RACK -- -24 0 (phoney tiles returned)
	Passe         Genre = "passe"          // >J1: RACK - +0 0
	Echange       Genre = "echange"        // >J1: RACK -ABC +0 0
	Bonus         Genre = "bonus"          // >J1: RACK (challenge) +5 29
	ReliquatGagne Genre = "reliquat_gagne" // >J1: (RACK) +12 450: twice the opponent's rack
	Temps         Genre = "temps"          // >J1: RACK (time) -10 440
	ResteDeduit   Genre = "reste_deduit"   // >J1: RACK (RACK) -6 434: the player's own rack
)

// Evenement is one event line; Points is the signed change it states,
// Cumul the cumulative it states, Notes the #note lines after it.
type Evenement struct {
	Ligne    int
	Joueur   int
	Genre    Genre
	Chevalet string
	Position string
	Jeu      string
	Points   int
	Cumul    int
	Notes    []string
}

// Resultat is the official result of a FISF note.
type Resultat struct {
	Scores        [2]int
	PointsDeMatch [2]int
	Fin           string
}

// Partie is a GCG file as read.
type Partie struct {
	Pseudos, Noms                    [2]string
	Titre, Description, Autorite, ID string
	Lexique, Distribution, TypeDeJeu string
	Evenements                       []Evenement
	// Scores are the cumulatives a GCG reader ends with.
	Scores [2]int
	// Terminee: the game is over for a GCG reader.
	Terminee bool
	// Penalites are the points of the FISF penalty notes, by player.
	Penalites [2]int
	// Officiel is the FISF result note, when there is one.
	Officiel *Resultat
}

// SelonFISF is the result the FISF notes give from the GCG lines: the
// cumulatives, less the FISF penalties, and for a « (RACK) +N » line (a
// GCG reader gives the finisher twice the opponent's rack) the rack counted
// once, taken from the opponent (§7 reliquat épuisé): N/2 off both.
func (p *Partie) SelonFISF() [2]int {
	s := p.Scores
	for j := range 2 {
		s[j] -= p.Penalites[j]
	}
	for _, e := range p.Evenements {
		if e.Genre == ReliquatGagne {
			s[0] -= e.Points / 2
			s[1] -= e.Points / 2
		}
	}
	return s
}

// valeurs are the values of the French letters (FISF), A to Z; a joker
// ('?') is worth 0.
var valeurs = [26]int{1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 10, 1, 2, 1, 1, 3, 8, 1, 1, 1, 1, 4, 10, 10, 10, 10}

func valeur(rack string) int {
	v := 0
	for _, c := range rack {
		if c >= 'A' && c <= 'Z' {
			v += valeurs[c-'A']
		}
	}
	return v
}

const (
	taille  = 15
	lettres = 102 // the French set: 100 letters and 2 jokers (FISF)
)

var (
	notePenalite = regexp.MustCompile(`^FISF (§[0-9.]+) : (\S+) -(\d+), .+ \(score officiel (-?\d+)\)$`)
	noteResultat = regexp.MustCompile(`^FISF résultat officiel : (\S+) (-?\d+), (\S+) (-?\d+) ; points de match (\d+)-(\d+) ; (.+)$`)
	chevalet     = regexp.MustCompile(`^[A-Z?]+$`)
	jeu          = regexp.MustCompile(`^[A-Za-z.]+$`)
)

// lecteur is the state of a read.
type lecteur struct {
	p       *Partie
	ligne   int
	trait   int
	grille  [taille][taille]byte
	vierges int // consecutive scoreless turns
	// surGrille counts the tiles on the grid.
	surGrille int
	dernier   *coup
	sortie    bool // the last play went out: every tile of its rack, the bag empty
	reste     [2]bool
}

// coup is the last play, which a « -- » line withdraws.
type coup struct {
	joueur   int
	chevalet string
	points   int
	cases    [][2]int
}

// Lire reads a GCG file; an error names its line.
func Lire(r io.Reader) (*Partie, error) {
	l := &lecteur{p: &Partie{}}
	sc := bufio.NewScanner(r)
	utf8Declare := false
	for sc.Scan() {
		l.ligne++
		brut := strings.TrimRight(sc.Text(), "\r")
		if l.ligne == 1 && strings.HasPrefix(brut, "#character-encoding") {
			enc := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(brut, "#character-encoding")))
			if enc != "utf-8" && enc != "utf8" {
				return nil, l.erreur("codage %q : seul UTF-8 est lu", enc)
			}
			utf8Declare = true
			continue
		}
		texte := brut
		if !utf8Declare {
			texte = latin1(brut) // §: without the pragma a file is ISO 8859-1
		} else if !utf8.ValidString(brut) {
			return nil, l.erreur("UTF-8 invalide")
		}
		if err := l.lireLigne(strings.TrimSpace(texte)); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(l.p.Evenements) == 0 {
		return nil, fmt.Errorf("gcg : aucun coup, un lecteur GCG n'a pas de partie à rejouer")
	}
	return l.p, nil
}

func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

func (l *lecteur) erreur(format string, args ...any) error {
	return fmt.Errorf("gcg ligne %d : %s", l.ligne, fmt.Sprintf(format, args...))
}

func (l *lecteur) lireLigne(s string) error {
	switch {
	case s == "":
		return nil
	case strings.HasPrefix(s, "#"):
		return l.pragma(s)
	case strings.HasPrefix(s, ">"):
		return l.evenement(s)
	}
	return l.erreur("ligne ni pragma ni coup : %q", s)
}

func (l *lecteur) pragma(s string) error {
	cle, valeur, _ := strings.Cut(s[1:], " ")
	valeur = strings.TrimSpace(valeur)
	p := l.p
	if cle == "note" {
		if len(p.Evenements) == 0 {
			return l.erreur("#note avant le premier coup : macondo attache une note au coup qui la précède")
		}
		return l.note(valeur)
	}
	if len(p.Evenements) > 0 {
		return l.erreur("#%s après le premier coup : seules les notes peuvent suivre les coups", cle)
	}
	if valeur == "" {
		return l.erreur("#%s sans valeur", cle)
	}
	switch cle {
	case "player1", "player2":
		j := int(cle[6] - '1')
		pseudo, nom, ok := strings.Cut(valeur, " ")
		nom = strings.TrimSpace(nom)
		switch {
		case !ok || nom == "":
			return l.erreur("#%s demande un pseudonyme et un nom", cle)
		case j == 1 && p.Pseudos[0] == "":
			return l.erreur("#player2 avant #player1")
		case j == 1 && pseudo == p.Pseudos[0]:
			return l.erreur("deux joueurs de même pseudonyme %q", pseudo)
		case p.Pseudos[j] != "":
			return l.erreur("#%s donné deux fois", cle)
		}
		p.Pseudos[j], p.Noms[j] = pseudo, nom
	case "title":
		p.Titre = valeur
	case "description":
		p.Description = valeur
	case "id":
		f := strings.Fields(valeur)
		if len(f) != 2 {
			return l.erreur("#id demande une autorité et un identifiant")
		}
		p.Autorite, p.ID = f[0], f[1]
	case "lexicon":
		if strings.ContainsAny(valeur, `/\ `) {
			return l.erreur("#lexicon %q : un lecteur charge un lexique par son nom, pas par un chemin", valeur)
		}
		p.Lexique = valeur
	case "tile-distribution":
		p.Distribution = valeur
	case "game-type":
		p.TypeDeJeu = valeur
	default:
		return l.erreur("pragma #%s inconnu", cle)
	}
	return nil
}

func (l *lecteur) note(n string) error {
	e := &l.p.Evenements[len(l.p.Evenements)-1]
	e.Notes = append(e.Notes, n)
	if m := notePenalite.FindStringSubmatch(n); m != nil {
		j, err := l.joueur(m[2])
		if err != nil {
			return err
		}
		pts, _ := strconv.Atoi(m[3])
		officiel, _ := strconv.Atoi(m[4])
		l.p.Penalites[j] += pts
		if want := l.p.Scores[j] - l.p.Penalites[j]; officiel != want {
			return l.erreur("%s : score officiel %d, les lignes GCG et les pénalités FISF donnent %d", m[1], officiel, want)
		}
		return nil
	}
	if m := noteResultat.FindStringSubmatch(n); m != nil {
		if m[1] != l.p.Pseudos[0] || m[3] != l.p.Pseudos[1] {
			return l.erreur("résultat officiel de %s et %s, les joueurs sont %s et %s", m[1], m[3], l.p.Pseudos[0], l.p.Pseudos[1])
		}
		r := &Resultat{Fin: m[7]}
		r.Scores[0], _ = strconv.Atoi(m[2])
		r.Scores[1], _ = strconv.Atoi(m[4])
		r.PointsDeMatch[0], _ = strconv.Atoi(m[5])
		r.PointsDeMatch[1], _ = strconv.Atoi(m[6])
		l.p.Officiel = r
		return nil
	}
	if strings.HasPrefix(n, "FISF résultat") || strings.HasPrefix(n, "FISF §") && strings.Contains(n, "score officiel") {
		return l.erreur("note FISF illisible : %q", n)
	}
	return nil
}

func (l *lecteur) joueur(pseudo string) (int, error) {
	for j, x := range l.p.Pseudos {
		if x == pseudo {
			return j, nil
		}
	}
	return -1, l.erreur("joueur %q inconnu", pseudo)
}

// nombre reads a signed number token: sign is '+' or '-' when the pattern
// demands that sign, 0 for a cumulative (optionally negative).
func (l *lecteur) nombre(tok string, sign byte) (int, error) {
	s := tok
	if sign != 0 {
		if len(s) < 2 || s[0] != sign {
			return 0, l.erreur("%q : un nombre précédé de %c attendu", tok, sign)
		}
		s = s[1:]
	} else {
		s = strings.TrimPrefix(s, "-")
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, l.erreur("%q n'est pas un nombre", tok)
	}
	n, _ := strconv.Atoi(s)
	if sign == '-' || sign == 0 && tok[0] == '-' {
		n = -n
	}
	return n, nil
}

func (l *lecteur) evenement(s string) error {
	p := l.p
	if p.Pseudos[1] == "" {
		return l.erreur("un coup avant les deux #player")
	}
	pseudo, reste, ok := strings.Cut(s[1:], ":")
	if !ok {
		return l.erreur("coup sans « pseudonyme: »")
	}
	j, err := l.joueur(pseudo)
	if err != nil {
		return err
	}
	t := strings.Fields(reste)
	e := Evenement{Ligne: l.ligne, Joueur: j}
	var pts, cumul int
	switch {
	case len(t) == 3 && strings.HasPrefix(t[0], "(") && strings.HasSuffix(t[0], ")") && t[0] != "(time)" && t[0] != "(challenge)":
		e.Genre, e.Jeu = ReliquatGagne, t[0][1:len(t[0])-1]
		pts, err = l.nombre(t[1], '+')
	case len(t) >= 3 && (t[len(t)-3] == "(time)" || t[len(t)-3] == "(challenge)") && len(t) <= 4:
		if len(t) == 4 {
			e.Chevalet = t[0]
		}
		if t[len(t)-3] == "(time)" {
			e.Genre = Temps
			pts, err = l.nombre(t[len(t)-2], '-')
		} else {
			e.Genre = Bonus
			pts, err = l.nombre(t[len(t)-2], '+')
		}
	case len(t) == 4 && t[1] == "--":
		e.Genre, e.Chevalet = Retrait, t[0]
		pts, err = l.nombre(t[2], '-')
	case len(t) == 4 && t[1] == "-":
		e.Genre, e.Chevalet = Passe, t[0]
		pts, err = l.nombre(t[2], '+')
	case len(t) == 4 && strings.HasPrefix(t[1], "-"):
		e.Genre, e.Chevalet, e.Jeu = Echange, t[0], t[1][1:]
		pts, err = l.nombre(t[2], '+')
	case len(t) == 4 && t[1] == "("+t[0]+")":
		e.Genre, e.Chevalet, e.Jeu = ResteDeduit, t[0], t[0]
		pts, err = l.nombre(t[2], '-')
	case len(t) == 5:
		e.Genre, e.Chevalet, e.Position, e.Jeu = Placement, t[0], t[1], t[2]
		pts, err = l.nombre(t[3], '+')
	default:
		return l.erreur("coup illisible : %q", s)
	}
	if err != nil {
		return err
	}
	if cumul, err = l.nombre(t[len(t)-1], 0); err != nil {
		return err
	}
	if e.Chevalet != "" && !chevalet.MatchString(e.Chevalet) {
		return l.erreur("chevalet %q : des lettres A-Z et ? attendues", e.Chevalet)
	}
	e.Points, e.Cumul = pts, cumul
	if err := l.rejouer(&e); err != nil {
		return err
	}
	if want := p.Scores[j] + pts; cumul != want {
		return l.erreur("cumul %d, le score précédent de %s et %+d donnent %d", cumul, pseudo, pts, want)
	}
	p.Scores[j] = cumul
	p.Evenements = append(p.Evenements, e)
	return nil
}

// rejouer applies an event to the board and the turns, refusing what a
// GCG reader refuses.
func (l *lecteur) rejouer(e *Evenement) error {
	signe := map[Genre]bool{Placement: true, Retrait: true, Passe: true, Echange: true, Bonus: true}
	if signe[e.Genre] && e.Cumul < 0 {
		return l.erreur("cumul %d négatif sur une ligne %s : le motif de macondo n'y lit que des chiffres", e.Cumul, e.Genre)
	}
	fin := e.Genre == ReliquatGagne || e.Genre == Temps || e.Genre == ResteDeduit
	if l.p.Terminee && !fin {
		return l.erreur("%s après la fin de la partie (macondo refuse tout coup une fois la partie finie)", e.Genre)
	}
	switch e.Genre {
	case Placement:
		if err := l.placer(e); err != nil {
			return err
		}
	case Retrait:
		d := l.dernier
		if d == nil || d.joueur != e.Joueur {
			return l.erreur("-- sans coup de %s juste avant à retirer", l.p.Pseudos[e.Joueur])
		}
		if e.Chevalet != d.chevalet || e.Points != -d.points {
			return l.erreur("-- : chevalet %s et %d, le coup retiré avait %s et +%d", e.Chevalet, e.Points, d.chevalet, d.points)
		}
		for _, c := range d.cases {
			l.grille[c[0]][c[1]] = 0
		}
		l.surGrille -= len(d.cases)
		l.dernier, l.sortie = nil, false
		l.sansPoints()
	case Passe, Echange:
		if err := l.aSonTour(e); err != nil {
			return err
		}
		if e.Points != 0 {
			return l.erreur("%s de %+d points", e.Genre, e.Points)
		}
		if e.Genre == Echange {
			if e.Jeu == "" || !chevalet.MatchString(e.Jeu) || !contient(e.Chevalet, e.Jeu) {
				return l.erreur("échange de %q, absent du chevalet %s", e.Jeu, e.Chevalet)
			}
		}
		l.dernier, l.sortie = nil, false
		l.trait = 1 - l.trait
		l.sansPoints()
	case Bonus:
		if l.dernier == nil || l.dernier.joueur != e.Joueur {
			return l.erreur("(challenge) sans coup de %s juste avant", l.p.Pseudos[e.Joueur])
		}
	case ReliquatGagne:
		if !l.sortie || l.dernier.joueur != e.Joueur {
			return l.erreur("(%s) : %s n'a pas posé toutes ses lettres au coup précédent", e.Jeu, l.p.Pseudos[e.Joueur])
		}
		if e.Points != 2*valeur(e.Jeu) {
			return l.erreur("(%s) +%d : le reliquat se compte deux fois, %d", e.Jeu, e.Points, 2*valeur(e.Jeu))
		}
		l.p.Terminee = true
	case ResteDeduit:
		if l.reste[e.Joueur] {
			return l.erreur("%s déduit son chevalet deux fois", l.p.Pseudos[e.Joueur])
		}
		if -e.Points != valeur(e.Chevalet) {
			return l.erreur("%s (%s) %d : le chevalet vaut %d", e.Chevalet, e.Chevalet, e.Points, valeur(e.Chevalet))
		}
		l.reste[e.Joueur] = true
		l.p.Terminee = true
	case Temps:
		l.p.Terminee = true
	}
	return nil
}

func (l *lecteur) aSonTour(e *Evenement) error {
	if e.Joueur != l.trait {
		return l.erreur("%s joue alors que c'est le tour de %s", l.p.Pseudos[e.Joueur], l.p.Pseudos[l.trait])
	}
	if l.sortie {
		return l.erreur("%s joue après que %s a posé toutes ses lettres : la fin de partie est attendue", l.p.Pseudos[e.Joueur], l.p.Pseudos[l.dernier.joueur])
	}
	return nil
}

// sansPoints counts a scoreless turn: the sixth in a row ends the game for
// a GCG reader (macondo).
func (l *lecteur) sansPoints() {
	if l.vierges++; l.vierges >= 6 {
		l.p.Terminee = true
	}
}

func (l *lecteur) placer(e *Evenement) error {
	if err := l.aSonTour(e); err != nil {
		return err
	}
	lig, col, vertical, err := l.position(e.Position)
	if err != nil {
		return err
	}
	if !jeu.MatchString(e.Jeu) {
		return l.erreur("mot %q : lettres, minuscules pour les jokers, '.' pour les lettres déjà posées", e.Jeu)
	}
	if e.Points < 0 {
		return l.erreur("placement de %d points", e.Points)
	}
	d := &coup{joueur: e.Joueur, chevalet: e.Chevalet, points: e.Points}
	var posees strings.Builder
	for i := 0; i < len(e.Jeu); i++ {
		r, c := lig, col+i
		if vertical {
			r, c = lig+i, col
		}
		if r >= taille || c >= taille {
			return l.erreur("%s en %s sort de la grille", e.Jeu, e.Position)
		}
		ch := e.Jeu[i]
		switch {
		case ch == '.' && l.grille[r][c] == 0:
			return l.erreur("%s en %s : '.' sur une case vide (%d,%d)", e.Jeu, e.Position, r+1, c+1)
		case ch == '.':
		case l.grille[r][c] != 0:
			return l.erreur("%s en %s : %c sur une case occupée (%d,%d)", e.Jeu, e.Position, ch, r+1, c+1)
		default:
			l.grille[r][c] = ch
			d.cases = append(d.cases, [2]int{r, c})
			if ch >= 'a' && ch <= 'z' {
				posees.WriteByte('?')
			} else {
				posees.WriteByte(ch)
			}
		}
	}
	if posees.Len() == 0 {
		return l.erreur("%s en %s ne pose aucune lettre", e.Jeu, e.Position)
	}
	if !contient(e.Chevalet, posees.String()) {
		return l.erreur("%s en %s pose %s, absent du chevalet %s", e.Jeu, e.Position, posees.String(), e.Chevalet)
	}
	if e.Points > 0 {
		l.vierges = 0
	}
	// The player went out when he put down every tile of his rack with the
	// bag empty: while the bag holds tiles both racks are full, so the bag
	// is empty once the grid holds all the tiles but the opponent's seven.
	l.surGrille += posees.Len()
	l.dernier, l.sortie = d, posees.Len() == len(e.Chevalet) && l.surGrille >= lettres-7
	l.trait = 1 - l.trait
	return nil
}

// position reads GCG coordinates: the row number then the column letter
// for a horizontal play (8H), the column letter first for a vertical one
// (H8).
func (l *lecteur) position(s string) (lig, col int, vertical bool, err error) {
	up := strings.ToUpper(s)
	if len(up) < 2 {
		return 0, 0, false, l.erreur("position %q illisible", s)
	}
	lettre, chiffres := up[len(up)-1], up[:len(up)-1]
	if up[0] >= 'A' && up[0] <= 'Z' {
		lettre, chiffres, vertical = up[0], up[1:], true
	}
	n, e := strconv.Atoi(chiffres)
	if e != nil || n < 1 || n > taille || lettre < 'A' || lettre >= 'A'+taille {
		return 0, 0, false, l.erreur("position %q illisible", s)
	}
	return n - 1, int(lettre - 'A'), vertical, nil
}

// contient reports whether rack holds every tile of tiles.
func contient(rack, tiles string) bool {
	var n [256]int
	for i := 0; i < len(rack); i++ {
		n[rack[i]]++
	}
	for i := 0; i < len(tiles); i++ {
		if n[tiles[i]]--; n[tiles[i]] < 0 {
			return false
		}
	}
	return true
}
