package main

import (
	"context"

	"arbitre/cmd/arbitre/internal/storeflags"
	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/engine/lexicon"
)

// workspace is what the tools that replay or write games open: the
// lexicon, the store and the registry of every event type.
type workspace struct {
	lexiques *lexicon.Bibliotheque
	store    storeflags.Opened
	registry *eventstore.Registry
}

// openWorkspace opens the lexicons named by lexPaths (loadLexicons) and the
// chosen store; the caller closes ws.store.
func openWorkspace(ctx context.Context, f *storeflags.Flags, lexPaths []string) (ws workspace, err error) {
	if ws.lexiques, err = loadLexicons(lexPaths); err != nil {
		return ws, err
	}
	if ws.registry, err = catalogue.Registre(); err != nil {
		return ws, err
	}
	ws.store, _, err = f.Open(ctx)
	return ws, err
}
