// Package storeflags is how the CLI chooses and opens the event store:
// the flags --data, --store, --esdb-url and --init, registered the same way
// by every command that touches the store, and the opening of the backend
// they name. The commands of cmd/arbitre and the benchmarks that start
// `arbitre serve` in-process (internal/charge) share it.
package storeflags

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/esdbstore"
	"arbitre/domain/eventstore/sqlitestore"
	"arbitre/projections/projection"
)

// Store backends selectable with --store.
const (
	SQLite = "sqlite"
	ESDB   = "esdb"
)

// Flags are the flags that choose and open the event store: --data DIR
// (the SQLite file and the projection database live there), --store
// sqlite|esdb and --esdb-url URL.
type Flags struct {
	DataDir string
	Backend string
	ESDBURL string
	// Init lets Open create a SQLite store where --data holds none: the
	// commands that make their store (serve, simulate, charge) set it, the
	// others on --init, so that a mistyped --data is refused instead of
	// answered from an empty store.
	Init bool
	// Clock stamps the events appended (nil: the system's clock); an
	// in-process server of the tests sets it to move the store's clock.
	Clock eventstore.Clock
}

// Register adds the store's flags and --init to a command that writes into
// an existing store (--init: or a new one).
func (f *Flags) Register(cmd *cobra.Command) {
	f.AddFlags(cmd)
	cmd.Flags().BoolVar(&f.Init, "init", false, "crée le magasin d'événements si le dossier --data n'en contient pas encore")
}

// AddFlags adds the store's flags without --init: to a command that only
// reads a store (it never makes one), or that makes its store where --data
// holds none (serve, simulate, charge: they set Init themselves).
func (f *Flags) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.DataDir, "data", "data", "`DOSSIER` des données (magasin d'événements SQLite et base des projections)")
	cmd.Flags().StringVar(&f.Backend, "store", SQLite, "magasin d'événements : sqlite ou esdb")
	cmd.Flags().StringVar(&f.ESDBURL, "esdb-url", "", "`ADRESSE` EventStoreDB, par exemple esdb://localhost:2113?tls=false (avec --store esdb)")
}

// ErrNoStore says that --data holds no store and how to make one.
func (f *Flags) ErrNoStore() error {
	return fmt.Errorf("le dossier %q ne contient pas de magasin d'événements (%s) : vérifiez --data "+
		"(le dossier de « arbitre serve »), ou ajoutez --init pour y créer un magasin neuf", f.DataDir, f.StorePath())
}

// Opened is a store with what commands need beyond the contract.
type Opened interface {
	eventstore.Store
	LastPosition(ctx context.Context) (uint64, error)
}

// Open opens the chosen backend. gapless tells whether global positions
// must be 1, 2, 3... (SQLite only).
func (f *Flags) Open(ctx context.Context) (store Opened, gapless bool, err error) {
	switch f.Backend {
	case SQLite:
		if !f.Init {
			if _, err := os.Stat(f.StorePath()); errors.Is(err, fs.ErrNotExist) {
				return nil, false, f.ErrNoStore()
			}
		}
		s, err := sqlitestore.OpenDir(ctx, f.DataDir, sqlitestore.Options{Clock: f.Clock})
		return s, true, err
	case ESDB:
		if f.ESDBURL == "" {
			return nil, false, fmt.Errorf("--store esdb demande --esdb-url")
		}
		s, err := esdbstore.Open(f.ESDBURL, esdbstore.Options{Clock: f.Clock})
		return s, false, err
	default:
		return nil, false, fmt.Errorf("--store vaut %s ou %s, pas %q", SQLite, ESDB, f.Backend)
	}
}

// StorePath is the SQLite store file inside the data directory.
func (f *Flags) StorePath() string {
	return filepath.Join(f.DataDir, sqlitestore.FileName)
}

// ProjectionDBPath is the projection database inside the data directory.
func (f *Flags) ProjectionDBPath() string {
	return filepath.Join(f.DataDir, projection.FileName)
}
