// Package correction corrects a bulletin de jeu as the player wrote it and
// decides what fisf-reglement-duplicate-2020.txt §4–§5 decide: the score paid,
// the avertissement, the 5-point pénalité or the zéro, with the reasons the
// billet de correction shows (guide §5.2). It is pure: the same bulletin in
// the same coup always gives the same Decision, so a replay can recorrect a
// recorded bulletin and report any difference (Recorrect).
//
// Where the guide (an older edition) or the 2014 simplified rules disagree
// with the 2020 regulation, the regulation is applied and the comment says so.
package correction

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"arbitre/engine/board"
	"arbitre/engine/play"
	"arbitre/engine/tile"
)

// Bulletin is a bulletin de jeu as written (§2.1, §4): bulletin-level facts
// and the written solutions.
type Bulletin struct {
	// Missing: no bulletin handed in (§5.7).
	Missing bool `json:"missing"`
	// Blank: a blank bulletin, or only blank ones (§5.7).
	Blank bool `json:"blank"`
	// Several: several non-blank bulletins handed in (§5.7).
	Several bool `json:"several"`
	// Late: written after the end of the coup (§4.1, §5.7).
	Late bool `json:"late"`
	// Exchanged: exchanged after the end of the coup (§4.1, §5.7).
	Exchanged bool `json:"exchanged"`
	// Illegible: the proposed word cannot be read (§5.7).
	Illegible bool `json:"illegible"`
	// HardToRead: the bulletin's presentation makes it hard to read
	// (erasures, writing askew, words crossed out and rewritten...): an
	// avertissement (§5.5).
	HardToRead bool `json:"hard_to_read,omitempty"`
	// Discipline counts the disciplinary avertissements given on this coup;
	// they cumulate with any other sanction (§5.5, §5.8).
	Discipline int `json:"discipline"`
	// Solutions are the written solutions, crossed-out ones included (§5.4).
	Solutions []Solution `json:"solutions"`
}

// Sens is how a solution is written on the bulletin: across or down.
type Sens string

const (
	Horizontal Sens = "h"
	Vertical   Sens = "v"
)

// Solution is one solution written on the squared area of the bulletin.
type Solution struct {
	// Word as written: capitals, a letter in parentheses is circled (the
	// letter a joker stands for, §4.2), e.g. "MUTIN(E)R".
	Word string `json:"word"`
	// Written is the way the word is written on the bulletin; when it is
	// absent (""), the direction the reference's notation gives (H4 across,
	// 4H down), across without a readable reference.
	Written Sens `json:"written"`
	// Ref is the alphanumeric reference exactly as written (§4.3.1), or nil.
	Ref *string `json:"ref"`
	// Raccord are the raccord letters written around the word (§4.3.2).
	Raccord []RaccordLetter `json:"raccord"`
	// Score claimed, or nil when none is written.
	Score *int `json:"score"`
	// Crossed: the solution is crossed out and counts as inexistent (§5.4).
	Crossed bool `json:"crossed"`
}

// RaccordLetter is a raccord letter as written: its offset in squares from
// the word's first written letter, downwards (DR) and rightwards (DC), in the
// bulletin's own orientation.
type RaccordLetter struct {
	Letter string `json:"letter"`
	DR     int    `json:"dr"`
	DC     int    `json:"dc"`
}

// Error is a validation error of a bulletin or a coup context: a stable code,
// the JSON path of the faulty field and a message.
type Error struct {
	Code string
	Path string
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Code + ": " + e.Msg
	}
	return e.Code + " at " + e.Path + ": " + e.Msg
}

// The validation error codes.
const (
	ErrJSON       = "BAD_JSON"
	ErrWord       = "BAD_WORD"
	ErrWritten    = "BAD_WRITTEN"
	ErrRaccord    = "BAD_RACCORD"
	ErrScore      = "BAD_SCORE"
	ErrDiscipline = "BAD_DISCIPLINE"
	ErrBoard      = "BAD_BOARD"
	ErrTirage     = "BAD_TIRAGE"
	ErrCoup       = "BAD_COUP"
	ErrTop        = "BAD_TOP"
	ErrVariant    = "BAD_VARIANT"
)

func errorf(code, path, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// ParseBulletin reads the JSON form of a bulletin strictly (unknown fields
// are errors) and validates it.
func ParseBulletin(data []byte) (Bulletin, error) {
	var b Bulletin
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return Bulletin{}, errorf(ErrJSON, "", "%v", err)
	}
	if dec.More() {
		return Bulletin{}, errorf(ErrJSON, "", "data after the bulletin")
	}
	if err := b.Validate(); err != nil {
		return Bulletin{}, err
	}
	return b, nil
}

// Validate checks every field and returns the first error as an *Error.
func (b *Bulletin) Validate() error {
	if b.Discipline < 0 || b.Discipline > 99 {
		return errorf(ErrDiscipline, "discipline", "%d: want 0 to 99", b.Discipline)
	}
	for i := range b.Solutions {
		s := &b.Solutions[i]
		path := fmt.Sprintf("solutions[%d]", i)
		w, err := parseWritten(s.Word)
		if err != nil {
			return errorf(ErrWord, path+".word", "%v", err)
		}
		if s.Written != "" && s.Written != Horizontal && s.Written != Vertical {
			return errorf(ErrWritten, path+".written", "%q: want \"h\", \"v\" or absent", s.Written)
		}
		if s.Score != nil && (*s.Score < 0 || *s.Score > 9999) {
			return errorf(ErrScore, path+".score", "%d: want 0 to 9999 or null", *s.Score)
		}
		if s.Ref != nil && len(*s.Ref) > 16 {
			return errorf(ErrWord, path+".ref", "%q: longer than 16 characters", *s.Ref)
		}
		for j, r := range s.Raccord {
			rp := fmt.Sprintf("%s.raccord[%d]", path, j)
			if _, ok := raccordLetter(r.Letter); !ok {
				return errorf(ErrRaccord, rp+".letter", "%q: want one letter A-Z", r.Letter)
			}
			if r.DR < -board.Size || r.DR > board.Size || r.DC < -board.Size || r.DC > board.Size {
				return errorf(ErrRaccord, rp, "offset (%d,%d) is off any grid", r.DR, r.DC)
			}
			if (r.DR == 0 && !s.vertical() && r.DC >= 0 && r.DC < len(w.letters)) ||
				(r.DC == 0 && s.vertical() && r.DR >= 0 && r.DR < len(w.letters)) {
				return errorf(ErrRaccord, rp, "offset (%d,%d) is on a letter of the word", r.DR, r.DC)
			}
		}
	}
	return nil
}

// vertical reports whether the word is written down the bulletin: as
// written, or, when the client left it out, as the reference's notation
// says (§4.3.1: 4H down, H4 across).
func (s *Solution) vertical() bool {
	if s.Written != "" || s.Ref == nil {
		return s.Written == Vertical
	}
	ref, ok := parseRefAsWritten(*s.Ref)
	return ok && ref.Vertical
}

// written is a parsed word: its letters and which of them are circled.
type written struct {
	letters []tile.Letter
	circled uint16 // bit i: the i-th letter is circled
}

// parseWritten reads "MUTIN(E)R": capitals, a circled letter between
// parentheses or, as the engine writes a joker, in lower case ("MUTINeR");
// accents folded (play.ParseWord, the one reading of a word). A single
// letter reads: it is judged, not a mot joué (§1.1, §5.7).
func parseWritten(s string) (written, error) {
	ts, err := play.ParseWord(s)
	if err != nil {
		return written{}, err
	}
	if len(ts) == 0 {
		return written{}, fmt.Errorf("mot vide")
	}
	w := written{letters: make([]tile.Letter, len(ts))}
	for i, t := range ts {
		w.letters[i] = t.Letter()
		if t.IsJoker() {
			w.circled |= 1 << i
		}
	}
	return w, nil
}

// raccordLetter reads the one letter of a raccord, accents folded.
func raccordLetter(s string) (tile.Letter, bool) {
	f := tile.Fold(s)
	if len(f) != 1 {
		return tile.NoLetter, false
	}
	return tile.LetterOf(f[0])
}

// parseRefAsWritten reads a reference as written, tolerating spaces and a
// dash ("H 4", "12-C"); ok is false when it is garbled.
func parseRefAsWritten(s string) (board.Ref, bool) {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '.' {
			return -1
		}
		return r
	}, s)
	ref, err := board.ParseRef(clean)
	return ref, err == nil
}
