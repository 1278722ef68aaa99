package main

import (
	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
)

// loadLexicon opens the lexicon named by a --lexicon flag: a compiled file or
// a plain word list; empty means the shipped (non-ODS) default.
func loadLexicon(path string) (*lexicon.Lexicon, error) {
	if path == "" {
		return libre.Lexicon()
	}
	return lexicon.Load(path)
}
