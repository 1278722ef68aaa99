package duplicate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"arbitre/domain/aggregate"
	"arbitre/domain/erreur"
	"arbitre/engine/tile"
)

// Feuille is a pre-drawn game's sheet (guide §2.17): per coup, the reliquat
// and the new letters in the order they appear on the sheet — the order the
// reader announces them — and the sheet's solution.
//
// Two forms are read. JSON:
//
//	{"coups":[{"coup":1,"reliquat":"","tirees":"EAIRST?","ref":"H4","mot":"ArISTE","score":64}]}
//
// or text, one coup a line, '#' starting a comment:
//
//	1  +EAIRST?   H4 ArISTE 64
//	2  ER+LONTU   8C LOUTRE 24
//
// where the tirage is RELIQUAT+NEW LETTERS (the reliquat may be empty, and
// so may the new letters once the bag is empty, §3.7) and the solution is
// optional.
type Feuille struct {
	Coups []CoupPretire `json:"coups"`
}

// CoupPretire is one line of the sheet.
type CoupPretire struct {
	Coup     int    `json:"coup"`
	Reliquat string `json:"reliquat"`
	Tirees   string `json:"tirees"`
	Ref      string `json:"ref,omitempty"`
	Mot      string `json:"mot,omitempty"`
	Score    int    `json:"score,omitempty"`
}

// LireFeuille reads a sheet in either form and checks it: coups numbered
// 1, 2, 3..., letters of the French set, a solution whole or absent.
func LireFeuille(data []byte) (Feuille, error) {
	var f Feuille
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		dec := json.NewDecoder(bytes.NewReader(t))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			return Feuille{}, &erreur.Erreur{Code: CodeInvalidTirage, Message: "feuille de partie prétirée illisible", Err: err}
		}
	} else {
		sc := bufio.NewScanner(bytes.NewReader(data))
		for n := 1; sc.Scan(); n++ {
			ligne, _, _ := strings.Cut(sc.Text(), "#")
			champs := strings.Fields(ligne)
			if len(champs) == 0 {
				continue
			}
			c, err := lireLigne(champs)
			if err != nil {
				return Feuille{}, &erreur.Erreur{Code: CodeInvalidTirage, Message: fmt.Sprintf("feuille prétirée, ligne %d", n), Err: err}
			}
			f.Coups = append(f.Coups, c)
		}
	}
	for i, c := range f.Coups {
		if c.Coup != i+1 {
			return Feuille{}, erreur.Refus(CodeInvalidTirage, "feuille prétirée : coup %d attendu, %d trouvé", i+1, c.Coup)
		}
		if _, err := tile.ParseRack(c.Reliquat + c.Tirees); err != nil || c.Reliquat+c.Tirees == "" {
			return Feuille{}, erreur.Refus(CodeInvalidTirage, "feuille prétirée, coup %d : tirage %q+%q invalide", c.Coup, c.Reliquat, c.Tirees)
		}
		if (c.Ref == "") != (c.Mot == "") {
			return Feuille{}, erreur.Refus(CodeInvalidTirage, "feuille prétirée, coup %d : solution incomplète", c.Coup)
		}
	}
	return f, nil
}

func lireLigne(champs []string) (CoupPretire, error) {
	if len(champs) != 2 && len(champs) != 5 {
		return CoupPretire{}, fmt.Errorf("want \"coup RELIQUAT+TIREES [REF MOT SCORE]\", got %d fields", len(champs))
	}
	coup, err := strconv.Atoi(champs[0])
	if err != nil {
		return CoupPretire{}, fmt.Errorf("coup %q: %w", champs[0], err)
	}
	c := CoupPretire{Coup: coup}
	if reliquat, tirees, ok := strings.Cut(champs[1], "+"); ok {
		c.Reliquat, c.Tirees = reliquat, tirees
	} else {
		c.Tirees = champs[1]
	}
	if len(champs) == 5 {
		c.Ref, c.Mot = champs[2], champs[3]
		if c.Score, err = strconv.Atoi(champs[4]); err != nil {
			return CoupPretire{}, fmt.Errorf("score %q: %w", champs[4], err)
		}
	}
	return c, nil
}

// TypeFeuillePretireeChargee is the event of a pre-drawn game's sheet
// loaded into the game.
const TypeFeuillePretireeChargee = "partie.feuille_pretiree_chargee"

// FeuillePretireeChargee records the sheet a pre-drawn game plays (guide
// §2.17), read and checked whole, once, before the first tirage: from then
// on each coup's tirage is the sheet's line (Tirer without letters).
type FeuillePretireeChargee struct {
	Coups []CoupPretire `json:"coups"`
}

// ChargerFeuille loads the sheet of a pre-drawn game, once, before its
// first tirage (guide §2.17); LireFeuille reads and checks it.
func (p *Partie) ChargerFeuille(f Feuille) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	if len(f.Coups) == 0 {
		return erreur.Refus(CodeInvalidTirage, "la feuille prétirée n'a aucun coup")
	}
	if err := p.exigerFeuilleChargeable(); err != nil {
		return err
	}
	return aggregate.Record(p, FeuillePretireeChargee{Coups: f.Coups})
}

// exigerFeuilleChargeable lets a sheet be loaded: a pre-drawn game, no
// sheet yet, before the first tirage.
func (p *Partie) exigerFeuilleChargeable() error {
	switch {
	case p.config.Source != SourcePretiree:
		return erreur.Refus(CodeInvalidTirage, "la partie n'est pas une partie prétirée (source %s) : elle n'a pas de feuille", p.config.Source)
	case p.feuille != nil:
		return erreur.Refus(CodeWrongState, "la feuille prétirée de la partie %s est déjà chargée : elle ne change plus", p.id)
	case p.prochainCoup != 1 || !p.entreCoups():
		return erreur.Refus(CodeWrongState, "la feuille prétirée se charge avant le premier tirage")
	}
	return nil
}

// onFeuille checks the sheet's event against the game before
// keeping the sheet.
func (p *Partie) onFeuille(e FeuillePretireeChargee) error {
	if err := p.exigerFeuilleChargeable(); err != nil {
		return err
	}
	p.feuille = &Feuille{Coups: slices.Clone(e.Coups)}
	return nil
}

// FeuillePretiree is the sheet the game plays, nil when none is loaded.
func (p *Partie) FeuillePretiree() *Feuille { return p.feuille }

// TirerPretire draws the next coup from a pre-drawn game's sheet (guide
// §2.17): the new letters in the sheet's order. It is refused when the game
// does not play a pre-drawn sheet, when the sheet has no line for the coup,
// or when the reliquat on the grid is not the sheet's (a different top was
// retained: the sheet no longer applies).
func (p *Partie) TirerPretire(f Feuille) error {
	if err := p.exigerEnCours(); err != nil {
		return err
	}
	if p.config.Source != SourcePretiree {
		return erreur.Refus(CodeInvalidTirage, "la partie n'est pas une partie prétirée (source %s)", p.config.Source)
	}
	coup := p.prochainCoup
	if coup > len(f.Coups) {
		return erreur.Refus(CodeInvalidTirage, "la feuille prétirée s'arrête au coup %d", len(f.Coups))
	}
	c := f.Coups[coup-1]
	attendu, err := tile.ParseRack(c.Reliquat)
	if err != nil {
		return erreur.Refus(CodeInvalidTirage, "reliquat %q de la feuille illisible", c.Reliquat)
	}
	if !p.entreCoups() {
		return erreur.Refus(CodeWrongState, "Tirage impossible : le coup %d est en cours", coup)
	}
	if reliquat := p.lettres.rack; reliquat != attendu {
		return erreur.Refus(CodeInvalidTirage, "coup %d : la feuille prévoit le reliquat %q, la grille laisse %q", coup, c.Reliquat, reliquat.String())
	}
	return p.tirer(c.Tirees)
}
