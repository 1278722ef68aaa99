package main

import (
	"fmt"
	"slices"

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

// lexiconsFlag registers a repeatable --lexicon on cmd: the lexicons a
// server or a replay holds at once, the first the default.
func lexiconsFlag(cmd *cobra.Command, paths *[]string) {
	cmd.Flags().StringArrayVar(paths, "lexicon", nil, "lexique compilé ou liste de mots, en `FICHIER` ; répétable : le premier est celui des nouvelles parties, les autres servent aux parties créées avec eux (la liste livrée, qui n'est pas l'ODS, est toujours chargée, et sert par défaut)")
}

// loadLexicons opens every lexicon named by a repeatable --lexicon, the
// first the default (none: the shipped list), the shipped list always held.
func loadLexicons(paths []string) (*lexicon.Bibliotheque, error) {
	lexs := make([]*lexicon.Lexicon, 0, len(paths)+1)
	for _, p := range append(slices.Clone(paths), "") {
		lex, err := loadLexicon(p)
		if err != nil {
			return nil, err
		}
		lexs = append(lexs, lex)
	}
	return lexicon.NewBibliotheque(lexs[0], lexs[1:]...), nil
}
