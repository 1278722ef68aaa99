package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"arbitre/engine/lexicon"
	"arbitre/engine/lexicon/libre"
)

// lexiconFlag registers --lexicon on cmd, the same for every command.
func lexiconFlag(cmd *cobra.Command, path *string) {
	cmd.Flags().StringVar(path, "lexicon", "", "lexique compilé ou liste de mots, en `FICHIER` (par défaut la liste livrée, qui n'est pas l'ODS)")
}

// loadLexicon opens the lexicon named by a --lexicon flag: a compiled file or
// a plain word list; empty means the shipped (non-ODS) default.
func loadLexicon(path string) (*lexicon.Lexicon, error) {
	if path == "" {
		return libre.Lexicon()
	}
	lex, err := lexicon.Load(path)
	if err != nil {
		return nil, fmt.Errorf("lexique %s illisible : %w", path, err)
	}
	return lex, nil
}
