package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"arbitre/domain/catalogue"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/esdbstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/engine/lexicon"
	"arbitre/projections/projection"

	"github.com/spf13/cobra"
)

// Store backends selectable with --store.
const (
	backendSQLite = "sqlite"
	backendESDB   = "esdb"
)

// storeFlags are the flags that choose and open the event store: --data DIR
// (the SQLite file and the projection database live there), --store
// sqlite|esdb and --esdb-url URL. Every command that touches the store,
// serve included, registers them the same way.
type storeFlags struct {
	dataDir string
	backend string
	esdbURL string
	// init lets openStore create a SQLite store where --data holds none:
	// the commands that make their store (serve, simulate, charge) set it,
	// the others on --init, so that a mistyped --data is refused instead of
	// answered from an empty store.
	init bool
	// clock stamps the events appended (nil: the system's clock); an
	// in-process server of the tests sets it to move the store's clock.
	clock eventstore.Clock
}

// register adds the store's flags and --init to a command that writes into
// an existing store (--init: or a new one).
func (f *storeFlags) register(cmd *cobra.Command) {
	f.addFlags(cmd)
	cmd.Flags().BoolVar(&f.init, "init", false, "crée le magasin d'événements si le dossier --data n'en contient pas encore")
}

// addFlags adds the store's flags without --init: to a command that only
// reads a store (it never makes one), or that makes its store where --data
// holds none (serve, simulate, charge: they set init themselves).
func (f *storeFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.dataDir, "data", "data", "`DOSSIER` des données (magasin d'événements SQLite et base des projections)")
	cmd.Flags().StringVar(&f.backend, "store", backendSQLite, "magasin d'événements : sqlite ou esdb")
	cmd.Flags().StringVar(&f.esdbURL, "esdb-url", "", "`ADRESSE` EventStoreDB, par exemple esdb://localhost:2113?tls=false (avec --store esdb)")
}

// errNoStore says that --data holds no store and how to make one.
func (f *storeFlags) errNoStore() error {
	return fmt.Errorf("le dossier %q ne contient pas de magasin d'événements (%s) : vérifiez --data "+
		"(le dossier de « arbitre serve »), ou ajoutez --init pour y créer un magasin neuf", f.dataDir, f.storePath())
}

// openedStore is a store with what commands need beyond the contract.
type openedStore interface {
	eventstore.Store
	LastPosition(ctx context.Context) (uint64, error)
}

// openStore opens the chosen backend. gapless tells whether global positions
// must be 1, 2, 3... (SQLite only).
func (f *storeFlags) openStore(ctx context.Context) (store openedStore, gapless bool, err error) {
	switch f.backend {
	case backendSQLite:
		if !f.init {
			if _, err := os.Stat(f.storePath()); errors.Is(err, fs.ErrNotExist) {
				return nil, false, f.errNoStore()
			}
		}
		s, err := sqlitestore.OpenDir(ctx, f.dataDir, sqlitestore.Options{Clock: f.clock})
		return s, true, err
	case backendESDB:
		if f.esdbURL == "" {
			return nil, false, fmt.Errorf("--store esdb demande --esdb-url")
		}
		s, err := esdbstore.Open(f.esdbURL, esdbstore.Options{Clock: f.clock})
		return s, false, err
	default:
		return nil, false, fmt.Errorf("--store vaut %s ou %s, pas %q", backendSQLite, backendESDB, f.backend)
	}
}

// storePath is the SQLite store file inside the data directory.
func (f *storeFlags) storePath() string {
	return filepath.Join(f.dataDir, sqlitestore.FileName)
}

// projectionDBPath is the projection database inside the data directory.
func (f *storeFlags) projectionDBPath() string {
	return filepath.Join(f.dataDir, projection.FileName)
}

// workspace is what the tools that replay or write games open: the
// lexicon, the store and the registry of every event type.
type workspace struct {
	lexiques *lexicon.Bibliotheque
	store    openedStore
	registry *eventstore.Registry
}

// openWorkspace opens the lexicons named by lexPaths (loadLexicons) and the
// chosen store; the caller closes ws.store.
func (f *storeFlags) openWorkspace(ctx context.Context, lexPaths []string) (ws workspace, err error) {
	if ws.lexiques, err = loadLexicons(lexPaths); err != nil {
		return ws, err
	}
	if ws.registry, err = catalogue.Registre(); err != nil {
		return ws, err
	}
	ws.store, _, err = f.openStore(ctx)
	return ws, err
}
